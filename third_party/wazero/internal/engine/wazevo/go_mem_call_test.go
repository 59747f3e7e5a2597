package wazevo_test

import (
	"context"
	"encoding/binary"
	"math"
	"math/rand"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/internal/testing/binaryencoding"
	"github.com/tetratelabs/wazero/internal/testing/require"
	"github.com/tetratelabs/wazero/internal/wasm"
)

// Live values held across memory.copy and memory.fill by goMemCallModule's
// caller: more than there are registers, so that some sit in the registers
// wazevo's ABI keeps callee-saved (rdx, r12-r15, xmm8-xmm15).
const (
	goMemLiveInts   = 14
	goMemLiveFloats = 16
)

// goMemCallModule returns a module with one page of memory and an exported
// function "run" (op, dst, src, n i32, si i64, sf f64) -> (i64, f64). It
// computes goMemLiveInts i64 and goMemLiveFloats f64 values from si and sf,
// then does op: 0 calls a function that runs memory.copy dst src n, 1 one
// that runs memory.fill dst src n, 2 runs that memory.copy itself and 3 that
// memory.fill; then it folds the values into its two results
// (goMemCallReference).
func goMemCallModule() *wasm.Module {
	const (
		opOf, dstOf, srcOf, nOf, siOf, sfOf = 0, 1, 2, 3, 4, 5
		firstInt                            = 6
		firstFloat                          = firstInt + goMemLiveInts
	)
	var body []byte
	f64 := func(v float64) []byte {
		b := []byte{wasm.OpcodeF64Const, 0, 0, 0, 0, 0, 0, 0, 0}
		binary.LittleEndian.PutUint64(b[1:], math.Float64bits(v))
		return b
	}
	for k := 0; k < goMemLiveInts; k++ {
		body = append(body, wasm.OpcodeLocalGet, siOf, wasm.OpcodeI64Const, byte(k+3), wasm.OpcodeI64Mul,
			wasm.OpcodeI64Const, byte(k), wasm.OpcodeI64Add, wasm.OpcodeLocalSet, byte(firstInt+k))
	}
	for k := 0; k < goMemLiveFloats; k++ {
		body = append(body, wasm.OpcodeLocalGet, sfOf)
		body = append(body, f64(float64(k)+1.5)...)
		body = append(body, wasm.OpcodeF64Mul)
		body = append(body, f64(float64(k))...)
		body = append(body, wasm.OpcodeF64Add, wasm.OpcodeLocalSet, byte(firstFloat+k))
	}
	args := []byte{wasm.OpcodeLocalGet, dstOf, wasm.OpcodeLocalGet, srcOf, wasm.OpcodeLocalGet, nOf}
	memCopy := []byte{wasm.OpcodeMiscPrefix, wasm.OpcodeMiscMemoryCopy, 0, 0}
	memFill := []byte{wasm.OpcodeMiscPrefix, wasm.OpcodeMiscMemoryFill, 0}
	body = append(body, wasm.OpcodeLocalGet, opOf, wasm.OpcodeI32Eqz, wasm.OpcodeIf, 0x40)
	body = append(body, args...)
	body = append(body, wasm.OpcodeCall, 1, wasm.OpcodeElse)
	body = append(body, wasm.OpcodeLocalGet, opOf, wasm.OpcodeI32Const, 1, wasm.OpcodeI32Eq, wasm.OpcodeIf, 0x40)
	body = append(body, args...)
	body = append(body, wasm.OpcodeCall, 2, wasm.OpcodeElse)
	body = append(body, wasm.OpcodeLocalGet, opOf, wasm.OpcodeI32Const, 2, wasm.OpcodeI32Eq, wasm.OpcodeIf, 0x40)
	body = append(body, args...)
	body = append(body, memCopy...)
	body = append(body, wasm.OpcodeElse)
	body = append(body, args...)
	body = append(body, memFill...)
	body = append(body, wasm.OpcodeEnd, wasm.OpcodeEnd, wasm.OpcodeEnd)
	body = append(body, wasm.OpcodeLocalGet, firstInt)
	for k := 1; k < goMemLiveInts; k++ {
		body = append(body, wasm.OpcodeI64Const, 31, wasm.OpcodeI64Mul, wasm.OpcodeLocalGet, byte(firstInt+k), wasm.OpcodeI64Add)
	}
	body = append(body, f64(0)...)
	for k := 0; k < goMemLiveFloats; k++ {
		body = append(body, wasm.OpcodeLocalGet, byte(firstFloat+k))
		body = append(body, f64(float64(k+1))...)
		body = append(body, wasm.OpcodeF64Mul, wasm.OpcodeF64Add)
	}
	body = append(body, wasm.OpcodeEnd)

	i32, i64, f64t := wasm.ValueTypeI32, wasm.ValueTypeI64, wasm.ValueTypeF64
	copyBody := append(append([]byte{}, args[:6]...), memCopy...)
	fillBody := append(append([]byte{}, args[:6]...), memFill...)
	// In the callees the arguments are locals 0-2.
	copyBody[1], copyBody[3], copyBody[5] = 0, 1, 2
	fillBody[1], fillBody[3], fillBody[5] = 0, 1, 2
	localTypes := make([]wasm.ValueType, 0, goMemLiveInts+goMemLiveFloats)
	for k := 0; k < goMemLiveInts; k++ {
		localTypes = append(localTypes, i64)
	}
	for k := 0; k < goMemLiveFloats; k++ {
		localTypes = append(localTypes, f64t)
	}
	return &wasm.Module{
		TypeSection: []wasm.FunctionType{
			{Params: []wasm.ValueType{i32, i32, i32, i32, i64, f64t}, Results: []wasm.ValueType{i64, f64t}},
			{Params: []wasm.ValueType{i32, i32, i32}},
		},
		FunctionSection: []wasm.Index{0, 1, 1},
		CodeSection: []wasm.Code{
			{Body: body, LocalTypes: localTypes},
			{Body: append(copyBody, wasm.OpcodeEnd)},
			{Body: append(fillBody, wasm.OpcodeEnd)},
		},
		MemorySection: &wasm.Memory{Min: 1, Max: 1, IsMaxEncoded: true},
		ExportSection: []wasm.Export{
			{Name: "run", Type: wasm.ExternTypeFunc, Index: 0},
			{Name: "memory", Type: wasm.ExternTypeMemory, Index: 0},
		},
	}
}

