package runtime

import (
	"context"
	"slices"
	"testing"
	"time"
)

// TestWaitWarmLeavesEngineAtRest: after WaitWarm, the housekeeping of the
// runs before it is done, as it is between a model's calls: the
// interpreters of those runs are closed, and every live interpreter is a
// fresh one that has warmed up and waits for its first job. (Before, WaitWarm
// returned while the last run's interpreter was still being closed and its
// replacement restored and warmed up, so that a benchmark's next call
// competed with that work.)
func TestWaitWarmLeavesEngineAtRest(t *testing.T) {
	ctx := context.Background()
	e, err := NewEngine(ctx, Config{WarmPool: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	for i := 0; i < 3; i++ {
		res, err := e.Run(ctx, Request{Code: "print(1)"})
		if err != nil || res.Status != StatusOK {
			t.Fatalf("run %d: %v %+v", i, err, res)
		}
		if err := e.WaitWarm(ctx); err != nil {
			t.Fatal(err)
		}
		live := 0
		e.live.Range(func(k, _ any) bool {
			live++
			inst := k.(*instance)
			if inst.cur.Load() != nil {
				t.Errorf("after run %d: an interpreter that took a job is still open after WaitWarm", i)
			}
			if !isClosed(inst.ready) {
				t.Errorf("after run %d: an interpreter is still starting after WaitWarm", i)
			}
			return true
		})
		// The pool, and the one fillPool holds ready for the next place.
		if live < 2 || live > 3 {
			t.Errorf("after run %d: %d interpreters open, want the pool's 2 (and 1 waiting to join it)", i, live)
		}
	}
}

// TestPooledInterpretersWritePagesAhead: once the engine has seen runs, a
// pooled interpreter has already written (made its own) the snapshot pages
// a run writes, so that the run itself pays no copy-on-write fault for
// them (see hotPages). Without that, a run of print(1) on a pooled
// interpreter made 38 pages of the snapshot its own (about 100 with numpy,
// pandas and matplotlib preloaded).
func TestPooledInterpretersWritePagesAhead(t *testing.T) {
	if _, ok := privatePageIndexes(make([]byte, osPageSize)); !ok {
		t.Skip("this OS does not tell which pages are private")
	}
	ctx := context.Background()
	e, err := NewEngine(ctx, Config{WarmPool: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	// Runs to learn from; by the last, the pool holds interpreters made
	// after the engine learned.
	for i := 0; i < 8; i++ {
		if res, err := e.Run(ctx, Request{Code: "print(1)"}); err != nil || res.Status != StatusOK {
			t.Fatalf("run %d: %v %+v", i, err, res)
		}
		if err := e.WaitWarm(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if len(e.hot.pages()) == 0 {
		t.Fatal("the engine learned no pages from 8 runs")
	}
	inst := <-e.pool
	size := e.Snapshot().Size
	before, ok := inst.mem.privatePages(uint64(size))
	if !ok {
		t.Fatal("cannot read the pooled interpreter's private pages")
	}
	req := Request{Code: "print(1)"}
	e.beginRun()
	res := e.runJob(ctx, inst, &req, req.Limits.withDefaults(), false, time.Now(), time.Time{})
	e.endRun()
	after, _ := inst.mem.privatePages(uint64(size))
	e.retire(inst)
	if res.Status != StatusOK {
		t.Fatalf("run: %+v", res)
	}
	grew := len(after) - len(before)
	t.Logf("the run made %d snapshot pages its own; %d were written ahead", grew, len(e.hot.pages()))
	if grew > 10 {
		t.Errorf("the run made %d more snapshot pages its own (from %d); want at most 10, the rest written ahead", grew, len(before))
	}
}

// TestHotPagesKeepsWhatRunsShare: the pages written ahead are those the
// last two runs read both wrote, so a run's own allocations drop out; once
// there is a set, only one run in learnEvery is read.
func TestHotPagesKeepsWhatRunsShare(t *testing.T) {
	var h hotPages
	if !h.wants() {
		t.Fatal("no set yet, but the first run is not read")
	}
	h.learn([]uint32{1, 2, 3, 5, 700})
	if h.pages() != nil {
		t.Fatalf("one run gave a set: %v", h.pages())
	}
	if !h.wants() {
		t.Fatal("no set yet, but the second run is not read")
	}
	h.learn([]uint32{2, 3, 4, 5, 9})
	if got := h.pages(); !slices.Equal(got, []uint32{2, 3, 5}) {
		t.Fatalf("pages %v, want [2 3 5]", got)
	}
	read := 0
	for i := 0; i < 2*learnEvery; i++ {
		if h.wants() {
			read++
		}
	}
	if read != 2 {
		t.Fatalf("%d of %d runs read once there is a set, want 2", read, 2*learnEvery)
	}
	big := make([]uint32, 2*maxHotPages)
	for i := range big {
		big[i] = uint32(i)
	}
	h.learn(big)
	h.learn(big)
	if n := len(h.pages()); n != maxHotPages {
		t.Fatalf("%d pages kept, want at most %d", n, maxHotPages)
	}
}
