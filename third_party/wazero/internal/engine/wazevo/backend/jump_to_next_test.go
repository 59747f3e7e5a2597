package backend_test

import (
	"bytes"
	"context"
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

// TestNoJumpToNextInstruction checks that the amd64 encoder leaves out an
// unconditional jump whose target follows it with nothing emitted in
// between (pybox patch 0024). A br_table whose targets are all the same
// block lowers to one trampoline block per target, each jumping to that
// block; the last falls through, so the one before it jumps over an empty
// block to the very next instruction.
func TestNoJumpToNextInstruction(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the amd64 encoder")
	}
	typ := wasm.FunctionType{
		Params: []wasm.ValueType{wasm.ValueTypeI32}, Results: []wasm.ValueType{wasm.ValueTypeI32},
		ParamNumInUint64: 1, ResultNumInUint64: 1,
	}
	body := []byte{
		wasm.OpcodeBlock, 0x40,
		wasm.OpcodeLocalGet, 0,
		wasm.OpcodeBrTable, 3, 0, 0, 0, 0,
		wasm.OpcodeEnd,
		wasm.OpcodeLocalGet, 0, wasm.OpcodeI32Const, 7, wasm.OpcodeI32Add,
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
	be.Lower()
	be.RegAlloc()
	// The lowered code has such a jump: "jmp Lx", an empty block, "Lx".
	out := be.Format()
	lines := strings.Split(out, "\n")
	found := false
	for i, l := range lines {
		target, ok := strings.CutPrefix(l, "\tjmp ")
		if !ok || !strings.HasPrefix(target, "L") {
			continue
		}
		for _, next := range lines[i+1:] {
			if !strings.HasPrefix(next, "L") {
				break
			}
			if strings.HasPrefix(next, target+" ") || next == target+":" {
				found = true
			}
		}
	}
	require.True(t, found, out)

	require.NoError(t, be.Finalize(context.Background()))
	bin := be.Buf()
	// jmp rel32 with a displacement of 0.
	require.False(t, bytes.Contains(bin, []byte{0xe9, 0, 0, 0, 0}), out)
}
