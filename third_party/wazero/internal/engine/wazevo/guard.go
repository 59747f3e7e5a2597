package wazevo

// Guarded memory (pybox patch 0012): code compiled under
// experimental.WithGuardedMemory has no bounds checks for plain loads and
// stores; an access out of bounds faults in the memory's guard region and
// the handler of internal/sigguard turns the fault into the exit the check
// would have taken. This file holds the engine's side: which code, memories
// and running calls the handler may act on.

import (
	"context"
	"errors"
	"fmt"
	"unsafe"

	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/wazevoapi"
	"github.com/tetratelabs/wazero/internal/expctxkeys"
	"github.com/tetratelabs/wazero/internal/sigguard"
)

// guardedMemory reports whether ctx asks for guarded memory
// (experimental.WithGuardedMemory) and this platform implements it.
func guardedMemory(ctx context.Context) bool {
	return sigguard.Supported && ctx != nil && ctx.Value(expctxkeys.GuardedMemoryKey{}) != nil
}

// GuardsMemory reports whether a module compiled with ctx gets guarded-memory
// code; the runtime then gives it a module ID of its own, so that the two
// kinds of code never share an entry in memory or in the file cache.
func (e *engine) GuardsMemory(ctx context.Context) bool { return guardedMemory(ctx) }

// guardExitLayout tells the fault handler how to take the out-of-bounds exit.
var guardExitLayout = sigguard.ExitLayout{
	ExitCode:                 uint64(wazevoapi.ExecutionContextOffsetExitCodeOffset),
	Code:                     uint64(wazevoapi.ExitCodeMemoryOutOfBounds),
	OriginalFramePointer:     uint64(wazevoapi.ExecutionContextOffsetOriginalFramePointer),
	OriginalStackPointer:     uint64(wazevoapi.ExecutionContextOffsetOriginalStackPointer),
	GoCallReturnAddress:      uint64(wazevoapi.ExecutionContextOffsetGoCallReturnAddress),
	StackPointerBeforeGoCall: uint64(wazevoapi.ExecutionContextOffsetStackPointerBeforeGoCall),
	FramePointerBeforeGoCall: uint64(wazevoapi.ExecutionContextOffsetFramePointerBeforeGoCall),
}

// registerGuardedCode makes the module's code one whose faults the handler
// may turn into traps. executablesFinalizer unregisters it before unmapping.
func (exec *executables) registerGuardedCode() error {
	if exec.guardCode != 0 || len(exec.executable) == 0 {
		return nil
	}
	lo := uintptr(unsafe.Pointer(&exec.executable[0]))
	i, err := sigguard.AddCode(lo, lo+uintptr(len(exec.executable)))
	if err != nil {
		return err
	}
	exec.guardCode = i + 1
	return nil
}

func (exec *executables) unregisterGuardedCode() {
	if exec.guardCode != 0 {
		sigguard.RemoveCode(exec.guardCode - 1)
		exec.guardCode = 0
	}
}

// errUnguardedMemory is returned by CheckMemory.
var errUnguardedMemory = errors.New("module compiled with experimental.WithGuardedMemory needs a memory from a " +
	"MemoryAllocator whose LinearMemory implements experimental.GuardedLinearMemory")

// CheckMemory is called by the store once the instance's memory (its own or
// an imported one) is known, before any of its code can run: code compiled
// for a guarded memory refuses any other memory. It installs the fault
// handler and registers the memory's reservation.
func (m *moduleEngine) CheckMemory() error {
	if !m.parent.guarded || m.module.MemoryInstance == nil {
		return nil
	}
	if len(m.parent.executable) > 0 && m.parent.guardCode == 0 {
		return errors.New("BUG: guarded code is not registered with the fault handler")
	}
	mem := m.module.MemoryInstance
	g, ok := mem.LinearMemory().(experimental.GuardedLinearMemory)
	if !ok {
		return errUnguardedMemory
	}
	reserved := g.Reserved()
	if reserved < experimental.GuardedMemoryReservation {
		return fmt.Errorf("%w: it reserves %d bytes, less than %d", errUnguardedMemory, reserved, uint64(experimental.GuardedMemoryReservation))
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(mem.Buffer)))
	if base == 0 {
		return fmt.Errorf("%w: its address is nil", errUnguardedMemory)
	}
	if err := sigguard.Install(guardExitLayout); err != nil {
		return err
	}
	return sigguard.AddReservation(base, base+uintptr(reserved))
}

// guardEnter registers the call's stack before its compiled code runs, so
// that the handler finds the call's execution context from a fault's stack
// pointer; nested entries of the same call engine share the slot.
func (c *callEngine) guardEnter() error {
	if c.guardDepth == 0 {
		lo := uintptr(unsafe.Pointer(unsafe.SliceData(c.stack)))
		i, err := sigguard.EnterStack(lo, lo+uintptr(len(c.stack)), c.execCtxPtr)
		if err != nil {
			return err
		}
		c.guardSlot = i
	}
	c.guardDepth++
	return nil
}

// guardUpdate follows a change of c.stack (growth, snapshot restore) while the
// call runs.
func (c *callEngine) guardUpdate() {
	if c.guardDepth > 0 {
		lo := uintptr(unsafe.Pointer(unsafe.SliceData(c.stack)))
		sigguard.UpdateStack(c.guardSlot, lo, lo+uintptr(len(c.stack)), c.execCtxPtr)
	}
}

// guardLeave unregisters the stack once the call's compiled code has
// returned to Go for good.
func (c *callEngine) guardLeave() {
	if c.guardDepth--; c.guardDepth == 0 {
		sigguard.LeaveStack(c.guardSlot)
		c.guardSlot = -1
	}
}
