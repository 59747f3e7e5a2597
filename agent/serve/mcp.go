package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"path"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

	"github.com/pybox-dev/pybox/agent/tools"
	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/internal/incident"
)

// ResourceScheme is the URI scheme of the files a workspace wrote to
// /output, as MCP resources: pybox://WORKSPACE/output/PATH. MCP clients
// read them with resources/read on the same session; over HTTP the same
// file is GET /v1/workspaces/WORKSPACE/files/output/PATH.
const ResourceScheme = "pybox"

const instructions = `pybox runs Python 3.11 in a sandbox (CPython on WebAssembly) with numpy and the other packages execute_python's description lists. ` +
	`Call execute_python to run code; pass the same session_id to keep variables between calls. ` +
	`Files saved in /output come back as images or resource links (pybox://...). Call help for the manuals.`

// newMCPServer builds an MCP server exposing every tool. stdio gives the
// connection a single workspace; over HTTP each MCP session gets its own.
func (s *Server) newMCPServer(stdio bool) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "pybox", Title: "pybox Python sandbox", Version: s.cfg.Version},
		&mcp.ServerOptions{Instructions: instructions, Capabilities: &mcp.ServerCapabilities{
			// The tool list never changes, and the resource list (the
			// files in /output) changes with every call without a
			// notification: clients list it again when they need it. So
			// neither listChanged is advertised.
			Tools:     &mcp.ToolCapabilities{},
			Resources: &mcp.ResourceCapabilities{},
		}})
	m := &mcpSessions{s: s, stdio: stdio, ids: map[*mcp.ServerSession]string{}}
	for _, t := range s.defs {
		name := s.names[t.Name]
		srv.AddTool(&mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: t.Parameters},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return m.callTool(ctx, req, name)
			})
	}
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "output",
		Title:       "Files the code wrote to /output",
		Description: "A file in this session's /output folder.",
		URITemplate: ResourceScheme + "://{workspace}/output/{+path}",
	}, m.readResource)
	srv.AddReceivingMiddleware(m.listResources)
	srv.AddReceivingMiddleware(m.recoverPanics) // outermost
	return srv
}

// recoverPanics turns a panic in any MCP method into a plain internal
// error for the client, the panic and its stack going to the log under
// the error's id. The SDK does not recover panics: one would end the
// process, and every session with it.
func (m *mcpSessions) recoverPanics(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		defer func() {
			if p := incident.Recovered(recover()); p != nil {
				res, err = nil, incident.Report(m.s.cfg.Logger, "mcp "+method, p)
			}
		}()
		return next(ctx, method, req)
	}
}

// mcpSessions maps MCP sessions to workspaces.
type mcpSessions struct {
	s     *Server
	stdio bool
	mu    sync.Mutex
	ids   map[*mcp.ServerSession]string
}

// workspace returns the session's workspace, opening it on first use, held
// for the caller's request (release it when the request is over). It is
// closed when the MCP session ends (or idles out).
func (m *mcpSessions) workspace(ss *mcp.ServerSession) (*workspace, error) {
	m.mu.Lock()
	id, ok := m.ids[ss]
	if !ok {
		switch {
		case m.stdio:
			id = stdioWorkspace
		case ss.ID() != "" && workspaceIDPattern.MatchString(ss.ID()):
			id = ss.ID()
		default:
			id = newID()
		}
		m.ids[ss] = id
		go func() {
			ss.Wait()
			m.mu.Lock()
			delete(m.ids, ss)
			m.mu.Unlock()
			m.s.ws.remove(id)
		}()
	}
	m.mu.Unlock()
	owner := "mcp"
	if m.stdio {
		owner = "stdio"
	}
	return m.s.ws.get(id, owner, true)
}

// existing returns the session's workspace if it has one, held for the
// caller's request (release it when the request is over).
func (m *mcpSessions) existing(ss *mcp.ServerSession) (*workspace, bool) {
	m.mu.Lock()
	id, ok := m.ids[ss]
	m.mu.Unlock()
	if !ok {
		return nil, false
	}
	return m.s.ws.hold(id)
}

