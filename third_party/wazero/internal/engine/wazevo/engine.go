package wazevo

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/backend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/frontend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/ssa"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/wazevoapi"
	"github.com/tetratelabs/wazero/internal/filecache"
	"github.com/tetratelabs/wazero/internal/platform"
	"github.com/tetratelabs/wazero/internal/version"
	"github.com/tetratelabs/wazero/internal/wasm"
)

type (
	compiledModuleWithCount struct {
		*compiledModule
		refCount int
	}
	// engine implements wasm.Engine.
	engine struct {
		wazeroVersion   string
		fileCache       filecache.Cache
		compiledModules map[wasm.ModuleID]*compiledModuleWithCount
		// sortedCompiledModules is a list of compiled modules sorted by the initial address of the executable.
		sortedCompiledModules []*compiledModule
		mux                   sync.RWMutex
		// sharedFunctions is compiled functions shared by all modules.
		sharedFunctions *sharedFunctions
		// setFinalizer defaults to runtime.SetFinalizer, but overridable for tests.
		setFinalizer func(obj interface{}, finalizer interface{})

		// The followings are reused for compiling shared functions.
		machine backend.Machine
		be      backend.Compiler
	}

	sharedFunctions struct {
		// The compiled trampolines executable.
		executable []byte
		// memoryGrowAddress is the address of memory.grow builtin function.
		memoryGrowAddress *byte
		// checkModuleExitCodeAddress is the address of checking module instance exit code.
		// This is used when ensureTermination is true.
		checkModuleExitCodeAddress *byte
		// stackGrowAddress is the address of growing stack builtin function.
		stackGrowAddress *byte
		// tableGrowAddress is the address of table.grow builtin function.
		tableGrowAddress *byte
		// refFuncAddress is the address of ref.func builtin function.
		refFuncAddress *byte
		// memoryWait32Address is the address of memory.wait32 builtin function
		memoryWait32Address *byte
		// memoryWait64Address is the address of memory.wait64 builtin function
		memoryWait64Address *byte
		// memoryNotifyAddress is the address of memory.notify builtin function
		memoryNotifyAddress *byte
		// throwAllocTrampolineAddress is the address of the throw-alloc trampoline:
		// phase 1 of throw, which allocates the Exception heap object.
		throwAllocTrampolineAddress *byte
		// throwTrampolineAddress is the address of the throw/throw_ref trampoline function.
		throwTrampolineAddress *byte
		// tryTableEnterAddress is the address of try_table enter trampoline.
		tryTableEnterAddress *byte
		// tryTableLeaveAddress is the address of try_table leave trampoline.
		tryTableLeaveAddress *byte
		listenerTrampolines  listenerTrampolines
	}

	listenerTrampolines = map[*wasm.FunctionType]struct {
		executable []byte
		before     *byte
		after      *byte
	}

	// compiledModule is a compiled variant of a wasm.Module and ready to be used for instantiation.
	compiledModule struct {
		*executables
		// functionOffsets maps a local function index to the offset in the executable.
		functionOffsets           []int
		parent                    *engine
		module                    *wasm.Module
		ensureTermination         bool
		guarded                   bool // compiled for a guarded memory (pybox patch 0012)
		listeners                 []experimental.FunctionListener
		listenerBeforeTrampolines []*byte
		listenerAfterTrampolines  []*byte

		// The followings are only available for non host modules.

		offsets         wazevoapi.ModuleContextOffsetData
		sharedFunctions *sharedFunctions
		sourceMap       sourceMap
		// tryTableInfo stores per-try_table metadata (catch clauses,
		// local count) indexed by try_table ID assigned during compilation.
		tryTableInfo []wazevoapi.TryTableInfo
		// tryTableRaw holds the tryTableCount records of tryTableInfo as
		// a cache entry has them, decoded into tryTableInfo once
		// (tryTableOnce) when a try_table is first entered (pybox patch
		// 0047: tryTableInfos).
		tryTableRaw   []byte
		tryTableCount uint32
		tryTableOnce  sync.Once
		// lazy is set if the module's functions are compiled when first
		// called (pybox patch 0040).
		lazy *lazyModule
	}

	executables struct {
		executable []byte
		// entryPreambles holds the entry preambles compiled together;
		// lazyPreambles, those compiled one at a time. entryPreamblesPtrs
		// has the preamble of each type, nil until compiled (pybox patch
		// 0046: see entryPreamble).
		entryPreambles     []byte
		entryPreamblesPtrs []atomic.Pointer[byte]
		lazyPreambles      [][]byte
		preambleTypes      []wasm.FunctionType
		preambleMu         sync.Mutex
		// guardCode is 1 + the sigguard slot of executable, 0 if none.
		guardCode int
	}
)

// sourceMap is a mapping from the offset of the executable to the offset of the original wasm binary.
type sourceMap struct {
	// executableOffsets is a sorted list of offsets of the executable. This is index-correlated with wasmBinaryOffsets,
	// in other words executableOffsets[i] is the offset of the executable which corresponds to the offset of a Wasm
	// binary pointed by wasmBinaryOffsets[i].
	executableOffsets []uintptr
	// wasmBinaryOffsets is the counterpart of executableOffsets.
	wasmBinaryOffsets []uint64
}

var _ wasm.Engine = (*engine)(nil)

// cacheVersionSuffix marks compilation cache entries written by this fork
// (pybox's third_party/wazero, v1.12.0 with upstream commit 5f5f520).
// GetWazeroVersion reports the replaced module's version, v1.12.0, for it
// too, but the fork's compiled code and cache format differ from v1.12.0's
// (the execution context and the try_table info), so without the suffix
// either would load the other's entries. With it, each sees the other's
// entries as stale and recompiles. The number after 2504 is the last fork
// patch that changed compiled code (0064: on amd64, v128.load64_splat and
// f64x2.splat are one movddup).
const cacheVersionSuffix = "+pybox.2504.73"

// NewEngine returns the implementation of wasm.Engine.
func NewEngine(ctx context.Context, _ api.CoreFeatures, fc filecache.Cache) wasm.Engine {
	machine := newMachine()
	be := backend.NewCompiler(ctx, machine, ssa.NewBuilder())
	e := &engine{
		compiledModules: make(map[wasm.ModuleID]*compiledModuleWithCount),
		setFinalizer:    runtime.SetFinalizer,
		machine:         machine,
		be:              be,
		fileCache:       fc,
		wazeroVersion:   version.GetWazeroVersion() + cacheVersionSuffix,
	}
	e.compileSharedFunctions()
	return e
}

