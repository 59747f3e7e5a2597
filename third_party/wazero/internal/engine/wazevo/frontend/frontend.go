// Package frontend implements the translation of WebAssembly to SSA IR using the ssa package.
package frontend

import (
	"bytes"
	"math"
	"slices"
	"sync"

	"github.com/tetratelabs/wazero/internal/engine/wazevo/ssa"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/wazevoapi"
	"github.com/tetratelabs/wazero/internal/wasm"
)

// Compiler is in charge of lowering Wasm to SSA IR, and does the optimization
// on top of it in architecture-independent way.
type Compiler struct {
	// Per-module data that is used across all functions.

	m      *wasm.Module
	offset *wazevoapi.ModuleContextOffsetData
	// ssaBuilder is a ssa.Builder used by this frontend.
	ssaBuilder             ssa.Builder
	signatures             map[*wasm.FunctionType]*ssa.Signature
	listenerSignatures     map[*wasm.FunctionType][2]*ssa.Signature
	memoryGrowSig          ssa.Signature
	memoryWait32Sig        ssa.Signature
	memoryWait64Sig        ssa.Signature
	memoryNotifySig        ssa.Signature
	checkModuleExitCodeSig ssa.Signature
	tableGrowSig           ssa.Signature
	refFuncSig             ssa.Signature
	memmoveSig             ssa.Signature
	ensureTermination      bool
	// guardedMemory: the linear memory never moves and is followed by
	// guard regions covering every address a load or store can form, so
	// plain loads and stores need no bounds check (pybox patch 0012).
	guardedMemory bool

	// Followings are reset by per function.

	// wasmLocalToVariable maps the index (considered as wasm.Index of locals)
	// to the corresponding ssa.Variable.
	wasmLocalToVariable                   [] /* local index to */ ssa.Variable
	wasmLocalFunctionIndex                wasm.Index
	wasmFunctionTypeIndex                 wasm.Index
	wasmFunctionTyp                       *wasm.FunctionType
	wasmFunctionLocalTypes                []wasm.ValueType
	wasmFunctionBody                      []byte
	wasmFunctionBodyOffsetInCodeSection   uint64
	memoryBaseVariable, memoryLenVariable ssa.Variable
	needMemory                            bool
	memoryShared                          bool
	globalVariables                       []ssa.Variable
	globalVariablesTypes                  []ssa.Type
	mutableGlobalVariablesIndexes         []wasm.Index // index to ^.
	needListener                          bool
	needSourceOffsetInfo                  bool

	// guardedMemoryBase is, with a guarded memory, the memory base loaded
	// once in the entry block: such a memory never moves, so every access
	// of the function uses this one value (pybox patch 0050).
	guardedMemoryBase ssa.Value

	// br is reused during lowering.
	br            *bytes.Reader
	loweringState loweringState

	knownSafeBounds    [] /* ssa.ValueID to */ knownSafeBound
	knownSafeBoundsSet []ssa.ValueID

	// knownSafeBoundsAtTheEndOfBlocks holds, per block, the known safe
	// bounds at its end until every successor that reads them has been
	// entered (pybox patch 0013; a pooled copy per block was kept until
	// the function's end, which for a function of tens of thousands of
	// blocks took hundreds of MB).
	knownSafeBoundsAtTheEndOfBlocks [] /* ssa.BlockID to */ knownSafeBoundsAtTheEndOfBlock
	// freeKnownSafeBounds are released snapshots' slices, reused.
	freeKnownSafeBounds [][]knownSafeBoundWithID
	// returnBlockEntered is the return block's entered flag (its ID is
	// too large for knownSafeBoundsAtTheEndOfBlocks).
	returnBlockEntered bool

	execCtxPtrValue, moduleCtxPtrValue ssa.Value

	// throwAllocSig is the signature for the throw-alloc trampoline:
	// (execCtx, tagIndex) → (exnref). Allocates the Exception and returns
	// its pointer so compiled code can pass it to the throw trampoline.
	throwAllocSig ssa.Signature
	// throwSig is the signature for the throw/throw_ref trampoline:
	// (execCtx, exnref) → (). Searches for a matching handler and restores.
	throwSig ssa.Signature
	// tryTableEnterSig is the signature for the try_table enter trampoline.
	tryTableEnterSig ssa.Signature
	// tryTableLeaveSig is the signature for the try_table leave trampoline.
	tryTableLeaveSig ssa.Signature
	// memclrSig is the signature of Go's runtime.memclrNoHeapPointers
	// (pointer, byte count), which memory.fill calls to write zeros (pybox
	// patch 0061).
	memclrSig ssa.Signature
	// tryTableMetadata accumulates try_table metadata during compilation.
	tryTableMetadata tryTableMetadata
	// tryTableDepth tracks try_table nesting. When > 0, local.set/local.tee
	// emit extra stores to the locals save area so handler blocks can read
	// throw-time values.
	tryTableDepth int

	// Following are reused for the known safe bounds analysis.

	pointers []int
	bounds   [][]knownSafeBoundWithID
}

