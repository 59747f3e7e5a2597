package runtime

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"
)

// SessionsConfig bounds a Sessions set. Zero fields take the defaults below.
type SessionsConfig struct {
	// Max is the most sessions open (or being started) at once (default
	// 16). When it is reached, the least recently used idle session is
	// closed to make room; if all are busy (running or waiting for a call,
	// or handed out by Get for a call to come), Get fails with
	// ErrTooManySessions.
	Max int
	// IdleTimeout closes a session unused (no call ended, no Get handed it
	// out) for this long (default 30 min).
	IdleTimeout time.Duration
	// Session configures each new session.
	Session SessionConfig
	// Configure, if set, configures each new session from its id (for
	// example its own filesystem) and overrides Session.
	Configure func(id string) (SessionConfig, error)
}

// Sessions holds persistent interpreters keyed by an id (one per agent or
// conversation), creating them on first use and closing idle ones.
//
// A session Get hands out is in use until the caller's next Exec on it has
// ended (or for IdleTimeout if no Exec comes): neither the idle reaper nor
// a Get that needs room closes it under the caller.
type Sessions struct {
	e   *Engine
	cfg SessionsConfig
	now func() time.Time // the clock idle times are read from

	mu       sync.Mutex
	m        map[string]*member
	starting map[string]chan struct{} // ids a Get is starting a session for; closed when it is done
	closed   bool
	stop     chan struct{}
	done     chan struct{}
}

// member is an open session of a Sessions.
type member struct {
	s   *Session
	got time.Time // when Get last handed s out
}

// ErrTooManySessions is returned by Get when Max sessions are open and all
// are busy.
var ErrTooManySessions = errors.New("too many pybox sessions are open and busy")

// NewSessions returns an empty set of sessions; a background goroutine
// closes idle ones until Close.
func (e *Engine) NewSessions(cfg SessionsConfig) *Sessions {
	return e.newSessions(cfg, time.Now)
}

// newSessions is NewSessions on the clock now.
func (e *Engine) newSessions(cfg SessionsConfig, now func() time.Time) *Sessions {
	if cfg.Max <= 0 {
		cfg.Max = 16
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = 30 * time.Minute
	}
	ss := &Sessions{e: e, cfg: cfg, now: now, m: map[string]*member{}, starting: map[string]chan struct{}{},
		stop: make(chan struct{}), done: make(chan struct{})}
	go ss.reap()
	return ss
}

// Get returns the session with this id, starting it if needed. The session
// counts as used from now: it is not closed for idleness or to make room
// before the caller's next Exec on it has ended. Max counts the sessions
// being started too; concurrent Gets of one new id start one session.
func (ss *Sessions) Get(ctx context.Context, id string) (*Session, error) {
	if id == "" {
		return nil, errors.New("session id is empty")
	}
	ss.mu.Lock()
	for {
		if ss.closed {
			ss.mu.Unlock()
			return nil, ErrSessionClosed
		}
		if m, ok := ss.m[id]; ok {
			ss.handOutLocked(m)
			ss.mu.Unlock()
			return m.s, nil
		}
		started, ok := ss.starting[id]
		if !ok {
			break
		}
		ss.mu.Unlock()
		select {
		case <-started:
		case <-ctx.Done():
			return nil, fmt.Errorf("session %s: %w", id, ctx.Err())
		}
		ss.mu.Lock()
	}
	if len(ss.m)+len(ss.starting) >= ss.cfg.Max && !ss.evictOneLocked() {
		ss.mu.Unlock()
		return nil, fmt.Errorf("%w (max %d)", ErrTooManySessions, ss.cfg.Max)
	}
	started := make(chan struct{})
	ss.starting[id] = started
	ss.mu.Unlock()

	s, err := ss.start(ctx, id)

	ss.mu.Lock()
	delete(ss.starting, id)
	close(started)
	if err == nil && ss.closed { // Close came while it started
		ss.mu.Unlock()
		s.Close()
		return nil, ErrSessionClosed
	}
	if err != nil {
		ss.mu.Unlock()
		return nil, err
	}
	m := &member{s: s}
	ss.handOutLocked(m)
	ss.m[id] = m
	ss.mu.Unlock()
	return s, nil
}