// CompileModule implements wasm.Engine.
func (e *engine) CompileModule(ctx context.Context, module *wasm.Module, listeners []experimental.FunctionListener, ensureTermination bool) (err error) {
	if wazevoapi.PerfMapEnabled {
		wazevoapi.PerfMap.Lock()
		defer wazevoapi.PerfMap.Unlock()
	}

	if _, ok, err := e.getCompiledModule(module, listeners, ensureTermination, true, guardedMemory(ctx)); ok { // cache hit!
		return nil
	} else if err != nil {
		return err
	}
	if module.BodiesOmitted() { // (pybox patch 0044)
		return fmt.Errorf("compile module: it was decoded without its %d function bodies", module.OmittedBodyCount)
	}

	if wazevoapi.DeterministicCompilationVerifierEnabled {
		ctx = wazevoapi.NewDeterministicCompilationVerifierContext(ctx, len(module.CodeSection))
	}
	cm, err := e.compileModule(ctx, module, listeners, ensureTermination)
	if err != nil {
		return err
	}
	if cm.lazy != nil {
		// Never whole, so never written to the file cache (pybox patch 0040).
		cm = e.addCompiledModuleToMemory(module, cm)
	} else if cm, err = e.addCompiledModule(module, cm); err != nil {
		return err
	}

	if wazevoapi.DeterministicCompilationVerifierEnabled {
		for i := 0; i < wazevoapi.DeterministicCompilationVerifyingIter; i++ {
			_, err := e.compileModule(ctx, module, listeners, ensureTermination)
			if err != nil {
				return err
			}
		}
	}

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
	return nil
}

// compileEntryPreambles prepares the entry preambles of m's function types
// (the code through which Go calls a function of that type). They are
// compiled when first asked for (entryPreamble): a module's functions are
// called from Go through few of its types, and compiling a preamble for
// each of a large module's hundreds of types was a noticeable part of
// loading it from the cache. (pybox patch 0046; machine and be are no
// longer used.)
func (exec *executables) compileEntryPreambles(m *wasm.Module, _ backend.Machine, _ backend.Compiler) {
	exec.preambleTypes = m.TypeSection
	exec.entryPreamblesPtrs = make([]atomic.Pointer[byte], len(m.TypeSection))
}

// lazyEntryPreamblesMax is how many entry preambles are compiled one at a
// time, each into its own mapping (a page), before the next compiles all
// the remaining ones into one. (pybox patch 0046.)
const lazyEntryPreamblesMax = 8

// entryPreamble returns the entry preamble of function type typIndex,
// compiling it first if it is not yet. Safe for concurrent use. (pybox patch
// 0046.)
func (exec *executables) entryPreamble(typIndex wasm.Index) *byte {
	if p := exec.entryPreamblesPtrs[typIndex].Load(); p != nil {
		return p
	}
	exec.preambleMu.Lock()
	defer exec.preambleMu.Unlock()
	if p := exec.entryPreamblesPtrs[typIndex].Load(); p != nil {
		return p
	}
	if wazevoapi.PerfMapEnabled {
		wazevoapi.PerfMap.Lock()
		defer wazevoapi.PerfMap.Unlock()
	}
	machine := newMachine()
	be := backend.NewCompiler(context.Background(), machine, ssa.NewBuilder())
	if len(exec.lazyPreambles) < lazyEntryPreamblesMax {
		typ := &exec.preambleTypes[typIndex]
		sig := frontend.SignatureForWasmFunctionType(typ)
		be.Init()
		preamble := mmapExecutable(machine.CompileEntryPreamble(&sig))
		exec.lazyPreambles = append(exec.lazyPreambles, preamble)
		if wazevoapi.PerfMapEnabled {
			wazevoapi.PerfMap.AddEntry(uintptr(unsafe.Pointer(&preamble[0])),
				uint64(len(preamble)), fmt.Sprintf("entry_preamble::type=%s", typ.String()))
		}
		exec.entryPreamblesPtrs[typIndex].Store(&preamble[0])
		return &preamble[0]
	}

	// Go calls functions of many types: compile the preambles of all the
	// types that have none yet, together.
	var preambles []byte
	var missing []int
	var sizes []int
	for i := range exec.preambleTypes {
		if exec.entryPreamblesPtrs[i].Load() != nil {
			continue
		}
		sig := frontend.SignatureForWasmFunctionType(&exec.preambleTypes[i])
		be.Init()
		buf := machine.CompileEntryPreamble(&sig)
		preambles = append(preambles, buf...)
		align := 15 & -len(preambles) // Align 16-bytes boundary.
		preambles = append(preambles, make([]byte, align)...)
		missing = append(missing, i)
		sizes = append(sizes, len(buf)+align)
	}
	exec.entryPreambles = mmapExecutable(preambles)
	offset := 0
	for j, i := range missing {
		ptr := &exec.entryPreambles[offset]
		exec.entryPreamblesPtrs[i].Store(ptr)
		offset += sizes[j]

		if wazevoapi.PerfMapEnabled {
			typ := &exec.preambleTypes[i]
			wazevoapi.PerfMap.AddEntry(uintptr(unsafe.Pointer(ptr)),
				uint64(sizes[j]), fmt.Sprintf("entry_preamble::type=%s", typ.String()))
		}
	}
	return exec.entryPreamblesPtrs[typIndex].Load()
}