type (
	// knownSafeBound represents a known safe bound for a value.
	knownSafeBound struct {
		// bound is a constant upper bound for the value.
		bound uint64
		// absoluteAddr is the absolute address of the value.
		absoluteAddr ssa.Value
	}
	// knownSafeBoundWithID is a knownSafeBound with the ID of the value.
	knownSafeBoundWithID struct {
		knownSafeBound
		id ssa.ValueID
	}
	// knownSafeBoundsAtTheEndOfBlock is what a block passes on to its
	// successors (pybox patch 0013).
	knownSafeBoundsAtTheEndOfBlock struct {
		// bounds are the known safe bounds at the end of the block, sorted
		// by id; nil when none, or when released.
		bounds []knownSafeBoundWithID
		// pending counts the edges to successors that have not been entered
		// yet: each reads bounds once when it is entered. At zero, bounds
		// are released.
		pending int
		// entered is set when the block's own known bounds were initialized
		// from its predecessors (it is then being lowered, or was).
		entered bool
	}
)

// maxRetainedKnownSafeBounds bounds the capacity (in entries) of released
// snapshot slices kept from one function to the next.
const maxRetainedKnownSafeBounds = 1 << 18

// NewFrontendCompiler returns a frontend Compiler.
func NewFrontendCompiler(m *wasm.Module, ssaBuilder ssa.Builder, offset *wazevoapi.ModuleContextOffsetData, ensureTermination bool, listenerOn bool, sourceInfo bool) *Compiler {
	c := &Compiler{
		m:                    m,
		ssaBuilder:           ssaBuilder,
		br:                   bytes.NewReader(nil),
		offset:               offset,
		ensureTermination:    ensureTermination,
		needSourceOffsetInfo: sourceInfo,
		tryTableMetadata:     &localTryTableMetadata{},
		guardedMemoryBase:    ssa.ValueInvalid,
	}
	c.declareSignatures(listenerOn)
	return c
}

// SetGuardedMemory makes the compiler leave out the bounds checks of plain
// loads and stores, and the reload of the memory base after calls: the
// compiled code must only run with a memory that never moves and whose
// reservation faults at every address past its length up to
// base + 2*(2^32-1) + 16 (pybox patch 0012).
func (c *Compiler) SetGuardedMemory(on bool) { c.guardedMemory = on }

// tryTableMetadata accumulates try_table metadata during compilation.
type tryTableMetadata interface {
	Append(info wazevoapi.TryTableInfo) int
	Table() []wazevoapi.TryTableInfo
}

// localTryTableMetadata is the single-threaded implementation.
type localTryTableMetadata struct {
	table []wazevoapi.TryTableInfo
}

func (t *localTryTableMetadata) Append(info wazevoapi.TryTableInfo) int {
	id := len(t.table)
	t.table = append(t.table, info)
	return id
}

func (t *localTryTableMetadata) Table() []wazevoapi.TryTableInfo {
	return t.table
}

// SharedTryTableMetadata is the thread-safe implementation for parallel compilation.
type SharedTryTableMetadata struct {
	mu        sync.Mutex
	table     []wazevoapi.TryTableInfo
	finalized bool
}

// NewSharedTryTableMetadata creates a new SharedTryTableMetadata.
func NewSharedTryTableMetadata() *SharedTryTableMetadata {
	return &SharedTryTableMetadata{}
}

func (s *SharedTryTableMetadata) Append(info wazevoapi.TryTableInfo) int {
	if s.finalized {
		panic("already finalized")
	}
	s.mu.Lock()
	id := len(s.table)
	s.table = append(s.table, info)
	s.mu.Unlock()
	return id
}

func (s *SharedTryTableMetadata) Table() []wazevoapi.TryTableInfo {
	s.finalized = true
	return s.table
}

// WithTryTableMetadata replaces the try_table metadata table implementation.
func (c *Compiler) WithTryTableMetadata(t tryTableMetadata) *Compiler {
	c.tryTableMetadata = t
	return c
}

