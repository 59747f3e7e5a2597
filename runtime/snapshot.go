package runtime

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/tetratelabs/wazero/api"
)

// snapshot is an interpreter booted once (CPython initialised, the runner's
// set-up and the engine's preloads done) and frozen at rest: pybox_boot has
// returned, so no wasm frame is live and the whole state is the linear
// memory plus a few globals. New interpreters start from it instead of
// booting: instantiate the module without running any of its code, map the
// memory copy-on-write, set the globals, call pybox_serve. See
// docs/RATIONALE.md, "Fresh interpreters from a memory snapshot".
//
// What a snapshot does not hold, and why that is sound:
//   - the wasm call stack: empty at rest (checked: __stack_pointer is back at
//     its initial value);
//   - other mutable globals: python.wasm has three (__stack_pointer, the loop
//     guard's kill switch, 0 at rest, and its yield countdown, whose value
//     does not matter); the bundle test checks there are no others;
//   - the function table: C code compiled by clang never writes it;
//   - WASI state: the preopened mounts are the same for every instance of
//     an engine, and the runner reports its open descriptors so a snapshot
//     holding any other file is refused;
//   - host-side facts learned at boot: the guest's interrupt flag addresses
//     ("signals"), kept here.
type snapshot struct {
	file   *os.File // the memory image; read-only, mapped privately
	offset int64    // where in file the image starts
	size   uint64   // bytes of linear memory
	sp     uint64   // __stack_pointer at rest
	flags  [5]uint32
	// bootTime is how long the boot took; resident is how many bytes of
	// the image are not zero (what the file holds).
	bootTime time.Duration
	resident uint64
	// path is the file's name in the cache folder if it is persisted
	// there (Config.PersistSnapshot); loaded is set if this engine read it
	// from there rather than taking it.
	path   string
	loaded bool
}

// stackPointerGlobal is the C stack pointer, exported by the build
// (scripts/build-runtime.sh) so the host can check the guest is at rest.
const stackPointerGlobal = "__stack_pointer"

// wasmPage is the WebAssembly page size.
const wasmPage = 65536

// takeSnapshot boots an interpreter and snapshots it. The booted instance is
// returned too, unstarted and still pristine: it can serve a job itself.
func (e *Engine) takeSnapshot(ctx context.Context) (*snapshot, *instance, error) {
	start := time.Now()
	inst, err := e.instantiate(ctx, 0)
	if err != nil {
		return nil, nil, err
	}
	fail := func(err error) (*snapshot, *instance, error) {
		_ = inst.mod.Close(ctx)
		return nil, nil, err
	}
	spg, ok := inst.mod.ExportedGlobal(stackPointerGlobal).(api.MutableGlobal)
	if !ok {
		return fail(fmt.Errorf("snapshot: python.wasm does not export %s", stackPointerGlobal))
	}
	sp0 := spg.Get()
	if err := e.startGuest(ctx, inst); err != nil {
		return fail(err)
	}
	s := &snapshot{sp: spg.Get(), bootTime: time.Since(start)}
	if s.sp != sp0 {
		return fail(fmt.Errorf("snapshot: the guest is not at rest (stack pointer %#x, initially %#x)", s.sp, sp0))
	}
	if inst.loopKill != nil && inst.loopKill.Get() != 0 {
		return fail(fmt.Errorf("snapshot: the guest's kill switch is set"))
	}
	// Preopens: "/" and /usr/local, plus the user's packages if mounted;
	// WASI numbers them from 3.
	want := 2
	if inst.userSite {
		want++
	}
	var wantFDs []string
	for fd := 3; fd < 3+want; fd++ {
		wantFDs = append(wantFDs, strconv.Itoa(fd))
	}
	if inst.openFDs != strings.Join(wantFDs, ",") {
		return fail(fmt.Errorf("snapshot: the guest has descriptors %q open after boot, want only the mounts %q", inst.openFDs, strings.Join(wantFDs, ",")))
	}
	for i := range s.flags {
		s.flags[i] = inst.flags[i].Load()
	}
	mem := inst.mod.Memory()
	s.size = uint64(mem.Size())
	image, ok := mem.Read(0, mem.Size())
	if !ok || s.size%wasmPage != 0 {
		return fail(fmt.Errorf("snapshot: cannot read guest memory"))
	}
	s.resident = residentBytes(image)
	// Persisted for later processes, unless a preload failed: a process
	// that boots again logs the failure again, where one that loaded the
	// snapshot would never say why the module is missing. If writing
	// fails (a read-only cache folder), kept in memory as any engine's.
	if path := e.snapshotPath(); path != "" && len(e.PreloadErrors()) == 0 {
		key, _ := e.snapshotKey()
		if s.file, err = persistSnapshot(path, key, s, image); err == nil {
			s.offset, s.path = snapshotImageOffset, path
			return s, inst, nil
		}
		e.logf("snapshot not kept in the cache folder: %v", err)
	}
	if s.file, err = writeImage(image); err != nil {
		return fail(fmt.Errorf("snapshot: %w", err))
	}
	return s, inst, nil
}

