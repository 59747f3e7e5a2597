package amd64

import (
	"github.com/tetratelabs/wazero/internal/engine/wazevo/backend/regalloc"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/wazevoapi"
)

// lazyArgIntVRegs and lazyArgFloatVRegs are the argument registers of the
// ABI other than RAX (the execution context), which the lazy-compile
// trampoline keeps across its exit to Go (pybox patch 0040).
var (
	lazyArgIntVRegs   = []regalloc.VReg{rbxVReg, rcxVReg, rdiVReg, rsiVReg, r8VReg, r9VReg, r10VReg, r11VReg}
	lazyArgFloatVRegs = []regalloc.VReg{xmm0VReg, xmm1VReg, xmm2VReg, xmm3VReg, xmm4VReg, xmm5VReg, xmm6VReg, xmm7VReg}
)

// lazyTrampolineSaveSize is the size of the area the lazy-compile trampoline
// keeps the argument registers in: 8 bytes per integer register, 16 per
// vector register.
const lazyTrampolineSaveSize = 8*8 + 8*16

// CompileLazyCompileTrampoline returns the code a function that is not
// compiled yet jumps to (pybox patch 0040). It is entered exactly as the
// function would be, with any signature: the caller's return address on top
// of the stack, the execution context in RAX, the callee's module context in
// RBX, the arguments in the ABI's registers and above the return address.
// The stub of the function has stored the function's index at
// ExecutionContextOffsetLazyFunctionIndex. The trampoline keeps every
// argument register in a frame of its own, stores the module context at
// ExecutionContextOffsetGoFunctionCallCalleeModuleContextOpaque and exits
// with ExitCodeLazyCompile. Go compiles the function and stores the address
// of its code at ExecutionContextOffsetLazyTarget; the trampoline then
// restores the registers, removes its frame and jumps there, so that the
// function runs as if it had been called directly.
func (m *machine) CompileLazyCompileTrampoline() []byte {
	cur := m.allocateNop()
	m.rootInstr = cur
	execCtx := raxVReg

	cur = m.setupRBPRSP(cur)
	cur = m.insertStackBoundsCheck(lazyTrampolineSaveSize+16, cur)
	cur = m.saveRegistersInExecutionContext(cur, execCtx, calleeSavedVRegs)
	cur = linkInstr(cur, m.allocateInstr().asMovRM(rbxVReg, newOperandMem(m.newAmodeImmReg(
		wazevoapi.ExecutionContextOffsetGoFunctionCallCalleeModuleContextOpaque.U32(), execCtx)), 8))

	cur = m.addRSP(-int32(lazyTrampolineSaveSize), cur)
	offset := uint32(0)
	for _, r := range lazyArgIntVRegs {
		cur = linkInstr(cur, m.allocateInstr().asMovRM(r, newOperandMem(m.newAmodeImmReg(offset, rspVReg)), 8))
		offset += 8
	}
	for _, r := range lazyArgFloatVRegs {
		cur = linkInstr(cur, m.allocateInstr().asXmmMovRM(sseOpcodeMovdqu, r, newOperandMem(m.newAmodeImmReg(offset, rspVReg))))
		offset += 16
	}
	// The size of the "Go slice" on top, as a Go function trampoline leaves
	// it, so that the frame looks the same to everything that walks it.
	cur = linkInstr(cur, m.allocateInstr().asPush64(newOperandImm32(lazyTrampolineSaveSize)))

	exitCodeReg := r12VReg // Callee saved, already saved.
	cur = linkInstr(cur, m.allocateInstr().asImm(exitCodeReg, uint64(wazevoapi.ExitCodeLazyCompile), false))
	saveRsp, saveRbp, setExitCode := m.allocateExitInstructions(execCtx, exitCodeReg)
	cur = linkInstr(cur, setExitCode)
	cur = linkInstr(cur, saveRsp)
	cur = linkInstr(cur, saveRbp)
	cur = m.storeReturnAddressAndExit(cur, execCtx)

	cur = m.addRSP(8, cur)
	offset = 0
	for _, r := range lazyArgIntVRegs {
		cur = linkInstr(cur, m.allocateInstr().asMov64MR(newOperandMem(m.newAmodeImmReg(offset, rspVReg)), r))
		offset += 8
	}
	for _, r := range lazyArgFloatVRegs {
		cur = linkInstr(cur, m.allocateInstr().asXmmUnaryRmR(sseOpcodeMovdqu, newOperandMem(m.newAmodeImmReg(offset, rspVReg)), r))
		offset += 16
	}
	cur = m.restoreRegistersInExecutionContext(cur, execCtx, calleeSavedVRegs)
	cur = m.revertRBPRSP(cur)
	linkInstr(cur, m.allocateInstr().asJmp(newOperandMem(m.newAmodeImmReg(
		wazevoapi.ExecutionContextOffsetLazyTarget.U32(), execCtx))))

	m.encodeWithoutSSA(m.rootInstr)
	return m.c.Buf()
}