func (m *mcpSessions) callTool(ctx context.Context, req *mcp.CallToolRequest, name string) (*mcp.CallToolResult, error) {
	stop := notifyWhileWaiting(ctx, req)
	w, err := m.workspace(req.Session)
	stop()
	if err != nil {
		if errors.Is(err, errTooManyWorkspaces) || errors.Is(err, errShuttingDown) {
			return toolError(err.Error()), nil
		}
		if errors.Is(err, errNoRuntime) {
			return toolError(noRuntimeMessage(m.s.cfg.Logger, err, m.stdio)), nil
		}
		// Opening a workspace failed on the host (its errors may name
		// host folders): the client gets an id, the log the detail.
		return nil, incident.Report(m.s.cfg.Logger, "mcp workspace", err)
	}
	defer w.release()
	res, err := m.s.call(ctx, w, name, req.Params.Arguments)
	if err != nil {
		var busy *BusyError
		if errors.As(err, &busy) || errors.Is(err, errShuttingDown) || errors.Is(err, errWorkspaceClosed) {
			// The model can act on these: wait and retry, or stop.
			return toolError(err.Error()), nil
		}
		return nil, err
	}
	return toMCP(res, w.id, m.stdio), nil
}

// noRuntimeMessage tells a client that the engine could not be prepared
// (errNoRuntime). The reason goes to the log; over stdio, where the client
// is the local user's, to the client too. Over HTTP it may name host
// folders, so the client gets the incident id that finds it in the log.
func noRuntimeMessage(log *slog.Logger, err error, stdio bool) string {
	id := incident.Report(log, "python runtime", err).ID
	if stdio {
		return fmt.Sprintf("%v (id %s). Restart pybox to try again; `pybox setup` shows the error too.", err, id)
	}
	return fmt.Sprintf("%v: the server's log has the reason under id %s.", errNoRuntime, id)
}

func toolError(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
}

// toMCP maps a tools.Result onto MCP content: text for text, image content
// for images, resource links (pybox://...) for other files.
func toMCP(r *tools.Result, workspace string, stdio bool) *mcp.CallToolResult {
	out := &mcp.CallToolResult{IsError: r.IsError, Content: []mcp.Content{}}
	for _, c := range r.Content {
		switch c.Type {
		case tools.ContentText:
			out.Content = append(out.Content, &mcp.TextContent{Text: c.Text})
		case tools.ContentImage:
			out.Content = append(out.Content, &mcp.ImageContent{Data: c.Data, MIMEType: c.MIME})
		case tools.ContentFile:
			size := c.Size
			link := &mcp.ResourceLink{
				URI:      ResourceURI(workspace, c.Path),
				Name:     path.Base(c.Path),
				Title:    c.Path,
				MIMEType: c.MIME,
				Size:     &size,
			}
			if !stdio {
				link.Description = "Also at GET " + DownloadPath(workspace, c.Path)
			}
			out.Content = append(out.Content, link)
		}
	}
	if er, ok := r.Structured.(*tools.ExecResult); ok {
		out.StructuredContent = er
	}
	return out
}

// ResourceURI is the MCP resource URI of a file in a workspace's /output.
func ResourceURI(workspace, guestPath string) string {
	u := url.URL{Scheme: ResourceScheme, Host: workspace, Path: guestPath}
	return u.String()
}

// DownloadPath is the HTTP API path that downloads a file in a workspace's
// /output.
func DownloadPath(workspace, guestPath string) string {
	return "/v1/workspaces/" + url.PathEscape(workspace) + "/files" + (&url.URL{Path: guestPath}).EscapedPath()
}

// parseResourceURI splits pybox://WORKSPACE/output/PATH.
func parseResourceURI(uri string) (workspace, guestPath string, ok bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != ResourceScheme || u.Host == "" {
		return "", "", false
	}
	p := path.Clean("/" + u.Path)
	if !strings.HasPrefix(p, "/output/") {
		return "", "", false
	}
	return u.Host, p, true
}

// readResource serves resources/read for files in the session's /output.
// A session reads only its own workspace's files.
// maxResourceBytes bounds a resource read: its content is held whole in
// memory (and base64-encoded for binary files) to be sent in one message.
const maxResourceBytes = 64 << 20