// imageChunk is the unit in which images are scanned for zeros.
const imageChunk = 16 << 10

// residentBytes counts the bytes of image in chunks that are not all zero:
// what writeImageAt writes.
func residentBytes(image []byte) uint64 {
	zero := make([]byte, imageChunk)
	var n uint64
	for off := 0; off < len(image); off += imageChunk {
		if !bytes.Equal(image[off:min(off+imageChunk, len(image))], zero[:min(imageChunk, len(image)-off)]) {
			n += uint64(min(imageChunk, len(image)-off))
		}
	}
	return n
}

// writeImageAt writes image into f at offset off, skipping chunks of zeros
// (the file stays sparse), and sizes f to end with the image. It returns
// how many bytes it wrote.
func writeImageAt(f *os.File, image []byte, off int64) (uint64, error) {
	if err := f.Truncate(off + int64(len(image))); err != nil {
		return 0, err
	}
	zero := make([]byte, imageChunk)
	var resident uint64
	for pos := 0; pos < len(image); {
		if bytes.Equal(image[pos:min(pos+imageChunk, len(image))], zero[:min(imageChunk, len(image)-pos)]) {
			pos += imageChunk
			continue
		}
		end := min(pos+imageChunk, len(image))
		for end < len(image) && !bytes.Equal(image[end:min(end+imageChunk, len(image))], zero[:min(imageChunk, len(image)-end)]) {
			end = min(end+imageChunk, len(image))
		}
		if _, err := f.WriteAt(image[pos:end], off+int64(pos)); err != nil {
			return 0, err
		}
		resident += uint64(end - pos)
		pos = end
	}
	return resident, nil
}

// writeImage writes the memory image to a new anonymous file, skipping zero
// pages (the file stays sparse), and makes it read-only where the OS can.
func writeImage(image []byte) (*os.File, error) {
	f, err := newImageFile()
	if err != nil {
		return nil, err
	}
	if _, err := writeImageAt(f, image, 0); err != nil {
		f.Close()
		return nil, err
	}
	if err := sealImageFile(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// restore makes a new interpreter from the snapshot: instantiate (no code
// runs), grow the memory to the snapshot's size, map the image over it
// copy-on-write, and set the globals and the host-side facts. It is not
// started: serve does that.
func (e *Engine) restore(ctx context.Context, s *snapshot, memLimit int64) (*instance, error) {
	inst, err := e.instantiate(ctx, 0)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*instance, error) {
		_ = inst.mod.Close(ctx)
		return nil, fmt.Errorf("restore interpreter from snapshot: %w", err)
	}
	mem := inst.mod.Memory()
	if cur := uint64(mem.Size()); cur < s.size {
		if _, ok := mem.Grow(uint32((s.size - cur) / wasmPage)); !ok {
			if inst.mem.err != nil {
				return fail(inst.mem.err)
			}
			return fail(fmt.Errorf("cannot grow guest memory to %d bytes", s.size))
		}
	}
	if err := inst.mem.mapSnapshot(s.file, s.offset, s.size); err != nil {
		return fail(err)
	}
	spg, ok := inst.mod.ExportedGlobal(stackPointerGlobal).(api.MutableGlobal)
	if !ok {
		return fail(fmt.Errorf("python.wasm does not export %s", stackPointerGlobal))
	}
	spg.Set(s.sp)
	for i := range inst.flags {
		inst.flags[i].Store(s.flags[i])
	}
	inst.mem.setLimit(uint64(memLimit))
	inst.restored = true
	return inst, nil
}

func (s *snapshot) close() error {
	if s == nil || s.file == nil {
		return nil
	}
	return s.file.Close()
}
