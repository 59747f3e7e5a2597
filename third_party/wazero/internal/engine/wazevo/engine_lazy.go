package wazevo

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/backend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/frontend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/ssa"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/wazevoapi"
	"github.com/tetratelabs/wazero/internal/expctxkeys"
	"github.com/tetratelabs/wazero/internal/platform"
	"github.com/tetratelabs/wazero/internal/wasm"
)

// Lazy compilation (pybox patch 0040).
//
// A module compiled lazily has one executable region, reserved whole when the
// module is compiled and made accessible page by page:
//
//	| slots (RW) | stubs, trampoline (RX) | code compiled so far (RX) | reserved |
//
// Every local function i has a stub of lazyStubSize bytes at
// functionOffsets[i], which is where calls (relocated call rel32), tables,
// exports and entry preambles find the function, as with an eagerly compiled
// module. The stub jumps through slot i, an 8-byte word in the data pages at
// the start of the region. The slot first points to the rest of the stub,
// which stores i in the execution context and jumps to the lazy-compile
// trampoline (backend/isa/amd64.CompileLazyCompileTrampoline); that exits to
// Go with ExitCodeLazyCompile, Go compiles the function (once: a goroutine
// that calls a function another one is compiling waits for that compile),
// appends its code to the region on fresh pages, stores the code's address
// in the slot, and the trampoline jumps to it. Later calls go
// through the stub and the slot straight to the code: patching is a store to
// data, never a write to code another thread may run.
//
// The region is small enough for rel32 calls from any code in it to any stub.
// Code is never freed before the module is: the region is unmapped by the
// executables' finalizer, as an eagerly compiled executable is.

// lazyStubSize is the size of a stub:
//
//	ff 25 <disp32>                   jmp qword ptr [rip+disp32] ; slot i
//	48 c7 80 <disp32> <imm32>        mov qword ptr [rax+disp32], i
//	e9 <rel32>                       jmp lazy-compile trampoline
//	cc...                            (int3 up to 32 bytes)
const lazyStubSize = 32

// lazyStubIndexStore is the offset in a stub of the part the slot first
// points to.
const lazyStubIndexStore = 6

// lazyMaxRegion bounds the region: every call in it must reach every stub
// with a signed 32-bit displacement.
const lazyMaxRegion = 1<<31 - 1<<20

// lazyCompilation reports whether ctx asks for lazy compilation and it is
// implemented here.
func lazyCompilation(ctx context.Context) bool {
	return lazySupported && ctx != nil && ctx.Value(expctxkeys.LazyCompilationKey{}) != nil
}

// CompilesLazily reports whether CompileModule with ctx compiles module,
// without function listeners, lazily (pybox patch 0041: the runtime then
// leaves the validation of each function body to its first call).
func (e *engine) CompilesLazily(ctx context.Context, module *wasm.Module) bool {
	return compilesLazily(ctx, module, false)
}

// compilesLazily reports whether module is compiled lazily with ctx.
func compilesLazily(ctx context.Context, module *wasm.Module, withListener bool) bool {
	return lazyCompilation(ctx) && !withListener && module.DWARFLines == nil &&
		!module.IsHostModule && len(module.FunctionSection) > 0
}

// lazyModule is the state of a lazily compiled module.
type lazyModule struct {
	// mu guards the region's growth, the slots' updates, compilers and
	// pending; compiles themselves run outside it (pybox patch 0043).
	mu sync.Mutex
	// ctx carries the compile's configuration to each function's compile.
	ctx context.Context
	cm  *compiledModule
	// region is the whole reservation, also cm.executable.
	region []byte
	// slots are the jump slots, in region.
	slots []uint64
	// stubBase is the offset of the first stub in region, codeBase that of
	// the compiled code, next that of the first unused page.
	stubBase, codeBase, next int
	// refToBinaryOffset maps a function reference to its stub's offset.
	refToBinaryOffset []int
	// compilers are idle compiler instances, reused from one function to
	// the next (guarded by mu); pending has a channel per function being
	// compiled, closed when it is done (pybox patch 0043: functions compile
	// outside mu, several at a time).
	compilers []*lazyCompiler
	pending   map[int]chan struct{}
	// ahead, if not nil, takes functions for up to aheadMax goroutines
	// (aheadRunning of them running) that compile the callees of called
	// functions before they are called (pybox patch 0043).
	ahead        chan int
	aheadMax     int32
	aheadRunning atomic.Int32
	tryTables    *lazyTryTables

	// codeMu guards starts and fns: the offsets (in increasing order) and
	// local indexes of the compiled functions, read to map a return address
	// to its function.
	codeMu sync.RWMutex
	starts []int
	fns    []wasm.Index
	// compiled counts the functions compiled.
	compiled atomic.Int32
	// onCompile, if set (by tests), sees each function's code as compiled,
	// before its calls are resolved, and its relocations; called with mu
	// held.
	onCompile func(index int, body []byte, rels []backend.RelocationInfo)
}

