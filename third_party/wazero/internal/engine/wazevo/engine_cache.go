package wazevo

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"unsafe"

	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/backend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/ssa"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/wazevoapi"
	"github.com/tetratelabs/wazero/internal/expctxkeys"
	"github.com/tetratelabs/wazero/internal/filecache"
	"github.com/tetratelabs/wazero/internal/platform"
	"github.com/tetratelabs/wazero/internal/u32"
	"github.com/tetratelabs/wazero/internal/u64"
	"github.com/tetratelabs/wazero/internal/wasm"
)

var crc = crc32.MakeTable(crc32.Castagnoli)

// fileCacheKey returns a key for the file cache.
// In order to avoid collisions with the existing compiler, we do not use m.ID directly,
// but instead we rehash it with magic.
func fileCacheKey(m *wasm.Module) (ret filecache.Key) {
	s := sha256.New()
	s.Write(m.ID[:])
	s.Write(magic)
	// Write the CPU features so that we can cache the compiled module for the same CPU.
	// This prevents the incompatible CPU features from being used.
	cpu := platform.CpuFeatures.Raw()
	// Reuse the `ret` buffer to write the first 8 bytes of the CPU features so that we can avoid the allocation.
	binary.LittleEndian.PutUint64(ret[:8], cpu)
	s.Write(ret[:8])
	// Finally, write the hash to the ret buffer.
	s.Sum(ret[:0])
	return
}

func (e *engine) addCompiledModule(module *wasm.Module, cm *compiledModule) (c *compiledModule, err error) {
	c = e.addCompiledModuleToMemory(module, cm)
	if !module.IsHostModule && e.fileCache != nil {
		err = e.addCompiledModuleToCache(module, c)
	}
	return
}

// verifyCode false skips the checksum of mapped code (pybox patch 0011:
// see expctxkeys.SkipCachedCodeChecksum); guarded marks code compiled for a
// guarded memory (pybox patch 0012).
func (e *engine) getCompiledModule(module *wasm.Module, listeners []experimental.FunctionListener, ensureTermination, verifyCode, guarded bool) (cm *compiledModule, ok bool, err error) {
	cm, ok = e.getCompiledModuleFromMemory(module, true)
	if ok {
		return
	}
	cm, ok, err = e.getCompiledModuleFromCache(module, verifyCode)
	if ok {
		cm.parent = e
		cm.module = module
		cm.sharedFunctions = e.sharedFunctions
		cm.ensureTermination = ensureTermination
		cm.guarded = guarded
		cm.offsets = wazevoapi.NewModuleContextOffsetData(module, len(listeners) > 0)
		if len(listeners) > 0 {
			cm.listeners = listeners
			cm.listenerBeforeTrampolines = make([]*byte, len(module.TypeSection))
			cm.listenerAfterTrampolines = make([]*byte, len(module.TypeSection))
			for i := range module.TypeSection {
				typ := &module.TypeSection[i]
				before, after := e.getListenerTrampolineForType(typ)
				cm.listenerBeforeTrampolines[i] = before
				cm.listenerAfterTrampolines[i] = after
			}
		}
		// Set the finalizer.
		e.setFinalizer(cm.executables, executablesFinalizer)
		if guarded {
			// Before any instance can run it (pybox patch 0012).
			if err = cm.executables.registerGuardedCode(); err != nil {
				return nil, false, err
			}
		}
		e.addCompiledModuleToMemory(module, cm)
		ssaBuilder := ssa.NewBuilder()
		machine := newMachine()
		be := backend.NewCompiler(context.Background(), machine, ssaBuilder)
		cm.executables.compileEntryPreambles(module, machine, be)
	}
	return
}

func (e *engine) addCompiledModuleToMemory(m *wasm.Module, cm *compiledModule) *compiledModule {
	e.mux.Lock()
	defer e.mux.Unlock()
	if c, ok := e.compiledModules[m.ID]; ok {
		c.refCount++
		return c.compiledModule
	}
	e.compiledModules[m.ID] = &compiledModuleWithCount{compiledModule: cm, refCount: 1}
	if len(cm.executable) > 0 {
		e.addCompiledModuleToSortedList(cm)
	}
	return cm
}

