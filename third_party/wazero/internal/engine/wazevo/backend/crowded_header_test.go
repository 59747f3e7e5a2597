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

// TestCrowdedLoopHeaderBackEdgeReloadsNothing checks that when more values
// are live into a loop header than there are registers, the values the
// header block does not use start it on the stack, so the loop's back edge
// does not reload them into the registers they had when the loop was
// entered (pybox patch 0025). The loop body calls a function and then uses
// the values, each reloaded where it is used; after the body's last
// computation nothing is reloaded for the header.
func TestCrowdedLoopHeaderBackEdgeReloadsNothing(t *testing.T) {
	// More values than allocatable integer registers (14 on amd64, 27 on
	// arm64).
	n := byte(16)
	if runtime.GOARCH == "arm64" {
		n = 32
	}
	m := testcases.InvariantSpillModule(n)
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
	// blk2 is the loop header, blk4 the body that calls and jumps back.
	require.True(t, strings.Contains(ssaText, "blk2: (v"), ssaText)
	require.True(t, strings.Contains(ssaText, "blk4: () <-- (blk2)"), ssaText)
	be.Lower()
	be.RegAlloc()
	out := be.Format()

	stackLoad := regexp.MustCompile(`^\t(movzx\.lq|movq|mov\.[lq]|movl) -?\d+\(%rsp\), %`)
	decrement := regexp.MustCompile(`^\tsub \$1, %e`)
	if runtime.GOARCH == "arm64" {
		stackLoad = regexp.MustCompile(`^\tldr [wx]\d+, \[sp`)
		decrement = regexp.MustCompile(`^\tsub w\d+, w\d+, #0x1`)
	}
	// Count the stack loads in the body after its last computation, the
	// counter's decrement: what the back edge reloads for the header.
	blk := ""
	seen, reloads := false, 0
	for _, line := range strings.Split(out, "\n") {
		if i := strings.Index(line, "(SSA Block: "); i >= 0 {
			blk = strings.TrimSuffix(line[i+len("(SSA Block: "):], "):")
			continue
		}
		if blk != "blk4" {
			continue
		}
		if decrement.MatchString(line) {
			seen, reloads = true, 0
		} else if seen && stackLoad.MatchString(line) {
			reloads++
		}
	}
	require.True(t, seen, out)
	require.Equal(t, 0, reloads, out)
}
