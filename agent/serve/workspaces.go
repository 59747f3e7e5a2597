package serve

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pybox-dev/pybox/agent/tools"
	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/runtime"
)

// workspaceIDPattern is what a workspace id may look like: it becomes a
// folder name under the operator's output folder, so no dots-only names
// and no separators.
var workspaceIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$`)

// DefaultWorkspace is the HTTP API's workspace when a request names none.
const DefaultWorkspace = "default"

var (
	errTooManyWorkspaces = errors.New("too many workspaces are open")
	errNoWorkspace       = errors.New("no such workspace")
	// errWorkspaceClosed is what a request gets when the workspace it is
	// on was closed under it (see closedError).
	errWorkspaceClosed = errors.New("the workspace was closed")
	// errNoRuntime wraps why the engine could not be prepared
	// (Config.EngineReady's error): every call that needs it fails so.
	errNoRuntime = errors.New("the Python runtime could not be started, so no code can run")
)

// closedError says that workspace id was closed while a request was on it:
// deleted (DELETE /v1/workspaces/{id}), its MCP session ended, or the
// server closed. The idle reaper never closes a workspace a request holds.
// It is errWorkspaceClosed for errors.Is.
type closedError struct{ id string }

func (e *closedError) Error() string {
	return fmt.Sprintf("workspace %s was closed while this request was using it (deleted, or its MCP session ended)", e.id)
}

func (e *closedError) Is(target error) bool { return target == errWorkspaceClosed }

// workspace is one tools.Box with its bookkeeping.
//
// Every request addressed to a workspace holds it, from the lookup
// (workspaces.get or hold) until the request is over (release): a tool
// call, a download while its body is sent, a GET of its status or
// sessions. A held workspace is in use: the idle reaper leaves it open,
// and its idle time counts from when the last hold ended. Only an explicit
// close (workspaces.remove: DELETE, the end of its MCP session, the
// server's Close) takes it away from requests that hold it; they then
// finish, or fail with a closedError.
type workspace struct {
	id      string
	box     *tools.Box
	created time.Time
	turnsMu sync.Mutex
	turns   map[string]*turn // per interpreter session: its calls queue here first
	used    atomic.Int64     // unix nanos of the last use: a request's lookup or end, a call's start or end
	active  atomic.Int32     // calls running or waiting on this workspace
	holds   atomic.Int32     // requests holding it; taken under workspaces.mu
	closed  atomic.Bool      // taken out of the set (set under workspaces.mu): no request may start on it
	owner   string           // "http", "mcp" or "stdio"
	outDir  string           // the output subfolder made for it, removed at close if empty
	now     func() time.Time // the clock used is read from
}

// stdioWorkspace is the id of the workspace of pybox mcp's stdio client.
const stdioWorkspace = "stdio"

// close ends the workspace's Box and removes its output subfolder if the
// code left nothing there (os.Remove refuses a folder that is not empty).
// The workspace must have been taken out of the set (closed is set).
func (w *workspace) close() {
	w.box.Close()
	if w.outDir != "" {
		os.Remove(w.outDir)
	}
}

// release ends a request's hold (see workspace): the request is over, and
// it counts as the workspace's last use.
func (w *workspace) release() {
	w.touch()
	w.holds.Add(-1)
}

// holdLocked takes a hold for a request that has just looked w up
// (workspaces.mu is held), which counts as a use.
func (w *workspace) holdLocked() {
	w.holds.Add(1)
	w.touch()
}

// closedErr is the error of a request whose workspace closed under it.
func (w *workspace) closedErr() error { return &closedError{id: w.id} }

// turn orders the calls of one interpreter session (session_id).
type turn struct {
	ch    chan struct{} // held while a call of the session runs
	users int           // calls holding or waiting for ch
}

// acquire registers a call on the workspace. Calls in one interpreter
// session (key, the session_id; "" for none) wait here for their turn, so
// that a call queued behind its session's previous one holds no global
// slot meanwhile; calls in different sessions or in fresh interpreters do
// not wait for each other.
//
// It fails with a closedError once the workspace is closed: no call starts
// on a workspace after its DELETE has returned.
func (w *workspace) acquire(ctx context.Context, key string) (release func(), err error) {
	if w.closed.Load() {
		return nil, w.closedErr()
	}
	w.active.Add(1)
	w.touch()
	if key == "" {
		return func() { w.touch(); w.active.Add(-1) }, nil
	}
	w.turnsMu.Lock()
	if w.turns == nil {
		w.turns = map[string]*turn{}
	}
	t := w.turns[key]
	if t == nil {
		t = &turn{ch: make(chan struct{}, 1)}
		w.turns[key] = t
	}
	t.users++
	w.turnsMu.Unlock()
	leave := func() {
		w.turnsMu.Lock()
		if t.users--; t.users == 0 {
			delete(w.turns, key)
		}
		w.turnsMu.Unlock()
		w.touch()
		w.active.Add(-1)
	}
	select {
	case t.ch <- struct{}{}:
		return func() { <-t.ch; leave() }, nil
	case <-ctx.Done():
		leave()
		return nil, ctx.Err()
	}
}

// touch records a use now. The last use only moves forward, whatever the
// order in which concurrent requests store theirs.
func (w *workspace) touch() {
	t := w.now().UnixNano()
	for {
		old := w.used.Load()
		if old >= t || w.used.CompareAndSwap(old, t) {
			return
		}
	}
}

// lastUsed is when a request last looked the workspace up or ended, or a
// call last started or ended on it.
func (w *workspace) lastUsed() time.Time { return time.Unix(0, w.used.Load()) }

// workspaces is the set of open workspaces, keyed by id.
type workspaces struct {
	cfg    *Config
	mu     sync.Mutex
	m      map[string]*workspace
	closed bool
	stop   chan struct{}
	done   chan struct{}
}

func newWorkspaces(cfg *Config) *workspaces {
	ws := &workspaces{cfg: cfg, m: map[string]*workspace{}, stop: make(chan struct{}), done: make(chan struct{})}
	go ws.reap()
	return ws
}

// checkID refuses an id that cannot be a workspace's.
func checkID(id string) error {
	if !workspaceIDPattern.MatchString(id) {
		return fmt.Errorf("workspace id %q is not valid: use 1 to 128 letters, digits, '.', '_' or '-', not starting with '.'", id)
	}
	return nil
}

// get returns the workspace with this id, creating it if create is set,
// held for the caller's request: the caller must release it when the
// request is over (see workspace).
func (ws *workspaces) get(id, owner string, create bool) (*workspace, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	ws.mu.Lock()
	if w, ok := ws.m[id]; ok || !create || ws.closed {
		defer ws.mu.Unlock()
		switch {
		case ws.closed:
			return nil, errShuttingDown
		case ok:
			w.holdLocked()
			return w, nil
		}
		return nil, errNoWorkspace
	}
	ws.mu.Unlock()
	// A new workspace needs the engine, which may still be compiling
	// (Config.EngineReady): wait for it without holding the lock.
	eng, err := ws.engine()
	if err != nil {
		return nil, err
	}
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.closed {
		return nil, errShuttingDown
	}
	if w, ok := ws.m[id]; ok {
		w.holdLocked()
		return w, nil
	}
	if len(ws.m) >= ws.cfg.MaxWorkspaces {
		return nil, fmt.Errorf("%w (max %d): delete one (DELETE /v1/workspaces/{id}) or wait for idle ones to expire", errTooManyWorkspaces, ws.cfg.MaxWorkspaces)
	}
	bc := ws.cfg.Box
	bc.Engine = eng
	policy, err := workspacePolicy(bc.Policy, id)
	if err != nil {
		return nil, err
	}
	outDir := ""
	if policy.Output != bc.Policy.Output {
		outDir = policy.Output
	}
	bc.Policy = policy
	box, err := tools.New(bc)
	if err != nil {
		return nil, fmt.Errorf("serve: workspace %s: %w", id, err)
	}
	w := &workspace{id: id, box: box, created: ws.now(), owner: owner, outDir: outDir, now: ws.now}
	w.holdLocked()
	ws.m[id] = w
	ws.cfg.Logger.Info("workspace opened", "workspace", id, "owner", owner)
	return w, nil
}

// engine returns the engine for new workspaces: Config.Box.Engine, or the
// one Config.EngineReady hands over once it is compiled.
func (ws *workspaces) engine() (*runtime.Engine, error) {
	if ws.cfg.Box.Engine != nil {
		return ws.cfg.Box.Engine, nil
	}
	eng, err := ws.cfg.EngineReady(context.Background())
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errNoRuntime, err)
	}
	return eng, nil
}

// workspacePolicy gives a workspace its own output folder and copy-on-write
// upper folders when the operator named fixed ones, so that workspaces never
// see each other's files there. Read-only and read-write mounts are shared
// as the operator declared them.
//
// The stdio workspace is the only one of its process (one client started
// pybox mcp), so it uses the output folder itself, as pybox run and pybox
// agent do; HTTP workspaces get a subfolder named after their id, removed
// when the workspace closes if nothing was left in it.
func workspacePolicy(p fsbridge.Policy, id string) (fsbridge.Policy, error) {
	if p.Output != "" && id != stdioWorkspace {
		p.Output = filepath.Join(p.Output, id)
		if err := os.MkdirAll(p.Output, 0o755); err != nil {
			return p, fmt.Errorf("serve: workspace output folder: %w", err)
		}
	}
	mounts := make([]fsbridge.Mount, len(p.Mounts))
	copy(mounts, p.Mounts)
	for i, m := range mounts {
		if m.Mode == fsbridge.CopyOnWrite && m.Upper != "" {
			mounts[i].Upper = filepath.Join(m.Upper, id)
		}
	}
	p.Mounts = mounts
	return p, nil
}

// hold returns the open workspace with this id, held for the caller's
// request like get's (release it when the request is over).
func (ws *workspaces) hold(id string) (*workspace, bool) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	w, ok := ws.m[id]
	if ok {
		w.holdLocked()
	}
	return w, ok
}

// takeLocked takes w out of the set: from now on no request finds it, and
// none can start a call on it.
func (ws *workspaces) takeLocked(w *workspace) {
	delete(ws.m, w.id)
	w.closed.Store(true)
}

// remove closes a workspace, held or not; it reports whether it existed.
// Calls in progress finish first (tools.Box.Close waits for them); requests
// that hold it and have not started their call fail with a closedError.
// When remove returns, no request can start on the workspace.
func (ws *workspaces) remove(id string) bool {
	ws.mu.Lock()
	w, ok := ws.m[id]
	if ok {
		ws.takeLocked(w)
	}
	ws.mu.Unlock()
	if ok {
		ws.closeTaken(w)
	}
	return ok
}

// list returns the open workspaces sorted by id. Listing them is not a use
// of them, and holds none.
func (ws *workspaces) list() []*workspace {
	ws.mu.Lock()
	out := make([]*workspace, 0, len(ws.m))
	for _, w := range ws.m {
		out = append(out, w)
	}
	ws.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// reap closes workspaces idle for longer than IdleTimeout.
func (ws *workspaces) reap() {
	defer close(ws.done)
	every := min(max(ws.cfg.IdleTimeout/4, 10*time.Millisecond), time.Minute)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ws.stop:
			return
		case <-t.C:
		}
		ws.reapIdle()
	}
}

// reapIdle closes the workspaces idle for longer than IdleTimeout: held by
// no request, running no call, and unused since. A workspace that is in use
// is left for a later pass. The decision and the taking out of the set are
// one step under ws.mu, where every hold is taken, so a request that looks
// a workspace up either holds it first (and it stays) or comes after (and
// finds none, or opens a new one).
func (ws *workspaces) reapIdle() {
	type idle struct {
		w       *workspace
		idleFor time.Duration
	}
	var expired []idle
	ws.mu.Lock()
	now := ws.now()
	for _, w := range ws.m {
		// A hold ends by touching, then dropping the count: seeing no
		// holds means seeing the last one's use.
		if w.holds.Load() != 0 || w.active.Load() != 0 {
			continue
		}
		if d := now.Sub(w.lastUsed()); d > ws.cfg.IdleTimeout {
			ws.takeLocked(w)
			expired = append(expired, idle{w, d})
		}
	}
	ws.mu.Unlock()
	for _, e := range expired {
		ws.cfg.Logger.Info("workspace idle", "workspace", e.w.id, "idle", e.idleFor.Round(time.Second))
		ws.closeTaken(e.w)
	}
}

// closeTaken closes a workspace taken out of the set.
func (ws *workspaces) closeTaken(w *workspace) {
	if ws.cfg.onTake != nil {
		ws.cfg.onTake(w.id)
	}
	w.close()
	ws.cfg.Logger.Info("workspace closed", "workspace", w.id)
}

// now reads the clock idle times are measured on (Config.clock).
func (ws *workspaces) now() time.Time {
	if ws.cfg.clock != nil {
		return ws.cfg.clock()
	}
	return time.Now()
}

// closeAll closes every workspace and refuses new ones.
func (ws *workspaces) closeAll() {
	ws.mu.Lock()
	if ws.closed {
		ws.mu.Unlock()
		return
	}
	ws.closed = true
	m := make([]*workspace, 0, len(ws.m))
	for _, w := range ws.m {
		m = append(m, w)
	}
	for _, w := range m {
		ws.takeLocked(w)
	}
	ws.mu.Unlock()
	close(ws.stop)
	<-ws.done
	var wg sync.WaitGroup
	for _, w := range m {
		wg.Add(1)
		go func() { defer wg.Done(); w.close() }()
	}
	wg.Wait()
}

// newID returns a random workspace id.
func newID() string {
	var b [15]byte
	rand.Read(b[:])
	return "w-" + base32.HexEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:])
}