func (e *engine) getCompiledModuleFromMemory(module *wasm.Module, increaseRefCount bool) (cm *compiledModule, ok bool) {
	e.mux.Lock()
	defer e.mux.Unlock()

	cmWithCount, ok := e.compiledModules[module.ID]
	if ok {
		cm = cmWithCount.compiledModule
		if increaseRefCount {
			cmWithCount.refCount++
		}
	}
	return
}

func (e *engine) addCompiledModuleToCache(module *wasm.Module, cm *compiledModule) (err error) {
	if e.fileCache == nil || module.IsHostModule {
		return
	}
	err = e.fileCache.Add(fileCacheKey(module), serializeCompiledModule(e.wazeroVersion+cacheEntryLayout, cm))
	return
}

func (e *engine) getCompiledModuleFromCache(module *wasm.Module, verifyCode bool) (cm *compiledModule, hit bool, err error) {
	if e.fileCache == nil || module.IsHostModule {
		return
	}

	// Check if the entries exist in the external cache.
	var cached io.ReadCloser
	cached, hit, err = e.fileCache.Get(fileCacheKey(module))
	if !hit || err != nil {
		return
	}

	// Otherwise, we hit the cache on external cache.
	// We retrieve *code structures from `cached`.
	var staleCache bool
	// Note: cached.Close is ensured to be called in deserializeCodes.
	cm, staleCache, err = deserializeCompiledModuleVerify(e.wazeroVersion+cacheEntryLayout, cached, verifyCode)
	if err != nil {
		// A corrupt or truncated entry (a full disk, a crash of another
		// writer's machine, bit rot) is dropped and the module compiled
		// again, rather than failing every compile until someone deletes
		// the cache. (pybox patch 0004.)
		return nil, false, e.fileCache.Delete(fileCacheKey(module))
	} else if staleCache {
		return nil, false, e.fileCache.Delete(fileCacheKey(module))
	}
	return
}

var magic = []byte{'W', 'A', 'Z', 'E', 'V', 'O'}

// cacheCodeAlign is where the machine code starts in a cache entry: at a
// multiple of this, which is a multiple of every page size wazero runs on
// (4, 16 and 64 KiB), so that the code can be mapped from the entry's file
// instead of copied (see deserializeCompiledModule). The bytes between the
// code length and the code are zero. (pybox patch 0005.)
const cacheCodeAlign = 64 << 10

// cacheEntryLayout is appended to the engine's version in the entries it
// writes and expects: the alignment changed the layout of entries, so those
// written before it are stale (and compiled again) rather than misread. Upstream
// the release's new version does this. (pybox patch 0005.)
const cacheEntryLayout = "+codealign"

// cacheCodePadding returns how many bytes of padding follow the code length,
// which ends at offset in the entry.
func cacheCodePadding(offset int) int {
	return (cacheCodeAlign - offset%cacheCodeAlign) % cacheCodeAlign
}