func (e *engine) compileModule(ctx context.Context, module *wasm.Module, listeners []experimental.FunctionListener, ensureTermination bool) (*compiledModule, error) {
	if module.IsHostModule {
		return e.compileHostModule(ctx, module, listeners)
	}

	withListener := len(listeners) > 0
	cm := &compiledModule{
		offsets: wazevoapi.NewModuleContextOffsetData(module, withListener), parent: e, module: module,
		ensureTermination: ensureTermination,
		guarded:           guardedMemory(ctx),
		executables:       &executables{},
	}

	importedFns, localFns := int(module.ImportFunctionCount), len(module.FunctionSection)
	if localFns == 0 {
		return cm, nil
	}
	if compilesLazily(ctx, module, withListener) {
		lcm, err := e.compileModuleLazily(ctx, cm)
		if !errors.Is(err, errLazyFallback) {
			return lcm, err
		}
		// Compiled whole instead: the bodies the runtime left to the
		// first calls are validated now (pybox patches 0040-0041).
		if module.ValidateBody != nil {
			for i := range module.CodeSection {
				if err := module.ValidateBody(wasm.Index(i)); err != nil {
					return nil, err
				}
			}
		}
	}

	machine := newMachine()
	relocator, err := newEngineRelocator(machine, importedFns, localFns)
	if err != nil {
		return nil, err
	}

	needSourceInfo := module.DWARFLines != nil

	ssaBuilder := ssa.NewBuilder()
	be := backend.NewCompiler(ctx, machine, ssaBuilder)
	cm.executables.compileEntryPreambles(module, machine, be)
	cm.functionOffsets = make([]int, localFns)

	var indexes []int
	if wazevoapi.DeterministicCompilationVerifierEnabled {
		// The compilation must be deterministic regardless of the order of functions being compiled.
		indexes = wazevoapi.DeterministicCompilationVerifierRandomizeIndexes(ctx)
	}

	// The compiled bodies wait in arenas outside the Go heap until they are
	// copied into the executable, which releases them (pybox patch 0014).
	var arenas []codeArena
	defer func() {
		for i := range arenas {
			arenas[i].release()
		}
	}()

	if workers := experimental.GetCompilationWorkers(ctx); workers <= 1 {
		// Compile with a single goroutine.
		arenas = make([]codeArena, 1)
		fe := frontend.NewFrontendCompiler(module, ssaBuilder, &cm.offsets, ensureTermination, withListener, needSourceInfo)
		fe.SetGuardedMemory(cm.guarded)

		for i := range module.CodeSection {
			if wazevoapi.DeterministicCompilationVerifierEnabled {
				i = indexes[i]
			}

			fidx := wasm.Index(i + importedFns)
			fctx := functionContext(ctx, module, i, fidx)

			needListener := len(listeners) > i && listeners[i] != nil
			body, relsPerFunc, err := e.compileLocalWasmFunction(fctx, module, wasm.Index(i), fe, ssaBuilder, be, needListener)
			if err != nil {
				return nil, fmt.Errorf("compile function %d/%d: %v", i, len(module.CodeSection)-1, err)
			}
			body = arenas[0].copy(i, body)

			relocator.appendFunction(fctx, module, cm, i, fidx, body, relsPerFunc, be.SourceOffsetInfo())
		}
		cm.tryTableInfo = fe.TryTableMetadata()
	} else {
		// Compile with N worker goroutines.
		// Collect compiled functions across workers in a slice,
		// to be added to the relocator in-order and resolved serially at the end.
		// This uses more memory and CPU (across cores), but can be significantly faster.
		type compiledFunc struct {
			fctx        context.Context
			body        []byte
			relsPerFunc []backend.RelocationInfo
			offsPerFunc []backend.SourceOffsetInfo
		}

		compiledFuncs := make([]compiledFunc, len(module.CodeSection))
		ctx, cancel := context.WithCancelCause(ctx)
		defer cancel(nil)

		// Try-table IDs are baked into compiled machine code, so all
		// workers must share a single table to ensure globally unique IDs.
		sharedTTM := frontend.NewSharedTryTableMetadata()

		// pybox patch 0014: the order of work. The functions that contain
		// a try_table (validation marks them) are lowered one at a time in
		// index order (the "lane"), so that they take try_table IDs in the
		// same order as a compile with one worker and the compiled code does
		// not depend on timing. The others go largest first, so that a
		// huge function does not start last and leave the other workers
		// idle at the end; the result does not depend on their order.
		var lane, rest []int
		for i := range module.CodeSection {
			if module.CodeSection[i].HasTryTable {
				lane = append(lane, i)
			} else {
				rest = append(rest, i)
			}
		}
		if wazevoapi.DeterministicCompilationVerifierEnabled {
			// The compilation must be deterministic regardless of the order of functions being compiled.
			rest = rest[:0]
			for _, i := range indexes {
				if !module.CodeSection[i].HasTryTable {
					rest = append(rest, i)
				}
			}
		} else {
			slices.SortStableFunc(rest, func(a, b int) int {
				return len(module.CodeSection[b].Body) - len(module.CodeSection[a].Body)
			})
		}
		var laneMu sync.Mutex
		laneNext := 0 // Guarded by laneMu.

		var count atomic.Uint32
		var wg sync.WaitGroup
		wg.Add(workers)
		arenas = make([]codeArena, workers)

		for w := range workers {
			go func() {
				defer wg.Done()
				arena := &arenas[w]

				// Creates new compiler instances which are reused for each function.
				var (
					machine    backend.Machine
					ssaBuilder ssa.Builder
					be         backend.Compiler
					fe         *frontend.Compiler
				)
				newCompiler := func() {
					machine = newMachine()
					ssaBuilder = ssa.NewBuilder()
					be = backend.NewCompiler(ctx, machine, ssaBuilder)
					fe = frontend.NewFrontendCompiler(
						module, ssaBuilder, &cm.offsets, ensureTermination, withListener, needSourceInfo).
						WithTryTableMetadata(sharedTTM)
					fe.SetGuardedMemory(cm.guarded)
				}
				newCompiler()

				compile := func(i int) bool {
					// pybox patch 0014: the compiler's pools keep the size of the
					// largest function compiled; one of python.wasm's needs
					// hundreds of MB. A large function gets fresh instances,
					// dropped after it, so the rest of the compile does not keep
					// that memory.
					if len(module.CodeSection[i].Body) > largeFunctionBody {
						defer newCompiler()
						newCompiler()
					}
					fidx := wasm.Index(i + importedFns)
					fctx := functionContext(ctx, module, i, fidx)

					needListener := len(listeners) > i && listeners[i] != nil
					body, relsPerFunc, err := e.compileLocalWasmFunction(fctx, module, wasm.Index(i), fe, ssaBuilder, be, needListener)
					if err != nil {
						cancel(fmt.Errorf("compile function %d/%d: %v", i, len(module.CodeSection)-1, err))
						return false
					}

					compiledFuncs[i] = compiledFunc{
						fctx, arena.copy(i, body),
						// These slices are internal to the backend compiler and since we are going to buffer them instead
						// of process them immediately we need to copy the memory.
						slices.Clone(relsPerFunc),
						slices.Clone(be.SourceOffsetInfo()),
					}
					return true
				}
				// nextInLane compiles the lane's next function, if any.
				nextInLane := func() (more, ok bool) {
					if laneNext == len(lane) {
						return false, true
					}
					i := lane[laneNext]
					laneNext++
					return true, compile(i)
				}

				for {
					if err := ctx.Err(); err != nil {
						// Compilation canceled!
						return
					}

					// The lane when it is free, so that it is not left for the end.
					if laneMu.TryLock() {
						more, ok := nextInLane()
						laneMu.Unlock()
						if !ok {
							return
						}
						if more {
							continue
						}
					}

					if k := int(count.Add(1)) - 1; k < len(rest) {
						if !compile(rest[k]) {
							return
						}
						continue
					}

					// Nothing else left: help finish the lane.
					laneMu.Lock()
					more, ok := nextInLane()
					laneMu.Unlock()
					if !ok || !more {
						return
					}
				}
			}()
		}

		wg.Wait()
		if err := context.Cause(ctx); err != nil {
			return nil, err
		}

		for i := range compiledFuncs {
			fn := &compiledFuncs[i]
			relocator.appendFunction(fn.fctx, module, cm, i, wasm.Index(i+importedFns), fn.body, fn.relsPerFunc, fn.offsPerFunc)
		}
		cm.tryTableInfo = sharedTTM.Table()
	}

	// Allocate executable memory and then copy the generated machine code.
	executable, err := platform.MmapCodeSegment(relocator.totalSize)
	if err != nil {
		panic(err)
	}
	cm.executable = executable

	// Each arena's bodies are copied in the order they were stored, and each
	// of its mappings is unmapped as soon as its bodies are copied: the
	// executable grows as the arenas shrink (pybox patch 0014).
	relocator.bodies = nil
	for i := range arenas {
		arenas[i].copyInto(executable, cm.functionOffsets)
	}

	if wazevoapi.PerfMapEnabled {
		wazevoapi.PerfMap.Flush(uintptr(unsafe.Pointer(&executable[0])), cm.functionOffsets)
	}

	if needSourceInfo {
		for i := range cm.sourceMap.executableOffsets {
			cm.sourceMap.executableOffsets[i] += uintptr(unsafe.Pointer(&cm.executable[0]))
		}
	}

	relocator.resolveRelocations(machine, executable, importedFns)

	if err = platform.MprotectCodeSegment(executable); err != nil {
		return nil, err
	}
	cm.sharedFunctions = e.sharedFunctions
	e.setFinalizer(cm.executables, executablesFinalizer)
	if cm.guarded {
		if err = cm.executables.registerGuardedCode(); err != nil {
			return nil, err
		}
	}
	return cm, nil
}

