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
	"github.com/tetratelabs/wazero/internal/wasm"
)

// TestLoopFallsThroughToBackEdge checks that a loop whose back edge is a
// br_if with arguments (split into a trampoline block placed right after the
// loop's block) branches conditionally to its exit and falls through to the
// trampoline, instead of branching conditionally to the trampoline and
// jumping unconditionally to the exit, which takes two branches per
// iteration (pybox patch 0018).
func TestLoopFallsThroughToBackEdge(t *testing.T) {
	typ := wasm.FunctionType{
		Params: []wasm.ValueType{wasm.ValueTypeI32}, Results: []wasm.ValueType{wasm.ValueTypeI32},
		ParamNumInUint64: 1, ResultNumInUint64: 1,
	}
	body := []byte{
		wasm.OpcodeLoop, 0x40,
		wasm.OpcodeLocalGet, 1, wasm.OpcodeI32Const, 1, wasm.OpcodeI32Add, wasm.OpcodeLocalSet, 1,
		wasm.OpcodeLocalGet, 1, wasm.OpcodeLocalGet, 0, wasm.OpcodeI32LtS,
		wasm.OpcodeBrIf, 0,
		wasm.OpcodeEnd,
		wasm.OpcodeLocalGet, 1,
		wasm.OpcodeEnd,
	}
	m := testcases.SingleFunctionModule(typ, body, []wasm.ValueType{wasm.ValueTypeI32})
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
	// blk1 is the loop; its back edge was split into a trampoline that
	// passes the new value to blk1.
	trampoline := regexp.MustCompile(`\n(blk\d+): \(\) <-- \(blk1\)\n\tJump blk1, v\d+\n`).FindStringSubmatch(ssaText)
	require.NotNil(t, trampoline, ssaText)
	be.Lower()
	out := be.Format()

	jump := regexp.MustCompile(`^\tjmp `)
	if runtime.GOARCH == "arm64" {
		jump = regexp.MustCompile(`^\tb `)
	}
	blk, next := "", ""
	for _, line := range strings.Split(out, "\n") {
		if i := strings.Index(line, "(SSA Block: "); i >= 0 {
			name := strings.TrimSuffix(line[i+len("(SSA Block: "):], "):")
			if blk == "blk1" {
				next = name
			}
			blk = name
			continue
		}
		if blk == "blk1" && jump.MatchString(line) {
			t.Fatalf("the loop block ends with an unconditional jump (%q):\n%s\nSSA:\n%s", line, out, ssaText)
		}
	}
	require.Equal(t, trampoline[1], next, out)
}
