package runtime

import "time"

// NewSessionsAt is NewSessions on the clock now, for tests that move time
// themselves instead of waiting for it.
func (e *Engine) NewSessionsAt(cfg SessionsConfig, now func() time.Time) *Sessions {
	return e.newSessions(cfg, now)
}

// ReapIdle runs one pass of the idle reaper now.
func (ss *Sessions) ReapIdle() { ss.reapIdle() }
