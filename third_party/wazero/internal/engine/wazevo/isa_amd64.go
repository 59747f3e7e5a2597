//go:build amd64

package wazevo

import (
	"github.com/tetratelabs/wazero/internal/engine/wazevo/backend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/backend/isa/amd64"
)

func newMachine() backend.Machine {
	return amd64.NewBackend()
}

// unwindStack is a function to unwind the stack, and appends return addresses to `returnAddresses` slice.
// The implementation must be aligned with the ABI/Calling convention.
func unwindStack(sp, fp, top uintptr, returnAddresses []uintptr) []uintptr {
	return amd64.UnwindStack(sp, fp, top, returnAddresses)
}

// goCallStackView is a function to get a view of the stack before a Go call, which
// is the view of the stack allocated in CompileGoFunctionTrampoline.
func goCallStackView(stackPointerBeforeGoCall *uint64) []uint64 {
	return amd64.GoCallStackView(stackPointerBeforeGoCall)
}

// adjustClonedStack is a function to adjust the stack after it is grown.
// More precisely, absolute addresses (frame pointers) in the stack must be adjusted.
func adjustClonedStack(oldsp, oldTop, sp, fp, top uintptr) {
	amd64.AdjustClonedStack(oldsp, oldTop, sp, fp, top)
}

// goCallFrameLen is the length of the stack from the stack pointer of a Go
// call's exit to the stack pointer of the function that called the Go
// function trampoline: the trampoline's own frame (slice size, arguments and
// results, the caller's RBP and the return address), which the trampoline
// reads when it returns. fp is the frame pointer at the exit, the trampoline's
// RBP, under which the caller's RBP and the return address lie. The frame
// holds one absolute stack address, the caller's RBP, at fp; frameFP reports
// its offset from sp (pybox patch 0006).
func goCallFrameLen(sp, fp, top uintptr) (length, frameFP uintptr, hasFP bool) {
	return fp + 16 - sp, fp - sp, true
}

// goCallSavedRegisters is how many entries of the execution context's
// savedRegisters a Go function trampoline restores when it returns: all a
// try handler keeps (pybox patch 0008).
func goCallSavedRegisters() int { return amd64.GoFunctionTrampolineSavedRegisters() }
