package sigguard

import (
	"fmt"
	"syscall"
	"unsafe"
)

// Supported reports whether Install can install the fault handler here.
const Supported = true

// sigaction is the kernel's struct sigaction on linux/amd64.
type sigaction struct {
	handler  uintptr
	flags    uint64
	restorer uintptr
	mask     uint64
}

const (
	saSiginfo  = 0x4
	saOnstack  = 0x08000000
	saRestorer = 0x04000000
)

// chained holds, per signal, the handler that was installed before ours: the
// handler jumps to it for every fault that is not a guarded access.
// Indexed by signal number; read by the assembly handler.
var chained [32]uintptr

// handlerAddr returns the address of the assembly handler.
func handlerAddr() uintptr

func install() error {
	for _, sig := range []syscall.Signal{syscall.SIGSEGV, syscall.SIGBUS} {
		var old sigaction
		if err := rtSigaction(sig, nil, &old); err != nil {
			return err
		}
		// Go's handler is installed with SA_SIGINFO|SA_ONSTACK|SA_RESTORER
		// at start-up. Chaining to anything else (a default action, or
		// a handler without siginfo) is not implemented.
		if old.handler <= 1 || old.flags&(saSiginfo|saOnstack|saRestorer) != saSiginfo|saOnstack|saRestorer {
			return fmt.Errorf("sigguard: the %v handler is not Go's (handler %#x, flags %#x)", sig, old.handler, old.flags)
		}
		if old.handler == handlerAddr() {
			continue
		}
		chained[sig] = old.handler
		act := old // same flags, mask (all signals) and restorer as Go's
		act.handler = handlerAddr()
		if err := rtSigaction(sig, &act, nil); err != nil {
			return err
		}
	}
	return nil
}

func rtSigaction(sig syscall.Signal, act, old *sigaction) error {
	_, _, errno := syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig),
		uintptr(unsafe.Pointer(act)), uintptr(unsafe.Pointer(old)), 8, 0, 0)
	if errno != 0 {
		return fmt.Errorf("sigguard: rt_sigaction(%v): %w", sig, errno)
	}
	return nil
}

// installedHandler returns the handler the kernel has for sig (for tests).
func installedHandler(sig syscall.Signal) (uintptr, error) {
	var old sigaction
	err := rtSigaction(sig, nil, &old)
	return old.handler, err
}
