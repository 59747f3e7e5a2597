package adhoc

import (
	"context"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/internal/platform"
	"github.com/tetratelabs/wazero/internal/testing/binaryencoding"
	"github.com/tetratelabs/wazero/internal/testing/require"
	"github.com/tetratelabs/wazero/internal/wasm"
)

// buildEHCloneModule returns a module whose exported outer(m, n) recurses m
// frames deep, enters a try_table there (so the checkpoint copies m frames),
// throws from n frames further down (the stack grows past the checkpoint's
// length), and in the handler recurses n frames again on the adopted
// checkpoint stack, which must grow too. It returns m + n + 7, where 7 is a
// local set before the try_table.
//
//	$down(n)      = n == 0 ? 0 : $down(n-1) + 1
//	$throwdeep(n) = n == 0 ? throw $e : $throwdeep(n-1) + 1
//	$f(n)         = (local $x = 7) block (try_table (catch_all 0) $throwdeep(n) drop) -1 return end; $down(n) + $x
//	$outer(m, n)  = m == 0 ? $f(n) : $outer(m-1, n) + 1
func buildEHCloneModule() []byte {
	i32 := wasm.ValueTypeI32
	dec := []byte{wasm.OpcodeLocalGet, 0, wasm.OpcodeI32Const, 1, wasm.OpcodeI32Sub}
	inc := []byte{wasm.OpcodeI32Const, 1, wasm.OpcodeI32Add}
	cat := func(parts ...[]byte) (b []byte) {
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	ifZero := []byte{wasm.OpcodeLocalGet, 0, wasm.OpcodeI32Eqz, wasm.OpcodeIf, 0x7f} // if (result i32)
	m := &wasm.Module{
		TypeSection: []wasm.FunctionType{
			{Params: []wasm.ValueType{i32}, Results: []wasm.ValueType{i32}, ParamNumInUint64: 1, ResultNumInUint64: 1},
			{},
			{Params: []wasm.ValueType{i32, i32}, Results: []wasm.ValueType{i32}, ParamNumInUint64: 2, ResultNumInUint64: 1},
		},
		TagSection:      []wasm.Tag{{Type: 1}},
		FunctionSection: []wasm.Index{0, 0, 0, 2},
		CodeSection: []wasm.Code{
			// 0: $down
			{Body: cat(ifZero, []byte{wasm.OpcodeI32Const, 0, wasm.OpcodeElse}, dec,
				[]byte{wasm.OpcodeCall, 0}, inc, []byte{wasm.OpcodeEnd, wasm.OpcodeEnd})},
			// 1: $throwdeep
			{Body: cat(ifZero, []byte{wasm.OpcodeThrow, 0, wasm.OpcodeElse}, dec,
				[]byte{wasm.OpcodeCall, 1}, inc, []byte{wasm.OpcodeEnd, wasm.OpcodeEnd})},
			// 2: $f
			{LocalTypes: []wasm.ValueType{i32}, Body: []byte{
				wasm.OpcodeI32Const, 7, wasm.OpcodeLocalSet, 1,
				wasm.OpcodeBlock, 0x40,
				wasm.OpcodeTryTable, 0x40, 1, wasm.CatchKindCatchAll, 0,
				wasm.OpcodeLocalGet, 0, wasm.OpcodeCall, 1, wasm.OpcodeDrop,
				wasm.OpcodeEnd,
				wasm.OpcodeI32Const, 0x7f, wasm.OpcodeReturn,
				wasm.OpcodeEnd,
				wasm.OpcodeLocalGet, 0, wasm.OpcodeCall, 0,
				wasm.OpcodeLocalGet, 1, wasm.OpcodeI32Add,
				wasm.OpcodeEnd,
			}},
			// 3: $outer
			{Body: cat(ifZero, []byte{wasm.OpcodeLocalGet, 1, wasm.OpcodeCall, 2, wasm.OpcodeElse}, dec,
				[]byte{wasm.OpcodeLocalGet, 1, wasm.OpcodeCall, 3}, inc, []byte{wasm.OpcodeEnd, wasm.OpcodeEnd})},
		},
		ExportSection: []wasm.Export{{Type: wasm.ExternTypeFunc, Name: "outer", Index: 3}},
	}
	return binaryencoding.EncodeModule(m)
}

// TestEHCheckpointStack: a try_table's checkpoint copies only the used part
// of the stack (pybox patch 0003); a handler that adopts it must still run
// deep calls (the stack grows), entered at any depth, many times over.
func TestEHCheckpointStack(t *testing.T) {
	if !platform.CompilerSupported() {
		t.Skip()
	}
	// The interpreter keeps no stack copies (and overflows sooner), so only
	// the compiler is run.
	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().
		WithCoreFeatures(api.CoreFeaturesV2|experimental.CoreFeaturesExceptionHandling))
	defer r.Close(ctx)
	mod, err := r.Instantiate(ctx, buildEHCloneModule())
	require.NoError(t, err)
	outer := mod.ExportedFunction("outer")
	for _, tc := range []struct{ m, n uint64 }{
		{0, 0}, {0, 1}, {1, 0}, {0, 5000}, {3000, 0}, {3000, 5000}, {100, 20000}, {20000, 100},
	} {
		for i := 0; i < 20; i++ {
			res, err := outer.Call(ctx, tc.m, tc.n)
			require.NoError(t, err)
			require.Equal(t, uint32(tc.m+tc.n+7), api.DecodeU32(res[0]), "outer(%d, %d)", tc.m, tc.n)
		}
	}
}
