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

// TestPhiCopiesKeepSourcesInRegisters checks that the copies into a loop
// header's parameters on the back edge, when one copy's destination register
// holds the source of a later copy (here the loop swaps two values), move
// that source to a free register instead of storing it to the stack and
// reloading it (pybox patch 0019).
func TestPhiCopiesKeepSourcesInRegisters(t *testing.T) {
	typ := wasm.FunctionType{
		Params: []wasm.ValueType{wasm.ValueTypeI64, wasm.ValueTypeI64, wasm.ValueTypeI64}, Results: []wasm.ValueType{wasm.ValueTypeI64},
		ParamNumInUint64: 3, ResultNumInUint64: 1,
	}
	// loop: (a, b) = (b, a); n -= 1; br_if n != 0. Returns a - b.
	const n, a, b = 0, 1, 2
	body := []byte{
		wasm.OpcodeLoop, 0x40,
		wasm.OpcodeLocalGet, b, wasm.OpcodeLocalGet, a, wasm.OpcodeLocalSet, b, wasm.OpcodeLocalSet, a,
		wasm.OpcodeLocalGet, n, wasm.OpcodeI64Const, 1, wasm.OpcodeI64Sub, wasm.OpcodeLocalTee, n,
		wasm.OpcodeI64Eqz, wasm.OpcodeI32Eqz,
		wasm.OpcodeBrIf, 0,
		wasm.OpcodeEnd,
		wasm.OpcodeLocalGet, a, wasm.OpcodeLocalGet, b, wasm.OpcodeI64Sub,
		wasm.OpcodeEnd,
	}
	m := testcases.SingleFunctionModule(typ, body, nil)
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
	// blk4 is the back edge: it passes (b, a, n-1) to blk1's (a, b, n).
	require.True(t, regexp.MustCompile(`blk1: \((v\d+):i64,(v\d+):i64,v\d+:i64\) <-- \(blk0,blk4\)`).MatchString(ssaText), ssaText)
	be.Lower()
	be.RegAlloc()
	out := be.Format()

	stackAccess := regexp.MustCompile(`^\t(mov\.q .*\(%rsp\)|movq -?\d*\(%rsp\), )`)
	if runtime.GOARCH == "arm64" {
		stackAccess = regexp.MustCompile(`^\t(str|ldr) .*\[sp`)
	}
	for _, line := range strings.Split(out, "\n") {
		if stackAccess.MatchString(line) {
			t.Fatalf("stack access %q:\n%s\nSSA:\n%s", line, out, ssaText)
		}
	}
}
