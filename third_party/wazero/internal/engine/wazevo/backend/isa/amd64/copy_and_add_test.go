package amd64

import (
	"context"
	"encoding/hex"
	"math"
	"testing"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/backend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/frontend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/ssa"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/testcases"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/wazevoapi"
	"github.com/tetratelabs/wazero/internal/testing/require"
)

// TestCopyAndAddAsLea checks which register copies followed by an add or
// a sub become one lea (pybox patch 0069) and the lea's bytes, which were
// taken from GNU as.
func TestCopyAndAddAsLea(t *testing.T) {
	imm := func(k int32) operand { return newOperandImm32(uint32(k)) }
	reg := newOperandReg
	for _, tc := range []struct {
		name    string
		mov     *instruction
		add     *instruction
		after   []*instruction // what follows the add in the block
		wantHex string         // "" if not fused
		wantLea string
	}{
		{
			name: "32-bit add of a constant", wantHex: "448d5904", wantLea: "lea 0x4(%rcx),%r11d",
			mov: (&instruction{}).asMovRR(rcxVReg, r11VReg, true),
			add: (&instruction{}).asAluRmiR(aluRmiROpcodeAdd, imm(4), r11VReg, false),
		},
		{
			name: "32-bit add of a negative constant", wantHex: "8d77fc", wantLea: "lea -0x4(%rdi),%esi",
			mov: (&instruction{}).asMovRR(rdiVReg, rsiVReg, true),
			add: (&instruction{}).asAluRmiR(aluRmiROpcodeAdd, imm(-4), rsiVReg, false),
		},
		{
			name: "64-bit add off r13", wantHex: "498d4508", wantLea: "lea 0x8(%r13),%rax",
			mov: (&instruction{}).asMovRR(r13VReg, raxVReg, true),
			add: (&instruction{}).asAluRmiR(aluRmiROpcodeAdd, imm(8), raxVReg, true),
		},
		{
			name: "64-bit add off rsp", wantHex: "488d842400010000", wantLea: "lea 0x100(%rsp),%rax",
			mov: (&instruction{}).asMovRR(rspVReg, raxVReg, true),
			add: (&instruction{}).asAluRmiR(aluRmiROpcodeAdd, imm(0x100), raxVReg, true),
		},
		{
			name: "32-bit sub off rbp", wantHex: "8d45ff", wantLea: "lea -0x1(%rbp),%eax",
			mov: (&instruction{}).asMovRR(rbpVReg, raxVReg, true),
			add: (&instruction{}).asAluRmiR(aluRmiROpcodeSub, imm(1), raxVReg, false),
		},
		{
			name: "32-bit add of the largest constant", wantHex: "458d8424ffffff7f", wantLea: "lea 0x7fffffff(%r12),%r8d",
			mov: (&instruction{}).asMovRR(r12VReg, r8VReg, false),
			add: (&instruction{}).asAluRmiR(aluRmiROpcodeAdd, imm(math.MaxInt32), r8VReg, false),
		},
		{
			name: "64-bit add of a register", wantHex: "488d0411", wantLea: "lea (%rcx,%rdx,1),%rax",
			mov: (&instruction{}).asMovRR(rcxVReg, raxVReg, true),
			add: (&instruction{}).asAluRmiR(aluRmiROpcodeAdd, reg(rdxVReg), raxVReg, true),
		},
		{
			name: "64-bit add of extended registers", wantHex: "4b8d042c", wantLea: "lea (%r12,%r13,1),%rax",
			mov: (&instruction{}).asMovRR(r12VReg, raxVReg, true),
			add: (&instruction{}).asAluRmiR(aluRmiROpcodeAdd, reg(r13VReg), raxVReg, true),
		},
		{
			name: "add of rsp: rsp becomes the base", wantHex: "488d040c", wantLea: "lea (%rsp,%rcx,1),%rax",
			mov: (&instruction{}).asMovRR(rcxVReg, raxVReg, true),
			add: (&instruction{}).asAluRmiR(aluRmiROpcodeAdd, reg(rspVReg), raxVReg, true),
		},
		{
			name: "a jump after: flags dead", wantHex: "448d5904", wantLea: "lea 0x4(%rcx),%r11d",
			mov:   (&instruction{}).asMovRR(rcxVReg, r11VReg, true),
			add:   (&instruction{}).asAluRmiR(aluRmiROpcodeAdd, imm(4), r11VReg, false),
			after: []*instruction{(&instruction{}).asMovRR(r11VReg, rdxVReg, true), (&instruction{}).asJmp(newOperandLabel(label(1)))},
		},
		{
			name:    "a compare after: flags dead",
			wantHex: "448d5904", wantLea: "lea 0x4(%rcx),%r11d",
			mov: (&instruction{}).asMovRR(rcxVReg, r11VReg, true),
			add: (&instruction{}).asAluRmiR(aluRmiROpcodeAdd, imm(4), r11VReg, false),
			after: []*instruction{
				(&instruction{}).asCmpRmiR(true, imm(9), r11VReg, false),
				(&instruction{}).asJmpIf(condL, newOperandLabel(label(1))),
			},
		},
		{
			name:  "a branch on the add's flags",
			mov:   (&instruction{}).asMovRR(rcxVReg, r11VReg, true),
			add:   (&instruction{}).asAluRmiR(aluRmiROpcodeAdd, imm(4), r11VReg, false),
			after: []*instruction{(&instruction{}).asJmpIf(condZ, newOperandLabel(label(1)))},
		},
		{
			name: "a compare with zero that patch 0068 leaves out",
			mov:  (&instruction{}).asMovRR(rcxVReg, r11VReg, true),
			add:  (&instruction{}).asAluRmiR(aluRmiROpcodeAdd, imm(-1), r11VReg, false),
			after: []*instruction{
				(&instruction{}).asMovRM(r11VReg, newOperandMem(NewBackend().(*machine).newAmodeImmReg(0, raxVReg)), 4),
				(&instruction{}).asCmpRmiR(true, imm(0), r11VReg, false),
				(&instruction{}).asJmpIf(condZ, newOperandLabel(label(1))),
			},
		},
		{
			name:  "an unknown instruction after",
			mov:   (&instruction{}).asMovRR(rcxVReg, r11VReg, true),
			add:   (&instruction{}).asAluRmiR(aluRmiROpcodeAdd, imm(4), r11VReg, false),
			after: []*instruction{(&instruction{}).asSetcc(condZ, rdxVReg)},
		},
		{
			name: "64-bit add after a 32-bit copy",
			mov:  (&instruction{}).asMovRR(rcxVReg, r11VReg, false),
			add:  (&instruction{}).asAluRmiR(aluRmiROpcodeAdd, imm(4), r11VReg, true),
		},
		{
			name: "sub of the smallest constant",
			mov:  (&instruction{}).asMovRR(rcxVReg, r11VReg, true),
			add:  (&instruction{}).asAluRmiR(aluRmiROpcodeSub, imm(math.MinInt32), r11VReg, false),
		},
		{
			name: "sub of a register",
			mov:  (&instruction{}).asMovRR(rcxVReg, r11VReg, true),
			add:  (&instruction{}).asAluRmiR(aluRmiROpcodeSub, reg(rdxVReg), r11VReg, false),
		},
		{
			name: "add of the copy itself",
			mov:  (&instruction{}).asMovRR(rcxVReg, r11VReg, true),
			add:  (&instruction{}).asAluRmiR(aluRmiROpcodeAdd, reg(r11VReg), r11VReg, false),
		},
		{
			name: "add into another register",
			mov:  (&instruction{}).asMovRR(rcxVReg, r11VReg, true),
			add:  (&instruction{}).asAluRmiR(aluRmiROpcodeAdd, imm(4), rdxVReg, false),
		},
		{
			name: "and, not add",
			mov:  (&instruction{}).asMovRR(rcxVReg, r11VReg, true),
			add:  (&instruction{}).asAluRmiR(aluRmiROpcodeAnd, imm(4), r11VReg, false),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, _, m := newSetupWithMockContext()
			seq := append([]*instruction{tc.mov, tc.add}, tc.after...)
			for i := 1; i < len(seq); i++ {
				seq[i-1].next, seq[i].prev = seq[i], seq[i-1]
			}
			a, w64, ok := m.copyAndAddAsLea(tc.mov, seq[len(seq)-1])
			require.Equal(t, tc.wantHex != "", ok)
			if !ok {
				return
			}
			m.encodeLea(tc.mov.op2.reg(), a, w64)
			require.Equal(t, tc.wantHex, hex.EncodeToString(ctx.buf), tc.wantLea)
		})
	}
}

