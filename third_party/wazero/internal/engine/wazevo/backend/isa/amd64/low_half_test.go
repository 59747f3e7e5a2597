package amd64

import (
	"context"
	"testing"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/backend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/frontend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/ssa"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/testcases"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/wazevoapi"
	"github.com/tetratelabs/wazero/internal/testing/require"
)

// TestLowHalfFolded compiles each function of testcases.LowHalfModule and
// checks how many of its i32.wrap_i64 were folded into their consumer and
// how many i64.extend_i32_u became copies (pybox patch 0071), compiled
// with and without a guarded memory.
// TestE2E_lowHalf in package wazevo runs the functions against Go.
func TestLowHalfFolded(t *testing.T) {
	m, cases := testcases.LowHalfModule()
	require.NoError(t, m.Validate(api.CoreFeaturesV2))
	offset := wazevoapi.NewModuleContextOffsetData(m, false)
	// Wraps folded and extensions copied, per function, compiled with a
	// guarded memory as pybox compiles; every function not listed folds
	// the wraps of both its operands and copies the zero-extension of its
	// result.
	want := map[string][2]int{
		"0x7fff0000 and": {1, 1},
		"add 5":          {1, 1},
		// The shift amount is read as an immediate or from rcx; only the
		// shifted value's wrap is folded.
		"shl": {1, 1}, "shr_u": {1, 1}, "shr_s": {1, 1}, "rotl": {1, 1}, "rotr": {1, 1},
		// The compare sets the flags the cmov or the branch reads: no
		// result to extend.
		"eq select": {2, 0}, "lt_s select": {2, 0}, "lt_u select": {2, 0}, "ge_s select": {2, 0},
		"eq br_if": {2, 0}, "lt_s br_if": {2, 0}, "lt_u br_if": {2, 0}, "ge_s br_if": {2, 0},
		"store32": {1, 0}, "store16": {1, 0}, "store8": {1, 0},
		"extend_i32_s": {1, 0},
		// The zero-extension of a wrap is one movl, from the wrap's
		// argument.
		"extend_i32_u": {1, 0},
		"extend8_s":    {1, 1}, "extend16_s": {1, 1},
		"wrap used twice":             {0, 1},
		"wrap through a block result": {0, 1},
		// The address register is the wrap's, zero-extended by its movl.
		"wrap as an address": {0, 1},
		// movl from memory.
		"extend of a load": {0, 0},
	}
	// Without a guarded memory, a bounds check stands between a wrap and
	// the store or load that uses it, in another group of instructions
	// the wrap cannot be moved into, and computes the end of the access
	// from the zero-extended address: that extension is a copy of the
	// constant address, or the movl of an extended wrap.
	unguarded := map[string][2]int{
		"store32": {0, 2}, "store16": {0, 2}, "store8": {0, 2},
		"wrap as an address": {1, 1},
		"extend of a load":   {0, 1},
	}
	for _, guarded := range []bool{false, true} {
		for i, c := range cases {
			ssab := ssa.NewBuilder()
			fc := frontend.NewFrontendCompiler(m, ssab, &offset, false, false, false)
			fc.SetGuardedMemory(guarded)
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
			w, ok := want[c.Name]
			if u, uok := unguarded[c.Name]; uok && !guarded {
				w, ok = u, true
			}
			if !ok {
				w = [2]int{2, 1}
			}
			require.Equal(t, w, [2]int{mach.wrapsFolded, mach.extendsCopied},
				"%s (guarded %v): wraps folded, extensions copied\n%s", c.Name, guarded, out)
		}
	}
}
