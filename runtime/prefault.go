package runtime

import (
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
)

// hotPages is what an engine learns of the pages of its snapshot that a
// one-off run writes: a restored interpreter shares the snapshot's pages
// until it writes one, and each first write is a copy-on-write fault in
// the host (a few microseconds each on a VM). The runner's warm-up writes
// most of them before the interpreter joins the pool, but a run still
// wrote about a hundred more of the snapshot's pages (the job machinery,
// __main__, the report), always the same ones, and its faults were about
// half of a fresh run's time (0.55 of 1.25 ms; docs/RATIONALE.md, "A fresh
// call's latency in serve"). The engine reads which pages of a finished
// run's interpreter are its own (privatePageIndexes, Linux) and keeps
// those that the last two runs it read both wrote: code that touches
// memory of its own leaves its pages out. It reads every run until it has
// a set, then one in learnEvery. A pooled interpreter then writes them
// ahead, while it waits (prefault), off the next run's clock.
type hotPages struct {
	mu   sync.Mutex
	last []uint32 // the private pages of the last interpreter read, sorted
	hot  []uint32 // those of the two last, sorted
	runs int      // finished runs offered to learn from (see wants)
}

// learnEvery is how often, once it has learned its pages, the engine reads
// a finished run's pages again (to follow a change): reading the page map
// of a snapshot's 62 MiB takes about 0.15 ms.
const learnEvery = 16

// wants reports whether the next finished run is to be read.
func (h *hotPages) wants() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.runs++
	return h.hot == nil || h.runs%learnEvery == 0
}

// maxHotPages bounds what a pooled interpreter writes ahead (16 MiB of 4
// KiB pages), and so the private memory it starts with.
const maxHotPages = 4096

// learn records the private pages (sorted page indexes) of a finished
// run's interpreter.
func (h *hotPages) learn(pages []uint32) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.last != nil {
		h.hot = intersectSorted(h.last, pages, maxHotPages)
	}
	h.last = pages
}

// pages returns the pages to write ahead, nil until two runs were seen.
func (h *hotPages) pages() []uint32 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.hot
}

// intersectSorted returns the values in both sorted slices, at most limit.
func intersectSorted(a, b []uint32, limit int) []uint32 {
	var out []uint32
	for i, j := 0, 0; i < len(a) && j < len(b) && len(out) < limit; {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

// learnHotPages reads which pages of the snapshot's part of inst's memory
// are inst's own after its run. inst's guest has ended. A booted
// interpreter's memory is all its own: nothing to learn from it.
func (e *Engine) learnHotPages(inst *instance) {
	e.snapMu.Lock()
	s := e.snap
	e.snapMu.Unlock()
	if s == nil || !inst.restored || !e.hot.wants() {
		return
	}
	if pages, ok := inst.mem.privatePages(s.size); ok {
		e.hot.learn(pages)
	}
}

// prefault writes ahead, in a pooled interpreter waiting for its first job,
// the pages that runs were seen to write (see hotPages).
func (e *Engine) prefault(inst *instance) {
	if pages := e.hot.pages(); len(pages) > 0 {
		inst.mem.touch(pages)
	}
}

// privatePages returns the indexes of the OS pages among the first n bytes
// of the memory that are the instance's own (written since they were
// mapped from the snapshot), sorted; ok is false where the OS cannot tell
// (see privatePageIndexes) or the memory is gone.
func (m *limitedMemory) privatePages(n uint64) (pages []uint32, ok bool) {
	m.unmap.RLock()
	defer m.unmap.RUnlock()
	n = min(n, m.enabled.Load())
	if m.mapping == nil || n == 0 {
		return nil, false
	}
	pages, ok = privatePageIndexes(m.mapping[:n])
	if ok && !slices.IsSorted(pages) {
		slices.Sort(pages)
	}
	return pages, ok
}

// touch makes each of the given OS pages of the memory the instance's own
// (breaks copy-on-write) without changing its contents: an atomic add of 0
// to its first word, which cannot undo a store of the guest's either.
func (m *limitedMemory) touch(pages []uint32) {
	m.unmap.RLock()
	defer m.unmap.RUnlock()
	if m.mapping == nil {
		return
	}
	size := uint64(osPageSize)
	enabled := m.enabled.Load()
	for _, p := range pages {
		off := uint64(p) * size
		if off+4 > enabled {
			continue
		}
		atomic.AddUint32((*uint32)(unsafe.Pointer(&m.mapping[off])), 0)
	}
}