func functionContext(ctx context.Context, module *wasm.Module, fnum int, fidx wasm.Index) context.Context {
	if wazevoapi.NeedFunctionNameInContext {
		def := module.FunctionDefinition(fidx)
		name := def.DebugName()
		if len(def.ExportNames()) > 0 {
			name = def.ExportNames()[0]
		}
		ctx = wazevoapi.SetCurrentFunctionName(ctx, fnum, fmt.Sprintf("[%d/%d]%s", fnum, len(module.CodeSection)-1, name))
	}
	return ctx
}

type engineRelocator struct {
	bodies                      [][]byte
	refToBinaryOffset           []int
	rels                        []backend.RelocationInfo
	totalSize                   int // Total binary size of the executable.
	trampolineInterval          int
	callTrampolineIslandSize    int
	callTrampolineIslandOffsets []int // Holds the offsets of trampoline islands.
}

func newEngineRelocator(
	machine backend.Machine,
	importedFns, localFns int,
) (r engineRelocator, err error) {
	// Trampoline relocation related variables.
	r.trampolineInterval, r.callTrampolineIslandSize, err = machine.CallTrampolineIslandInfo(localFns)
	r.refToBinaryOffset = make([]int, importedFns+localFns)
	r.bodies = make([][]byte, 0, localFns)
	return
}

func (r *engineRelocator) resolveRelocations(machine backend.Machine, executable []byte, importedFns int) {
	// Resolve relocations for local function calls.
	if len(r.rels) > 0 {
		machine.ResolveRelocations(r.refToBinaryOffset, importedFns, executable, r.rels, r.callTrampolineIslandOffsets)
	}
}

func (r *engineRelocator) appendFunction(
	ctx context.Context,
	module *wasm.Module,
	cm *compiledModule,
	fnum int, fidx wasm.Index,
	body []byte,
	relsPerFunc []backend.RelocationInfo,
	offsPerFunc []backend.SourceOffsetInfo,
) {
	// Align 16-bytes boundary.
	r.totalSize = (r.totalSize + 15) &^ 15
	cm.functionOffsets[fnum] = r.totalSize

	needSourceInfo := module.DWARFLines != nil
	if needSourceInfo {
		// At the beginning of the function, we add the offset of the function body so that
		// we can resolve the source location of the call site of before listener call.
		cm.sourceMap.executableOffsets = append(cm.sourceMap.executableOffsets, uintptr(r.totalSize))
		cm.sourceMap.wasmBinaryOffsets = append(cm.sourceMap.wasmBinaryOffsets, module.CodeSection[fnum].BodyOffsetInCodeSection)

		for _, info := range offsPerFunc {
			cm.sourceMap.executableOffsets = append(cm.sourceMap.executableOffsets, uintptr(r.totalSize)+uintptr(info.ExecutableOffset))
			cm.sourceMap.wasmBinaryOffsets = append(cm.sourceMap.wasmBinaryOffsets, uint64(info.SourceOffset))
		}
	}

	fref := frontend.FunctionIndexToFuncRef(fidx)
	r.refToBinaryOffset[fref] = r.totalSize

	// At this point, relocation offsets are relative to the start of the function body,
	// so we adjust it to the start of the executable.
	r.rels = slices.Grow(r.rels, len(relsPerFunc))
	for _, rel := range relsPerFunc {
		rel.Offset += int64(r.totalSize)
		r.rels = append(r.rels, rel)
	}

	r.totalSize += len(body)
	r.bodies = append(r.bodies, body)
	if wazevoapi.PrintMachineCodeHexPerFunction {
		fmt.Printf("[[[machine code for %s]]]\n%s\n\n", wazevoapi.GetCurrentFunctionName(ctx), hex.EncodeToString(body))
	}

	if r.callTrampolineIslandSize > 0 {
		// If the total size exceeds the trampoline interval, we need to add a trampoline island.
		if r.totalSize/r.trampolineInterval > len(r.callTrampolineIslandOffsets) {
			r.callTrampolineIslandOffsets = append(r.callTrampolineIslandOffsets, r.totalSize)
			r.totalSize += r.callTrampolineIslandSize
		}
	}
}