// lazyTryTables is the try_table metadata of a lazily compiled module: IDs
// are handed out in the order functions are compiled, and the table is read
// while it grows.
type lazyTryTables struct {
	mu    sync.RWMutex
	table []wazevoapi.TryTableInfo
}

// Append implements the frontend's try_table metadata.
func (t *lazyTryTables) Append(info wazevoapi.TryTableInfo) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.table = append(t.table, info)
	return len(t.table) - 1
}

// Table implements the frontend's try_table metadata.
func (t *lazyTryTables) Table() []wazevoapi.TryTableInfo {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.table
}

func (t *lazyTryTables) at(id int) *wazevoapi.TryTableInfo {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return &t.table[id]
}

// tryTableInfoAt returns the metadata of try_table id.
func (cm *compiledModule) tryTableInfoAt(id int) *wazevoapi.TryTableInfo {
	if cm.lazy != nil {
		return cm.lazy.tryTables.at(id)
	}
	return &cm.tryTableInfos()[id]
}

// tryTableInfos returns the module's try_table metadata, decoding it first
// if the module was loaded from a cache entry. (pybox patch 0047.)
func (cm *compiledModule) tryTableInfos() []wazevoapi.TryTableInfo {
	cm.tryTableOnce.Do(func() {
		if cm.tryTableRaw != nil {
			cm.tryTableInfo = decodeTryTableRecords(cm.tryTableRaw, cm.tryTableCount)
			cm.tryTableRaw = nil
		}
	})
	return cm.tryTableInfo
}

func pageSize() int { return os.Getpagesize() }

func roundUp(n, to int) int { return (n + to - 1) / to * to }

// errLazyFallback wraps the reasons compileModuleLazily gives up before
// it has changed cm: compileModule then compiles the module whole.
var errLazyFallback = errors.New("lazy compilation unavailable")

