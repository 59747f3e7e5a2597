package amd64

import (
	"testing"

	"github.com/tetratelabs/wazero/internal/engine/wazevo/backend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/ssa"
	"github.com/tetratelabs/wazero/internal/testing/require"
)

// Test_machine_lowerLoadSplat64 checks that v128.load64_splat is one
// movddup from memory (pybox patch 0064), not a load into a general
// register and two pinsrq.
func Test_machine_lowerLoadSplat64(t *testing.T) {
	ctx, b, m := newSetupWithMockContext()
	ptr := b.CurrentBlock().AddParam(b, ssa.TypeI64)
	ctx.vRegMap[ptr] = raxVReg
	ctx.definitions[ptr] = backend.SSAValueDefinition{V: ptr}
	instr := b.AllocateInstruction().AsLoadSplat(ptr, 24, ssa.VecLaneI64x2)
	b.InsertInstruction(instr)
	ctx.vRegMap[instr.Return()] = xmm1VReg
	ctx.vRegCounter = 3
	m.lowerLoadSplat(ptr, 24, instr.Return(), ssa.VecLaneI64x2)
	m.FlushPendingInstructions()
	m.rootInstr = m.perBlockHead
	require.Equal(t, `
	defineUninitializedReg %xmm4?
	movddup 24(%rax), %xmm4?
	movdqu %xmm4?, %xmm1
`, m.Format())
}

// Test_machine_lowerSplatF64x2 checks that f64x2.splat is one movddup,
// from memory when its operand is a load it can fold (pybox patch 0064).
func Test_machine_lowerSplatF64x2(t *testing.T) {
	for _, load := range []bool{false, true} {
		ctx, b, m := newSetupWithMockContext()
		var x ssa.Value
		exp := `
	defineUninitializedReg %xmm4?
	movddup %xmm0, %xmm4?
	movdqu %xmm4?, %xmm1
`
		if load {
			ptr := b.CurrentBlock().AddParam(b, ssa.TypeI64)
			ctx.vRegMap[ptr] = raxVReg
			ctx.definitions[ptr] = backend.SSAValueDefinition{V: ptr}
			ld := b.AllocateInstruction().AsLoad(ptr, 16, ssa.TypeF64)
			b.InsertInstruction(ld)
			x = ld.Return()
			ctx.definitions[x] = backend.SSAValueDefinition{Instr: ld, V: x}
			exp = `
	defineUninitializedReg %xmm4?
	movddup 16(%rax), %xmm4?
	movdqu %xmm4?, %xmm1
`
		} else {
			x = b.CurrentBlock().AddParam(b, ssa.TypeF64)
			ctx.definitions[x] = backend.SSAValueDefinition{V: x}
		}
		ctx.vRegMap[x] = xmm0VReg
		splat := b.AllocateInstruction().AsSplat(x, ssa.VecLaneF64x2)
		b.InsertInstruction(splat)
		ctx.vRegMap[splat.Return()] = xmm1VReg
		ctx.vRegCounter = 3
		m.lowerSplat(x, splat.Return(), ssa.VecLaneF64x2)
		m.FlushPendingInstructions()
		m.rootInstr = m.perBlockHead
		require.Equal(t, exp, m.Format())
	}
}
