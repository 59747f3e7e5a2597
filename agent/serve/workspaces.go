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
	errWorkspaceClosed   = errors.New("the workspace was closed")
	// errNoRuntime wraps why the engine could not be prepared
	// (Config.EngineReady's error): every call that needs it fails so.
	errNoRuntime = errors.New("the Python runtime could not be started, so no code can run")
)

// workspace is one tools.Box with its bookkeeping.
type workspace struct {
	id      string
	box     *tools.Box
	created time.Time
	turnsMu sync.Mutex
	turns   map[string]*turn // per interpreter session: its calls queue here first
	used    atomic.Int64     // unix nanos of the last call's end (or start)
	active  atomic.Int32     // calls running or waiting on this workspace
	owner   string           // "http", "mcp" or "stdio"
	outDir  string           // the output subfolder made for it, removed at close if empty
	now     func() time.Time // the clock used is read from
}

// stdioWorkspace is the id of the workspace of pybox mcp's stdio client.
const stdioWorkspace = "stdio"

// close ends the workspace's Box and removes its output subfolder if the
// code left nothing there (os.Remove refuses a folder that is not empty).
func (w *workspace) close() {
	w.box.Close()
	if w.outDir != "" {
		os.Remove(w.outDir)
	}
}

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
func (w *workspace) acquire(ctx context.Context, key string) (release func(), err error) {
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

func (w *workspace) touch() { w.used.Store(w.now().UnixNano()) }

// lastUsed is when the workspace last started or ended a call.
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

// get returns the workspace with this id, creating it if create is set.
func (ws *workspaces) get(id, owner string, create bool) (*workspace, error) {
	if !workspaceIDPattern.MatchString(id) {
		return nil, fmt.Errorf("workspace id %q is not valid: use 1 to 128 letters, digits, '.', '_' or '-', not starting with '.'", id)
	}
	ws.mu.Lock()
	if w, ok := ws.m[id]; ok || !create || ws.closed {
		ws.mu.Unlock()
		switch {
		case ws.closed:
			return nil, errShuttingDown
		case ok:
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
	w.touch()
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

// remove closes a workspace; it reports whether it existed. Calls in
// progress finish first (tools.Box.Close waits for them).
func (ws *workspaces) remove(id string) bool {
	ws.mu.Lock()
	w, ok := ws.m[id]
	delete(ws.m, id)
	ws.mu.Unlock()
	if ok {
		w.close()
		ws.cfg.Logger.Info("workspace closed", "workspace", id)
	}
	return ok
}

// list returns the open workspaces sorted by id.
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

// reapIdle closes the workspaces idle for longer than IdleTimeout.
func (ws *workspaces) reapIdle() {
	now := ws.now()
	for _, w := range ws.list() {
		if w.active.Load() == 0 && now.Sub(w.lastUsed()) > ws.cfg.IdleTimeout {
			ws.cfg.Logger.Info("workspace idle", "workspace", w.id, "idle", now.Sub(w.lastUsed()).Round(time.Second))
			ws.remove(w.id)
		}
	}
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
	m := ws.m
	ws.m = map[string]*workspace{}
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