func serializeCompiledModule(wazeroVersion string, cm *compiledModule) io.Reader {
	buf := bytes.NewBuffer(nil)
	// First 6 byte: WAZEVO header.
	buf.Write(magic)
	// Next 1 byte: length of version:
	buf.WriteByte(byte(len(wazeroVersion)))
	// Version of wazero.
	buf.WriteString(wazeroVersion)
	// Number of *code (== locally defined functions in the module): 4 bytes.
	buf.Write(u32.LeBytes(uint32(len(cm.functionOffsets))))
	for _, offset := range cm.functionOffsets {
		// The offset of this function in the executable (8 bytes).
		buf.Write(u64.LeBytes(uint64(offset)))
	}
	// The length of code segment (8 bytes).
	buf.Write(u64.LeBytes(uint64(len(cm.executable))))
	// Zeros up to the next multiple of cacheCodeAlign. (pybox patch 0005.)
	buf.Write(make([]byte, cacheCodePadding(buf.Len())))
	header := buf.Bytes()
	// The native code follows, read from cm.executable itself: copying it
	// into buf grew a buffer to twice its size for a large module (pybox
	// patch 0014). The rest goes to a buffer of its own.
	buf = bytes.NewBuffer(nil)
	// Append checksum.
	checksum := crc32.Checksum(cm.executable, crc)
	buf.Write(u32.LeBytes(checksum))
	if sm := cm.sourceMap; len(sm.executableOffsets) > 0 {
		buf.WriteByte(1) // indicates that source map is present.
		l := len(sm.wasmBinaryOffsets)
		buf.Write(u64.LeBytes(uint64(l)))
		executableAddr := uintptr(unsafe.Pointer(&cm.executable[0]))
		for i := 0; i < l; i++ {
			buf.Write(u64.LeBytes(sm.wasmBinaryOffsets[i]))
			// executableOffsets is absolute address, so we need to subtract executableAddr.
			buf.Write(u64.LeBytes(uint64(sm.executableOffsets[i] - executableAddr)))
		}
	} else {
		buf.WriteByte(0) // indicates that source map is not present.
	}
	// Try-table info: number of try_tables (4 bytes), then for each:
	// numLocals (4 bytes), reuseLocals (1 byte), clause count (4 bytes),
	// then for each clause: kind (1 byte) + tagIndex (4 bytes).
	tryTables := cm.tryTableInfos() // decoded if cm was read from an entry (pybox patch 0047)
	buf.Write(u32.LeBytes(uint32(len(tryTables))))
	for _, info := range tryTables {
		buf.Write(u32.LeBytes(uint32(info.NumLocals)))
		b := byte(0)
		if info.ReuseLocals {
			b = 1
		}
		buf.WriteByte(b)
		buf.Write(u32.LeBytes(uint32(len(info.CatchClauses))))
		for _, c := range info.CatchClauses {
			buf.WriteByte(c.Kind)
			buf.Write(u32.LeBytes(c.TagIndex))
		}
	}
	// io.MultiReader's WriteTo hands each part to the writer in one Write.
	return io.MultiReader(bytes.NewReader(header), bytes.NewReader(cm.executable), bytes.NewReader(buf.Bytes()))
}

// deserializeCompiledModule reads a cache entry written by
// serializeCompiledModule. When entry is an *os.File (as the file cache's
// entries are), the machine code is mapped from it where the platform
// allows (platform.MapCodeSegmentFile) instead of copied into new memory:
// only the pages that run are read, and they are shared by every process
// that maps the entry. Either way the code's checksum is verified (when
// mapped, by reading the code once more through a 1 MiB buffer, which leaves
// the mapping untouched). (pybox patch 0005.)
func deserializeCompiledModule(wazeroVersion string, entry io.ReadCloser) (cm *compiledModule, staleCache bool, err error) {
	return deserializeCompiledModuleVerify(wazeroVersion, entry, true)
}

