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

// TestNestedLoopInvariantsStayInRegisters checks that a loop header counts
// each value live into it once when it decides whether it is crowded (pybox
// patch 0060). The values computed before two nested loops are live
// through both and listed twice in the inner header's live-ins; counted
// twice, they outnumbered the registers, the header started with them on
// the stack and the inner loop's body reloaded each of them on every
// iteration. They fit in registers, so the inner body loads nothing from
// the stack.
func TestNestedLoopInvariantsStayInRegisters(t *testing.T) {
	// Fewer values than allocatable integer registers (14 on amd64, 27 on
	// arm64), more than that when counted twice.
	n := byte(8)
	if runtime.GOARCH == "arm64" {
		n = 16
	}
	m := testcases.NestedInvariantModule(n)
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
	// The inner loop's body is the block with the n additions.
	body := ""
	for _, blk := range strings.Split(ssaText, "\n\n") {
		if strings.Count(blk, "= Iadd") == int(n) {
			body = blk[:strings.Index(blk, ":")]
		}
	}
	require.NotEqual(t, "", body, ssaText)
	be.Lower()
	be.RegAlloc()
	out := be.Format()

	stackLoad := regexp.MustCompile(`^\t(movzx\.lq|movq|mov\.[lq]|movl) -?\d+\(%rsp\), %`)
	if runtime.GOARCH == "arm64" {
		stackLoad = regexp.MustCompile(`^\tldr [wx]\d+, \[sp`)
	}
	blk, seen, loads := "", false, 0
	for _, line := range strings.Split(out, "\n") {
		if i := strings.Index(line, "(SSA Block: "); i >= 0 {
			blk = strings.TrimSuffix(line[i+len("(SSA Block: "):], "):")
			continue
		}
		if blk != body {
			continue
		}
		seen = true
		if stackLoad.MatchString(line) {
			loads++
		}
	}
	require.True(t, seen, out)
	require.Equal(t, 0, loads, out)
}
