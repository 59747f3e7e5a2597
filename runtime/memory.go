package runtime

import "sync/atomic"

// limitedMemory backs a guest's linear memory and refuses to grow it past
// limit bytes. A refused memory.grow returns -1 to the guest: malloc fails
// and Python raises MemoryError, while the host is unaffected.
//
// It implements wazero's experimental.MemoryAllocator and LinearMemory; one
// value serves exactly one instance.
type limitedMemory struct {
	limit   atomic.Uint64 // set before the guest runs a job; read on growth
	max     uint64        // the module's own maximum
	buf     []byte
	refused atomic.Bool // a grow was refused: the limit was hit
	peak    atomic.Uint64
}

// Allocate implements experimental.MemoryAllocator.
func (m *limitedMemory) Allocate(cap, max uint64) experimentalLinearMemory {
	m.max = max
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
	limit := m.cap()
	if size > limit {
		m.refused.Store(true)
		return nil
	}
	if size <= uint64(cap(m.buf)) {
		m.buf = m.buf[:size]
	} else {
		// Grow geometrically so that a guest growing page by page does not
		// copy its whole memory on every step.
		c := uint64(cap(m.buf)) * 2
		if c < size {
			c = size
		}
		if c > limit {
			c = limit
		}
		nb := make([]byte, size, c)
		copy(nb, m.buf)
		m.buf = nb
	}
	if size > m.peak.Load() {
		m.peak.Store(size)
	}
	return m.buf
}

// Free implements experimental.LinearMemory.
func (m *limitedMemory) Free() { m.buf = nil }
