package amd64

import (
	"context"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/backend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/frontend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/ssa"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/testcases"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/wazevoapi"
	"github.com/tetratelabs/wazero/internal/testing/require"
)

// TestCmpWithZeroDropped compiles each function of
// testcases.FlagsOfResultModule and checks whether the encoder left out
// its compare with zero (pybox patch 0068): after an and, an or or a xor
// always, since those clear CF and OF as the compare does; after an add
// or a sub only where the branch or cmov tests zero, since there CF and OF
// hold the arithmetic's carry and overflow. The countdown loop's
// `sub $1; cmp $0; jne` loses its compare. TestE2E_flagsOfResult in
// package wazevo runs the same functions against their Go references.
func TestCmpWithZeroDropped(t *testing.T) {
	m, cases := testcases.FlagsOfResultModule()
	require.NoError(t, m.Validate(api.CoreFeaturesV2))
	offset := wazevoapi.NewModuleContextOffsetData(m, false)
	for i, c := range cases {
		want := 0
		switch {
		case c.Name == "countdown loop":
			want = 1
		case strings.Contains(c.Name, ".and "), strings.Contains(c.Name, ".or "), strings.Contains(c.Name, ".xor "):
			want = 1
		default:
			for _, zero := range []string{" nz ", " eqz ", " eq ", " ne "} {
				if strings.Contains(c.Name, zero) {
					want = 1
				}
			}
		}

		ssab := ssa.NewBuilder()
		fc := frontend.NewFrontendCompiler(m, ssab, &offset, false, false, false)
		mach := NewBackend().(*machine)
		mach.DisableStackCheck()
		be := backend.NewCompiler(context.Background(), mach, ssab)
		code := &m.CodeSection[i]
		fc.Init(uint32(i), 0, &m.TypeSection[0], code.LocalTypes, code.Body, false, 0)
		fc.LowerToSSA()
		ssab.RunPasses()
		be.Lower()
		be.RegAlloc()
		out := be.Format()
		require.NoError(t, be.Finalize(context.Background()))
		require.Equal(t, want, mach.cmpsDropped, "%s\n%s", c.Name, out)
	}
}