func (e *engine) compileLocalWasmFunction(
	ctx context.Context,
	module *wasm.Module,
	localFunctionIndex wasm.Index,
	fe *frontend.Compiler,
	ssaBuilder ssa.Builder,
	be backend.Compiler,
	needListener bool,
) (body []byte, rels []backend.RelocationInfo, err error) {
	typIndex := module.FunctionSection[localFunctionIndex]
	typ := &module.TypeSection[typIndex]
	codeSeg := &module.CodeSection[localFunctionIndex]

	// Initializes both frontend and backend compilers.
	fe.Init(localFunctionIndex, typIndex, typ, codeSeg.LocalTypes, codeSeg.Body, needListener, codeSeg.BodyOffsetInCodeSection)
	be.Init()

	// Lower Wasm to SSA.
	fe.LowerToSSA()
	if wazevoapi.PrintSSA && wazevoapi.PrintEnabledIndex(ctx) {
		fmt.Printf("[[[SSA for %s]]]%s\n", wazevoapi.GetCurrentFunctionName(ctx), ssaBuilder.Format())
	}

	if wazevoapi.DeterministicCompilationVerifierEnabled {
		wazevoapi.VerifyOrSetDeterministicCompilationContextValue(ctx, "SSA", ssaBuilder.Format())
	}

	// Run SSA-level optimization passes.
	ssaBuilder.RunPasses()

	if wazevoapi.PrintOptimizedSSA && wazevoapi.PrintEnabledIndex(ctx) {
		fmt.Printf("[[[Optimized SSA for %s]]]%s\n", wazevoapi.GetCurrentFunctionName(ctx), ssaBuilder.Format())
	}

	if wazevoapi.DeterministicCompilationVerifierEnabled {
		wazevoapi.VerifyOrSetDeterministicCompilationContextValue(ctx, "Optimized SSA", ssaBuilder.Format())
	}

	// Now our ssaBuilder contains the necessary information to further lower them to
	// machine code.
	original, rels, err := be.Compile(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("ssa->machine code: %v", err)
	}

	// The caller copies the body out (pybox patch 0014: into a codeArena)
	// before be compiles again.
	return original, rels, nil
}

// largeFunctionBody is the size of a function body (in bytes of Wasm) past
// which a parallel compile uses compiler instances of its own for it (pybox
// patch 0014). Compiler instances are cheap next to compiling such a
// function.
const largeFunctionBody = 64 << 10

// codeArenaChunk is the size of a codeArena's mappings: 4 MiB and 64 KiB,
// not a multiple of a huge page size, so platform.MmapCodeSegment does not
// try huge pages for it.
const codeArenaChunk = 4<<20 + 64<<10

// codeArena keeps compiled function bodies until they are copied into the
// module's executable (pybox patch 0014). Its memory is mapped apart from
// the Go heap and unmapped as soon as its bodies are copied: held in the
// heap, the bodies of a large module (180 MB of code for python.wasm) also
// raised the garbage collector's target by as much, stayed in the process
// until the heap was scavenged, and were all there while the executable
// filled. Not safe for concurrent use: one per worker.
type codeArena struct {
	chunks [][]byte
	free   []byte // The unused end of the last chunk.
	// bodies are the copies in the order they were made.
	bodies []arenaBody
}

// arenaBody is a body in a codeArena: of local function fn, in chunk
// chunk (-1: in the Go heap).
type arenaBody struct {
	fn, chunk int
	body      []byte
}

// copy returns a copy of b, the body of local function fn, in the arena,
// valid until copyInto or release. If memory cannot be mapped, the copy is
// in the Go heap.
func (a *codeArena) copy(fn int, b []byte) []byte {
	if len(b) > len(a.free) {
		size := max(codeArenaChunk, len(b))
		chunk, err := platform.MmapCodeSegment(size)
		if err != nil {
			dst := slices.Clone(b)
			a.bodies = append(a.bodies, arenaBody{fn: fn, chunk: -1, body: dst})
			return dst
		}
		a.chunks = append(a.chunks, chunk)
		a.free = chunk
	}
	dst := a.free[:len(b):len(b)]
	copy(dst, b)
	a.free = a.free[len(b):]
	a.bodies = append(a.bodies, arenaBody{fn: fn, chunk: len(a.chunks) - 1, body: dst})
	return dst
}

// copyInto copies every body into executable at its function's offset,
// unmapping each chunk once its bodies are copied, and releases the arena.
func (a *codeArena) copyInto(executable []byte, functionOffsets []int) {
	done := 0 // Chunks before this one are unmapped.
	for _, b := range a.bodies {
		if b.chunk > done {
			for ; done < b.chunk; done++ {
				_ = platform.MunmapCodeSegment(a.chunks[done])
				a.chunks[done] = nil
			}
		}
		copy(executable[functionOffsets[b.fn]:], b.body)
	}
	a.release()
}

// release unmaps the arena's memory: no copy it returned may be used after.
func (a *codeArena) release() {
	for _, chunk := range a.chunks {
		if chunk != nil {
			_ = platform.MunmapCodeSegment(chunk)
		}
	}
	a.chunks, a.free, a.bodies = nil, nil, nil
}

