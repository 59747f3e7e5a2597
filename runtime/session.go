package runtime

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
)

// SessionConfig configures a persistent interpreter.
type SessionConfig struct {
	// Memory caps the session's interpreter memory in bytes for its whole
	// life (Request.Limits.Memory is ignored by Exec). Zero means
	// DefaultMemoryLimit.
	Memory int64
	// FS is what the session's guest sees at "/" (see Request.FS), so
	// files written in one call are there in the next. An Exec whose
	// Request.FS is set sees that instead from then on (a per-call view of
	// the same files, e.g. fsbridge.Run.FS, that records what the call
	// did).
	FS experimentalsys.FS
}

// Session is a persistent interpreter: globals, imports and loaded data
// survive from one Exec to the next, the way a notebook kernel behaves.
//
// Calls on one Session are serialized; a call's Limits.Timeout counts from
// the call, so one queued behind a long call times out on time (without
// running). A call is over when the interpreter is back waiting for the next
// one, not when it says it is done. A timeout or cancellation interrupts
// the running code with KeyboardInterrupt and the session keeps its state.
// Only when the code cannot be interrupted (it ignores KeyboardInterrupt, or
// is stuck in C code) is the interpreter killed; the next Exec then starts a
// fresh one and says so in its Result (SessionRestarted).
type Session struct {
	e   *Engine
	cfg SessionConfig
	now func() time.Time // the clock lastUsed is read from

	// waiting counts the calls of Exec that have not yet taken (or given
	// up) their turn, pins the calls a Sessions.Get handed this session
	// out for that have not yet entered Exec: a session with either is in
	// use, not idle (see closeIfIdle).
	waiting atomic.Int32
	pins    atomic.Int32

	// turn is held (a value sent) by the call, Reset or Close that owns
	// the session; it guards the fields below. A channel rather than a
	// mutex so that a waiting call can give up at its deadline.
	turn     chan struct{}
	inst     *instance
	lost     string // why the last interpreter ended, reported by the next Exec
	closed   bool
	lastUsed time.Time
	calls    int
}

// ErrSessionClosed is returned by Exec on a closed session, and by
// Sessions.Get once the Sessions are closed.
var ErrSessionClosed = errors.New("pybox session is closed")

// NewSession starts a persistent interpreter. It costs one interpreter start
// (taken from the warm pool, or restored from the engine's snapshot: about a
// millisecond; a boot of tens of milliseconds without one) and the
// interpreter's memory until Close.
func (e *Engine) NewSession(ctx context.Context, cfg SessionConfig) (*Session, error) {
	return e.newSession(ctx, cfg, time.Now)
}

// newSession is NewSession on the clock now. The session's idle time counts
// from when it is ready, not from when its start began.
func (e *Engine) newSession(ctx context.Context, cfg SessionConfig, now func() time.Time) (*Session, error) {
	if cfg.Memory <= 0 {
		cfg.Memory = DefaultMemoryLimit
	}
	s := &Session{e: e, cfg: cfg, now: now, turn: make(chan struct{}, 1)}
	if err := s.start(ctx); err != nil {
		return nil, err
	}
	s.lastUsed = now()
	return s, nil
}

func (s *Session) start(ctx context.Context) error {
	inst, err := s.e.instance(ctx, s.cfg.Memory)
	if err != nil {
		return err
	}
	inst.root.set(s.cfg.FS)
	s.inst = inst
	return nil
}

// Exec runs code in the session's interpreter. Request.Limits.Memory is
// ignored (it is the session's); Request.FS, if set, replaces the session's
// view of its files (see SessionConfig.FS); the other limits apply to this
// call. Calls on one session run one at a time, in turn.
func (s *Session) Exec(ctx context.Context, req Request) (*Result, error) {
	start := time.Now()
	lim := req.Limits.withDefaults()
	lim.Memory = s.cfg.Memory
	deadline := deadlineOf(start, lim)
	// Until it holds its turn the call is waiting, and the pin of the Get
	// that handed the session out (if any) passes to it: the session is in
	// use throughout.
	s.waiting.Add(1)
	s.unpin()
	reason := s.acquire(ctx, deadline)
	s.waiting.Add(-1)
	if reason != "" {
		return notRun(reason, lim, start), nil
	}
	defer s.release()
	if s.closed {
		return nil, ErrSessionClosed
	}
	restarted := ""
	if s.inst == nil || s.inst.dead() || s.lost != "" {
		restarted = s.lost
		if restarted == "" {
			restarted = "its interpreter had ended"
		}
		if s.inst != nil {
			s.inst.close(context.Background())
		}
		if err := s.start(ctx); err != nil {
			return nil, fmt.Errorf("restart session interpreter: %w", err)
		}
		s.lost = ""
	}
	inst := s.inst
	if req.FS != nil {
		inst.root.set(req.FS)
	}

	res := s.e.runJob(ctx, inst, &req, lim, true, start, deadline)
	if restarted != "" {
		res.SessionRestarted = true
		note := "this session's previous interpreter was lost (" + restarted + "); it was restarted with a fresh state: variables, imports and data from earlier calls are gone"
		if res.Message == "" {
			res.Message = note
		} else {
			res.Message = note + "; " + res.Message
		}
	}
	if inst.dead() || (res.Stop != nil && (res.Stop.Killed || res.Stop.Abandoned)) {
		s.lost = res.Message
		if s.lost == "" {
			s.lost = "the interpreter exited"
		}
		res.SessionLost = true
	}
	s.lastUsed = s.now()
	s.calls++
	return res, nil
}

