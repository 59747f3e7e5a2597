package wazevo

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/backend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/testcases"
	"github.com/tetratelabs/wazero/internal/testing/require"
	"github.com/tetratelabs/wazero/internal/wasm"
)

// TestLazy_sameCode checks that a function compiled lazily is the code an
// eager compile puts in the executable, byte for byte, but for the
// displacements of its direct calls (pybox patch 0040): lazy mode changes
// where code goes, never what it is.
func TestLazy_sameCode(t *testing.T) {
	if !lazySupported {
		t.Skip()
	}
	for _, tc := range []struct {
		name string
		m    *wasm.Module
	}{
		{"fibonacci", testcases.FibonacciRecursive.Module},
		{"call", testcases.Call.Module},
		{"call_indirect", testcases.CallIndirect.Module},
		{"call_many_params", testcases.CallManyParams.Module},
		{"call_many_returns", testcases.CallManyReturns.Module},
		{"tail_call_many_params", testcases.TailCallManyParams.Module},
		{"memory_loads", testcases.MemoryLoads.Module},
		{"br_table", testcases.BrTable.Module},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			features := api.CoreFeaturesV2 | experimental.CoreFeaturesTailCall
			require.NoError(t, tc.m.Validate(features))
			tc.m.AssignModuleID(nil, nil, false)

			eager := NewEngine(ctx, features, nil).(*engine)
			require.NoError(t, eager.CompileModule(ctx, tc.m, nil, false))
			ecm, ok := eager.getCompiledModuleFromMemory(tc.m, false)
			require.True(t, ok)

			lazy := NewEngine(ctx, features, nil).(*engine)
			require.NoError(t, lazy.CompileModule(experimental.WithLazyCompilation(ctx), tc.m, nil, false))
			lcm, ok := lazy.getCompiledModuleFromMemory(tc.m, false)
			require.True(t, ok)
			require.NotNil(t, lcm.lazy)

			calls := 0
			lcm.lazy.onCompile = func(i int, body []byte, rels []backend.RelocationInfo) {
				got := append([]byte(nil), body...)
				off := ecm.functionOffsets[i]
				want := append([]byte(nil), ecm.executable[off:off+len(body)]...)
				for _, r := range rels {
					for k := r.Offset; k < r.Offset+4; k++ {
						got[k], want[k] = 0, 0
					}
					calls++
				}
				require.Equal(t, want, got, "function %d", i)
			}
			// In index order, as the eager compile numbers try_tables.
			for i := range tc.m.CodeSection {
				lcm.lazy.compile(i)
			}
			require.Equal(t, len(tc.m.CodeSection), int(lcm.lazy.compiled.Load()))
			if tc.name == "fibonacci" && calls == 0 {
				t.Fatal("no direct call was compared")
			}
		})
	}
}

// TestLazy_fallback: when the region cannot be reserved (an address-space
// limit), CompileModule compiles the module whole instead, and validates
// the bodies the runtime left to their first calls (pybox patch 0042).
func TestLazy_fallback(t *testing.T) {
	if !lazySupported {
		t.Skip()
	}
	reserve := reserveLazyRegion
	defer func() { reserveLazyRegion = reserve }()
	reserveLazyRegion = func(int) ([]byte, error) { return nil, errors.New("cannot allocate memory") }

	features := api.CoreFeaturesV2
	ctx := experimental.WithLazyCompilation(context.Background())
	for _, tc := range []struct {
		name   string
		body   []byte
		expErr string
	}{
		{name: "valid", body: []byte{wasm.OpcodeI32Const, 7, wasm.OpcodeEnd}},
		{name: "invalid", body: []byte{wasm.OpcodeI64Const, 7, wasm.OpcodeEnd}, expErr: "cannot use i64 as result[0] type i32"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &wasm.Module{
				TypeSection:     []wasm.FunctionType{{Results: []wasm.ValueType{wasm.ValueTypeI32}}},
				FunctionSection: []wasm.Index{0},
				CodeSection:     []wasm.Code{{Body: tc.body}},
			}
			require.NoError(t, m.ValidateStructure(features))
			var err error
			m.ValidateBody, err = m.FunctionBodyValidator(features)
			require.NoError(t, err)
			m.AssignModuleID([]byte(tc.name), nil, false)

			e := NewEngine(ctx, features, nil).(*engine)
			err = e.CompileModule(ctx, m, nil, false)
			if tc.expErr != "" {
				require.Error(t, err)
				require.Contains(t, err.Error(), tc.expErr)
				return
			}
			require.NoError(t, err)
			cm, ok := e.getCompiledModuleFromMemory(m, false)
			require.True(t, ok)
			require.Nil(t, cm.lazy)
			require.True(t, len(cm.executable) > 0)
		})
	}
}

// TestLazy_compileAhead: with two compilation workers, the callees of a
// function compiled for its first call are compiled by another goroutine
// before they are called (pybox patch 0043); without, they are not.
func TestLazy_compileAhead(t *testing.T) {
	if !lazySupported {
		t.Skip()
	}
	features := api.CoreFeaturesV2
	// f0(x) calls f1 only if x != 0; f1 calls f2.
	m := &wasm.Module{
		TypeSection:     []wasm.FunctionType{{Params: []wasm.ValueType{wasm.ValueTypeI32}, Results: []wasm.ValueType{wasm.ValueTypeI32}}},
		FunctionSection: []wasm.Index{0, 0, 0},
		CodeSection: []wasm.Code{
			{Body: []byte{
				wasm.OpcodeLocalGet, 0, wasm.OpcodeIf, 0x7f,
				wasm.OpcodeLocalGet, 0, wasm.OpcodeCall, 1,
				wasm.OpcodeElse, wasm.OpcodeI32Const, 7, wasm.OpcodeEnd, wasm.OpcodeEnd,
			}},
			{Body: []byte{wasm.OpcodeLocalGet, 0, wasm.OpcodeCall, 2, wasm.OpcodeEnd}},
			{Body: []byte{wasm.OpcodeLocalGet, 0, wasm.OpcodeEnd}},
		},
	}
	require.NoError(t, m.Validate(features))
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprint(workers), func(t *testing.T) {
			m.AssignModuleID([]byte(fmt.Sprint(workers)), nil, false)
			ctx := experimental.WithLazyCompilation(experimental.WithCompilationWorkers(context.Background(), workers))
			e := NewEngine(ctx, features, nil).(*engine)
			require.NoError(t, e.CompileModule(ctx, m, nil, false))
			cm, ok := e.getCompiledModuleFromMemory(m, false)
			require.True(t, ok)
			compiled := make(chan int, 3)
			cm.lazy.onCompile = func(i int, _ []byte, _ []backend.RelocationInfo) { compiled <- i }

			cm.lazy.compile(0) // f0's first call
			require.Equal(t, 0, <-compiled)
			if workers == 1 {
				require.Equal(t, 1, int(cm.lazy.compiled.Load()))
				return
			}
			require.Equal(t, 1, <-compiled) // f1, ahead of its call
			cm.lazy.compile(1)              // Its call waits for that compile.
			require.Equal(t, 2, int(cm.lazy.compiled.Load()))
			// Not f2: callees of functions compiled ahead are not.
			require.Equal(t, uintptr(0), cm.lazy.compiledAt(2))
		})
	}
}
