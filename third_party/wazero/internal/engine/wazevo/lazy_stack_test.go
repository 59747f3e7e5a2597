package wazevo_test

import (
	"context"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/internal/leb128"
	"github.com/tetratelabs/wazero/internal/testing/binaryencoding"
	"github.com/tetratelabs/wazero/internal/testing/require"
	"github.com/tetratelabs/wazero/internal/wasm"
)

// TestLazy_firstCallsAtEveryDepth makes the first call of a function (the
// lazy-compile trampoline) at every stack depth from the top of a fresh
// stack to past its initial size, in steps smaller than the trampoline's
// frame, so that at some depth the trampoline itself must grow the stack
// before it exits to Go (pybox patch 0040). f(n, k) recurses n times, then
// calls g_k through the table: g_k's first call, at depth n.
func TestLazy_firstCallsAtEveryDepth(t *testing.T) {
	const fns = 600
	f := []byte{
		wasm.OpcodeLocalGet, 0, wasm.OpcodeI32Eqz,
		wasm.OpcodeIf, 0x7f, // (result i32)
		wasm.OpcodeLocalGet, 1, wasm.OpcodeLocalGet, 1, wasm.OpcodeCallIndirect, 1, 0,
		wasm.OpcodeElse,
		wasm.OpcodeLocalGet, 0, wasm.OpcodeI32Const, 1, wasm.OpcodeI32Sub, wasm.OpcodeLocalGet, 1, wasm.OpcodeCall, 0,
		wasm.OpcodeI32Const, 1, wasm.OpcodeI32Add,
		wasm.OpcodeEnd, wasm.OpcodeEnd,
	}
	m := &wasm.Module{
		TypeSection: []wasm.FunctionType{
			{Params: []wasm.ValueType{i32, i32}, Results: []wasm.ValueType{i32}},
			{Params: []wasm.ValueType{i32}, Results: []wasm.ValueType{i32}},
		},
		FunctionSection: []wasm.Index{0},
		CodeSection:     []wasm.Code{{Body: f}},
		TableSection:    []wasm.Table{{Type: wasm.RefTypeFuncref, Min: fns}},
		ExportSection:   []wasm.Export{{Name: "f", Type: wasm.ExternTypeFunc, Index: 0}},
	}
	seg := wasm.ElementSegment{
		OffsetExpr: wasm.ConstantExpression{Data: []byte{wasm.OpcodeI32Const, 0, wasm.OpcodeEnd}},
		TableIndex: 0, Type: wasm.RefTypeFuncref, Mode: wasm.ElementModeActive,
	}
	for i := 0; i < fns; i++ {
		m.FunctionSection = append(m.FunctionSection, 1)
		// g_i(x) = x + 1
		m.CodeSection = append(m.CodeSection, wasm.Code{Body: []byte{wasm.OpcodeLocalGet, 0, wasm.OpcodeI32Const, 1, wasm.OpcodeI32Add, wasm.OpcodeEnd}})
		seg.Init = append(seg.Init, wasm.NewConstantExpressionFromOpcode(wasm.OpcodeRefFunc, leb128.EncodeUint32(uint32(i+1))))
	}
	m.ElementSection = []wasm.ElementSegment{seg}

	ctx := experimental.WithLazyCompilation(context.Background())
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler())
	defer r.Close(ctx)
	mod, err := r.Instantiate(ctx, binaryencoding.EncodeModule(m))
	require.NoError(t, err)
	for n := uint64(0); n < fns; n++ {
		// A new api.Function each time: a fresh stack.
		res, err := mod.ExportedFunction("f").Call(ctx, n, n)
		require.NoError(t, err, "f(%d, %d)", n, n)
		require.Equal(t, []uint64{2*n + 1}, res, "f(%d, %d)", n, n)
	}
}