// TestCmpWithZeroRedundant checks the rule on instruction sequences the
// lowering does not make today: what may stand between the arithmetic and
// the compare, and between the compare and its readers.
func TestCmpWithZeroRedundant(t *testing.T) {
	r, r2 := raxVReg, rcxVReg
	sub := func() *instruction { return (&instruction{}).asAluRmiR(aluRmiROpcodeSub, newOperandImm32(1), r, false) }
	cmp0 := func() *instruction { return (&instruction{}).asCmpRmiR(true, newOperandImm32(0), r, false) }
	jz := func() *instruction { return (&instruction{}).asJmpIf(condZ, newOperandLabel(label(1))) }
	jmp := func() *instruction { return (&instruction{}).asJmp(newOperandLabel(label(2))) }
	for _, tc := range []struct {
		name string
		seq  []*instruction // the arithmetic first, then the compare, then what follows
		want bool
	}{
		{"sub cmp je jmp", []*instruction{sub(), cmp0(), jz(), jmp()}, true},
		{"sub cmp je (block end)", []*instruction{sub(), cmp0(), jz()}, true},
		{"add test jne", []*instruction{
			(&instruction{}).asAluRmiR(aluRmiROpcodeAdd, newOperandImm32(-1&0xffffffff), r, true),
			(&instruction{}).asCmpRmiR(false, newOperandReg(r), r, true),
			(&instruction{}).asJmpIf(condNZ, newOperandLabel(label(1))),
		}, true},
		{"sub cmp jl", []*instruction{sub(), cmp0(), (&instruction{}).asJmpIf(condL, newOperandLabel(label(1)))}, false},
		{"sub cmp jbe", []*instruction{sub(), cmp0(), (&instruction{}).asJmpIf(condBE, newOperandLabel(label(1)))}, false},
		{"and cmp jl", []*instruction{
			(&instruction{}).asAluRmiR(aluRmiROpcodeAnd, newOperandReg(r2), r, false), cmp0(),
			(&instruction{}).asJmpIf(condL, newOperandLabel(label(1))),
		}, true},
		{"imul cmp je", []*instruction{(&instruction{}).asAluRmiR(aluRmiROpcodeMul, newOperandReg(r2), r, false), cmp0(), jz()}, false},
		{"32-bit sub, 64-bit cmp", []*instruction{sub(), (&instruction{}).asCmpRmiR(true, newOperandImm32(0), r, true), jz()}, false},
		{"sub of another register", []*instruction{
			(&instruction{}).asAluRmiR(aluRmiROpcodeSub, newOperandImm32(1), r2, false), cmp0(), jz(),
		}, false},
		{"cmp with 1", []*instruction{sub(), (&instruction{}).asCmpRmiR(true, newOperandImm32(1), r, false), jz()}, false},
		{"test with another register", []*instruction{sub(), (&instruction{}).asCmpRmiR(false, newOperandReg(r2), r, false), jz()}, false},
		{"a move between compare and branch", []*instruction{sub(), cmp0(), (&instruction{}).asMovRR(r2, rdxVReg, true), jz()}, true},
		{"je then jb on the same flags", []*instruction{sub(), cmp0(), jz(), (&instruction{}).asJmpIf(condB, newOperandLabel(label(3)))}, false},
		{"je then a new compare then jb", []*instruction{
			sub(), cmp0(), jz(), (&instruction{}).asCmpRmiR(true, newOperandReg(r2), r, false),
			(&instruction{}).asJmpIf(condB, newOperandLabel(label(3))),
		}, true},
		{"a shift before the branch", []*instruction{
			sub(), cmp0(), (&instruction{}).asShiftR(shiftROpShiftLeft, newOperandImm32(0), r2, false), jz(),
		}, false},
		{"setnz then cmovl", []*instruction{
			sub(), cmp0(), (&instruction{}).asSetcc(condNZ, r2),
			(&instruction{}).asCmove(condL, newOperandReg(r2), rdxVReg, false),
		}, false},
		{"no reader", []*instruction{sub(), cmp0(), jmp()}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i := 1; i < len(tc.seq); i++ {
				tc.seq[i-1].next, tc.seq[i].prev = tc.seq[i], tc.seq[i-1]
			}
			require.Equal(t, tc.want, cmpWithZeroRedundant(tc.seq[0], tc.seq[1], tc.seq[len(tc.seq)-1]))
		})
	}
}

// TestLeavesFlagsAndReg checks what may stand between the arithmetic and
// its compare.
func TestLeavesFlagsAndReg(t *testing.T) {
	r := raxVReg.RealReg()
	mem := NewBackend().(*machine).newAmodeImmReg(8, rspVReg)
	for _, tc := range []struct {
		name string
		i    *instruction
		want bool
	}{
		{"move to another register", (&instruction{}).asMovRR(raxVReg, rcxVReg, true), true},
		{"move to the register", (&instruction{}).asMovRR(rcxVReg, raxVReg, true), false},
		{"constant to another register", (&instruction{}).asImm(rcxVReg, 0, true), true},
		{"store", (&instruction{}).asMovRM(rcxVReg, newOperandMem(mem), 8), true},
		{"load into the register", (&instruction{}).asMov64MR(newOperandMem(mem), raxVReg), false},
		{"load into another register", (&instruction{}).asMov64MR(newOperandMem(mem), rcxVReg), true},
		{"zeros (xor) of another register", (&instruction{}).asZeros(rcxVReg), false},
		{"add to another register", (&instruction{}).asAluRmiR(aluRmiROpcodeAdd, newOperandImm32(1), rcxVReg, true), false},
		{"label", (&instruction{}).asNop0WithLabel(label(1)), false},
	} {
		require.Equal(t, tc.want, leavesFlagsAndReg(tc.i, r), tc.name)
	}
}