// TryTableMetadata returns the accumulated try_table metadata.
func (c *Compiler) TryTableMetadata() []wazevoapi.TryTableInfo {
	return c.tryTableMetadata.Table()
}

func (c *Compiler) declareSignatures(listenerOn bool) {
	m := c.m
	c.signatures = make(map[*wasm.FunctionType]*ssa.Signature, len(m.TypeSection)+2)
	if listenerOn {
		c.listenerSignatures = make(map[*wasm.FunctionType][2]*ssa.Signature, len(m.TypeSection))
	}
	for i := range m.TypeSection {
		wasmSig := &m.TypeSection[i]
		sig := SignatureForWasmFunctionType(wasmSig)
		sig.ID = ssa.SignatureID(i)
		c.signatures[wasmSig] = &sig
		c.ssaBuilder.DeclareSignature(&sig)

		if listenerOn {
			beforeSig, afterSig := SignatureForListener(wasmSig)
			beforeSig.ID = ssa.SignatureID(i) + ssa.SignatureID(len(m.TypeSection))
			afterSig.ID = ssa.SignatureID(i) + ssa.SignatureID(len(m.TypeSection))*2
			c.listenerSignatures[wasmSig] = [2]*ssa.Signature{beforeSig, afterSig}
			c.ssaBuilder.DeclareSignature(beforeSig)
			c.ssaBuilder.DeclareSignature(afterSig)
		}
	}

	begin := ssa.SignatureID(len(m.TypeSection))
	if listenerOn {
		begin *= 3
	}
	c.memoryGrowSig = ssa.Signature{
		ID: begin,
		// Takes execution context and the page size to grow.
		Params: []ssa.Type{ssa.TypeI64, ssa.TypeI32},
		// Returns the previous page size.
		Results: []ssa.Type{ssa.TypeI32},
	}
	c.ssaBuilder.DeclareSignature(&c.memoryGrowSig)

	c.checkModuleExitCodeSig = ssa.Signature{
		ID: c.memoryGrowSig.ID + 1,
		// Only takes execution context.
		Params: []ssa.Type{ssa.TypeI64},
	}
	c.ssaBuilder.DeclareSignature(&c.checkModuleExitCodeSig)

	c.tableGrowSig = ssa.Signature{
		ID:     c.checkModuleExitCodeSig.ID + 1,
		Params: []ssa.Type{ssa.TypeI64 /* exec context */, ssa.TypeI32 /* table index */, ssa.TypeI32 /* num */, ssa.TypeI64 /* ref */},
		// Returns the previous size.
		Results: []ssa.Type{ssa.TypeI32},
	}
	c.ssaBuilder.DeclareSignature(&c.tableGrowSig)

	c.refFuncSig = ssa.Signature{
		ID:     c.tableGrowSig.ID + 1,
		Params: []ssa.Type{ssa.TypeI64 /* exec context */, ssa.TypeI32 /* func index */},
		// Returns the function reference.
		Results: []ssa.Type{ssa.TypeI64},
	}
	c.ssaBuilder.DeclareSignature(&c.refFuncSig)

	c.memmoveSig = ssa.Signature{
		ID: c.refFuncSig.ID + 1,
		// dst, src, and the byte count.
		Params: []ssa.Type{ssa.TypeI64, ssa.TypeI64, ssa.TypeI64},
	}

	c.ssaBuilder.DeclareSignature(&c.memmoveSig)

	c.memoryWait32Sig = ssa.Signature{
		ID: c.memmoveSig.ID + 1,
		// exec context, timeout, expected, addr
		Params: []ssa.Type{ssa.TypeI64, ssa.TypeI64, ssa.TypeI32, ssa.TypeI64},
		// Returns the status.
		Results: []ssa.Type{ssa.TypeI32},
	}
	c.ssaBuilder.DeclareSignature(&c.memoryWait32Sig)

	c.memoryWait64Sig = ssa.Signature{
		ID: c.memoryWait32Sig.ID + 1,
		// exec context, timeout, expected, addr
		Params: []ssa.Type{ssa.TypeI64, ssa.TypeI64, ssa.TypeI64, ssa.TypeI64},
		// Returns the status.
		Results: []ssa.Type{ssa.TypeI32},
	}
	c.ssaBuilder.DeclareSignature(&c.memoryWait64Sig)

	c.memoryNotifySig = ssa.Signature{
		ID: c.memoryWait64Sig.ID + 1,
		// exec context, count, addr
		Params: []ssa.Type{ssa.TypeI64, ssa.TypeI32, ssa.TypeI64},
		// Returns the number notified.
		Results: []ssa.Type{ssa.TypeI32},
	}
	c.ssaBuilder.DeclareSignature(&c.memoryNotifySig)

	c.throwAllocSig = ssa.Signature{
		ID:      c.memoryNotifySig.ID + 1,
		Params:  []ssa.Type{ssa.TypeI64 /* exec context */, ssa.TypeI64 /* tag index */},
		Results: []ssa.Type{ssa.TypeI64 /* exnref */},
	}
	c.ssaBuilder.DeclareSignature(&c.throwAllocSig)

	c.throwSig = ssa.Signature{
		ID:      c.throwAllocSig.ID + 1,
		Params:  []ssa.Type{ssa.TypeI64 /* exec context */, ssa.TypeI64 /* exnref */},
		Results: []ssa.Type{},
	}
	c.ssaBuilder.DeclareSignature(&c.throwSig)

	c.tryTableEnterSig = ssa.Signature{
		ID:      c.throwSig.ID + 1,
		Params:  []ssa.Type{ssa.TypeI64 /* exec context */, ssa.TypeI64 /* encoded exit code */},
		Results: []ssa.Type{},
	}
	c.ssaBuilder.DeclareSignature(&c.tryTableEnterSig)

	c.tryTableLeaveSig = ssa.Signature{
		ID:      c.tryTableEnterSig.ID + 1,
		Params:  []ssa.Type{ssa.TypeI64 /* exec context */},
		Results: []ssa.Type{},
	}
	c.ssaBuilder.DeclareSignature(&c.tryTableLeaveSig)

	c.memclrSig = ssa.Signature{
		ID:     c.tryTableLeaveSig.ID + 1,
		Params: []ssa.Type{ssa.TypeI64 /* dst */, ssa.TypeI64 /* byte count */},
	}
	c.ssaBuilder.DeclareSignature(&c.memclrSig)
}

