package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pybox-dev/pybox/agent/tools"
	"github.com/pybox-dev/pybox/internal/incident"
)

// Server serves the tools over MCP (stdio and streamable HTTP) and the JSON
// HTTP API, with workspaces shared between them. Create it with New, serve
// with Serve (HTTP) or ServeStdio, stop it with Shutdown, and Close it.
type Server struct {
	cfg   Config
	ws    *workspaces
	gate  *gate
	defs  []tools.Tool      // names, descriptions and schemas as clients see them (handlers unused)
	names map[string]string // a name clients see -> the Box's tool name

	mcpHTTP *mcp.Server
	handler http.Handler

	mu       sync.Mutex
	draining bool
	inflight sync.WaitGroup

	// hard is canceled when the grace period is over: running code gets
	// KeyboardInterrupt.
	hard       context.Context
	cancelHard context.CancelFunc
}

// New creates a Server. It does not listen; see Serve and ServeStdio.
func New(cfg Config) (*Server, error) {
	if err := cfg.setDefaults(); err != nil {
		return nil, err
	}
	// The tool definitions depend only on the configuration, so every
	// front end shows the same ones.
	s := &Server{cfg: cfg, names: map[string]string{}}
	for _, t := range Definitions(cfg) {
		s.defs = append(s.defs, t)
	}
	for _, t := range tools.Definitions(cfg.Box) {
		s.names[t.WithPrefix(cfg.ToolPrefix).Name] = t.Name
	}
	s.ws = newWorkspaces(&s.cfg)
	s.gate = newGate(cfg.MaxConcurrent, cfg.MaxQueue, cfg.QueueTimeout)
	s.gate.queued = cfg.onQueue
	s.hard, s.cancelHard = context.WithCancel(context.Background())
	s.mcpHTTP = s.newMCPServer(false)
	s.handler = s.routes()
	return s, nil
}

// Definitions returns the tools a Server with this configuration exposes
// (prefixed and strict as configured), for their names, descriptions and
// schemas; it needs no Engine.
func Definitions(cfg Config) []tools.Tool {
	var out []tools.Tool
	for _, t := range tools.Definitions(cfg.Box) {
		if cfg.StrictSchemas {
			t = t.Strict()
		}
		out = append(out, t.WithPrefix(cfg.ToolPrefix))
	}
	return out
}

// Tools returns the tool definitions the server exposes.
func (s *Server) Tools() []tools.Tool { return append([]tools.Tool(nil), s.defs...) }

// admit lets a request that is not a tool call (a download) in under the
// same rules: refused once a shutdown has begun, counted as in flight, and
// holding a concurrency slot. free gives all of it back.
func (s *Server) admit(ctx context.Context) (free func(), err error) {
	s.mu.Lock()
	if s.draining {
		s.mu.Unlock()
		return nil, errShuttingDown
	}
	s.inflight.Add(1)
	s.mu.Unlock()
	release, err := s.gate.acquire(ctx)
	if err != nil {
		s.inflight.Done()
		return nil, err
	}
	return func() {
		release()
		s.inflight.Done()
	}, nil
}

