#include "textflag.h"

// Offsets in the kernel's siginfo and ucontext on linux/amd64.
#define SI_ADDR 16
#define UC_RBP 120 // uc_mcontext (40) + 10*8
#define UC_RSP 160 // uc_mcontext (40) + 15*8
#define UC_RIP 168 // uc_mcontext (40) + 16*8

// func handlerAddr() uintptr
TEXT ·handlerAddr(SB), NOSPLIT, $0-8
	LEAQ ·handler(SB), AX
	MOVQ AX, ret+0(FP)
	RET

// lookup scans the set at R8 for a slot whose range holds AX.
// Out: R10 = 1 and R9 = the slot's value if found, else R10 = 0.
// Clobbers CX, R8, R9, R11. Reads only; see slot and set in sigguard.go.
TEXT lookup<>(SB), NOSPLIT|NOFRAME, $0
	XORL R10, R10
	MOVQ 0(R8), CX   // set.n
	LEAQ 64(R8), R11 // &set.slots[0]
loop:
	TESTQ CX, CX
	JZ    done
	MOVQ  0(R11), R9 // seq
	TESTQ $1, R9
	JNZ   next
	CMPQ  AX, 8(R11) // AX < lo?
	JCS   next
	CMPQ  AX, 16(R11) // AX >= hi?
	JCC   next
	MOVQ  24(R11), R8 // val
	CMPQ  R9, 0(R11) // seq unchanged?
	JNE   next
	MOVQ  R8, R9
	MOVL  $1, R10
	RET
next:
	ADDQ $64, R11
	DECQ CX
	JMP  loop
done:
	RET

// handler is installed for SIGSEGV and SIGBUS with Go's flags
// (SA_SIGINFO|SA_ONSTACK|SA_RESTORER), mask and restorer. The kernel calls it
// with DI = signal, SI = *siginfo, DX = *ucontext. It keeps DI, SI, DX and
// the stack unchanged until it either returns (a guarded access: the
// restorer resumes the thread with the ucontext it edited) or jumps to the
// chained handler (anything else).
TEXT ·handler(SB), NOSPLIT|NOFRAME, $0
	MOVQ UC_RIP(DX), AX
	LEAQ ·codeRanges(SB), R8
	CALL lookup<>(SB)
	TESTQ R10, R10
	JZ   chain
	MOVQ SI_ADDR(SI), AX
	LEAQ ·reservations(SB), R8
	CALL lookup<>(SB)
	TESTQ R10, R10
	JZ   chain
	MOVQ UC_RSP(DX), AX
	LEAQ ·stacks(SB), R8
	CALL lookup<>(SB)
	TESTQ R10, R10
	JZ   chain

	MOVQ $1, AX
	LOCK
	XADDQ AX, ·faults(SB)

	// R9 = the execution context of the faulting call. Do what the
	// compiled code's exit sequence does: record the faulting frame and
	// the exit code, then return to the entrypoint's Go caller with the
	// frame and stack pointers saved at entry.
	MOVQ ·exitLayout+40(SB), CX // StackPointerBeforeGoCall
	MOVQ UC_RSP(DX), AX
	MOVQ AX, (R9)(CX*1)
	MOVQ ·exitLayout+48(SB), CX // FramePointerBeforeGoCall
	MOVQ UC_RBP(DX), AX
	MOVQ AX, (R9)(CX*1)
	MOVQ ·exitLayout+32(SB), CX // GoCallReturnAddress
	MOVQ UC_RIP(DX), AX
	MOVQ AX, (R9)(CX*1)
	MOVQ ·exitLayout+0(SB), CX // ExitCode
	MOVQ ·exitLayout+8(SB), AX // Code
	MOVL AX, (R9)(CX*1)
	MOVQ ·exitLayout+16(SB), CX // OriginalFramePointer
	MOVQ (R9)(CX*1), AX
	MOVQ AX, UC_RBP(DX)
	MOVQ ·exitLayout+24(SB), CX // OriginalStackPointer
	MOVQ (R9)(CX*1), AX
	MOVQ 0(AX), CX              // the return address into Go
	MOVQ CX, UC_RIP(DX)
	ADDQ $8, AX
	MOVQ AX, UC_RSP(DX)
	RET

chain:
	LEAQ ·chained(SB), AX
	MOVLQZX DI, CX
	ANDQ $31, CX
	MOVQ (AX)(CX*8), AX
	JMP  AX
