package frontend

import (
	"testing"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/ssa"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/wazevoapi"
	"github.com/tetratelabs/wazero/internal/testing/require"
	"github.com/tetratelabs/wazero/internal/wasm"
)

// TestLowerRelaxedSIMD checks the SSA of relaxed SIMD instructions (pybox
// patch: relaxed SIMD): the multiply-adds are VFmadd and VFnmadd, the other
// instructions their deterministic counterparts, and the opcode's second
// byte (0x02) is consumed, not read as an instruction.
func TestLowerRelaxedSIMD(t *testing.T) {
	v := wasm.ValueTypeV128
	for _, tc := range []struct {
		op  wasm.OpcodeVecRelaxed
		exp string
	}{
		{wasm.OpcodeVecRelaxedF64x2Madd, `
blk0: (exec_ctx:i64, module_ctx:i64, v2:v128, v3:v128, v4:v128)
	v5:v128 = VFmadd.f64x2 v2, v3, v4
	Jump blk_ret, v5
`},
		{wasm.OpcodeVecRelaxedF32x4Nmadd, `
blk0: (exec_ctx:i64, module_ctx:i64, v2:v128, v3:v128, v4:v128)
	v5:v128 = VFnmadd.f32x4 v2, v3, v4
	Jump blk_ret, v5
`},
		{wasm.OpcodeVecRelaxedI32x4Laneselect, `
blk0: (exec_ctx:i64, module_ctx:i64, v2:v128, v3:v128, v4:v128)
	v5:v128 = Vbitselect v4, v2, v3
	Jump blk_ret, v5
`},
		{wasm.OpcodeVecRelaxedI32x4DotI8x16I7x16AddS, `
blk0: (exec_ctx:i64, module_ctx:i64, v2:v128, v3:v128, v4:v128)
	v5:v128 = SwidenLow.i8x16 v2
	v6:v128 = SwidenLow.i8x16 v3
	v7:v128 = WideningPairwiseDotProductS v5, v6
	v8:v128 = SwidenHigh.i8x16 v2
	v9:v128 = SwidenHigh.i8x16 v3
	v10:v128 = WideningPairwiseDotProductS v8, v9
	v11:v128 = Shuffle.[0 1 4 5 8 9 12 13 16 17 20 21 24 25 28 29] v7, v10
	v12:v128 = IaddPairwise.i16x8 v11, v4294967295
	v13:v128 = VIadd.i32x4 v12, v4
	Jump blk_ret, v13
`},
	} {
		t.Run(wasm.RelaxedVectorInstructionName(tc.op), func(t *testing.T) {
			m := &wasm.Module{
				TypeSection:     []wasm.FunctionType{{Params: []wasm.ValueType{v, v, v}, Results: []wasm.ValueType{v}}},
				FunctionSection: []wasm.Index{0},
				CodeSection: []wasm.Code{{Body: []byte{
					wasm.OpcodeLocalGet, 0, wasm.OpcodeLocalGet, 1, wasm.OpcodeLocalGet, 2,
					wasm.OpcodeVecPrefix, 0x80 | tc.op, 0x02,
					wasm.OpcodeEnd,
				}}},
			}
			require.NoError(t, m.Validate(api.CoreFeaturesV2|experimental.CoreFeaturesRelaxedSIMD))
			b := ssa.NewBuilder()
			offset := wazevoapi.NewModuleContextOffsetData(m, false)
			fc := NewFrontendCompiler(m, b, &offset, false, false, false)
			code := &m.CodeSection[0]
			fc.Init(0, 0, &m.TypeSection[0], code.LocalTypes, code.Body, false, 0)
			fc.LowerToSSA()
			require.Equal(t, tc.exp, fc.formatBuilder())
		})
	}
}
