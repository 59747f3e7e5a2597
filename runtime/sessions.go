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
	// Max is the most sessions open at once (default 16). When it is
	// reached, the least recently used idle session is closed to make room;
	// if all are busy, Get fails.
	Max int
	// IdleTimeout closes a session unused for this long (default 30 min).
	IdleTimeout time.Duration
	// Session configures each new session.
	Session SessionConfig
	// Configure, if set, configures each new session from its id (for
	// example its own filesystem) and overrides Session.
	Configure func(id string) (SessionConfig, error)
}

// Sessions holds persistent interpreters keyed by an id (one per agent or
// conversation), creating them on first use and closing idle ones.
type Sessions struct {
	e    *Engine
	cfg  SessionsConfig
	now  func() time.Time // the clock idle times are read from
	mu   sync.Mutex
	m    map[string]*Session
	stop chan struct{}
	done chan struct{}
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
	ss := &Sessions{e: e, cfg: cfg, now: now, m: map[string]*Session{}, stop: make(chan struct{}), done: make(chan struct{})}
	go ss.reap()
	return ss
}

// Get returns the session with this id, starting it if needed.
func (ss *Sessions) Get(ctx context.Context, id string) (*Session, error) {
	if id == "" {
		return nil, errors.New("session id is empty")
	}
	ss.mu.Lock()
	if s, ok := ss.m[id]; ok {
		ss.mu.Unlock()
		return s, nil
	}
	if len(ss.m) >= ss.cfg.Max && !ss.evictOneLocked() {
		ss.mu.Unlock()
		return nil, fmt.Errorf("%w (max %d)", ErrTooManySessions, ss.cfg.Max)
	}
	cfg := ss.cfg.Session
	ss.mu.Unlock()
	if ss.cfg.Configure != nil {
		var err error
		if cfg, err = ss.cfg.Configure(id); err != nil {
			return nil, fmt.Errorf("session %s: %w", id, err)
		}
	}
	s, err := ss.e.newSession(ctx, cfg, ss.now)
	if err != nil {
		return nil, err
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if other, ok := ss.m[id]; ok { // started concurrently: keep the first
		s.Close()
		return other, nil
	}
	ss.m[id] = s
	return s, nil
}

// evictOneLocked closes the least recently used idle session.
func (ss *Sessions) evictOneLocked() bool {
	type cand struct {
		id   string
		used time.Time
	}
	var cs []cand
	for id, s := range ss.m {
		if t, idle := s.idleSince(); idle {
			cs = append(cs, cand{id, t})
		}
	}
	if len(cs) == 0 {
		return false
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].used.Before(cs[j].used) })
	ss.m[cs[0].id].Close()
	delete(ss.m, cs[0].id)
	return true
}

// CloseSession ends one session; it is not an error if it does not exist.
func (ss *Sessions) CloseSession(id string) {
	ss.mu.Lock()
	s := ss.m[id]
	delete(ss.m, id)
	ss.mu.Unlock()
	if s != nil {
		s.Close()
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
	close(ss.stop)
	<-ss.done
	ss.mu.Lock()
	m := ss.m
	ss.m = map[string]*Session{}
	ss.mu.Unlock()
	for _, s := range m {
		s.Close()
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
	now := ss.now()
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for id, s := range ss.m {
		if used, idle := s.idleSince(); idle && now.Sub(used) > ss.cfg.IdleTimeout {
			s.Close()
			delete(ss.m, id)
		}
	}
}