func (e *engine) compileHostModule(ctx context.Context, module *wasm.Module, listeners []experimental.FunctionListener) (*compiledModule, error) {
	machine := newMachine()
	be := backend.NewCompiler(ctx, machine, ssa.NewBuilder())

	num := len(module.CodeSection)
	cm := &compiledModule{module: module, listeners: listeners, executables: &executables{}}
	cm.functionOffsets = make([]int, num)
	totalSize := 0 // Total binary size of the executable.
	bodies := make([][]byte, num)
	var sig ssa.Signature
	for i := range module.CodeSection {
		totalSize = (totalSize + 15) &^ 15
		cm.functionOffsets[i] = totalSize

		typIndex := module.FunctionSection[i]
		typ := &module.TypeSection[typIndex]

		// We can relax until the index fits together in ExitCode as we do in wazevoapi.ExitCodeCallGoModuleFunctionWithIndex.
		// However, 1 << 16 should be large enough for a real use case.
		const hostFunctionNumMaximum = 1 << 16
		if i >= hostFunctionNumMaximum {
			return nil, fmt.Errorf("too many host functions (maximum %d)", hostFunctionNumMaximum)
		}

		sig.ID = ssa.SignatureID(typIndex) // This is important since we reuse the `machine` which caches the ABI based on the SignatureID.
		sig.Params = append(sig.Params[:0],
			ssa.TypeI64, // First argument must be exec context.
			ssa.TypeI64, // The second argument is the moduleContextOpaque of this host module.
		)
		for _, t := range typ.Params {
			sig.Params = append(sig.Params, frontend.WasmTypeToSSAType(t))
		}

		sig.Results = sig.Results[:0]
		for _, t := range typ.Results {
			sig.Results = append(sig.Results, frontend.WasmTypeToSSAType(t))
		}

		c := &module.CodeSection[i]
		if c.GoFunc == nil {
			panic("BUG: GoFunc must be set for host module")
		}

		withListener := len(listeners) > 0 && listeners[i] != nil
		var exitCode wazevoapi.ExitCode
		fn := c.GoFunc
		switch fn.(type) {
		case api.GoModuleFunction:
			exitCode = wazevoapi.ExitCodeCallGoModuleFunctionWithIndex(i, withListener)
		case api.GoFunction:
			exitCode = wazevoapi.ExitCodeCallGoFunctionWithIndex(i, withListener)
		}

		be.Init()
		machine.CompileGoFunctionTrampoline(exitCode, &sig, true)
		if err := be.Finalize(ctx); err != nil {
			return nil, err
		}
		body := be.Buf()

		if wazevoapi.PerfMapEnabled {
			name := module.FunctionDefinition(wasm.Index(i)).DebugName()
			wazevoapi.PerfMap.AddModuleEntry(i,
				int64(totalSize),
				uint64(len(body)),
				fmt.Sprintf("trampoline:%s", name))
		}

		// TODO: optimize as zero copy.
		bodies[i] = slices.Clone(body)
		totalSize += len(body)
	}

	if totalSize == 0 {
		// Empty module.
		return cm, nil
	}

	// Allocate executable memory and then copy the generated machine code.
	executable, err := platform.MmapCodeSegment(totalSize)
	if err != nil {
		panic(err)
	}
	cm.executable = executable

	for i, b := range bodies {
		offset := cm.functionOffsets[i]
		copy(executable[offset:], b)
	}

	if wazevoapi.PerfMapEnabled {
		wazevoapi.PerfMap.Flush(uintptr(unsafe.Pointer(&executable[0])), cm.functionOffsets)
	}

	if err = platform.MprotectCodeSegment(executable); err != nil {
		return nil, err
	}
	e.setFinalizer(cm.executables, executablesFinalizer)
	return cm, nil
}

// Close implements wasm.Engine.
func (e *engine) Close() (err error) {
	e.mux.Lock()
	defer e.mux.Unlock()
	e.sortedCompiledModules = nil
	e.compiledModules = nil
	e.sharedFunctions = nil
	return nil
}

// CompiledModuleCount implements wasm.Engine.
func (e *engine) CompiledModuleCount() uint32 {
	e.mux.RLock()
	defer e.mux.RUnlock()
	return uint32(len(e.compiledModules))
}

// DeleteCompiledModule implements wasm.Engine.
func (e *engine) DeleteCompiledModule(m *wasm.Module) {
	e.mux.Lock()
	defer e.mux.Unlock()
	cm, ok := e.compiledModules[m.ID]
	if !ok {
		return
	}
	cm.refCount--
	if cm.refCount > 0 {
		return
	}
	if len(cm.executable) > 0 {
		e.deleteCompiledModuleFromSortedList(cm.compiledModule)
	}
	delete(e.compiledModules, m.ID)
}

func (e *engine) addCompiledModuleToSortedList(cm *compiledModule) {
	ptr := uintptr(unsafe.Pointer(&cm.executable[0]))

	index := sort.Search(len(e.sortedCompiledModules), func(i int) bool {
		return uintptr(unsafe.Pointer(&e.sortedCompiledModules[i].executable[0])) >= ptr
	})
	e.sortedCompiledModules = append(e.sortedCompiledModules, nil)
	copy(e.sortedCompiledModules[index+1:], e.sortedCompiledModules[index:])
	e.sortedCompiledModules[index] = cm
}

func (e *engine) deleteCompiledModuleFromSortedList(cm *compiledModule) {
	ptr := uintptr(unsafe.Pointer(&cm.executable[0]))

	index := sort.Search(len(e.sortedCompiledModules), func(i int) bool {
		return uintptr(unsafe.Pointer(&e.sortedCompiledModules[i].executable[0])) >= ptr
	})
	if index >= len(e.sortedCompiledModules) {
		return
	}
	copy(e.sortedCompiledModules[index:], e.sortedCompiledModules[index+1:])
	e.sortedCompiledModules = e.sortedCompiledModules[:len(e.sortedCompiledModules)-1]
}

func (e *engine) compiledModuleOfAddr(addr uintptr) *compiledModule {
	e.mux.RLock()
	defer e.mux.RUnlock()

	index := sort.Search(len(e.sortedCompiledModules), func(i int) bool {
		return uintptr(unsafe.Pointer(&e.sortedCompiledModules[i].executable[0])) > addr
	})
	index -= 1
	if index < 0 {
		return nil
	}
	candidate := e.sortedCompiledModules[index]
	if checkAddrInBytes(addr, candidate.executable) {
		// If a module is already deleted, the found module may have been wrong.
		return candidate
	}
	return nil
}

func checkAddrInBytes(addr uintptr, b []byte) bool {
	return uintptr(unsafe.Pointer(&b[0])) <= addr && addr <= uintptr(unsafe.Pointer(&b[len(b)-1]))
}