// SignatureForWasmFunctionType returns the ssa.Signature for the given wasm.FunctionType.
func SignatureForWasmFunctionType(typ *wasm.FunctionType) ssa.Signature {
	sig := ssa.Signature{
		// +2 to pass moduleContextPtr and executionContextPtr. See the inline comment LowerToSSA.
		Params:  make([]ssa.Type, len(typ.Params)+2),
		Results: make([]ssa.Type, len(typ.Results)),
	}
	sig.Params[0] = executionContextPtrTyp
	sig.Params[1] = moduleContextPtrTyp
	for j, typ := range typ.Params {
		sig.Params[j+2] = WasmTypeToSSAType(typ)
	}
	for j, typ := range typ.Results {
		sig.Results[j] = WasmTypeToSSAType(typ)
	}
	return sig
}

// Init initializes the state of frontendCompiler and make it ready for a next function.
func (c *Compiler) Init(idx, typIndex wasm.Index, typ *wasm.FunctionType, localTypes []wasm.ValueType, body []byte, needListener bool, bodyOffsetInCodeSection uint64) {
	c.ssaBuilder.Init(c.signatures[typ])
	c.loweringState.reset()

	c.wasmFunctionTypeIndex = typIndex
	c.wasmLocalFunctionIndex = idx
	c.wasmFunctionTyp = typ
	c.wasmFunctionLocalTypes = localTypes
	c.wasmFunctionBody = body
	c.wasmFunctionBodyOffsetInCodeSection = bodyOffsetInCodeSection
	c.needListener = needListener
	c.tryTableDepth = 0
	c.clearSafeBounds()
	retained := 0
	for _, f := range c.freeKnownSafeBounds {
		retained += cap(f)
	}
	for i := range c.knownSafeBoundsAtTheEndOfBlocks {
		c.releaseKnownSafeBounds(&c.knownSafeBoundsAtTheEndOfBlocks[i])
	}
	// Keep what a typical function needs, not what the largest one did.
	kept := c.freeKnownSafeBounds[:0]
	retained = 0
	for _, f := range c.freeKnownSafeBounds {
		if retained+cap(f) <= maxRetainedKnownSafeBounds {
			retained += cap(f)
			kept = append(kept, f)
		}
	}
	clear(c.freeKnownSafeBounds[len(kept):])
	c.freeKnownSafeBounds = kept
	c.knownSafeBoundsAtTheEndOfBlocks = c.knownSafeBoundsAtTheEndOfBlocks[:0]
	c.returnBlockEntered = false
}

