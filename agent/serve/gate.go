package serve

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// BusyError is the answer when every slot is taken and the queue is full,
// or a call waited QueueTimeout without getting a slot.
type BusyError struct {
	// Running and Waiting are the calls holding a slot and queued.
	Running, Waiting int
	// RetryAfter is a hint for when to try again.
	RetryAfter time.Duration
	// Waited is how long the call waited before being refused.
	Waited time.Duration
}

// Error says what is busy and what to do.
func (e *BusyError) Error() string {
	return fmt.Sprintf("pybox is busy: %d calls are running and %d waiting (the operator's limit); try again in %d s",
		e.Running, e.Waiting, int(e.RetryAfter.Seconds()+0.5))
}

// errShuttingDown answers calls that arrive once a shutdown has begun.
var errShuttingDown = errors.New("pybox is shutting down and takes no new calls")

// gate bounds the tool calls running at once. Decision: a call waits in a
// bounded queue for a bounded time (brief bursts are absorbed; 200 clients
// arriving at once all get served on a small machine), and is refused
// "busy" only when the queue is full or the wait is over. A refused call
// never started, so retrying it is always safe.
type gate struct {
	slots    chan struct{}
	waiting  atomic.Int64
	maxQueue int64
	wait     time.Duration

	// queued, if set, is called when a call begins to wait for a slot
	// (Config.onQueue).
	queued func()
}

func newGate(running, queue int, wait time.Duration) *gate {
	return &gate{slots: make(chan struct{}, running), maxQueue: int64(queue), wait: wait}
}

// acquire takes a slot; release gives it back.
func (g *gate) acquire(ctx context.Context) (release func(), err error) {
	release = func() { <-g.slots }
	select {
	case g.slots <- struct{}{}:
		return release, nil
	default:
	}
	if n := g.waiting.Add(1); n > g.maxQueue {
		g.waiting.Add(-1)
		return nil, g.busy(0)
	}
	defer g.waiting.Add(-1)
	if g.queued != nil {
		g.queued()
	}
	start := time.Now()
	t := time.NewTimer(g.wait)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
		return release, nil
	case <-t.C:
		return nil, g.busy(time.Since(start))
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (g *gate) busy(waited time.Duration) *BusyError {
	return &BusyError{Running: len(g.slots), Waiting: int(g.waiting.Load()), RetryAfter: 2 * time.Second, Waited: waited}
}
