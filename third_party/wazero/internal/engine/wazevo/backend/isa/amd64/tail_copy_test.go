package amd64

import (
	"context"
	"testing"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/backend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/frontend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/ssa"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/testcases"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/wazevoapi"
	"github.com/tetratelabs/wazero/internal/testing/require"
)

// TestBrTableTailCopies compiles testcases.DispatchLoopModule, an
// interpreter loop whose seven handlers branch back to a br_table
// dispatch, and checks that the encoder copied the dispatch into the
// handlers' jumps (pybox patch 0066): one copy per handler, so that each
// ends with an indirect jump of its own. The copies' behaviour is checked
// by TestE2E_dispatchLoop in package wazevo.
//
// With a guarded memory (as pybox compiles) the dispatch is a load and the
// br_table. Without, the load's bounds check falls through into its exit
// sequence, which takes its own address: nothing is copied.
func TestBrTableTailCopies(t *testing.T) {
	for guarded, copies := range map[bool]int{true: 7, false: 0} {
		m := testcases.DispatchLoopModule()
		require.NoError(t, m.Validate(api.CoreFeaturesV2|experimental.CoreFeaturesExceptionHandling))

		ssab := ssa.NewBuilder()
		offset := wazevoapi.NewModuleContextOffsetData(m, false)
		fc := frontend.NewFrontendCompiler(m, ssab, &offset, false, false, false)
		fc.SetGuardedMemory(guarded)
		mach := NewBackend().(*machine)
		mach.DisableStackCheck()
		be := backend.NewCompiler(context.Background(), mach, ssab)
		code := &m.CodeSection[0]
		fc.Init(0, 0, &m.TypeSection[0], code.LocalTypes, code.Body, false, 0)
		fc.LowerToSSA()
		ssab.RunPasses()
		be.Lower()
		be.RegAlloc()
		out := be.Format()
		require.NoError(t, be.Finalize(context.Background()))
		require.Equal(t, copies, mach.tailCopies, "guarded=%v\n%s", guarded, out)
	}
}