// Note: this assumes 64-bit platform (I believe we won't have 32-bit backend ;)).
const executionContextPtrTyp, moduleContextPtrTyp = ssa.TypeI64, ssa.TypeI64

// LowerToSSA lowers the current function to SSA IR which will be held by ssaBuilder.
//
// After calling this, the caller will be able to access the SSA info in *Compiler.ssaBuilder.
//
// Note that this only does the naive lowering, and do not do any optimization, instead the caller is expected to do so.
func (c *Compiler) LowerToSSA() {
	builder := c.ssaBuilder

	// Set up the entry block.
	entryBlock := builder.AllocateBasicBlock()
	builder.SetCurrentBlock(entryBlock)

	// Functions always take two parameters in addition to Wasm-level parameters:
	//
	//  1. executionContextPtr: pointer to the *executionContext in wazevo package.
	//    This will be used to exit the execution in the face of trap, plus used for host function calls.
	//
	// 	2. moduleContextPtr: pointer to the *moduleContextOpaque in wazevo package.
	//	  This will be used to access memory, etc. Also, this will be used during host function calls.
	//
	// Note: it's clear that sometimes a function won't need them. For example,
	//  if the function doesn't trap and doesn't make function call, then
	// 	we might be able to eliminate the parameter. However, if that function
	//	can be called via call_indirect, then we cannot eliminate because the
	//  signature won't match with the expected one.
	// TODO: maybe there's some way to do this optimization without glitches, but so far I have no clue about the feasibility.
	//
	// Note: In Wasmtime or many other runtimes, moduleContextPtr is called "vmContext". Also note that `moduleContextPtr`
	//  is wazero-specific since other runtimes can naturally use the OS-level signal to do this job thanks to the fact that
	//  they can use native stack vs wazero cannot use Go-routine stack and have to use Go-runtime allocated []byte as a stack.
	c.execCtxPtrValue = entryBlock.AddParam(builder, executionContextPtrTyp)
	c.moduleCtxPtrValue = entryBlock.AddParam(builder, moduleContextPtrTyp)
	builder.AnnotateValue(c.execCtxPtrValue, "exec_ctx")
	builder.AnnotateValue(c.moduleCtxPtrValue, "module_ctx")

	for i, typ := range c.wasmFunctionTyp.Params {
		st := WasmTypeToSSAType(typ)
		variable := builder.DeclareVariable(st)
		value := entryBlock.AddParam(builder, st)
		builder.DefineVariable(variable, value, entryBlock)
		c.setWasmLocalVariable(wasm.Index(i), variable)
	}
	c.declareWasmLocals()
	c.declareNecessaryVariables()

	// A guarded memory never moves (pybox patch 0012), so its base is one
	// value for the whole function, loaded here. Looked up as a variable
	// instead, it was loaded again from the module context at every block
	// with several predecessors (each bytecode handler of an interpreter
	// loop: reload the module context from the stack, then the base);
	// now a block that needs it at worst reloads it from its spill slot.
	// Unused, the load is removed as dead code.
	c.guardedMemoryBase = ssa.ValueInvalid
	if c.needMemory && c.guardedMemory {
		c.guardedMemoryBase = c.getMemoryBaseValue(true)
	}

	c.lowerBody(entryBlock)
}

// localVariable returns the SSA variable for the given Wasm local index.
func (c *Compiler) localVariable(index wasm.Index) ssa.Variable {
	return c.wasmLocalToVariable[index]
}

func (c *Compiler) setWasmLocalVariable(index wasm.Index, variable ssa.Variable) {
	idx := int(index)
	if idx >= len(c.wasmLocalToVariable) {
		c.wasmLocalToVariable = append(c.wasmLocalToVariable, make([]ssa.Variable, idx+1-len(c.wasmLocalToVariable))...)
	}
	c.wasmLocalToVariable[idx] = variable
}

// declareWasmLocals declares the SSA variables for the Wasm locals.
func (c *Compiler) declareWasmLocals() {
	localCount := wasm.Index(len(c.wasmFunctionTyp.Params))
	for i, typ := range c.wasmFunctionLocalTypes {
		st := WasmTypeToSSAType(typ)
		variable := c.ssaBuilder.DeclareVariable(st)
		c.setWasmLocalVariable(wasm.Index(i)+localCount, variable)
		c.ssaBuilder.InsertZeroValue(st)
	}
}

