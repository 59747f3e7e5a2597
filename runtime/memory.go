package runtime

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/tetratelabs/wazero/experimental"
	"golang.org/x/sys/unix"
)

// osPageSize is the host's page size.
var osPageSize = unix.Getpagesize()

// limitedMemory backs a guest's linear memory and refuses to grow it past
// its limit. A refused memory.grow returns -1 to the guest: malloc fails and
// Python raises MemoryError, while the host is unaffected.
//
// The memory never moves: Allocate reserves 8 GiB + 64 KiB of address space
// (experimental.GuardedMemoryReservation) with PROT_NONE and MAP_NORESERVE,
// which commits nothing, and growth only makes more of it readable and
// writable. So the host can store interrupt flags into guest memory from
// another goroutine (store32) without racing a grow that would copy memory
// to a new buffer and drop the store, and growth costs no copying. Free
// unmaps it, returning the memory to the OS at once.
//
// The reservation covers every address a wasm32 load or store can form
// (base + 32-bit index + 32-bit offset + at most 16 bytes), and every byte
// past the current size stays PROT_NONE: that is what wazero's guarded-memory
// code (experimental.WithGuardedMemory, see guardedMemory in engine.go)
// relies on instead of bounds checks, and also what makes the memory limit
// hold. Reserved reports it (experimental.GuardedLinearMemory).
//
// It implements wazero's experimental.MemoryAllocator and
// GuardedLinearMemory; one value serves exactly one instance.
type limitedMemory struct {
	limit   atomic.Uint64 // set before the guest runs a job; read on growth
	max     uint64        // the module's own maximum
	mapping []byte        // the whole reservation; nil before Allocate
	enabled atomic.Uint64 // bytes of mapping made read-write (page multiple)
	refused atomic.Bool   // a grow was refused: the limit was hit
	peak    atomic.Uint64
	// err is why the reservation or a protection change failed; boot
	// reports it when instantiation fails.
	err error
	// unmap guards the mapping's end of life against store32: a store into
	// an unmapped range would crash the process.
	unmap sync.RWMutex
}

// Allocate implements experimental.MemoryAllocator.
func (m *limitedMemory) Allocate(cap, max uint64) experimental.LinearMemory {
	m.max = max
	reserve := uint64(experimental.GuardedMemoryReservation)
	if max > reserve {
		reserve = max
	}
	mapping, err := unix.Mmap(-1, 0, int(reserve), unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANON|unix.MAP_NORESERVE)
	if err != nil {
		m.err = fmt.Errorf("reserve %d bytes of address space for the guest: %w", reserve, err)
		return m // every Reallocate fails: instantiation reports it
	}
	m.mapping = mapping
	return m
}

// setLimit changes the cap for the next growth (a pooled instance gets its
// run's limit when it is handed the run). Zero means the module's maximum.
func (m *limitedMemory) setLimit(n uint64) { m.limit.Store(n) }

func (m *limitedMemory) cap() uint64 {
	l := m.limit.Load()
	if l == 0 || (m.max != 0 && l > m.max) {
		return m.max
	}
	return l
}

// Reallocate implements experimental.LinearMemory.
func (m *limitedMemory) Reallocate(size uint64) []byte {
	if m.mapping == nil {
		return nil
	}
	if size > m.cap() {
		m.refused.Store(true)
		return nil
	}
	if enabled := m.enabled.Load(); size > enabled {
		page := uint64(unix.Getpagesize())
		end := (size + page - 1) / page * page
		if end > uint64(len(m.mapping)) {
			end = uint64(len(m.mapping))
		}
		if err := unix.Mprotect(m.mapping[enabled:end], unix.PROT_READ|unix.PROT_WRITE); err != nil {
			m.err = fmt.Errorf("make guest memory writable: %w", err)
			return nil
		}
		m.enabled.Store(end)
	}
	if size > m.peak.Load() {
		m.peak.Store(size)
	}
	return m.mapping[:size:size]
}

// Reserved implements experimental.GuardedLinearMemory: the size of the
// reservation, of which the bytes past the current size are PROT_NONE.
func (m *limitedMemory) Reserved() uint64 { return uint64(len(m.mapping)) }

// Free implements experimental.LinearMemory.
func (m *limitedMemory) Free() {
	m.unmap.Lock()
	defer m.unmap.Unlock()
	if m.mapping != nil {
		_ = unix.Munmap(m.mapping)
		m.mapping = nil
	}
}

// store32 stores v at guest address addr, atomically, from any goroutine.
// Addresses beyond the enabled memory are ignored.
func (m *limitedMemory) store32(addr uint32, v uint32) {
	m.unmap.RLock()
	defer m.unmap.RUnlock()
	mapping := m.mapping
	if mapping == nil || uint64(addr)+4 > m.enabled.Load() || addr%4 != 0 {
		return
	}
	atomic.StoreUint32((*uint32)(unsafe.Pointer(&mapping[addr])), v)
}

// mapSnapshot maps size bytes of f from offset (a multiple of the page
// size) over the start of the guest's
// memory, privately (copy-on-write): pages are read from f only when the
// guest touches them, and a page the guest writes becomes its own copy. It
// is an O(1) restore of a snapshot of tens of megabytes. The memory must
// already have grown to size, and the guest must not be running.
func (m *limitedMemory) mapSnapshot(f *os.File, offset int64, size uint64) error {
	m.unmap.RLock()
	defer m.unmap.RUnlock()
	if m.mapping == nil || size > m.enabled.Load() || size%uint64(unix.Getpagesize()) != 0 {
		return fmt.Errorf("map snapshot: %d bytes do not fit the guest memory", size)
	}
	_, err := unix.MmapPtr(int(f.Fd()), offset, unsafe.Pointer(&m.mapping[0]), uintptr(size),
		unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_FIXED)
	if err != nil {
		return fmt.Errorf("map snapshot into guest memory: %w", err)
	}
	return nil
}