// deserializeCompiledModuleVerify is deserializeCompiledModule, skipping the
// checksum of code mapped from a file if verifyCode is false: the file's
// length is checked instead. Copied code is always verified (it is read
// anyway). (pybox patch 0011.)
func deserializeCompiledModuleVerify(wazeroVersion string, entry io.ReadCloser, verifyCode bool) (cm *compiledModule, staleCache bool, err error) {
	defer entry.Close()
	// Buffered: the entry is read in pieces of 8 bytes per function (tens
	// of thousands of read syscalls for a large module). (pybox patch 0004.)
	reader := bufio.NewReaderSize(entry, 64<<10)
	file, _ := entry.(*os.File)
	cacheHeaderSize := len(magic) + 1 /* version size */ + len(wazeroVersion) + 4 /* number of functions */

	// Read the header before the native code.
	header := make([]byte, cacheHeaderSize)
	n, err := io.ReadFull(reader, header) // (pybox patch 0004: was one Read)
	if err != nil && err != io.ErrUnexpectedEOF {
		return nil, false, fmt.Errorf("compilationcache: error reading header: %v", err)
	}

	if n != cacheHeaderSize {
		return nil, false, fmt.Errorf("compilationcache: invalid header length: %d", n)
	}

	if !bytes.Equal(header[:len(magic)], magic) {
		return nil, false, fmt.Errorf(
			"compilationcache: invalid magic number: got %s but want %s", magic, header[:len(magic)])
	}

	// Check the version compatibility.
	versionSize := int(header[len(magic)])

	cachedVersionBegin, cachedVersionEnd := len(magic)+1, len(magic)+1+versionSize
	if cachedVersionEnd >= len(header) {
		staleCache = true
		return
	} else if cachedVersion := string(header[cachedVersionBegin:cachedVersionEnd]); cachedVersion != wazeroVersion {
		staleCache = true
		return
	}

	functionsNum := binary.LittleEndian.Uint32(header[len(header)-4:])
	// The offsets are appended as read: a corrupt count does not allocate
	// before the entry runs out (pybox patch 0005), unless the entry is a
	// file long enough to hold them (pybox patch 0047).
	capacity := min(functionsNum, 1<<16)
	if file != nil {
		if st, err := file.Stat(); err == nil && uint64(st.Size()) >= uint64(cacheHeaderSize)+8*uint64(functionsNum) {
			capacity = functionsNum
		}
	}
	cm = &compiledModule{functionOffsets: make([]int, 0, capacity), executables: &executables{}}

	// Read the offset of each function in the executable, as many at a time
	// as the reader holds (not one read call each: pybox patch 0047).
	for i := uint32(0); i < functionsNum; {
		chunk, _ := reader.Peek(min(int(functionsNum-i)*8, reader.Size()))
		if len(chunk) < 8 {
			err = fmt.Errorf("compilationcache: error reading func[%d] executable offset: %v", i, io.EOF)
			return
		}
		n := len(chunk) / 8
		for j := 0; j < n; j++ {
			cm.functionOffsets = append(cm.functionOffsets, int(binary.LittleEndian.Uint64(chunk[8*j:])))
		}
		_, _ = reader.Discard(8 * n)
		i += uint32(n)
	}

	var eightBytes [8]byte

	executableLen, err := readUint64(reader, &eightBytes)
	if err != nil {
		err = fmt.Errorf("compilationcache: error reading executable size: %v", err)
		return
	}

	// The code starts at the next multiple of cacheCodeAlign. (pybox patch
	// 0005.)
	codeOffset := cacheHeaderSize + 8*int(functionsNum) + 8
	padding := cacheCodePadding(codeOffset)
	codeOffset += padding
	if n, _ := reader.Discard(padding); n != padding {
		return nil, false, fmt.Errorf("compilationcache: error reading executable (len=%d): %v", executableLen, io.EOF)
	}

	if executableLen > 0 {
		if executableLen > math.MaxInt32 {
			return nil, false, fmt.Errorf("compilationcache: invalid executable length: %d", executableLen)
		}
		executable, expected, checked, err := readExecutable(file, reader, codeOffset, int(executableLen), verifyCode)
		if err != nil {
			return nil, false, err
		}
		if _, err = io.ReadFull(reader, eightBytes[:4]); err != nil {
			err = fmt.Errorf("compilationcache: could not read checksum: %v", err)
		} else if checksum := binary.LittleEndian.Uint32(eightBytes[:4]); checked && expected != checksum {
			err = fmt.Errorf("compilationcache: checksum mismatch (expected %d, got %d)", expected, checksum)
		}
		if err != nil {
			_ = platform.MunmapCodeSegment(executable)
			return nil, false, err
		}
		cm.executable = executable
	}

	if _, err := io.ReadFull(reader, eightBytes[:1]); err != nil {
		return nil, false, fmt.Errorf("compilationcache: error reading source map presence: %v", err)
	}

	if eightBytes[0] == 1 {
		sm := &cm.sourceMap
		sourceMapLen, err := readUint64(reader, &eightBytes)
		if err != nil {
			err = fmt.Errorf("compilationcache: error reading source map length: %v", err)
			return nil, false, err
		}
		executableOffset := uintptr(unsafe.Pointer(&cm.executable[0]))
		for i := uint64(0); i < sourceMapLen; i++ {
			wasmBinaryOffset, err := readUint64(reader, &eightBytes)
			if err != nil {
				err = fmt.Errorf("compilationcache: error reading source map[%d] wasm binary offset: %v", i, err)
				return nil, false, err
			}
			executableRelativeOffset, err := readUint64(reader, &eightBytes)
			if err != nil {
				err = fmt.Errorf("compilationcache: error reading source map[%d] executable offset: %v", i, err)
				return nil, false, err
			}
			sm.wasmBinaryOffsets = append(sm.wasmBinaryOffsets, wasmBinaryOffset)
			// executableOffsets is absolute address, so we need to add executableOffset.
			sm.executableOffsets = append(sm.executableOffsets, uintptr(executableRelativeOffset)+executableOffset)
		}
	}
	// Try-table info.
	if _, err = io.ReadFull(reader, eightBytes[:4]); err != nil {
		// Treat old cache entries without try-table data as stale (trigger recompile).
		return nil, true, nil
	}
	tableLen := binary.LittleEndian.Uint32(eightBytes[:4])
	if tableLen > 0 {
		// The records are the rest of the entry: kept as they are and
		// decoded when a try_table is first entered (tryTableInfoAt), after
		// a check that they are whole. (pybox patch 0047.)
		var rest bytes.Buffer
		if file != nil {
			if st, err := file.Stat(); err == nil && st.Size() < 1<<40 {
				if n := int(st.Size()) - codeOffset - int(executableLen); n > 0 {
					rest.Grow(n)
				}
			}
		}
		if _, err = rest.ReadFrom(reader); err != nil {
			return nil, false, fmt.Errorf("compilationcache: error reading try_tables: %v", err)
		}
		if err = checkTryTableRecords(rest.Bytes(), tableLen); err != nil {
			return nil, false, err
		}
		cm.tryTableRaw, cm.tryTableCount = rest.Bytes(), tableLen
	}
	return
}