// compileModuleLazily sets up cm, a module with local functions, for lazy
// compilation: the region, the slots, the stubs and the trampoline. An error
// wrapping errLazyFallback (no room for the region, e.g. under an address
// space limit) leaves cm as it was.
func (e *engine) compileModuleLazily(ctx context.Context, cm *compiledModule) (*compiledModule, error) {
	module := cm.module
	importedFns, localFns := int(module.ImportFunctionCount), len(module.FunctionSection)
	page := pageSize()

	machine := newMachine()
	tc, ok := machine.(interface{ CompileLazyCompileTrampoline() []byte })
	if !ok {
		return nil, fmt.Errorf("%w: no trampoline for this architecture", errLazyFallback)
	}
	ssaBuilder := ssa.NewBuilder()
	be := backend.NewCompiler(ctx, machine, ssaBuilder)
	be.Init()
	trampoline := tc.CompileLazyCompileTrampoline()

	l := &lazyModule{ctx: context.WithoutCancel(ctx), cm: cm, tryTables: &lazyTryTables{}}
	l.stubBase = roundUp(8*localFns, page)
	trampolineOffset := roundUp(l.stubBase+lazyStubSize*localFns, 16)
	l.codeBase = roundUp(trampolineOffset+len(trampoline), page)
	l.next = l.codeBase

	// Room for the code: compiled code is several times the size of the
	// Wasm bodies, and each function starts on a page of its own.
	var bodies int
	for i := range module.CodeSection {
		bodies += len(module.CodeSection[i].Body)
	}
	size := l.codeBase + 16*bodies + 2*page*localFns + 64<<20
	size = min(roundUp(size, page), lazyMaxRegion)
	if l.codeBase >= size {
		return nil, fmt.Errorf("%w: %d functions do not fit %d bytes", errLazyFallback, localFns, size)
	}
	region, err := reserveLazyRegion(size)
	if err != nil {
		return nil, fmt.Errorf("%w: reserving %d bytes: %v", errLazyFallback, size, err)
	}
	if err = makeWritable(region[:l.codeBase]); err != nil {
		_ = platform.MunmapCodeSegment(region)
		return nil, fmt.Errorf("%w: %v", errLazyFallback, err)
	}
	base := uintptr(unsafe.Pointer(&region[0]))
	l.region = region
	if localFns > 0 {
		l.slots = unsafe.Slice((*uint64)(unsafe.Pointer(&region[0])), localFns)
	}
	functionOffsets := make([]int, localFns)
	l.refToBinaryOffset = make([]int, importedFns+localFns)
	for i := 0; i < localFns; i++ {
		off := l.stubBase + lazyStubSize*i
		functionOffsets[i] = off
		l.refToBinaryOffset[frontend.FunctionIndexToFuncRef(wasm.Index(i+importedFns))] = off
		writeLazyStub(region[off:off+lazyStubSize], off, 8*i, i, trampolineOffset)
		l.slots[i] = uint64(base) + uint64(off+lazyStubIndexStore)
	}
	copy(region[trampolineOffset:], trampoline)
	if err = makeExecutable(region[l.stubBase:l.codeBase]); err != nil {
		_ = platform.MunmapCodeSegment(region)
		return nil, fmt.Errorf("%w: %v", errLazyFallback, err)
	}

	cm.executable = region
	cm.functionOffsets = functionOffsets
	cm.executables.compileEntryPreambles(module, machine, be)
	l.pending = make(map[int]chan struct{})
	if workers := experimental.GetCompilationWorkers(ctx); workers > 1 {
		// The calling goroutine compiles what it calls; the others, the
		// callees of what it called (pybox patch 0043).
		l.ahead = make(chan int, 1<<14)
		l.aheadMax = int32(workers - 1)
	}
	cm.lazy = l
	cm.sharedFunctions = e.sharedFunctions
	e.setFinalizer(cm.executables, executablesFinalizer)
	if cm.guarded {
		if err = cm.executables.registerGuardedCode(); err != nil {
			return nil, err
		}
	}
	return cm, nil
}

// writeLazyStub writes the stub of local function index at offset off of
// the region into stub; the function's slot is at offset slot, the
// trampoline at offset trampoline.
func writeLazyStub(stub []byte, off, slot, index, trampoline int) {
	for i := range stub {
		stub[i] = 0xcc
	}
	// jmp qword ptr [rip+disp32]
	stub[0], stub[1] = 0xff, 0x25
	binary.LittleEndian.PutUint32(stub[2:], uint32(int32(slot-(off+6))))
	// mov qword ptr [rax+disp32], imm32
	stub[6], stub[7], stub[8] = 0x48, 0xc7, 0x80
	binary.LittleEndian.PutUint32(stub[9:], wazevoapi.ExecutionContextOffsetLazyFunctionIndex.U32())
	binary.LittleEndian.PutUint32(stub[13:], uint32(int32(index)))
	// jmp rel32
	stub[17] = 0xe9
	binary.LittleEndian.PutUint32(stub[18:], uint32(int32(trampoline-(off+22))))
}

// lazyCompiler is a set of compiler instances: one goroutine compiles one
// function at a time with it.
type lazyCompiler struct {
	machine    backend.Machine
	ssaBuilder ssa.Builder
	be         backend.Compiler
	fe         *frontend.Compiler
}

