// Package manualclock provides a clock that only moves when a test moves
// it, for tests of idle timeouts: what such a test sees must not depend on
// how fast a busy machine runs it.
package manualclock

import (
	"sync"
	"time"
)

// Clock is a time source that stands still until Advance is called. It is
// safe for concurrent use; its zero value reads as the zero time.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// New returns a clock reading start.
func New(start time.Time) *Clock { return &Clock{t: start} }

// Now returns the clock's current reading.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}