// acquire waits for the session's turn until deadline (zero: none) or the
// context's end; it returns "" once the turn is held, else the stop reason.
func (s *Session) acquire(ctx context.Context, deadline time.Time) string {
	select {
	case s.turn <- struct{}{}:
		return ""
	default:
	}
	var timeout <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		timeout = t.C
	}
	select {
	case s.turn <- struct{}{}:
		return ""
	case <-timeout:
		return "timeout"
	case <-ctx.Done():
		return ctxReason(ctx)
	}
}

func (s *Session) release() { <-s.turn }

// lock takes the session's turn, however long the call holding it takes.
func (s *Session) lock() { s.turn <- struct{}{} }

// notRun is the result of a call that ran out of time (or was canceled)
// while it waited for the session's previous call to end: its code never
// started, and the session is untouched.
func notRun(reason string, lim Limits, start time.Time) *Result {
	res := &Result{Duration: time.Since(start), Stop: &StopInfo{Reason: reason}}
	if reason == "timeout" {
		after := lim.Timeout
		if after == 0 {
			after = res.Duration
		}
		res.Status, res.ExitCode = StatusTimeout, ExitCodeTimeout
		res.Message = fmt.Sprintf("timed out after %s waiting for this session's previous call to end; this code did not run", roundDuration(after))
	} else {
		res.Status, res.ExitCode = StatusCanceled, ExitCodeCanceled
		res.Message = "canceled while waiting for this session's previous call to end; this code did not run"
	}
	res.Stderr = []byte("pybox: " + res.Message + "\n")
	return res
}

// Reset discards the session's state: the interpreter is replaced by a
// fresh one.
func (s *Session) Reset(ctx context.Context) error {
	s.lock()
	defer s.release()
	if s.closed {
		return ErrSessionClosed
	}
	if s.inst != nil {
		s.inst.close(context.Background()) // kills a running guest
	}
	s.lost = ""
	return s.start(ctx)
}

// Close ends the session and frees its interpreter. Exec afterwards returns
// ErrSessionClosed.
func (s *Session) Close() error {
	s.lock()
	defer s.release()
	if s.closed {
		return nil
	}
	s.closed = true
	if s.inst != nil {
		s.inst.close(context.Background()) // kills a running guest
		s.inst = nil
	}
	return nil
}

// unpin drops one pin, if there is one.
func (s *Session) unpin() {
	for {
		n := s.pins.Load()
		if n <= 0 || s.pins.CompareAndSwap(n, n-1) {
			return
		}
	}
}

// idleSince reports when the session last finished a call (or was ready),
// whether it is pinned, and false if it is in use: running a call, or with
// a call waiting for its turn.
func (s *Session) idleSince() (used time.Time, pinned, idle bool) {
	select {
	case s.turn <- struct{}{}:
	default:
		return time.Time{}, false, false
	}
	defer s.release()
	// Pins before waiting: Exec counts itself waiting before it takes a
	// pin, so a call between the two loads is seen by one of them.
	pinned = s.pins.Load() > 0
	if s.waiting.Load() > 0 {
		return time.Time{}, false, false
	}
	return s.lastUsed, pinned, true
}

// closeIfIdle closes the session if it is idle (see idleSince) and ok
// agrees, as one step: a call that comes in meanwhile either finds the
// session open or, once closed, gets ErrSessionClosed; it never waits for
// the close, nor is its interpreter closed under it. It reports whether the
// session is closed now (true too if its owner had closed it).
func (s *Session) closeIfIdle(ok func(used time.Time, pinned bool) bool) bool {
	select {
	case s.turn <- struct{}{}:
	default:
		return false
	}
	defer s.release()
	if s.closed {
		return true
	}
	pinned := s.pins.Load() > 0 // before waiting, as in idleSince
	if s.waiting.Load() > 0 || !ok(s.lastUsed, pinned) {
		return false
	}
	s.closed = true
	if s.inst != nil {
		s.inst.close(context.Background())
		s.inst = nil
	}
	return true
}