func (c *Compiler) declareNecessaryVariables() {
	if c.needMemory = c.m.MemorySection != nil; c.needMemory {
		c.memoryShared = c.m.MemorySection.IsShared
	} else if c.needMemory = c.m.ImportMemoryCount > 0; c.needMemory {
		for _, imp := range c.m.ImportSection {
			if imp.Type == wasm.ExternTypeMemory {
				c.memoryShared = imp.DescMem.IsShared
				break
			}
		}
	}

	if c.needMemory {
		c.memoryBaseVariable = c.ssaBuilder.DeclareVariable(ssa.TypeI64)
		c.memoryLenVariable = c.ssaBuilder.DeclareVariable(ssa.TypeI64)
	}

	c.globalVariables = c.globalVariables[:0]
	c.mutableGlobalVariablesIndexes = c.mutableGlobalVariablesIndexes[:0]
	c.globalVariablesTypes = c.globalVariablesTypes[:0]
	for _, imp := range c.m.ImportSection {
		if imp.Type == wasm.ExternTypeGlobal {
			desc := imp.DescGlobal
			c.declareWasmGlobal(desc.ValType, desc.Mutable)
		}
	}
	for _, g := range c.m.GlobalSection {
		desc := g.Type
		c.declareWasmGlobal(desc.ValType, desc.Mutable)
	}

	// TODO: add tables.
}

func (c *Compiler) declareWasmGlobal(typ wasm.ValueType, mutable bool) {
	st := WasmTypeToSSAType(typ)
	v := c.ssaBuilder.DeclareVariable(st)
	index := wasm.Index(len(c.globalVariables))
	c.globalVariables = append(c.globalVariables, v)
	c.globalVariablesTypes = append(c.globalVariablesTypes, st)
	if mutable {
		c.mutableGlobalVariablesIndexes = append(c.mutableGlobalVariablesIndexes, index)
	}
}

// WasmTypeToSSAType converts wasm.ValueType to ssa.Type.
func WasmTypeToSSAType(vt wasm.ValueType) ssa.Type {
	switch vt {
	case wasm.ValueTypeI32:
		return ssa.TypeI32
	case wasm.ValueTypeI64,
		// externref, funcref, and exnref are represented as I64 since we only support 64-bit platforms.
		wasm.ValueTypeExternref, wasm.ValueTypeFuncref,
		wasm.ValueTypeExnref:
		return ssa.TypeI64
	case wasm.ValueTypeF32:
		return ssa.TypeF32
	case wasm.ValueTypeF64:
		return ssa.TypeF64
	case wasm.ValueTypeV128:
		return ssa.TypeV128
	default:
		// Concrete ref types (ref $t) have variable bit patterns.
		if vt.IsRef() {
			return ssa.TypeI64
		}
		panic("TODO: " + wasm.ValueTypeName(vt))
	}
}

// addBlockParamsFromWasmTypes adds the block parameters to the given block.
func (c *Compiler) addBlockParamsFromWasmTypes(tps []wasm.ValueType, blk ssa.BasicBlock) {
	for _, typ := range tps {
		st := WasmTypeToSSAType(typ)
		blk.AddParam(c.ssaBuilder, st)
	}
}

// formatBuilder outputs the constructed SSA function as a string with a source information.
func (c *Compiler) formatBuilder() string {
	return c.ssaBuilder.Format()
}

// SignatureForListener returns the signatures for the listener functions.
func SignatureForListener(wasmSig *wasm.FunctionType) (*ssa.Signature, *ssa.Signature) {
	beforeSig := &ssa.Signature{}
	beforeSig.Params = make([]ssa.Type, len(wasmSig.Params)+2)
	beforeSig.Params[0] = ssa.TypeI64 // Execution context.
	beforeSig.Params[1] = ssa.TypeI32 // Function index.
	for i, p := range wasmSig.Params {
		beforeSig.Params[i+2] = WasmTypeToSSAType(p)
	}
	afterSig := &ssa.Signature{}
	afterSig.Params = make([]ssa.Type, len(wasmSig.Results)+2)
	afterSig.Params[0] = ssa.TypeI64 // Execution context.
	afterSig.Params[1] = ssa.TypeI32 // Function index.
	for i, p := range wasmSig.Results {
		afterSig.Params[i+2] = WasmTypeToSSAType(p)
	}
	return beforeSig, afterSig
}