// start starts the session for id.
func (ss *Sessions) start(ctx context.Context, id string) (*Session, error) {
	cfg := ss.cfg.Session
	if ss.cfg.Configure != nil {
		var err error
		if cfg, err = ss.cfg.Configure(id); err != nil {
			return nil, fmt.Errorf("session %s: %w", id, err)
		}
	}
	return ss.e.newSession(ctx, cfg, ss.now)
}

// handOutLocked pins m's session for the caller's next Exec. A pin lasts
// until that Exec takes it, or IdleTimeout at most: the pins of Gets whose
// Exec never came are dropped here.
func (ss *Sessions) handOutLocked(m *member) {
	now := ss.now()
	if now.Sub(m.got) > ss.cfg.IdleTimeout {
		m.s.pins.Store(0)
	}
	m.s.pins.Add(1)
	m.got = now
}

// lastUse is when m's session last finished a call or was handed out.
func lastUse(m *member, used time.Time) time.Time {
	if m.got.After(used) {
		return m.got
	}
	return used
}

// heldLocked reports whether m's session is pinned by a Get that is still
// within its time.
func (ss *Sessions) heldLocked(m *member, pinned bool, now time.Time) bool {
	return pinned && now.Sub(m.got) <= ss.cfg.IdleTimeout
}

// evictOneLocked closes the least recently used idle session that no Get
// has handed out for a call yet to come.
func (ss *Sessions) evictOneLocked() bool {
	type cand struct {
		id   string
		m    *member
		last time.Time
	}
	now := ss.now()
	var cs []cand
	for id, m := range ss.m {
		if used, pinned, idle := m.s.idleSince(); idle && !ss.heldLocked(m, pinned, now) {
			cs = append(cs, cand{id, m, lastUse(m, used)})
		}
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].last.Before(cs[j].last) })
	for _, c := range cs {
		// Idle a moment ago; closed only if it still is.
		if c.m.s.closeIfIdle(func(_ time.Time, pinned bool) bool { return !ss.heldLocked(c.m, pinned, now) }) {
			delete(ss.m, c.id)
			return true
		}
	}
	return false
}

// CloseSession ends one session; it is not an error if it does not exist.
func (ss *Sessions) CloseSession(id string) {
	ss.mu.Lock()
	m := ss.m[id]
	delete(ss.m, id)
	ss.mu.Unlock()
	if m != nil {
		m.s.Close()
	}
}

// Len is the number of open sessions.
func (ss *Sessions) Len() int {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return len(ss.m)
}

// IDs returns the ids of the open sessions, sorted.
func (ss *Sessions) IDs() []string {
	ss.mu.Lock()
	ids := make([]string, 0, len(ss.m))
	for id := range ss.m {
		ids = append(ids, id)
	}
	ss.mu.Unlock()
	sort.Strings(ids)
	return ids
}

// Close ends every session and stops the idle reaper.
func (ss *Sessions) Close() {
	ss.mu.Lock()
	if ss.closed {
		ss.mu.Unlock()
		return
	}
	ss.closed = true
	m := ss.m
	ss.m = map[string]*member{}
	ss.mu.Unlock()
	close(ss.stop)
	<-ss.done
	for _, mb := range m {
		mb.s.Close()
	}
}

func (ss *Sessions) reap() {
	defer close(ss.done)
	every := ss.cfg.IdleTimeout / 4
	if every > time.Minute {
		every = time.Minute
	}
	if every < 10*time.Millisecond {
		every = 10 * time.Millisecond
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ss.stop:
			return
		case <-t.C:
		}
		ss.reapIdle()
	}
}

// reapIdle closes the sessions idle for longer than IdleTimeout.
func (ss *Sessions) reapIdle() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	now := ss.now()
	for id, m := range ss.m {
		expired := func(used time.Time, _ bool) bool { return now.Sub(lastUse(m, used)) > ss.cfg.IdleTimeout }
		if m.s.closeIfIdle(expired) {
			delete(ss.m, id)
		}
	}
}
