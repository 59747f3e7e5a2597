package amd64

import (
	"testing"

	"github.com/tetratelabs/wazero/internal/engine/wazevo/backend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/backend/regalloc"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/ssa"
	"github.com/tetratelabs/wazero/internal/platform"
	"github.com/tetratelabs/wazero/internal/testing/require"
)

// Test_machine_lowerVFmadd checks that relaxed SIMD's multiply-adds lower to
// one fused VEX instruction with FMA and to a multiplication and an addition
// (or a subtraction from z) without.
func Test_machine_lowerVFmadd(t *testing.T) {
	for _, tc := range []struct {
		name     string
		cpuFlags platform.CpuFeatureFlags
		lane     ssa.VecLane
		negate   bool
		exp      string
	}{
		{
			name: "f64x2 madd, FMA", cpuFlags: platform.CpuFeatureAmd64FMA, lane: ssa.VecLaneF64x2,
			exp: `
	movdqu %xmm2, %xmm4?
	vfmadd231pd %xmm1, %xmm0, %xmm4?
	movdqu %xmm4?, %xmm3
`,
		},
		{
			name: "f32x4 nmadd, FMA", cpuFlags: platform.CpuFeatureAmd64FMA, lane: ssa.VecLaneF32x4, negate: true,
			exp: `
	movdqu %xmm2, %xmm4?
	vfnmadd231ps %xmm1, %xmm0, %xmm4?
	movdqu %xmm4?, %xmm3
`,
		},
		{
			name: "f64x2 madd, no FMA", lane: ssa.VecLaneF64x2,
			exp: `
	movdqu %xmm0, %xmm4?
	mulpd %xmm1, %xmm4?
	movdqu %xmm2, %xmm5?
	addpd %xmm4?, %xmm5?
	movdqu %xmm5?, %xmm3
`,
		},
		{
			name: "f32x4 nmadd, no FMA", lane: ssa.VecLaneF32x4, negate: true,
			exp: `
	movdqu %xmm0, %xmm4?
	mulps %xmm1, %xmm4?
	movdqu %xmm2, %xmm5?
	subps %xmm4?, %xmm5?
	movdqu %xmm5?, %xmm3
`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, b, m := newSetupWithMockContext()
			m.cpuFeatures = tc.cpuFlags
			x := b.CurrentBlock().AddParam(b, ssa.TypeV128)
			y := b.CurrentBlock().AddParam(b, ssa.TypeV128)
			z := b.CurrentBlock().AddParam(b, ssa.TypeV128)
			for v, r := range map[ssa.Value]int{x: 0, y: 1, z: 2} {
				ctx.vRegMap[v] = []regalloc.VReg{xmm0VReg, xmm1VReg, xmm2VReg}[r]
				ctx.definitions[v] = backend.SSAValueDefinition{V: v}
				ctx.typeOf[ctx.vRegMap[v].ID()] = ssa.TypeV128
			}
			instr := b.AllocateInstruction().AsVFmadd(x, y, z, tc.lane, tc.negate)
			b.InsertInstruction(instr)
			ctx.vRegMap[instr.Return()] = xmm3VReg
			ctx.vRegCounter = 3
			m.lowerVFmadd(instr)
			m.FlushPendingInstructions()
			m.rootInstr = m.perBlockHead
			require.Equal(t, tc.exp, m.Format())
		})
	}
}
