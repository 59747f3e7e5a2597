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

// buildEHSaveAreaModule returns a module whose exported f sets a local
// inside a try_table, calls a function that throws and catches an exception
// of its own, sets the local again, and calls a function that throws: f's
// handler returns the local, which must be 2, its value at the throw.
//
//	$catcher()  = (local $y) try { $y = 5; throw } catch_all {}
//	$thrower()  = throw
//	$f()        = (local $x) try { $x = 1; $catcher(); $x = 2; $thrower() } catch_all {}; $x
func buildEHSaveAreaModule() []byte {
	i32 := wasm.ValueTypeI32
	m := &wasm.Module{
		TypeSection: []wasm.FunctionType{
			{},
			{Results: []wasm.ValueType{i32}, ResultNumInUint64: 1},
		},
		TagSection:      []wasm.Tag{{Type: 0}},
		FunctionSection: []wasm.Index{0, 0, 1},
		CodeSection: []wasm.Code{
			// 0: $catcher
			{LocalTypes: []wasm.ValueType{i32}, Body: []byte{
				wasm.OpcodeBlock, 0x40,
				wasm.OpcodeTryTable, 0x40, 1, wasm.CatchKindCatchAll, 0,
				wasm.OpcodeI32Const, 5, wasm.OpcodeLocalSet, 0,
				wasm.OpcodeThrow, 0,
				wasm.OpcodeEnd,
				wasm.OpcodeEnd,
				wasm.OpcodeEnd,
			}},
			// 1: $thrower
			{Body: []byte{wasm.OpcodeThrow, 0, wasm.OpcodeEnd}},
			// 2: $f
			{LocalTypes: []wasm.ValueType{i32}, Body: []byte{
				wasm.OpcodeBlock, 0x40,
				wasm.OpcodeTryTable, 0x40, 1, wasm.CatchKindCatchAll, 0,
				wasm.OpcodeI32Const, 1, wasm.OpcodeLocalSet, 0,
				wasm.OpcodeCall, 0,
				wasm.OpcodeI32Const, 2, wasm.OpcodeLocalSet, 0,
				wasm.OpcodeCall, 1,
				wasm.OpcodeEnd,
				wasm.OpcodeI32Const, 0x7f, wasm.OpcodeReturn,
				wasm.OpcodeEnd,
				wasm.OpcodeLocalGet, 0,
				wasm.OpcodeEnd,
			}},
		},
		ExportSection: []wasm.Export{{Type: wasm.ExternTypeFunc, Name: "f", Index: 2}},
	}
	return binaryencoding.EncodeModule(m)
}

// TestEHSaveAreaAfterCalleeCatch: after a callee catches an exception of its
// own, a local set in the caller's try body reaches the caller's handler.
func TestEHSaveAreaAfterCalleeCatch(t *testing.T) {
	if !platform.CompilerSupported() {
		t.Skip()
	}
	ctx := context.Background()
	for _, cfg := range []struct {
		name string
		rc   wazero.RuntimeConfig
	}{
		{"compiler", wazero.NewRuntimeConfigCompiler()},
		{"interpreter", wazero.NewRuntimeConfigInterpreter()},
	} {
		t.Run(cfg.name, func(t *testing.T) {
			r := wazero.NewRuntimeWithConfig(ctx, cfg.rc.
				WithCoreFeatures(api.CoreFeaturesV2|experimental.CoreFeaturesExceptionHandling))
			defer r.Close(ctx)
			mod, err := r.Instantiate(ctx, buildEHSaveAreaModule())
			require.NoError(t, err)
			res, err := mod.ExportedFunction("f").Call(ctx)
			require.NoError(t, err)
			require.Equal(t, uint32(2), api.DecodeU32(res[0]))
		})
	}
}
