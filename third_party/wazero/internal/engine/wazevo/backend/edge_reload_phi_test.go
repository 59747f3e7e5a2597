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

// TestEdgeReloadPhiSpillSinks checks that loop-carried values reloaded only
// where a path with a call joins the loop body (a reload on that edge) are
// stored on that path, not after their definitions on every iteration
// (pybox patch 0026).
func TestEdgeReloadPhiSpillSinks(t *testing.T) {
	m := testcases.EdgeReloadPhiModule()
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
	// blk2 is the loop header, blk6 the path that calls, blk7 the join
	// that jumps back to blk2 with the new count and sum.
	require.True(t, strings.Contains(ssaText, "blk2: (v4:i32,v10:i32) <-- (blk0,blk7)"), ssaText)
	require.True(t, strings.Contains(ssaText, "\tCall f1:sig1"), ssaText)
	require.True(t, strings.Contains(ssaText, "blk7: () <-- (blk5,blk6)"), ssaText)
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
	require.Equal(t, 0, stores["blk7"], out)
	require.Equal(t, 0, stores["blk2"], out)
	require.True(t, stores["blk6"] > 0, out)
}