// goMemCallReference computes goMemCallModule's results for si and sf.
func goMemCallReference(si int64, sf float64) (int64, float64) {
	acc := si*3 + 0
	for k := 1; k < goMemLiveInts; k++ {
		acc = acc*31 + (si*int64(k+3) + int64(k))
	}
	// The explicit conversions round each product, as wasm's f64.mul does:
	// without them Go may fuse a multiply and an add (it does on arm64).
	facc := 0.0
	for k := 0; k < goMemLiveFloats; k++ {
		v := float64(sf*(float64(k)+1.5)) + float64(k)
		facc += float64(v * float64(k+1))
	}
	return acc, facc
}

// TestE2E_goMemCallKeepsCalleeSaved checks that memory.copy and memory.fill,
// which call Go's memmove and memclrNoHeapPointers, leave the values their
// function and its caller hold in registers as they were, for sizes on
// either side of memmove's 128-byte boundary, overlapping copies in both
// directions, and fills of zero and of other bytes. On amd64 the call
// sequence saves what Go may write beyond the caller-saved registers (pybox
// patch 0067), instead of every function that copies saving it in its
// prologue. On linux/amd64, TestE2E_goMemCallKeepsCalleeSavedLazyGuarded
// runs it lazily compiled (as pybox runs before its compile finishes) and
// with a guarded memory (as pybox compiles). On arm64 the calls are plain
// calls and Go's code there writes only caller-saved registers.
func TestE2E_goMemCallKeepsCalleeSaved(t *testing.T) {
	ctx := context.Background()
	testGoMemCallKeepsCalleeSaved(t, ctx, ctx)
}

func testGoMemCallKeepsCalleeSaved(t *testing.T, ctx, callCtx context.Context) {
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler())
	defer r.Close(ctx)
	compiled, err := r.CompileModule(ctx, binaryencoding.EncodeModule(goMemCallModule()))
	require.NoError(t, err)
	inst, err := r.InstantiateModule(callCtx, compiled, wazero.NewModuleConfig())
	require.NoError(t, err)
	run := inst.ExportedFunction("run")
	mem := inst.Memory()

	rnd := rand.New(rand.NewSource(67))
	sizes := []int{0, 1, 2, 3, 4, 7, 8, 9, 16, 17, 32, 33, 64, 65, 127, 128, 129, 200, 255, 256, 257, 1000, 2047, 2048, 2049, 5000, 10000}
	ref := make([]byte, wasm.MemoryPageSize)
	for i := range ref {
		ref[i] = byte(rnd.Intn(256))
	}
	require.True(t, mem.Write(0, ref))
	for _, n := range sizes {
		for op := uint64(0); op < 4; op++ {
			for _, shift := range []int{-65, -9, -1, 0, 1, 9, 65, 30000} {
				src := 10000 + rnd.Intn(4000)
				dst := src + shift
				val := rnd.Intn(256)
				if op == 1 || op == 3 {
					if rnd.Intn(2) == 0 {
						val = 0 // memclr
					}
					for i := dst; i < dst+n; i++ {
						ref[i] = byte(val)
					}
				} else {
					copy(ref[dst:dst+n], ref[src:src+n])
					val = src
				}
				si, sf := rnd.Int63n(1<<40)-1<<39, rnd.NormFloat64()*1e6
				res, err := run.Call(callCtx, op, uint64(dst), uint64(val), uint64(n), uint64(si), math.Float64bits(sf))
				require.NoError(t, err)
				wantI, wantF := goMemCallReference(si, sf)
				require.Equal(t, uint64(wantI), res[0], "op %d n %d shift %d: i64 values", op, n, shift)
				require.Equal(t, wantF, math.Float64frombits(res[1]), "op %d n %d shift %d: f64 values", op, n, shift)
				got, ok := mem.Read(0, wasm.MemoryPageSize)
				require.True(t, ok)
				require.Equal(t, ref, got, "op %d n %d shift %d: memory", op, n, shift)
			}
		}
	}
}