// newCompiler makes a set of compiler instances for l.
func (l *lazyModule) newCompiler() *lazyCompiler {
	cm := l.cm
	c := &lazyCompiler{machine: newMachine(), ssaBuilder: ssa.NewBuilder()}
	c.be = backend.NewCompiler(l.ctx, c.machine, c.ssaBuilder)
	c.fe = frontend.NewFrontendCompiler(cm.module, c.ssaBuilder, &cm.offsets, cm.ensureTermination, false, false).
		WithTryTableMetadata(l.tryTables)
	c.fe.SetGuardedMemory(cm.guarded)
	return c
}

// compile compiles local function index unless it is compiled already, and
// returns the address of its code. A function that another goroutine is
// compiling is waited for.
func (l *lazyModule) compile(index int) uintptr {
	addr, err := l.ensure(index, true)
	if err != nil {
		panic(err)
	}
	return addr
}

// compiledAt returns the address of local function index's code, 0 if it
// is not compiled.
func (l *lazyModule) compiledAt(index int) uintptr {
	stub := uintptr(unsafe.Pointer(&l.region[0])) + uintptr(l.stubBase+lazyStubSize*index+lazyStubIndexStore)
	if a := uintptr(atomic.LoadUint64(&l.slots[index])); a != stub {
		return a
	}
	return 0
}

// ensure compiles local function index unless it is compiled, and returns
// the address of its code. If another goroutine is compiling it, ensure
// waits for it if wait, else returns 0 and no error.
func (l *lazyModule) ensure(index int, wait bool) (uintptr, error) {
	return l.ensureFor(index, wait, false)
}

// ensureAhead compiles local function index, a callee of a called
// function, unless it is compiled or being compiled.
func (l *lazyModule) ensureAhead(index int) (uintptr, error) {
	return l.ensureFor(index, false, true)
}

// ensureFor is ensure; ahead marks a compile ahead of the call, whose
// callees are not compiled ahead in turn.
func (l *lazyModule) ensureFor(index int, wait, ahead bool) (uintptr, error) {
	for {
		if a := l.compiledAt(index); a != 0 {
			return a, nil
		}
		l.mu.Lock()
		if a := l.compiledAt(index); a != 0 {
			l.mu.Unlock()
			return a, nil
		}
		if ch, ok := l.pending[index]; ok {
			l.mu.Unlock()
			if !wait {
				return 0, nil
			}
			<-ch
			continue // Compiled, or failed: then this goroutine gets the error.
		}
		ch := make(chan struct{})
		l.pending[index] = ch
		var c *lazyCompiler
		module := l.cm.module
		large := len(module.CodeSection[index].Body) > largeFunctionBody
		if n := len(l.compilers); n > 0 && !large {
			c, l.compilers = l.compilers[n-1], l.compilers[:n-1]
		}
		l.mu.Unlock()
		if c == nil {
			// A large function gets instances of its own, dropped after, as
			// in a parallel compile (pybox patch 0014), so that their pools
			// do not keep its size.
			c = l.newCompiler()
		}
		return l.compileWith(c, index, ch, large, ahead)
	}
}

// compileWith compiles local function index with c, places its code and
// stores its address in its slot; ch is the function's pending channel,
// closed when done.
func (l *lazyModule) compileWith(c *lazyCompiler, index int, ch chan struct{}, large, ahead bool) (addr uintptr, err error) {
	module := l.cm.module
	var body []byte
	var rels []backend.RelocationInfo
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("lazy compilation of function %d: %v", index, r)
			}
		}()
		if module.ValidateBody != nil {
			// Validated now, not when the module was compiled (pybox patch
			// 0041): the call traps with the validation error.
			if err = module.ValidateBody(wasm.Index(index)); err != nil {
				err = fmt.Errorf("lazy compilation of function %d: %w", index, err)
				return
			}
		}
		fidx := wasm.Index(index) + module.ImportFunctionCount
		ctx := functionContext(l.ctx, module, index, fidx)
		body, rels, err = l.cm.parent.compileLocalWasmFunction(ctx, module, wasm.Index(index), c.fe, c.ssaBuilder, c.be, false)
		if err != nil {
			err = fmt.Errorf("lazy compilation of function %d: %w", index, err)
		}
	}()

	l.mu.Lock()
	defer func() {
		delete(l.pending, index)
		close(ch)
		if !large && err == nil {
			l.compilers = append(l.compilers, c)
		}
		l.mu.Unlock()
	}()
	if err != nil {
		return 0, err
	}
	if l.onCompile != nil {
		l.onCompile(index, body, rels)
	}
	addr, err = l.place(c, index, body, rels)
	if err == nil && l.ahead != nil && !ahead {
		queued := false
		for _, r := range rels {
			if callee := int(r.FuncRef) - int(module.ImportFunctionCount); callee >= 0 && l.compiledAt(callee) == 0 {
				select {
				case l.ahead <- callee:
					queued = true
				default: // The workers are behind: they have enough to do.
				}
			}
		}
		if n := l.aheadRunning.Load(); queued && n < l.aheadMax && l.aheadRunning.CompareAndSwap(n, n+1) {
			go l.compileAhead()
		}
	}
	return addr, err
}