// checkTryTableRecords checks that raw holds count try_table records:
// numLocals (4 bytes), reuseLocals (1 byte), the number of catch clauses (4
// bytes), then each clause, kind (1 byte) and tag index (4 bytes). (pybox
// patch 0047.)
func checkTryTableRecords(raw []byte, count uint32) error {
	pos := 0
	for i := uint32(0); i < count; i++ {
		if len(raw)-pos < 9 {
			return fmt.Errorf("compilationcache: error reading try_table[%d] header: %v", i, io.EOF)
		}
		clauses := uint64(binary.LittleEndian.Uint32(raw[pos+5:]))
		if uint64(len(raw)-pos-9) < 5*clauses {
			return fmt.Errorf("compilationcache: error reading catch clauses of try_table[%d]: %v", i, io.EOF)
		}
		pos += 9 + 5*int(clauses)
	}
	return nil
}

// decodeTryTableRecords decodes the count try_table records in raw, which
// checkTryTableRecords accepted. The catch clauses of all share one slice.
// (pybox patch 0047.)
func decodeTryTableRecords(raw []byte, count uint32) []wazevoapi.TryTableInfo {
	infos := make([]wazevoapi.TryTableInfo, count)
	clauseCount := 0
	for i, pos := uint32(0), 0; i < count; i++ {
		n := int(binary.LittleEndian.Uint32(raw[pos+5:]))
		clauseCount += n
		pos += 9 + 5*n
	}
	clauses := make([]wazevoapi.CatchClauseInstance, clauseCount)
	pos := 0
	for i := range infos {
		n := int(binary.LittleEndian.Uint32(raw[pos+5:]))
		info := &infos[i]
		info.NumLocals = int(binary.LittleEndian.Uint32(raw[pos:]))
		info.ReuseLocals = raw[pos+4] != 0
		info.CatchClauses = clauses[:n:n]
		pos += 9
		for j := range info.CatchClauses {
			info.CatchClauses[j] = wazevoapi.CatchClauseInstance{Kind: raw[pos], TagIndex: binary.LittleEndian.Uint32(raw[pos+1:])}
			pos += 5
		}
		clauses = clauses[n:]
	}
	return infos
}