// NewModuleEngine implements wasm.Engine.
func (e *engine) NewModuleEngine(m *wasm.Module, mi *wasm.ModuleInstance) (wasm.ModuleEngine, error) {
	me := &moduleEngine{}

	// Note: imported functions are resolved in moduleEngine.ResolveImportedFunction.
	me.importedFunctions = make([]importedFunction, m.ImportFunctionCount)

	compiled, ok := e.getCompiledModuleFromMemory(m, false)
	if !ok {
		return nil, errors.New("source module must be compiled before instantiation")
	}
	me.parent = compiled
	me.module = mi
	me.listeners = compiled.listeners

	if m.IsHostModule {
		me.opaque = buildHostModuleOpaque(m, compiled.listeners)
		me.opaquePtr = &me.opaque[0]
	} else {
		if size := compiled.offsets.TotalSize; size != 0 {
			opaque := newAlignedOpaque(size)
			me.opaque = opaque
			me.opaquePtr = &opaque[0]
		}
	}
	return me, nil
}

func (e *engine) compileSharedFunctions() {
	var sizes [12]int
	var trampolines []byte

	addTrampoline := func(i int, buf []byte) {
		trampolines = append(trampolines, buf...)
		align := 15 & -len(trampolines) // Align 16-bytes boundary.
		trampolines = append(trampolines, make([]byte, align)...)
		sizes[i] = len(buf) + align
	}

	e.be.Init()
	addTrampoline(0,
		e.machine.CompileGoFunctionTrampoline(wazevoapi.ExitCodeGrowMemory, &ssa.Signature{
			Params:  []ssa.Type{ssa.TypeI64 /* exec context */, ssa.TypeI32},
			Results: []ssa.Type{ssa.TypeI32},
		}, false))

	e.be.Init()
	addTrampoline(1,
		e.machine.CompileGoFunctionTrampoline(wazevoapi.ExitCodeTableGrow, &ssa.Signature{
			Params:  []ssa.Type{ssa.TypeI64 /* exec context */, ssa.TypeI32 /* table index */, ssa.TypeI32 /* num */, ssa.TypeI64 /* ref */},
			Results: []ssa.Type{ssa.TypeI32},
		}, false))

	e.be.Init()
	addTrampoline(2,
		e.machine.CompileGoFunctionTrampoline(wazevoapi.ExitCodeCheckModuleExitCode, &ssa.Signature{
			Params:  []ssa.Type{ssa.TypeI32 /* exec context */},
			Results: []ssa.Type{ssa.TypeI32},
		}, false))

	e.be.Init()
	addTrampoline(3,
		e.machine.CompileGoFunctionTrampoline(wazevoapi.ExitCodeRefFunc, &ssa.Signature{
			Params:  []ssa.Type{ssa.TypeI64 /* exec context */, ssa.TypeI32 /* function index */},
			Results: []ssa.Type{ssa.TypeI64}, // returns the function reference.
		}, false))

	e.be.Init()
	addTrampoline(4, e.machine.CompileStackGrowCallSequence())

	e.be.Init()
	addTrampoline(5,
		e.machine.CompileGoFunctionTrampoline(wazevoapi.ExitCodeMemoryWait32, &ssa.Signature{
			// exec context, timeout, expected, addr
			Params: []ssa.Type{ssa.TypeI64, ssa.TypeI64, ssa.TypeI32, ssa.TypeI64},
			// Returns the status.
			Results: []ssa.Type{ssa.TypeI32},
		}, false))

	e.be.Init()
	addTrampoline(6,
		e.machine.CompileGoFunctionTrampoline(wazevoapi.ExitCodeMemoryWait64, &ssa.Signature{
			// exec context, timeout, expected, addr
			Params: []ssa.Type{ssa.TypeI64, ssa.TypeI64, ssa.TypeI64, ssa.TypeI64},
			// Returns the status.
			Results: []ssa.Type{ssa.TypeI32},
		}, false))

	e.be.Init()
	addTrampoline(7,
		e.machine.CompileGoFunctionTrampoline(wazevoapi.ExitCodeMemoryNotify, &ssa.Signature{
			// exec context, count, addr
			Params: []ssa.Type{ssa.TypeI64, ssa.TypeI32, ssa.TypeI64},
			// Returns the number notified.
			Results: []ssa.Type{ssa.TypeI32},
		}, false))

	e.be.Init()
	addTrampoline(8,
		e.machine.CompileGoFunctionTrampoline(wazevoapi.ExitCodeThrowAlloc, &ssa.Signature{
			// exec context, tag index → exnref
			Params:  []ssa.Type{ssa.TypeI64, ssa.TypeI64},
			Results: []ssa.Type{ssa.TypeI64},
		}, false))

	e.be.Init()
	addTrampoline(9,
		e.machine.CompileGoFunctionTrampoline(wazevoapi.ExitCodeThrow, &ssa.Signature{
			// exec context, exnref
			Params:  []ssa.Type{ssa.TypeI64, ssa.TypeI64},
			Results: []ssa.Type{},
		}, false))

	e.be.Init()
	addTrampoline(10,
		e.machine.CompileGoFunctionTrampoline(wazevoapi.ExitCodeTryTableEnter, &ssa.Signature{
			// exec context, catch clause info (encoded)
			Params:  []ssa.Type{ssa.TypeI64, ssa.TypeI64},
			Results: []ssa.Type{},
		}, false))

	e.be.Init()
	addTrampoline(11,
		e.machine.CompileGoFunctionTrampoline(wazevoapi.ExitCodeTryTableLeave, &ssa.Signature{
			// exec context
			Params:  []ssa.Type{ssa.TypeI64},
			Results: []ssa.Type{},
		}, false))

	fns := &sharedFunctions{
		executable:          mmapExecutable(trampolines),
		listenerTrampolines: make(listenerTrampolines),
	}
	e.setFinalizer(fns, sharedFunctionsFinalizer)

	offset := 0
	fns.memoryGrowAddress = &fns.executable[offset]
	offset += sizes[0]
	fns.tableGrowAddress = &fns.executable[offset]
	offset += sizes[1]
	fns.checkModuleExitCodeAddress = &fns.executable[offset]
	offset += sizes[2]
	fns.refFuncAddress = &fns.executable[offset]
	offset += sizes[3]
	fns.stackGrowAddress = &fns.executable[offset]
	offset += sizes[4]
	fns.memoryWait32Address = &fns.executable[offset]
	offset += sizes[5]
	fns.memoryWait64Address = &fns.executable[offset]
	offset += sizes[6]
	fns.memoryNotifyAddress = &fns.executable[offset]
	offset += sizes[7]
	fns.throwAllocTrampolineAddress = &fns.executable[offset]
	offset += sizes[8]
	fns.throwTrampolineAddress = &fns.executable[offset]
	offset += sizes[9]
	fns.tryTableEnterAddress = &fns.executable[offset]
	offset += sizes[10]
	fns.tryTableLeaveAddress = &fns.executable[offset]

	if wazevoapi.PerfMapEnabled {
		wazevoapi.PerfMap.AddEntry(uintptr(unsafe.Pointer(fns.memoryGrowAddress)), uint64(sizes[0]), "memory_grow_trampoline")
		wazevoapi.PerfMap.AddEntry(uintptr(unsafe.Pointer(fns.tableGrowAddress)), uint64(sizes[1]), "table_grow_trampoline")
		wazevoapi.PerfMap.AddEntry(uintptr(unsafe.Pointer(fns.checkModuleExitCodeAddress)), uint64(sizes[2]), "check_module_exit_code_trampoline")
		wazevoapi.PerfMap.AddEntry(uintptr(unsafe.Pointer(fns.refFuncAddress)), uint64(sizes[3]), "ref_func_trampoline")
		wazevoapi.PerfMap.AddEntry(uintptr(unsafe.Pointer(fns.stackGrowAddress)), uint64(sizes[4]), "stack_grow_trampoline")
		wazevoapi.PerfMap.AddEntry(uintptr(unsafe.Pointer(fns.memoryWait32Address)), uint64(sizes[5]), "memory_wait32_trampoline")
		wazevoapi.PerfMap.AddEntry(uintptr(unsafe.Pointer(fns.memoryWait64Address)), uint64(sizes[6]), "memory_wait64_trampoline")
		wazevoapi.PerfMap.AddEntry(uintptr(unsafe.Pointer(fns.memoryNotifyAddress)), uint64(sizes[7]), "memory_notify_trampoline")
		wazevoapi.PerfMap.AddEntry(uintptr(unsafe.Pointer(fns.throwAllocTrampolineAddress)), uint64(sizes[8]), "throw_alloc_trampoline")
		wazevoapi.PerfMap.AddEntry(uintptr(unsafe.Pointer(fns.throwTrampolineAddress)), uint64(sizes[9]), "throw_trampoline")
		wazevoapi.PerfMap.AddEntry(uintptr(unsafe.Pointer(fns.tryTableEnterAddress)), uint64(sizes[10]), "try_table_enter_trampoline")
		wazevoapi.PerfMap.AddEntry(uintptr(unsafe.Pointer(fns.tryTableLeaveAddress)), uint64(sizes[11]), "try_table_leave_trampoline")
	}

	e.sharedFunctions = fns
}