// place copies the code of local function index, compiled with c, onto
// fresh pages of the region, resolves its calls and stores its address in
// its slot. Called with mu held.
func (l *lazyModule) place(c *lazyCompiler, index int, body []byte, rels []backend.RelocationInfo) (uintptr, error) {
	module := l.cm.module
	off := l.next
	end := roundUp(off+len(body), pageSize())
	if end > len(l.region) {
		return 0, fmt.Errorf("lazy compilation of function %d: the %d-byte code region is full", index, len(l.region))
	}
	code := l.region[off:end]
	if err := makeWritable(code); err != nil {
		return 0, fmt.Errorf("lazy compilation of function %d: %w", index, err)
	}
	copy(code, body)
	for i := len(body); i < len(code); i++ {
		code[i] = 0xcc
	}
	if len(rels) > 0 {
		for i := range rels {
			rels[i].Offset += int64(off)
		}
		c.machine.ResolveRelocations(l.refToBinaryOffset, int(module.ImportFunctionCount), l.region, rels, nil)
		for i := range rels {
			rels[i].Offset -= int64(off)
		}
	}
	if err := makeExecutable(code); err != nil {
		return 0, fmt.Errorf("lazy compilation of function %d: %w", index, err)
	}
	l.next = end
	// Calls compiled from now on go straight to the code.
	fidx := wasm.Index(index) + module.ImportFunctionCount
	l.refToBinaryOffset[frontend.FunctionIndexToFuncRef(fidx)] = off

	l.codeMu.Lock()
	l.starts = append(l.starts, off)
	l.fns = append(l.fns, wasm.Index(index))
	l.codeMu.Unlock()
	l.compiled.Add(1)

	addr := uintptr(unsafe.Pointer(&l.region[0])) + uintptr(off)
	atomic.StoreUint64(&l.slots[index], uint64(addr))
	return addr, nil
}

// compileAhead compiles the functions sent to l.ahead that are not
// compiled or being compiled, until there is none. Only the callees of
// functions called are sent, not those of functions compiled ahead: the
// guess goes one call deep.
func (l *lazyModule) compileAhead() {
	for {
		select {
		case index := <-l.ahead:
			_, _ = l.ensureAhead(index) // A failure is the caller's to report.
		default:
			l.aheadRunning.Add(-1)
			return
		}
	}
}

// functionIndexOf returns the local index of the function whose code holds
// addr, an address in the region.
func (l *lazyModule) functionIndexOf(addr uintptr) wasm.Index {
	off := int(addr - uintptr(unsafe.Pointer(&l.region[0])))
	if off < l.codeBase {
		// A stub or the trampoline: an exit of the trampoline for the
		// function being compiled. Not a frame of compiled code.
		i := (off - l.stubBase) / lazyStubSize
		return wasm.Index(max(0, min(i, len(l.slots)-1)))
	}
	l.codeMu.RLock()
	defer l.codeMu.RUnlock()
	i := sort.SearchInts(l.starts, off+1) - 1
	if i < 0 {
		return 0
	}
	return l.fns[i]
}

// LazyCompiledFunctions returns how many functions of a lazily compiled
// module have been compiled, and false if it is not compiled lazily.
func (cm *compiledModule) lazyCompiledFunctions() (int, bool) {
	if cm.lazy == nil {
		return 0, false
	}
	return int(cm.lazy.compiled.Load()), true
}