// isBoundSafe returns true if the given value is known to be safe to access up to the given bound.
func (c *Compiler) getKnownSafeBound(v ssa.ValueID) *knownSafeBound {
	if int(v) >= len(c.knownSafeBounds) {
		return nil
	}
	return &c.knownSafeBounds[v]
}

// recordKnownSafeBound records the given safe bound for the given value.
func (c *Compiler) recordKnownSafeBound(v ssa.ValueID, safeBound uint64, absoluteAddr ssa.Value) {
	if int(v) >= len(c.knownSafeBounds) {
		c.knownSafeBounds = append(c.knownSafeBounds, make([]knownSafeBound, v+1)...)
	}

	if exiting := c.knownSafeBounds[v]; exiting.bound == 0 {
		c.knownSafeBounds[v] = knownSafeBound{
			bound:        safeBound,
			absoluteAddr: absoluteAddr,
		}
		c.knownSafeBoundsSet = append(c.knownSafeBoundsSet, v)
	} else if safeBound > exiting.bound {
		c.knownSafeBounds[v].bound = safeBound
	}
}

// clearSafeBounds clears the known safe bounds.
func (c *Compiler) clearSafeBounds() {
	for _, v := range c.knownSafeBoundsSet {
		ptr := &c.knownSafeBounds[v]
		ptr.bound = 0
		ptr.absoluteAddr = ssa.ValueInvalid
	}
	c.knownSafeBoundsSet = c.knownSafeBoundsSet[:0]
}

// resetAbsoluteAddressInSafeBounds resets the absolute addresses recorded in the known safe bounds.
func (c *Compiler) resetAbsoluteAddressInSafeBounds() {
	for _, v := range c.knownSafeBoundsSet {
		ptr := &c.knownSafeBounds[v]
		ptr.absoluteAddr = ssa.ValueInvalid
	}
}

func (k *knownSafeBound) valid() bool {
	return k != nil && k.bound > 0
}

func (c *Compiler) allocateVarLengthValues(_cap int, vs ...ssa.Value) ssa.Values {
	builder := c.ssaBuilder
	pool := builder.VarLengthPool()
	args := pool.Allocate(_cap)
	args = args.Append(pool, vs...)
	return args
}

// knownSafeBoundsAt returns the entry of block id, growing the table as
// needed. The pointer is valid until the table grows again.
func (c *Compiler) knownSafeBoundsAt(id ssa.BasicBlockID) *knownSafeBoundsAtTheEndOfBlock {
	if l := len(c.knownSafeBoundsAtTheEndOfBlocks); int(id) >= l {
		c.knownSafeBoundsAtTheEndOfBlocks = append(c.knownSafeBoundsAtTheEndOfBlocks,
			make([]knownSafeBoundsAtTheEndOfBlock, int(id)+1-l)...)
	}
	return &c.knownSafeBoundsAtTheEndOfBlocks[id]
}

// releaseKnownSafeBounds drops e's snapshot, keeping its slice for reuse.
func (c *Compiler) releaseKnownSafeBounds(e *knownSafeBoundsAtTheEndOfBlock) {
	if e.bounds != nil {
		c.freeKnownSafeBounds = append(c.freeKnownSafeBounds, e.bounds[:0])
		e.bounds = nil
	}
	e.pending = 0
}

func (c *Compiler) finalizeKnownSafeBoundsAtTheEndOfBlock(bID ssa.BasicBlockID) {
	// Every branch out of the block has been emitted: count the edges to
	// successors not entered yet, the only readers of this snapshot (a
	// successor entered before, a loop header reached by a back edge, does
	// not read it again).
	blk := c.ssaBuilder.BasicBlock(bID)
	c.knownSafeBoundsAt(bID) // grow before the successors' lookups.
	pending := 0
	for i, n := 0, blk.Succs(); i < n; i++ {
		if !c.blockEntered(blk.Succ(i)) {
			pending++
		}
	}
	e := c.knownSafeBoundsAt(bID)
	c.releaseKnownSafeBounds(e)
	if size := len(c.knownSafeBoundsSet); size > 0 && pending > 0 {
		var bounds []knownSafeBoundWithID
		if n := len(c.freeKnownSafeBounds); n > 0 {
			bounds = c.freeKnownSafeBounds[n-1]
			c.freeKnownSafeBounds[n-1] = nil
			c.freeKnownSafeBounds = c.freeKnownSafeBounds[:n-1]
		}
		bounds = slices.Grow(bounds, size)
		// Sort the known safe bounds by the value ID so that we can use the intersection algorithm in initializeCurrentBlockKnownBounds.
		sortSSAValueIDs(c.knownSafeBoundsSet)
		for _, vID := range c.knownSafeBoundsSet {
			bounds = append(bounds, knownSafeBoundWithID{
				knownSafeBound: c.knownSafeBounds[vID],
				id:             vID,
			})
		}
		e.bounds, e.pending = bounds, pending
	}
	c.clearSafeBounds()
}

