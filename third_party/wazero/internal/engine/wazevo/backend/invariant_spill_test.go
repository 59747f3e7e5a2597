package backend_test

import (
	"context"
	"regexp"
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
)

// TestInvariantSpillBeforeLoop checks that values defined before a loop,
// which are in registers when the loop is entered and must be spilled
// because a call in the loop clobbers them, are stored to the stack before
// the loop and not at the start of its header, where the store ran on every
// iteration and every back edge reloaded them for it (pybox patch 0023).
// The same module runs in wazevo's TestE2E ("invariant_spill").
func TestInvariantSpillBeforeLoop(t *testing.T) {
	m := testcases.InvariantSpillModule(12)
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
	ssaText := ssab.Format()
	// blk0 computes the values, blk2 is the loop header (it exits to
	// blk1), blk4 the body that calls and jumps back.
	require.True(t, strings.Contains(ssaText, "blk2: (v"), ssaText)
	require.True(t, strings.Contains(ssaText, "blk4: () <-- (blk2)"), ssaText)
	require.True(t, strings.Contains(ssaText, "\tJump blk2, "), ssaText)
	be.Lower()
	be.RegAlloc()
	out := be.Format()

	stackStore := regexp.MustCompile(`^\tmov\.[lq] .*\(%rsp\)$`)
	if runtime.GOARCH == "arm64" {
		stackStore = regexp.MustCompile(`^\tstr .*\[sp`)
	}
	stores := map[string]int{}
	blk := ""
	for _, line := range strings.Split(out, "\n") {
		if i := strings.Index(line, "(SSA Block: "); i >= 0 {
			blk = strings.TrimSuffix(line[i+len("(SSA Block: "):], "):")
			continue
		}
		if stackStore.MatchString(line) {
			stores[blk]++
		}
	}
	require.Equal(t, 0, stores["blk2"], out)
	require.True(t, stores["blk0"] > 0, out)
}