func sharedFunctionsFinalizer(sf *sharedFunctions) {
	if err := platform.MunmapCodeSegment(sf.executable); err != nil {
		panic(err)
	}
	for _, f := range sf.listenerTrampolines {
		if err := platform.MunmapCodeSegment(f.executable); err != nil {
			panic(err)
		}
	}

	sf.executable = nil
	sf.listenerTrampolines = nil
}

func executablesFinalizer(exec *executables) {
	exec.unregisterGuardedCode()
	if len(exec.executable) > 0 {
		if err := platform.MunmapCodeSegment(exec.executable); err != nil {
			panic(err)
		}
	}
	exec.executable = nil

	if len(exec.entryPreambles) > 0 {
		if err := platform.MunmapCodeSegment(exec.entryPreambles); err != nil {
			panic(err)
		}
	}
	exec.entryPreambles = nil
	for _, preamble := range exec.lazyPreambles { // (pybox patch 0046)
		if err := platform.MunmapCodeSegment(preamble); err != nil {
			panic(err)
		}
	}
	exec.lazyPreambles = nil
	exec.entryPreamblesPtrs = nil
}

func mmapExecutable(src []byte) []byte {
	executable, err := platform.MmapCodeSegment(len(src))
	if err != nil {
		panic(err)
	}

	copy(executable, src)

	if err = platform.MprotectCodeSegment(executable); err != nil {
		panic(err)
	}
	return executable
}

func (cm *compiledModule) functionIndexOf(addr uintptr) wasm.Index {
	if cm.lazy != nil {
		return cm.lazy.functionIndexOf(addr)
	}
	addr -= uintptr(unsafe.Pointer(&cm.executable[0]))
	offset := cm.functionOffsets
	index := sort.Search(len(offset), func(i int) bool {
		return offset[i] > int(addr)
	})
	index--
	if index < 0 {
		panic("BUG")
	}
	return wasm.Index(index)
}

func (e *engine) getListenerTrampolineForType(functionType *wasm.FunctionType) (before, after *byte) {
	e.mux.Lock()
	defer e.mux.Unlock()

	trampoline, ok := e.sharedFunctions.listenerTrampolines[functionType]
	if !ok {
		var executable []byte
		beforeSig, afterSig := frontend.SignatureForListener(functionType)

		e.be.Init()
		buf := e.machine.CompileGoFunctionTrampoline(wazevoapi.ExitCodeCallListenerBefore, beforeSig, false)
		executable = append(executable, buf...)

		align := 15 & -len(executable) // Align 16-bytes boundary.
		executable = append(executable, make([]byte, align)...)
		offset := len(executable)

		e.be.Init()
		buf = e.machine.CompileGoFunctionTrampoline(wazevoapi.ExitCodeCallListenerAfter, afterSig, false)
		executable = append(executable, buf...)

		trampoline.executable = mmapExecutable(executable)
		trampoline.before = &trampoline.executable[0]
		trampoline.after = &trampoline.executable[offset]

		e.sharedFunctions.listenerTrampolines[functionType] = trampoline
	}
	return trampoline.before, trampoline.after
}

func (cm *compiledModule) getSourceOffset(pc uintptr) uint64 {
	offsets := cm.sourceMap.executableOffsets
	if len(offsets) == 0 {
		return 0
	}

	index := sort.Search(len(offsets), func(i int) bool {
		return offsets[i] >= pc
	})

	index--
	if index < 0 {
		return 0
	}
	return cm.sourceMap.wasmBinaryOffsets[index]
}
