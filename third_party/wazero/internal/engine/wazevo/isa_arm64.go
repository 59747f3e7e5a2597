//go:build arm64

package wazevo

import (
	"github.com/tetratelabs/wazero/internal/engine/wazevo/backend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/backend/isa/arm64"
)

func newMachine() backend.Machine {
	return arm64.NewBackend()
}

// unwindStack is a function to unwind the stack, and appends return addresses to `returnAddresses` slice.
// The implementation must be aligned with the ABI/Calling convention.
func unwindStack(sp, fp, top uintptr, returnAddresses []uintptr) []uintptr {
	return arm64.UnwindStack(sp, fp, top, returnAddresses)
}

// goCallStackView is a function to get a view of the stack before a Go call, which
// is the view of the stack allocated in CompileGoFunctionTrampoline.
func goCallStackView(stackPointerBeforeGoCall *uint64) []uint64 {
	return arm64.GoCallStackView(stackPointerBeforeGoCall)
}

// adjustClonedStack is a function to adjust the stack after it is grown.
// More precisely, absolute addresses (frame pointers) in the stack must be adjusted.
func adjustClonedStack(oldsp, oldTop, sp, fp, top uintptr) {
	// TODO: currently, the frame pointers are not used, and saved old sps are relative to the current stack pointer,
	//  so no need to adjustment on arm64. However, when we make it absolute, which in my opinion is better perf-wise
	//  at the expense of slightly costly stack growth, we need to adjust the pushed frame pointers.
}

// goCallFrameLen is the length of the stack from the stack pointer of a Go
// call's exit that covers the Go function trampoline's frame (the frame
// size, slice size, arguments and results, the size of the caller's
// argument area and the return address). arm64 frames hold no absolute
// stack addresses, so a fixed length that covers the largest trampoline
// frame of a try_table entry is taken, bounded by the top of the stack;
// what it covers of the caller's frame is unchanged while the try_table is
// active (pybox patch 0006).
func goCallFrameLen(sp, fp, top uintptr) (length, frameFP uintptr, hasFP bool) {
	length = tryTableFrameWindowMax
	if top-sp < length {
		length = top - sp
	}
	return length, 0, false
}

// goCallSavedRegisters is how many entries of the execution context's
// savedRegisters a Go function trampoline restores when it returns: all a
// try handler keeps (pybox patch 0008).
func goCallSavedRegisters() int { return arm64.GoFunctionTrampolineSavedRegisters() }
