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

// TestLiveThroughValuesLeaveCrowdedHeader checks that a crowded loop header
// sends the values live through its loop without a use in it to the stack
// before the values its loop uses (pybox patch 0073). More values are live
// into the header than there are registers, but all but four are only used
// after the loop; the two the loop uses outside its header block (a and b)
// fit in registers, so the blocks that use them (the loop's two arms) load
// nothing from the stack on amd64. On arm64 the allocation before the loop
// leaves b on the stack, and only b is loaded. Before, every value not used
// in the header block itself started the header on the stack, and the arms
// loaded 1 (amd64) and 3 (arm64) values from it on every iteration.
func TestLiveThroughValuesLeaveCrowdedHeader(t *testing.T) {
	// More live-through values than allocatable integer registers (14 on
	// amd64, 27 on arm64).
	k := byte(16)
	if runtime.GOARCH == "arm64" {
		k = 30
	}
	m := testcases.LiveThroughModule(k)
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
	// The loop's arms: the block that multiplies by a, the one that xors
	// with b.
	arms := map[string]bool{}
	for _, blk := range strings.Split(ssaText, "\n\n") {
		if strings.Contains(blk, "= Imul") || strings.Contains(blk, "= Bxor") {
			arms[blk[:strings.Index(blk, ":")]] = true
		}
	}
	require.Equal(t, 2, len(arms), ssaText)
	be.Lower()
	be.RegAlloc()
	out := be.Format()

	stackLoad, want := regexp.MustCompile(`^\t(movzx\.lq|movq|mov\.[lq]|movl) -?\d+\(%rsp\), %`), 0
	if runtime.GOARCH == "arm64" {
		stackLoad, want = regexp.MustCompile(`^\tldr [wx]\d+, \[sp`), 1
	}
	blk, seen, loads := "", 0, 0
	for _, line := range strings.Split(out, "\n") {
		if i := strings.Index(line, "(SSA Block: "); i >= 0 {
			blk = strings.TrimSuffix(line[i+len("(SSA Block: "):], "):")
			if arms[blk] {
				seen++
			}
			continue
		}
		if arms[blk] && stackLoad.MatchString(line) {
			loads++
		}
	}
	require.Equal(t, 2, seen, out)
	require.Equal(t, want, loads, out)
}
