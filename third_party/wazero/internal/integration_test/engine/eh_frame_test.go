package adhoc

import (
	"context"
	"math/bits"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/internal/platform"
	"github.com/tetratelabs/wazero/internal/testing/binaryencoding"
	"github.com/tetratelabs/wazero/internal/testing/require"
	"github.com/tetratelabs/wazero/internal/wasm"
)

// ehFrameValues is how many i64 values $f keeps on the operand stack across
// its try_table, and how many i32 values its try body keeps live across calls.
const ehFrameValues = 12

// buildEHFrameModule returns a module whose exported outer(m, n) recurses m
// frames deep and calls $f(n) there. $f pushes ehFrameValues i64 values
// derived from n, which stay on the operand stack across a try_table and are
// combined after its handler ran; the try body computes ehFrameValues calls
// of $mix, all live at once (so they are spilled or kept in registers the
// values from before the try_table also use), sets a local to their sum,
// recurses n frames (the stack grows and moves), and throws. A try_table
// entry copies none of the stack (pybox patch 0006): the handler must find
// every value from before the entry, and the local as it was at the throw.
//
//	$down(n)     = n == 0 ? 0 : $down(n-1) + 1
//	$mix(x)      = 3x + 1
//	$f(n)        = v_k = n*(k+1)+k for k < 12;
//	               try { t = sum_k $mix(n+k) + $down(n); throw } catch_all {}
//	               fold(v) ^ t
//	$outer(m, n) = m == 0 ? $f(n) + $down(8n + 20000) : $outer(m-1, n)
//
// The recursion after $f returns is deeper than any before, so the stack
// grows again: that walks the frame pointers, which must all be on the
// current stack after the handler ran.
func buildEHFrameModule() []byte {
	i32, i64 := wasm.ValueTypeI32, wasm.ValueTypeI64
	var f []byte
	emit := func(b ...byte) { f = append(f, b...) }
	for k := 0; k < ehFrameValues; k++ {
		emit(wasm.OpcodeLocalGet, 0, wasm.OpcodeI64ExtendI32U,
			wasm.OpcodeI64Const, byte(k+1), wasm.OpcodeI64Mul,
			wasm.OpcodeI64Const, byte(k), wasm.OpcodeI64Add)
	}
	emit(wasm.OpcodeBlock, 0x40,
		wasm.OpcodeTryTable, 0x40, 1, wasm.CatchKindCatchAll, 0)
	for k := 0; k < ehFrameValues; k++ {
		emit(wasm.OpcodeLocalGet, 0, wasm.OpcodeI32Const, byte(k), wasm.OpcodeI32Add, wasm.OpcodeCall, 1)
	}
	for k := 1; k < ehFrameValues; k++ {
		emit(wasm.OpcodeI32Add)
	}
	emit(wasm.OpcodeLocalSet, 1,
		wasm.OpcodeLocalGet, 0, wasm.OpcodeCall, 0, wasm.OpcodeLocalGet, 1, wasm.OpcodeI32Add, wasm.OpcodeLocalSet, 1,
		wasm.OpcodeThrow, 0,
		wasm.OpcodeEnd,                               // try_table
		wasm.OpcodeI64Const, 0x7f, wasm.OpcodeReturn, // not reached: no throw
		wasm.OpcodeEnd) // block: the handler lands here
	for k := 1; k < ehFrameValues; k++ {
		emit(wasm.OpcodeI64Const, 31, wasm.OpcodeI64Rotl, wasm.OpcodeI64Xor)
	}
	emit(wasm.OpcodeLocalGet, 1, wasm.OpcodeI64ExtendI32U, wasm.OpcodeI64Xor, wasm.OpcodeEnd)

	ifZero := []byte{wasm.OpcodeLocalGet, 0, wasm.OpcodeI32Eqz, wasm.OpcodeIf}
	m := &wasm.Module{
		TypeSection: []wasm.FunctionType{
			{Params: []wasm.ValueType{i32}, Results: []wasm.ValueType{i32}, ParamNumInUint64: 1, ResultNumInUint64: 1},
			{},
			{Params: []wasm.ValueType{i32}, Results: []wasm.ValueType{i64}, ParamNumInUint64: 1, ResultNumInUint64: 1},
			{Params: []wasm.ValueType{i32, i32}, Results: []wasm.ValueType{i64}, ParamNumInUint64: 2, ResultNumInUint64: 1},
		},
		TagSection:      []wasm.Tag{{Type: 1}},
		FunctionSection: []wasm.Index{0, 0, 2, 3},
		CodeSection: []wasm.Code{
			// 0: $down
			{Body: append(append([]byte{}, ifZero...), 0x7f, wasm.OpcodeI32Const, 0, wasm.OpcodeElse,
				wasm.OpcodeLocalGet, 0, wasm.OpcodeI32Const, 1, wasm.OpcodeI32Sub, wasm.OpcodeCall, 0,
				wasm.OpcodeI32Const, 1, wasm.OpcodeI32Add, wasm.OpcodeEnd, wasm.OpcodeEnd)},
			// 1: $mix
			{Body: []byte{wasm.OpcodeLocalGet, 0, wasm.OpcodeI32Const, 3, wasm.OpcodeI32Mul,
				wasm.OpcodeI32Const, 1, wasm.OpcodeI32Add, wasm.OpcodeEnd}},
			// 2: $f
			{LocalTypes: []wasm.ValueType{i32}, Body: f},
			// 3: $outer
			{Body: append(append([]byte{}, ifZero...), 0x7e, wasm.OpcodeLocalGet, 1, wasm.OpcodeCall, 2,
				wasm.OpcodeLocalGet, 1, wasm.OpcodeI32Const, 8, wasm.OpcodeI32Mul, wasm.OpcodeI32Const, 0xa0, 0x9c, 0x01, // + 20000
				wasm.OpcodeI32Add, wasm.OpcodeCall, 0, wasm.OpcodeI64ExtendI32U, wasm.OpcodeI64Add, wasm.OpcodeElse,
				wasm.OpcodeLocalGet, 0, wasm.OpcodeI32Const, 1, wasm.OpcodeI32Sub, wasm.OpcodeLocalGet, 1, wasm.OpcodeCall, 3,
				wasm.OpcodeEnd, wasm.OpcodeEnd)},
		},
		ExportSection: []wasm.Export{{Type: wasm.ExternTypeFunc, Name: "outer", Index: 3}},
	}
	return binaryencoding.EncodeModule(m)
}