// readExecutable returns the n bytes of machine code that reader (reading
// file, if not nil) is at, which start at codeOffset in the entry, read-only
// and executable, and their checksum. It maps them from file when it can;
// otherwise, or if that fails, it copies them into new code memory. Either
// way it reads them through reader, leaving reader after them. (pybox patch
// 0005.)
//
// With verify false, mapped code is not read: the file's length is checked
// to hold the code and its checksum, reader is moved past the code, and
// checked is false (pybox patch 0011).
func readExecutable(file *os.File, reader *bufio.Reader, codeOffset, n int, verify bool) (executable []byte, checksum uint32, checked bool, err error) {
	if file != nil && codeOffset%os.Getpagesize() == 0 {
		executable, err = platform.MapCodeSegmentFile(file, int64(codeOffset), n)
		if err == nil && !verify {
			st, err := file.Stat()
			if err == nil && st.Size() < int64(codeOffset)+int64(n)+4 {
				err = io.EOF
			}
			if err == nil {
				_, err = file.Seek(int64(codeOffset)+int64(n), io.SeekStart)
			}
			if err != nil {
				_ = platform.MunmapCodeSegment(executable)
				return nil, 0, false, fmt.Errorf("compilationcache: error reading executable (len=%d): %v", n, err)
			}
			reader.Reset(file)
			return executable, 0, false, nil
		}
		if err == nil {
			// The checksum pass reads the code through a small buffer: the
			// mapping's pages stay untouched until they run, and a file
			// shorter than its code length fails here, not when its code
			// runs beyond the end of the file.
			if checksum, err = checksumOf(reader, n); err != nil {
				_ = platform.MunmapCodeSegment(executable)
				return nil, 0, false, fmt.Errorf("compilationcache: error reading executable (len=%d): %v", n, err)
			}
			return executable, checksum, true, nil
		}
	}
	executable, err = platform.MmapCodeSegment(n)
	if err != nil {
		return nil, 0, false, fmt.Errorf("compilationcache: error mmapping executable (len=%d): %v", n, err)
	}
	if _, err = io.ReadFull(reader, executable); err != nil {
		_ = platform.MunmapCodeSegment(executable)
		return nil, 0, false, fmt.Errorf("compilationcache: error reading executable (len=%d): %v", n, err)
	}
	checksum = crc32.Checksum(executable, crc)
	if err = platform.MprotectCodeSegment(executable); err != nil {
		_ = platform.MunmapCodeSegment(executable)
		return nil, 0, false, err
	}
	return executable, checksum, true, nil
}

// checksumOf reads n bytes from reader and returns their checksum.
func checksumOf(reader io.Reader, n int) (uint32, error) {
	buf := make([]byte, min(n, 1<<20))
	var sum uint32
	for n > 0 {
		chunk := buf[:min(n, len(buf))]
		if _, err := io.ReadFull(reader, chunk); err != nil {
			if err == io.ErrUnexpectedEOF {
				err = io.EOF
			}
			return 0, err
		}
		sum = crc32.Update(sum, crc, chunk)
		n -= len(chunk)
	}
	return sum, nil
}

// readUint64 strictly reads an uint64 in little-endian byte order, using the
// given array as a buffer. This returns io.EOF if less than 8 bytes were read.
func readUint64(reader io.Reader, b *[8]byte) (uint64, error) {
	s := b[0:8]
	// ReadFull: a reader may return fewer bytes than asked before its end
	// (a bufio.Reader at the end of its buffer). (pybox patch 0004.)
	if _, err := io.ReadFull(reader, s); err != nil {
		if err == io.ErrUnexpectedEOF {
			err = io.EOF
		}
		return 0, err
	}

	// Read the u64 from the underlying buffer.
	ret := binary.LittleEndian.Uint64(s)
	return ret, nil
}

// LoadCompiledModule makes module's compiled code available, as
// CompileModule does, when it is in this engine's memory or in its file
// cache, and reports whether it was; it never compiles. The module needs
// only wasm.Module ValidateStructure and an ID (AssignModuleID): the
// cache is keyed by a hash of its bytes, which were fully validated before
// the cached code was compiled from them. (pybox patch 0004.)
func (e *engine) LoadCompiledModule(ctx context.Context, module *wasm.Module, ensureTermination bool) (bool, error) {
	if wazevoapi.PerfMapEnabled {
		wazevoapi.PerfMap.Lock()
		defer wazevoapi.PerfMap.Unlock()
	}
	verify := ctx.Value(expctxkeys.SkipCachedCodeChecksum{}) == nil
	_, ok, err := e.getCompiledModule(module, nil, ensureTermination, verify, guardedMemory(ctx))
	return ok, err
}
