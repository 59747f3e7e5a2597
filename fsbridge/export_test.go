package fsbridge

// TmpAllocated returns, for tests, the bytes of file content the Sandbox's
// in-memory /tmp holds on the host (0 without a /tmp).
func TmpAllocated(s *Sandbox) int64 {
	for _, m := range s.mounts {
		if m.kind == kindTmp {
			return m.ops.(*plainMount).be.(*memBackend).allocated()
		}
	}
	return 0
}

// MemChunk is the allocation unit of in-memory files.
const MemChunk = memChunk
