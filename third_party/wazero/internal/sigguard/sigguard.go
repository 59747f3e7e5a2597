// Package sigguard turns hardware faults of compiled Wasm code into Wasm
// traps, so that the optimizing compiler can leave out the bounds check of a
// linear memory access when the memory is guarded (pybox patch 0012).
//
// A guarded memory never moves and is followed by enough inaccessible address
// space (PROT_NONE) that no access a wasm32 load or store can form, base +
// u32 index + u32 offset + size, leaves its reservation. An access beyond the
// memory's current length then faults instead of reading or writing. The
// fault handler installed by Install decides whether a SIGSEGV or SIGBUS is
// such a fault: the faulting instruction lies in registered compiled code
// (Code), the fault address in a registered reservation (Reservations), and
// the thread's stack pointer in the stack of a running call (Stacks), whose
// value is that call's execution context. It then makes the thread continue
// as if the compiled code had taken its out-of-bounds exit: it writes the
// exit code and the faulting frame into the execution context and resumes at
// the Go caller of the entrypoint, with the stack and frame pointers the
// entrypoint saved. Every other fault goes on to the handler that was
// installed before (Go's), with the kernel's registers untouched.
//
// The handler runs in signal context: it calls nothing, allocates nothing and
// takes no locks. It reads the three range sets with plain loads; each slot
// is a seqlock (see set), so a slot being rewritten by another thread is
// skipped rather than read torn. Only the slot of the faulting call must be
// found, and that slot was written by the faulting thread itself, before it
// entered the compiled code, and is not written again until the code has
// returned to Go.
package sigguard

import (
	"errors"
	"sync"
	"sync/atomic"
)

// slotCount is the capacity of each range set: at most this many compiled
// modules, guarded memories, and guarded calls running at once.
const slotCount = 4096

// slot is one entry of a set. The handler reads seq, lo, hi, val, seq again
// and uses the slot only if seq was even and unchanged: writers make seq odd
// before they change lo, hi or val and even again afterwards. The layout
// (offsets 0, 8, 16, 24) is read by the assembly handler.
type slot struct {
	seq, lo, hi, val uint64
	busy             uint32 // 1 while owned (claimed by CAS); not read by the handler
	_                [64 - 4*8 - 4]byte
}

// set is a fixed array of address ranges [lo, hi) with a value each. Its
// storage is static and never freed, so the handler may read any slot at
// any time. n, the number of slots ever used, bounds the handler's scan;
// it only grows. Slots are claimed without locks (a call registers its
// stack on every entry); mu only serialises AddReservation's check for a
// duplicate with RemoveReservation.
type set struct {
	n     uint64
	_     [56]byte
	slots [slotCount]slot
	mu    sync.Mutex
}

// The range sets read by the handler (assembly refers to them by name).
var (
	// codeRanges holds the executable code of compiled modules.
	codeRanges set
	// reservations holds the address ranges reserved by guarded memories.
	reservations set
	// stacks holds the stacks of running guarded calls; the value is the
	// call's execution context.
	stacks set
)

// faults counts the faults the handler turned into exits (atomically, from
// the handler).
var faults uint64

// Faults returns the number of faults turned into out-of-bounds exits so far.
func Faults() uint64 { return atomic.LoadUint64(&faults) }

// ErrFull is returned when a range set has no free slot.
var ErrFull = errors.New("sigguard: too many guarded modules, memories or concurrent calls")

func (s *set) add(lo, hi, val uintptr) (int, error) {
	for i := range s.slots {
		sl := &s.slots[i]
		if atomic.LoadUint32(&sl.busy) != 0 || !atomic.CompareAndSwapUint32(&sl.busy, 0, 1) {
			continue
		}
		s.write(i, lo, hi, val)
		// Raise the high-water mark to cover slot i (before the caller
		// can run code whose faults need it).
		for {
			n := atomic.LoadUint64(&s.n)
			if uint64(i) < n || atomic.CompareAndSwapUint64(&s.n, n, uint64(i)+1) {
				break
			}
		}
		return i, nil
	}
	return -1, ErrFull
}

// write publishes a slot's contents (seqlock write side). Only the owner of
// slot i calls it, so writers of one slot never race each other.
func (s *set) write(i int, lo, hi, val uintptr) {
	sl := &s.slots[i]
	seq := atomic.LoadUint64(&sl.seq)
	atomic.StoreUint64(&sl.seq, seq+1) // odd: being written
	atomic.StoreUint64(&sl.lo, uint64(lo))
	atomic.StoreUint64(&sl.hi, uint64(hi))
	atomic.StoreUint64(&sl.val, uint64(val))
	atomic.StoreUint64(&sl.seq, seq+2) // even: stable
}

