package amd64

import (
	"context"
	"testing"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/backend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/frontend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/ssa"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/wazevoapi"
	"github.com/tetratelabs/wazero/internal/testing/require"
	"github.com/tetratelabs/wazero/internal/wasm"
)

// TestGoMemCallsLeaveCalleeSavedAlone compiles a function that runs
// memory.copy (Go's memmove) and a zero memory.fill (Go's memclr) and checks
// that neither makes it clobber a callee-saved register, which its
// prologue would then save on every call (pybox patch 0067): the call
// sequences save what Go may write themselves, and the copy of more than
// 128 bytes does it in a stub after the function's code, for which the
// prologue's stack check reserves room. That the registers keep their
// values is checked by TestE2E_goMemCallKeepsCalleeSaved in package
// wazevo. Before the patch the function clobbered xmm8-xmm15 (and rdx).
func TestGoMemCallsLeaveCalleeSavedAlone(t *testing.T) {
	i32 := wasm.ValueTypeI32
	body := []byte{
		wasm.OpcodeLocalGet, 0, wasm.OpcodeLocalGet, 1, wasm.OpcodeLocalGet, 2,
		wasm.OpcodeMiscPrefix, wasm.OpcodeMiscMemoryCopy, 0, 0,
		wasm.OpcodeLocalGet, 1, wasm.OpcodeI32Const, 0, wasm.OpcodeLocalGet, 2,
		wasm.OpcodeMiscPrefix, wasm.OpcodeMiscMemoryFill, 0,
		wasm.OpcodeEnd,
	}
	m := &wasm.Module{
		TypeSection:     []wasm.FunctionType{{Params: []wasm.ValueType{i32, i32, i32}}},
		FunctionSection: []wasm.Index{0},
		CodeSection:     []wasm.Code{{Body: body}},
		MemorySection:   &wasm.Memory{Min: 1},
	}
	require.NoError(t, m.Validate(api.CoreFeaturesV2|experimental.CoreFeaturesExceptionHandling))

	ssab := ssa.NewBuilder()
	offset := wazevoapi.NewModuleContextOffsetData(m, false)
	fc := frontend.NewFrontendCompiler(m, ssab, &offset, false, false, false)
	mach := NewBackend().(*machine)
	be := backend.NewCompiler(context.Background(), mach, ssab)
	code := &m.CodeSection[0]
	fc.Init(0, 0, &m.TypeSection[0], code.LocalTypes, code.Body, false, 0)
	fc.LowerToSSA()
	ssab.RunPasses()
	be.Lower()
	be.RegAlloc()
	out := be.Format()
	require.Contains(t, out, "callq", "no call to Go's memmove or memclr:\n%s", out)
	for _, r := range mach.clobberedRegs {
		switch r.RealReg() {
		// The function has no float values, so only the Go calls could
		// clobber these; the allocator may give its own integer values to
		// the callee-saved rdx and r12-r15.
		case xmm8, xmm9, xmm10, xmm11, xmm12, xmm13, xmm14, xmm15:
			t.Errorf("callee-saved %s clobbered:\n%s", regInfo.RealRegName(r.RealReg()), out)
		}
	}
	// The memmove stub's saves and the call's return address fit in the
	// stack the prologue checks for (the stack ends there: below it is
	// other Go memory).
	require.True(t, mach.maxRequiredStackSizeForCalls >= goMemCallStackBytes,
		"stack reserved for calls %d < %d", mach.maxRequiredStackSizeForCalls, goMemCallStackBytes)
	require.NoError(t, be.Finalize(context.Background()))
	// One stub for the copy, one for the memmove in memory.fill's loop for
	// values other than zero (the frontend decides at run time).
	require.Equal(t, 2, len(mach.memmoveStubs), "memmove stubs")
}