// blockEntered reports whether blk's known bounds were initialized.
func (c *Compiler) blockEntered(blk ssa.BasicBlock) bool {
	if blk.ReturnBlock() {
		return c.returnBlockEntered
	}
	id := blk.ID()
	return int(id) < len(c.knownSafeBoundsAtTheEndOfBlocks) && c.knownSafeBoundsAtTheEndOfBlocks[id].entered
}

// readKnownSafeBoundsOfPreds is called once the current block has read its
// predecessors' snapshots: each read one edge's worth, and a snapshot no
// successor will read again is released.
func (c *Compiler) readKnownSafeBoundsOfPreds(blk ssa.BasicBlock) {
	for i, n := 0, blk.Preds(); i < n; i++ {
		pid := blk.Pred(i).ID()
		if int(pid) >= len(c.knownSafeBoundsAtTheEndOfBlocks) {
			continue
		}
		e := &c.knownSafeBoundsAtTheEndOfBlocks[pid]
		if e.pending > 0 {
			if e.pending--; e.pending == 0 {
				c.releaseKnownSafeBounds(e)
			}
		}
	}
}

func (c *Compiler) initializeCurrentBlockKnownBounds() {
	currentBlk := c.ssaBuilder.CurrentBlock()
	if c.blockEntered(currentBlk) {
		// Not expected (a block is lowered once). Its predecessors'
		// snapshots may be released: start with no known bounds, which
		// only keeps bounds checks that could have been left out.
		return
	}
	if currentBlk.ReturnBlock() {
		c.returnBlockEntered = true
	} else {
		c.knownSafeBoundsAt(currentBlk.ID()).entered = true
	}
	defer c.readKnownSafeBoundsOfPreds(currentBlk)
	switch preds := currentBlk.Preds(); preds {
	case 0:
	case 1:
		pred := currentBlk.Pred(0).ID()
		for _, kb := range c.getKnownSafeBoundsAtTheEndOfBlocks(pred) {
			// Unless the block is sealed, we cannot assume the absolute address is valid:
			// later we might add another predecessor that has no visibility of that value.
			addr := ssa.ValueInvalid
			if currentBlk.Sealed() {
				addr = kb.absoluteAddr
			}
			c.recordKnownSafeBound(kb.id, kb.bound, addr)
		}
	default:
		c.pointers = c.pointers[:0]
		c.bounds = c.bounds[:0]
		for i := 0; i < preds; i++ {
			c.bounds = append(c.bounds, c.getKnownSafeBoundsAtTheEndOfBlocks(currentBlk.Pred(i).ID()))
			c.pointers = append(c.pointers, 0)
		}

		// If there are multiple predecessors, we need to find the intersection of the known safe bounds.

	outer:
		for {
			smallestID := ssa.ValueID(math.MaxUint32)
			for i, ptr := range c.pointers {
				if ptr >= len(c.bounds[i]) {
					break outer
				}
				cb := &c.bounds[i][ptr]
				if id := cb.id; id < smallestID {
					smallestID = cb.id
				}
			}

			// Check if current elements are the same across all lists.
			same := true
			minBound := uint64(math.MaxUint64)
			for i := 0; i < preds; i++ {
				cb := &c.bounds[i][c.pointers[i]]
				if cb.id != smallestID {
					same = false
				} else {
					if cb.bound < minBound {
						minBound = cb.bound
					}
					c.pointers[i]++
				}
			}

			if same { // All elements are the same.
				// Absolute address cannot be used in the intersection since the value might be only defined in one of the predecessors.
				c.recordKnownSafeBound(smallestID, minBound, ssa.ValueInvalid)
			}
		}
	}
}

func (c *Compiler) getKnownSafeBoundsAtTheEndOfBlocks(id ssa.BasicBlockID) []knownSafeBoundWithID {
	if int(id) >= len(c.knownSafeBoundsAtTheEndOfBlocks) {
		return nil
	}
	return c.knownSafeBoundsAtTheEndOfBlocks[id].bounds
}