func (s *set) remove(i int) {
	if i < 0 {
		return
	}
	s.write(i, 0, 0, 0) // empty range: matches nothing
	atomic.StoreUint32(&s.slots[i].busy, 0)
}

// lookup is the Go version of the handler's scan (for tests).
func (s *set) lookup(x uintptr) (uintptr, bool) {
	n := atomic.LoadUint64(&s.n)
	for i := uint64(0); i < n; i++ {
		sl := &s.slots[i]
		seq := atomic.LoadUint64(&sl.seq)
		if seq&1 != 0 {
			continue
		}
		lo, hi, val := atomic.LoadUint64(&sl.lo), atomic.LoadUint64(&sl.hi), atomic.LoadUint64(&sl.val)
		if atomic.LoadUint64(&sl.seq) != seq {
			continue
		}
		if uint64(x) >= lo && uint64(x) < hi {
			return uintptr(val), true
		}
	}
	return 0, false
}

// AddCode registers [lo, hi) as compiled code whose memory accesses may
// fault into guard regions. The result is passed to RemoveCode before the
// code is unmapped.
func AddCode(lo, hi uintptr) (int, error) { return codeRanges.add(lo, hi, 0) }

// RemoveCode unregisters code registered by AddCode.
func RemoveCode(i int) { codeRanges.remove(i) }

// AddReservation registers the reservation [lo, hi) of a guarded memory, once:
// adding the same range again is a no-op.
func AddReservation(lo, hi uintptr) error {
	reservations.mu.Lock()
	defer reservations.mu.Unlock()
	for i := uint64(0); i < atomic.LoadUint64(&reservations.n); i++ {
		sl := &reservations.slots[i]
		if atomic.LoadUint32(&sl.busy) != 0 && atomic.LoadUint64(&sl.lo) == uint64(lo) && atomic.LoadUint64(&sl.hi) == uint64(hi) {
			return nil
		}
	}
	_, err := reservations.add(lo, hi, 0)
	return err
}

// RemoveReservation unregisters the reservation starting at lo, if any. It
// must be called before the reservation is unmapped.
func RemoveReservation(lo uintptr) {
	reservations.mu.Lock()
	defer reservations.mu.Unlock()
	for i := uint64(0); i < atomic.LoadUint64(&reservations.n); i++ {
		sl := &reservations.slots[i]
		if atomic.LoadUint32(&sl.busy) != 0 && atomic.LoadUint64(&sl.lo) == uint64(lo) {
			reservations.remove(int(i))
		}
	}
}

// EnterStack registers [lo, hi) as the stack of a guarded call about to run
// compiled code with the execution context execCtx. The result is passed to
// UpdateStack when the stack is replaced and to LeaveStack once the compiled
// code has returned to Go for good.
func EnterStack(lo, hi, execCtx uintptr) (int, error) { return stacks.add(lo, hi, execCtx) }

// UpdateStack replaces the stack of slot i (after the stack grew).
func UpdateStack(i int, lo, hi, execCtx uintptr) { stacks.write(i, lo, hi, execCtx) }

// LeaveStack unregisters a stack registered by EnterStack.
func LeaveStack(i int) { stacks.remove(i) }

// ExitLayout says how the handler makes a faulting call exit: the offsets
// of fields in the execution context (the value of the stack's slot) and the
// exit code to store.
type ExitLayout struct {
	// ExitCode is the offset of the 32-bit exit code, Code its value.
	ExitCode, Code uint64
	// OriginalFramePointer and OriginalStackPointer are the offsets of the
	// frame and stack pointers the entrypoint saved: the handler resumes
	// at the return address at OriginalStackPointer with them.
	OriginalFramePointer, OriginalStackPointer uint64
	// GoCallReturnAddress, StackPointerBeforeGoCall and
	// FramePointerBeforeGoCall receive the faulting instruction's address
	// and stack and frame pointers, for the Wasm stack trace.
	GoCallReturnAddress, StackPointerBeforeGoCall, FramePointerBeforeGoCall uint64
}

// exitLayout is read by the handler; it is written once, before the handler
// is installed.
var exitLayout ExitLayout

var (
	installOnce sync.Once
	installErr  error
)

// Install installs the fault handler for SIGSEGV and SIGBUS, once per
// process; later calls return the first call's result (the layout given
// first stays). It fails where the handler is not implemented (see
// Supported).
func Install(layout ExitLayout) error {
	installOnce.Do(func() {
		exitLayout = layout
		installErr = install()
	})
	return installErr
}
