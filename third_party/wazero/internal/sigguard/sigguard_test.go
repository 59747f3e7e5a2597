package sigguard

import (
	"sync"
	"testing"
)

func TestSetAddLookupRemove(t *testing.T) {
	var s set
	a, err := s.add(100, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.add(300, 400, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		x    uintptr
		want uintptr
		ok   bool
	}{{99, 0, false}, {100, 1, true}, {199, 1, true}, {200, 0, false}, {350, 2, true}, {400, 0, false}} {
		if v, ok := s.lookup(c.x); v != c.want || ok != c.ok {
			t.Errorf("lookup(%d) = %d, %v; want %d, %v", c.x, v, ok, c.want, c.ok)
		}
	}
	s.remove(a)
	if _, ok := s.lookup(150); ok {
		t.Error("removed range still found")
	}
	// The freed slot is reused; n does not grow.
	c, _ := s.add(500, 600, 3)
	if c != a || s.n != 2 {
		t.Errorf("slot %d, n %d; want %d, 2", c, s.n, a)
	}
	s.write(b, 300, 450, 4) // an update (stack growth)
	if v, ok := s.lookup(420); !ok || v != 4 {
		t.Errorf("after update: %d, %v", v, ok)
	}
}

func TestSetFull(t *testing.T) {
	var s set
	for i := 0; i < slotCount; i++ {
		if _, err := s.add(uintptr(i)*10, uintptr(i)*10+10, uintptr(i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.add(1, 2, 3); err != ErrFull {
		t.Fatalf("add to a full set: %v", err)
	}
}

// TestSetConcurrentReaders checks the seqlock: readers running while other
// goroutines rewrite their slots never see a range that no writer wrote
// whole (here: a range whose value is not its owner's).
func TestSetConcurrentReaders(t *testing.T) {
	var s set
	const writers = 4
	slots := make([]int, writers)
	for w := range slots {
		slots[w], _ = s.add(0, 0, 0)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			base := uintptr(w+1) << 32
			for i := uintptr(0); ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				// Alternate between two ranges far apart: a torn read
				// could combine the low end of one with the high end of
				// the other.
				lo := base + (i%2)*(1<<20)
				s.write(slots[w], lo, lo+4096, uintptr(w+1))
			}
		}(w)
	}
	bad := 0
	for i := 0; i < 200000; i++ {
		w := uintptr(i%writers + 1)
		x := w<<32 + 1<<19 // between the two ranges of writer w: never inside one
		if _, ok := s.lookup(x); ok {
			bad++
		}
		if v, ok := s.lookup(w<<32 + 100); ok && v != w {
			bad++
		}
	}
	close(stop)
	wg.Wait()
	if bad != 0 {
		t.Fatalf("%d torn reads", bad)
	}
}
