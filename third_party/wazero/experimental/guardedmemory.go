package experimental

import (
	"context"

	"github.com/tetratelabs/wazero/internal/expctxkeys"
)

// GuardedMemoryReservation is the least number of bytes a GuardedLinearMemory
// must reserve from its base: 8 GiB + 64 KiB, which holds every address a
// wasm32 load or store can form (a 32-bit index plus a 32-bit offset plus an
// access of at most 16 bytes). (pybox patch 0012.)
const GuardedMemoryReservation = 8<<30 + 64<<10

// GuardedLinearMemory is a LinearMemory that makes two promises, which let
// compiled code leave out bounds checks:
//
//   - the backing []byte never moves: Reallocate returns slices with the same
//     address (unsafe.SliceData) every time, from the first call on, and that
//     address is never nil;
//   - Reserved bytes from that address are mapped for this memory alone, and
//     every byte in it beyond the length returned by the last Reallocate is
//     inaccessible: reading or writing it raises SIGSEGV (or SIGBUS). Growth
//     makes bytes accessible only up to the new length.
//
// Free must release the reservation only after the module has been closed.
type GuardedLinearMemory interface {
	LinearMemory
	// Reserved returns the size in bytes of the reservation starting at the
	// memory's address. It must not change.
	Reserved() uint64
}

// WithGuardedMemory returns a context that makes Runtime.CompileModule compile
// loads and stores of linear memory without bounds checks, relying on guard
// regions instead: an access out of bounds faults, and a signal handler
// wazero installs turns the fault into the usual out-of-bounds trap. Where
// that is implemented (the optimizing compiler on linux/amd64) such a module
// can only be instantiated with a memory from a MemoryAllocator whose
// LinearMemory implements GuardedLinearMemory with Reserved() of at least
// GuardedMemoryReservation, whether the memory is its own or imported;
// otherwise instantiation fails. Elsewhere the context changes nothing.
//
// The handler is installed once per process, the first time such a module is
// instantiated, for SIGSEGV and SIGBUS; it passes every fault that is not an
// access of guarded compiled code to a guarded memory on to the handler that
// was installed before (Go's). Programs that install their own handlers for
// these signals after that must chain to the previous handler in the same way.
//
// Atomic accesses and bulk memory operations (memory.copy, memory.fill,
// memory.init) keep their bounds checks.
func WithGuardedMemory(ctx context.Context) context.Context {
	return context.WithValue(ctx, expctxkeys.GuardedMemoryKey{}, true)
}