// call runs one tool call in a workspace the caller holds (see workspace),
// under the concurrency limit and the shutdown rules. Its errors are
// pybox's (BusyError, errShuttingDown, a closedError, an engine failure);
// the tool's own failures are in the Result.
func (s *Server) call(ctx context.Context, w *workspace, name string, args json.RawMessage) (*tools.Result, error) {
	s.mu.Lock()
	if s.draining {
		s.mu.Unlock()
		return nil, errShuttingDown
	}
	s.inflight.Add(1)
	s.mu.Unlock()
	defer s.inflight.Done()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(s.hard, cancel)
	defer stop()

	// A call's time limit covers its wait for the workspace too (see
	// tools.WithSubmitted): a call queued behind a long one ends at its own
	// deadline, without running.
	submitted := time.Now()
	ctx = tools.WithSubmitted(ctx, submitted)
	waitCtx, stopWait := ctx, context.CancelFunc(func() {})
	limit := w.box.CallTimeout(name, args)
	if limit > 0 {
		waitCtx, stopWait = context.WithTimeout(ctx, limit)
	}
	release, err := w.acquire(waitCtx, w.box.CallSession(name, args))
	stopWait()
	if err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		return tools.WaitedOut(limit, time.Since(submitted)), nil
	}
	if errors.Is(err, errWorkspaceClosed) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("wait for workspace %s: %w", w.id, err)
	}
	defer release()
	free, err := s.gate.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer free()
	start := time.Now()
	res, err := w.box.Call(ctx, name, args)
	if err != nil {
		if s.hard.Err() == nil {
			// A Box closed under us (the workspace deleted, or its MCP
			// session ended) is not a pybox failure.
			if w.closed.Load() {
				s.cfg.Logger.Info("tool ended by its workspace closing", "workspace", w.id, "tool", name, "err", err)
				return nil, w.closedErr()
			}
		}
		// pybox failed: the client gets an id, the log the detail.
		return nil, incident.Report(s.cfg.Logger, "tool "+name+" in workspace "+w.id, err)
	}
	s.cfg.Logger.Info("tool", "workspace", w.id, "tool", name, "is_error", res.IsError, "ms", time.Since(start).Milliseconds())
	return res, nil
}

// Serve accepts HTTP connections on ln until ctx is done, then shuts down
// gracefully (see Shutdown) and returns. Close the Server afterwards.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          nil,
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	s.cfg.Logger.Info("shutting down", "grace", s.cfg.Grace)
	// Stop accepting connections at once; requests in progress go on.
	shutdownDone := make(chan error, 1)
	go func() {
		c, cancel := context.WithTimeout(context.Background(), s.cfg.Grace+15*time.Second)
		defer cancel()
		shutdownDone <- hs.Shutdown(c)
	}()
	s.Shutdown()
	// Long-lived MCP streams (GET /mcp) end with their sessions.
	for ss := range s.mcpHTTP.Sessions() {
		ss.Close()
	}
	select {
	case err := <-shutdownDone:
		if err != nil {
			hs.Close()
		}
	case <-time.After(5 * time.Second):
		hs.Close()
	}
	<-errc
	return nil
}

// Shutdown refuses new calls, waits up to Config.Grace for running calls to
// finish, then interrupts the code still running (its context is canceled:
// KeyboardInterrupt in the guest, killed after the run's KillAfter) and
// waits for those calls to return their (canceled) results.
func (s *Server) Shutdown() {
	s.mu.Lock()
	s.draining = true
	s.mu.Unlock()
	done := make(chan struct{})
	go func() { s.inflight.Wait(); close(done) }()
	select {
	case <-done:
		return
	case <-time.After(s.cfg.Grace):
	}
	s.cfg.Logger.Warn("grace period over: interrupting running code")
	s.cancelHard()
	<-done
}

// Close ends every workspace (their sessions and temporary folders). It
// does not close the Engine.
func (s *Server) Close() error {
	s.cancelHard()
	s.ws.closeAll()
	return nil
}

// ServeStdio serves MCP over a pair of streams (os.Stdin and os.Stdout for
// `pybox mcp`) with one workspace for the connection, until the peer hangs
// up or ctx is done; then it shuts down gracefully (see Shutdown).
func (s *Server) ServeStdio(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
	srv := s.newMCPServer(true)
	tr := &finishingTransport{Transport: &mcp.IOTransport{Reader: in, Writer: out}}
	ss, err := srv.Connect(context.Background(), tr, nil)
	if err != nil {
		return fmt.Errorf("serve: mcp stdio: %w", err)
	}
	ended := make(chan error, 1)
	go func() { ended <- ss.Wait() }()
	select {
	case err := <-ended:
		if err != nil && !errors.Is(err, mcp.ErrConnectionClosed) && !errors.Is(err, io.EOF) {
			return fmt.Errorf("serve: mcp stdio: %w", err)
		}
		return nil
	case <-ctx.Done():
	}
	s.Shutdown()
	// The last results are written by the SDK after their handlers return:
	// wait for them (briefly: a client that stopped reading must not hold
	// the shutdown).
	wctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	tr.conn.waitIdle(wctx)
	cancel()
	ss.Close()
	return nil
}
