package backend_test

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/backend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/frontend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/ssa"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/testcases"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/wazevoapi"
	"github.com/tetratelabs/wazero/internal/testing/require"
	"github.com/tetratelabs/wazero/internal/wasm"
)

// TestBranchOnSplitEdgeFusesCompare checks that a conditional branch whose
// edge is split (a br_if back to a loop header that has block parameters:
// pybox patch 0015) still branches on the flags of its comparison instead of
// materializing the comparison's result first (amd64: setcc, movzx, test;
// arm64: cset, cbnz).
func TestBranchOnSplitEdgeFusesCompare(t *testing.T) {
	i32 := wasm.FunctionType{
		Params: []wasm.ValueType{wasm.ValueTypeI32}, Results: []wasm.ValueType{wasm.ValueTypeI32},
		ParamNumInUint64: 1, ResultNumInUint64: 1,
	}
	i64 := wasm.FunctionType{
		Params: []wasm.ValueType{wasm.ValueTypeI64}, Results: []wasm.ValueType{wasm.ValueTypeI64},
		ParamNumInUint64: 1, ResultNumInUint64: 1,
	}
	// Each body counts local 1 up in a loop whose back edge is a br_if on a
	// comparison; local 1 is a parameter of the loop header, so the back edge
	// is a critical edge with arguments and is split.
	for _, tc := range []struct {
		name  string
		typ   wasm.FunctionType
		local wasm.ValueType
		body  []byte
	}{
		{
			name: "i32.lt_s", typ: i32, local: wasm.ValueTypeI32,
			body: []byte{
				wasm.OpcodeLoop, 0x40,
				wasm.OpcodeLocalGet, 1, wasm.OpcodeI32Const, 1, wasm.OpcodeI32Add, wasm.OpcodeLocalSet, 1,
				wasm.OpcodeLocalGet, 1, wasm.OpcodeLocalGet, 0, wasm.OpcodeI32LtS,
				wasm.OpcodeBrIf, 0,
				wasm.OpcodeEnd,
				wasm.OpcodeLocalGet, 1,
				wasm.OpcodeEnd,
			},
		},
		{
			name: "i64.ge_u", typ: i64, local: wasm.ValueTypeI64,
			body: []byte{
				wasm.OpcodeLoop, 0x40,
				wasm.OpcodeLocalGet, 1, wasm.OpcodeI64Const, 3, wasm.OpcodeI64Add, wasm.OpcodeLocalSet, 1,
				wasm.OpcodeLocalGet, 0, wasm.OpcodeLocalGet, 1, wasm.OpcodeI64GeU,
				wasm.OpcodeBrIf, 0,
				wasm.OpcodeEnd,
				wasm.OpcodeLocalGet, 1,
				wasm.OpcodeEnd,
			},
		},
		{
			name: "i32.eqz of i32.and", typ: i32, local: wasm.ValueTypeI32,
			body: []byte{
				wasm.OpcodeLoop, 0x40,
				wasm.OpcodeLocalGet, 1, wasm.OpcodeI32Const, 1, wasm.OpcodeI32Add, wasm.OpcodeLocalSet, 1,
				wasm.OpcodeLocalGet, 1, wasm.OpcodeLocalGet, 0, wasm.OpcodeI32And, wasm.OpcodeI32Eqz,
				wasm.OpcodeBrIf, 0,
				wasm.OpcodeEnd,
				wasm.OpcodeLocalGet, 1,
				wasm.OpcodeEnd,
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := testcases.SingleFunctionModule(tc.typ, tc.body, []wasm.ValueType{tc.local})
			require.NoError(t, m.Validate(api.CoreFeaturesV2|experimental.CoreFeaturesExceptionHandling))

			ssab := ssa.NewBuilder()
			offset := wazevoapi.NewModuleContextOffsetData(m, false)
			fc := frontend.NewFrontendCompiler(m, ssab, &offset, false, false, false)
			machine := newMachine()
			machine.DisableStackCheck()
			be := backend.NewCompiler(context.Background(), machine, ssab)
			code := &m.CodeSection[0]
			fc.Init(0, 0, &m.TypeSection[0], code.LocalTypes, code.Body, false, 0)
			fc.LowerToSSA()
			ssab.RunPasses()

			// The back edge must have been split, or this tests nothing.
			ssaText := ssab.Format()
			require.True(t, strings.Contains(ssaText, "<-- (blk1)\n\tJump blk1"), ssaText)

			be.Lower()
			lowered := be.Format()
			materialized := "set"
			if runtime.GOARCH == "arm64" {
				materialized = "cset"
			}
			for _, line := range strings.Split(lowered, "\n") {
				if strings.HasPrefix(strings.TrimSpace(line), materialized) {
					t.Fatalf("comparison materialized for the split branch (%q):\n%s\nSSA:\n%s", line, lowered, ssaText)
				}
			}
		})
	}
}