// ehFrameWant computes $outer(m, n) of buildEHFrameModule in Go.
func ehFrameWant(n uint32) uint64 {
	var v [ehFrameValues]uint64
	var t uint32
	for k := range v {
		v[k] = uint64(n)*uint64(k+1) + uint64(k)
		t += 3*(n+uint32(k)) + 1
	}
	t += n
	acc := v[ehFrameValues-1]
	for k := ehFrameValues - 2; k >= 0; k-- {
		acc = v[k] ^ bits.RotateLeft64(acc, 31)
	}
	return acc ^ uint64(t) + uint64(8*n+20000)
}

// TestEHFrameSurvivesTryBody: what a function keeps across a try_table entry
// (values on the operand stack, in spill slots or registers, the frame the
// entry's trampoline returns through) is what its handler finds after a
// throw from a try body that called functions, kept many values live, and
// grew the stack, entered at any depth (pybox patch 0006).
func TestEHFrameSurvivesTryBody(t *testing.T) {
	if !platform.CompilerSupported() {
		t.Skip()
	}
	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().
		WithCoreFeatures(api.CoreFeaturesV2|experimental.CoreFeaturesExceptionHandling))
	defer r.Close(ctx)
	cm, err := r.CompileModule(ctx, buildEHFrameModule())
	require.NoError(t, err)
	for _, tc := range []struct{ m, n uint32 }{
		{0, 0}, {0, 1}, {5, 3}, {0, 5000}, {3000, 0}, {3000, 5000}, {20000, 100}, {100, 20000},
	} {
		// A new instance starts on a new, small stack, so the first call
		// grows it inside the try body, after the entry.
		mod, err := r.InstantiateModule(ctx, cm, wazero.NewModuleConfig().WithName(""))
		require.NoError(t, err)
		outer := mod.ExportedFunction("outer")
		for i := 0; i < 3; i++ {
			res, err := outer.Call(ctx, uint64(tc.m), uint64(tc.n))
			require.NoError(t, err)
			require.Equal(t, ehFrameWant(tc.n), res[0], "outer(%d, %d), call %d", tc.m, tc.n, i)
		}
		require.NoError(t, mod.Close(ctx))
	}
}