// TestCopyAndAddFused compiles each function of testcases.CopyAndAddModule
// and checks that its copy and add became a lea (pybox patch 0069), and
// that the compares with zero patch 0068 leaves out in
// testcases.FlagsOfResultModule are still left out (TestCmpWithZeroDropped)
// rather than turned into leas. TestE2E_copyAndAdd in package wazevo runs
// the functions against Go.
func TestCopyAndAddFused(t *testing.T) {
	m, cases := testcases.CopyAndAddModule()
	require.NoError(t, m.Validate(api.CoreFeaturesV2))
	offset := wazevoapi.NewModuleContextOffsetData(m, false)
	// Not fused, and why.
	kept := map[string]string{
		"i32 x--2147483648":    "its negation is not an int32",
		"i64 x--1":             "a 64-bit sub of a negative constant takes it in a register, and sub of a register is no lea",
		"i64 x--4":             "as i64 x--1",
		"i64 x--128":           "as i64 x--1",
		"i64 x--129":           "as i64 x--1",
		"i64 x--2147483647":    "as i64 x--1",
		"i64 x--2147483648":    "as i64 x--1",
		"i64 x-2147483648":     "not an int32: the constant is in a register",
		"i64 x-1099511627776":  "as i64 x-2147483648",
		"i64 x--1099511627776": "as i64 x-2147483648",
	}
	for i, c := range cases {
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
		want := 1
		if _, ok := kept[c.Name]; ok {
			want = 0
		}
		if c.Name == "i32 load at x+0x10000" {
			want = 2 // the sum, and the sum plus one for the bounds check (unguarded)
		}
		require.Equal(t, want, mach.leasFused, "%s\n%s", c.Name, out)
	}
}
