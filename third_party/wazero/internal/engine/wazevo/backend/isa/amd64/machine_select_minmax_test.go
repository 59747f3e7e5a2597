package amd64

import (
	"testing"

	"github.com/tetratelabs/wazero/internal/engine/wazevo/backend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/ssa"
	"github.com/tetratelabs/wazero/internal/testing/require"
)

// Test_machine_lowerSelectMinMax: a float select on a < or > comparison of
// its own operands is one MINSD/MAXSD (MINSS/MAXSS), and the comparison,
// used by nothing else, is not lowered.
func Test_machine_lowerSelectMinMax(t *testing.T) {
	for _, tc := range []struct {
		name    string
		typ     ssa.Type
		cond    ssa.FloatCmpCond
		swapped bool // the comparison is (y, x) instead of (x, y)
		exp     string
	}{
		{name: "x<y f64", typ: ssa.TypeF64, cond: ssa.FloatCmpCondLessThan, exp: `
	movdqu %xmm0, %xmm4?
	minsd %xmm1, %xmm4?
	movdqu %xmm4?, %xmm2
`},
		{name: "x>y f64", typ: ssa.TypeF64, cond: ssa.FloatCmpCondGreaterThan, exp: `
	movdqu %xmm0, %xmm4?
	maxsd %xmm1, %xmm4?
	movdqu %xmm4?, %xmm2
`},
		{name: "y<x f64", typ: ssa.TypeF64, cond: ssa.FloatCmpCondLessThan, swapped: true, exp: `
	movdqu %xmm0, %xmm4?
	maxsd %xmm1, %xmm4?
	movdqu %xmm4?, %xmm2
`},
		{name: "y>x f32", typ: ssa.TypeF32, cond: ssa.FloatCmpCondGreaterThan, swapped: true, exp: `
	movdqu %xmm0, %xmm4?
	minss %xmm1, %xmm4?
	movdqu %xmm4?, %xmm2
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, b, m := newSetupWithMockContext()
			blk := b.CurrentBlock()
			x, y := blk.AddParam(b, tc.typ), blk.AddParam(b, tc.typ)
			ctx.vRegMap[x], ctx.vRegMap[y] = xmm0VReg, xmm1VReg
			ctx.definitions[x] = backend.SSAValueDefinition{V: x}
			ctx.definitions[y] = backend.SSAValueDefinition{V: y}
			a, c := x, y
			if tc.swapped {
				a, c = y, x
			}
			fcmp := b.AllocateInstruction()
			fcmp.AsFcmp(a, c, tc.cond)
			b.InsertInstruction(fcmp)
			ctx.definitions[fcmp.Return()] = backend.SSAValueDefinition{Instr: fcmp, V: fcmp.Return(), RefCount: 1}
			sel := b.AllocateInstruction().AsSelect(fcmp.Return(), x, y)
			b.InsertInstruction(sel)
			ctx.vRegMap[sel.Return()] = xmm2VReg
			ctx.vRegCounter = 3
			m.lowerSelect(x, y, fcmp.Return(), sel.Return())
			m.FlushPendingInstructions()
			m.rootInstr = m.perBlockHead
			require.Equal(t, tc.exp, m.Format())
			require.True(t, fcmp.Lowered(), "the comparison had no other use")
		})
	}
}
