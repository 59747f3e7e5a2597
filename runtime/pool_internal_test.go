package runtime

import (
	"context"
	"testing"
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