func (m *mcpSessions) readResource(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	wsID, p, ok := parseResourceURI(uri)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	w, ok := m.existing(req.Session)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	defer w.release()
	if w.id != wsID {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	// A resource travels whole in one message: the read holds a
	// concurrency slot, like a tool call or a download, and is bounded.
	free, err := m.s.admit(ctx)
	if err != nil {
		return nil, err
	}
	defer free()
	f, fi, err := w.box.Sandbox().OpenArtifact(p)
	if err != nil && w.closed.Load() {
		return nil, w.closedErr()
	}
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	defer f.Close()
	if fi.Size() > maxResourceBytes {
		return nil, fmt.Errorf("%s is %d bytes, too big to return as a resource (the most is %d MiB); read parts of it with read_file, or download it over HTTP",
			p, fi.Size(), maxResourceBytes>>20)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxResourceBytes))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	rc := &mcp.ResourceContents{URI: uri, MIMEType: fsbridge.DetectMIME(p, head(data))}
	if strings.HasPrefix(rc.MIMEType, "text/") && utf8.Valid(data) {
		rc.Text = string(data)
	} else {
		rc.Blob = data
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{rc}}, nil
}

func head(b []byte) []byte { return b[:min(len(b), 512)] }

// listResources answers resources/list with the files now in the session's
// /output (the SDK's own list is server-wide, ours is per session).
func (m *mcpSessions) listResources(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "resources/list" {
			return next(ctx, method, req)
		}
		res := &mcp.ListResourcesResult{Resources: []*mcp.Resource{}}
		ss, _ := req.GetSession().(*mcp.ServerSession)
		if ss == nil {
			return res, nil
		}
		w, ok := m.existing(ss)
		if !ok {
			return res, nil
		}
		defer w.release()
		for _, f := range outputFiles(w.box.Sandbox(), 1000) {
			size := f.Size
			res.Resources = append(res.Resources, &mcp.Resource{
				URI: ResourceURI(w.id, f.Path), Name: path.Base(f.Path), Title: f.Path, MIMEType: f.MIME, Size: size,
			})
		}
		return res, nil
	}
}

// outputFiles lists the regular files under /output (at most limit).
func outputFiles(sb *fsbridge.Sandbox, limit int) []tools.File {
	fsys := sb.FS()
	var out []tools.File
	var walk func(dir string)
	walk = func(dir string) {
		f, errno := fsys.OpenFile(dir, experimentalsys.O_RDONLY|experimentalsys.O_DIRECTORY, 0)
		if errno != 0 {
			return
		}
		ents, errno := f.Readdir(-1)
		f.Close()
		if errno != 0 {
			return
		}
		for _, e := range ents {
			if len(out) >= limit {
				return
			}
			p := path.Join(dir, e.Name)
			switch {
			case e.Type.IsDir():
				walk(p)
			case e.Type.IsRegular():
				var size int64
				var headb []byte
				// Never follow a link (a host program may have put one in
				// /output): Lstat, and open with O_NOFOLLOW.
				if st, errno := fsys.Lstat(p); errno == 0 {
					size = st.Size
				}
				if g, errno := fsys.OpenFile(p, experimentalsys.O_RDONLY|experimentalsys.O_NOFOLLOW, 0); errno == 0 {
					buf := make([]byte, 512)
					n, _ := g.Read(buf)
					headb = buf[:n]
					g.Close()
				}
				out = append(out, tools.File{Path: p, Size: size, MIME: fsbridge.DetectMIME(p, headb)})
			}
		}
	}
	walk("/output")
	return out
}

var _ = fmt.Sprintf

// progressEvery is how often a tool call waiting for the Python runtime
// (compiling on a first start, a minute or more) tells the client so.
const progressEvery = time.Second

// notifyWhileWaiting sends MCP progress notifications for a tool call that
// asked for them (a progressToken in _meta) while it waits for its
// workspace, which on a first start means waiting for the runtime to be
// compiled: clients show the message and keep waiting rather than time
// out. Nothing is sent when the wait is shorter than progressEvery. Call
// stop when the wait is over.
func notifyWhileWaiting(ctx context.Context, req *mcp.CallToolRequest) (stop func()) {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		start := time.Now()
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			waited := time.Since(start).Seconds()
			req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
				ProgressToken: token,
				Progress:      waited,
				Message:       fmt.Sprintf("waiting %.0f s for the Python runtime (compiled once, on the first start; `pybox setup` does it ahead of time)", waited),
			})
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}
