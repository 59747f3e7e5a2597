package serve

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pybox-dev/pybox/agent/tools"
	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/internal/incident"
)

// route is one endpoint of the HTTP API. The table is the single source of
// the mux and of the check that /openapi.json describes every route.
type route struct {
	method, pattern string
	public          bool // no token needed
	handle          http.HandlerFunc
}

func (s *Server) routeTable() []route {
	return []route{
		{"GET", "/healthz", true, s.handleHealth},
		{"GET", "/openapi.json", true, s.handleOpenAPI},
		{"POST", "/v1/execute", false, s.handleExecute},
		{"GET", "/v1/tools", false, s.handleListTools},
		{"POST", "/v1/tools/{name}", false, s.handleCallTool},
		{"GET", "/v1/workspaces", false, s.handleListWorkspaces},
		{"GET", "/v1/workspaces/{ws}", false, s.handleGetWorkspace},
		{"DELETE", "/v1/workspaces/{ws}", false, s.handleDeleteWorkspace},
		{"GET", "/v1/workspaces/{ws}/sessions", false, s.handleListSessions},
		{"DELETE", "/v1/workspaces/{ws}/sessions/{sid}", false, s.handleDeleteSession},
		{"GET", "/v1/workspaces/{ws}/ls", false, s.handleLs},
		{"GET", "/v1/workspaces/{ws}/read", false, s.handleRead},
		{"GET", "/v1/workspaces/{ws}/files/{path...}", false, s.handleDownload},
		{"PUT", "/v1/workspaces/{ws}/files/{path...}", false, s.handleUpload},
	}
}

// Handler returns the HTTP handler: MCP at /mcp, the JSON API under /v1,
// /openapi.json and /healthz, behind the token check and the size limit.
func (s *Server) Handler() http.Handler { return s.handler }

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	for _, r := range s.routeTable() {
		h := r.handle
		if !r.public {
			h = s.authorize(h)
		}
		mux.HandleFunc(r.method+" "+r.pattern, h)
	}
	streamable := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcpHTTP },
		&mcp.StreamableHTTPOptions{
			SessionTimeout:      s.cfg.IdleTimeout,
			MaxRequestBodyBytes: s.cfg.MaxRequestBytes,
			Logger:              s.cfg.Logger,
		})
	cancels := &cancelFilter{next: streamable, pending: map[requestKey]*atomic.Bool{}}
	mux.Handle("/mcp", s.authorize(cancels.ServeHTTP))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not_found", fmt.Sprintf("no route %s %s; see GET /openapi.json", r.Method, r.URL.Path))
	})
	return s.recoverPanics(s.limitSize(s.rebinding(http.NewCrossOriginProtection().Handler(mux))))
}

// apiError is the body of every error answer.
type apiError struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	var e apiError
	e.Error.Code, e.Error.Message = code, msg
	writeJSON(w, status, e)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// authorize checks the bearer token, if one is configured.
func (s *Server) authorize(h http.HandlerFunc) http.HandlerFunc {
	if s.cfg.Token == "" {
		return h
	}
	want := []byte("Bearer " + s.cfg.Token)
	return func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("Authorization"))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="pybox"`)
			writeError(w, http.StatusUnauthorized, "unauthorized", "missing or wrong bearer token: send the header \"Authorization: Bearer <token>\" with the server's token")
			return
		}
		h(w, r)
	}
}

// limitSize answers 413 for bodies over MaxRequestBytes, declared or read.
func (s *Server) limitSize(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > s.cfg.MaxRequestBytes {
			writeError(w, http.StatusRequestEntityTooLarge, "too_large",
				fmt.Sprintf("the request body (%d bytes) is over the server's limit of %d bytes", r.ContentLength, s.cfg.MaxRequestBytes))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxRequestBytes)
		h.ServeHTTP(w, r)
	})
}

// rebinding refuses, on a server without a token, requests whose Host is
// not a loopback name: a web page cannot reach the sandbox through DNS
// rebinding. (The MCP SDK does the same for /mcp.)
func (s *Server) rebinding(h http.Handler) http.Handler {
	if s.cfg.Token != "" {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if hh, _, err := net.SplitHostPort(host); err == nil {
			host = hh
		}
		host = strings.Trim(host, "[]")
		if ip := net.ParseIP(host); !(host == "localhost" || (ip != nil && ip.IsLoopback())) {
			writeError(w, http.StatusForbidden, "forbidden_host", "this server has no token and answers only requests to a loopback host (localhost, 127.0.0.1, [::1])")
			return
		}
		h.ServeHTTP(w, r)
	})
}

// readJSON decodes a request body; it writes the error answer itself.
func readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		bodyError(w, err)
		return false
	}
	if err := json.Unmarshal(data, v); err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", "the body is not the expected JSON: "+err.Error())
		return false
	}
	return true
}

func bodyError(w http.ResponseWriter, err error) {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		writeError(w, http.StatusRequestEntityTooLarge, "too_large", fmt.Sprintf("the request body is over the server's limit of %d bytes", mbe.Limit))
		return
	}
	writeError(w, http.StatusBadRequest, "bad_request", "cannot read the request body: "+err.Error())
}

// callError answers a failed call: busy, shutting down, a closed
// workspace, or pybox failing.
func (s *Server) callError(w http.ResponseWriter, err error) {
	var busy *BusyError
	switch {
	case errors.As(err, &busy):
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int(busy.RetryAfter.Seconds()+0.5))))
		writeError(w, http.StatusTooManyRequests, "busy", busy.Error())
	case errors.Is(err, errShuttingDown):
		w.Header().Set("Connection", "close")
		writeError(w, http.StatusServiceUnavailable, "shutting_down", err.Error())
	case errors.Is(err, errTooManyWorkspaces):
		w.Header().Set("Retry-After", "10")
		writeError(w, http.StatusTooManyRequests, "too_many_workspaces", err.Error())
	case errors.Is(err, errNoWorkspace):
		writeError(w, http.StatusNotFound, "no_workspace", err.Error())
	case errors.Is(err, errWorkspaceClosed):
		writeError(w, http.StatusGone, "workspace_closed", err.Error())
	case errors.Is(err, errNoRuntime):
		writeError(w, http.StatusServiceUnavailable, "no_runtime", noRuntimeMessage(s.cfg.Logger, err, false))
	default:
		// pybox failed. Its errors may name host folders (a workspace's
		// output folder) and are not the client's to read.
		var ie *incident.Error
		if !errors.As(err, &ie) {
			ie = incident.Report(s.cfg.Logger, "request", err)
		}
		writeError(w, http.StatusInternalServerError, "internal", ie.Error())
	}
}

// recoverPanics answers a request whose handler panicked with a plain
// internal error, the panic and its stack going to the log under the
// error's id. net/http would log it too, but answer nothing.
func (s *Server) recoverPanics(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rw := &wroteHeader{ResponseWriter: w}
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			ie := incident.Report(s.cfg.Logger, r.Method+" "+r.URL.Path, incident.Recovered(v))
			if !rw.wrote {
				writeError(w, http.StatusInternalServerError, "internal", ie.Error())
			}
		}()
		h.ServeHTTP(rw, r)
	})
}

// wroteHeader remembers whether a response was started, so that a
// recovered panic does not write a second status line.
type wroteHeader struct {
	http.ResponseWriter
	wrote bool
}

func (w *wroteHeader) WriteHeader(code int) {
	w.wrote = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *wroteHeader) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

// Unwrap gives http.ResponseController the underlying writer (flushing
// for MCP's event streams).
func (w *wroteHeader) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// workspaceFor resolves the workspace a request names and holds it for the
// request (see workspace): the handler must release it when it is done, a
// download once its body is sent. create opens it if missing. It writes the
// error answer itself.
func (s *Server) workspaceFor(w http.ResponseWriter, id string, create bool) (*workspace, bool) {
	if id == "" {
		id = DefaultWorkspace
	}
	ws, err := s.ws.get(id, "http", create)
	if err != nil {
		s.workspaceError(w, id, err)
		return nil, false
	}
	return ws, true
}

// workspaceError answers a request whose workspace could not be had.
func (s *Server) workspaceError(w http.ResponseWriter, id string, err error) {
	if !errors.Is(err, errNoWorkspace) && !errors.Is(err, errTooManyWorkspaces) && !errors.Is(err, errShuttingDown) && !workspaceIDPattern.MatchString(id) {
		writeError(w, http.StatusBadRequest, "bad_request", err.Error())
		return
	}
	if errors.Is(err, errNoWorkspace) {
		err = fmt.Errorf("%w %q (GET /v1/workspaces lists them)", errNoWorkspace, id)
	}
	s.callError(w, err)
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	draining := s.draining
	s.mu.Unlock()
	if draining {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "shutting_down"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"status": "ok", "workspaces": len(s.ws.list()), "running": len(s.gate.slots), "waiting": s.gate.waiting.Load(),
	})
}

// ExecuteRequest is the body of POST /v1/execute.
type ExecuteRequest struct {
	// Code, SessionID and TimeoutS are execute_python's arguments.
	Code      string   `json:"code"`
	SessionID string   `json:"session_id,omitempty"`
	TimeoutS  *float64 `json:"timeout_s,omitempty"`
	// Workspace names the workspace (DefaultWorkspace if empty); it is
	// created on first use.
	Workspace string `json:"workspace,omitempty"`
}

// ExecuteResponse is the answer of POST /v1/execute: the run's result and
// where to download the files it wrote.
type ExecuteResponse struct {
	Workspace string `json:"workspace"`
	*tools.ExecResult
	Files []DownloadFile `json:"files,omitempty"`
}

// DownloadFile is a file in /output with its download path.
type DownloadFile struct {
	tools.File
	URL string `json:"url"`
}

func (s *Server) handleExecute(w http.ResponseWriter, r *http.Request) {
	var req ExecuteRequest
	if !readJSON(w, r, &req) {
		return
	}
	ws, ok := s.workspaceFor(w, req.Workspace, true)
	if !ok {
		return
	}
	defer ws.release()
	args, _ := json.Marshal(struct {
		Code      string   `json:"code"`
		SessionID string   `json:"session_id,omitempty"`
		TimeoutS  *float64 `json:"timeout_s,omitempty"`
	}{req.Code, req.SessionID, req.TimeoutS})
	res, err := s.call(r.Context(), ws, "execute_python", args)
	if err != nil {
		s.callError(w, err)
		return
	}
	er, ok := res.Structured.(*tools.ExecResult)
	if !ok { // the arguments were refused
		writeError(w, http.StatusBadRequest, "bad_request", res.Text())
		return
	}
	out := ExecuteResponse{Workspace: ws.id, ExecResult: er}
	for _, f := range er.Files {
		out.Files = append(out.Files, DownloadFile{File: f, URL: DownloadPath(ws.id, f.Path)})
	}
	writeJSON(w, http.StatusOK, out)
}

// ToolInfo is one entry of GET /v1/tools.
type ToolInfo struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

func (s *Server) handleListTools(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("format") == "openai" {
		out := []tools.OpenAIFunction{}
		for _, t := range s.defs {
			out = append(out, t.OpenAI())
		}
		writeJSON(w, http.StatusOK, out)
		return
	}
	out := []ToolInfo{}
	for _, t := range s.defs {
		out = append(out, ToolInfo{t.Name, t.Description, t.Parameters})
	}
	writeJSON(w, http.StatusOK, out)
}

// ToolResponse is the answer of POST /v1/tools/{name}: the tool's result
// (content, is_error, structured) and the workspace it ran in.
type ToolResponse struct {
	Workspace string `json:"workspace"`
	*tools.Result
}

func (s *Server) handleCallTool(w http.ResponseWriter, r *http.Request) {
	name, known := s.names[r.PathValue("name")]
	if !known {
		name = r.PathValue("name")
		names := make([]string, 0, len(s.defs))
		for _, t := range s.defs {
			names = append(names, t.Name)
		}
		writeError(w, http.StatusNotFound, "no_tool", fmt.Sprintf("there is no tool %q; the tools are %s", name, strings.Join(names, ", ")))
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		bodyError(w, err)
		return
	}
	if len(bytes.TrimSpace(body)) > 0 && !json.Valid(body) {
		writeError(w, http.StatusBadRequest, "bad_request", "the body must be the tool's arguments as a JSON object")
		return
	}
	s.runTool(w, r, r.URL.Query().Get("workspace"), name, body)
}

// runTool calls a tool and answers with its result.
func (s *Server) runTool(w http.ResponseWriter, r *http.Request, wsID, name string, args []byte) {
	ws, ok := s.workspaceFor(w, wsID, true)
	if !ok {
		return
	}
	defer ws.release()
	res, err := s.call(r.Context(), ws, name, args)
	if err != nil {
		s.callError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ToolResponse{Workspace: ws.id, Result: res})
}

// WorkspaceInfo describes a workspace (GET /v1/workspaces).
type WorkspaceInfo struct {
	ID       string    `json:"id"`
	Owner    string    `json:"owner"` // "http", "mcp" or "stdio"
	Created  time.Time `json:"created"`
	LastUsed time.Time `json:"last_used"`
	Active   int       `json:"active"` // calls running or waiting
	Sessions []string  `json:"sessions"`
}

func info(w *workspace) WorkspaceInfo {
	return WorkspaceInfo{ID: w.id, Owner: w.owner, Created: w.created, LastUsed: w.lastUsed(),
		Active: int(w.active.Load()), Sessions: w.box.Sessions().IDs()}
}

func (s *Server) handleListWorkspaces(w http.ResponseWriter, r *http.Request) {
	out := []WorkspaceInfo{}
	for _, ws := range s.ws.list() {
		out = append(out, info(ws))
	}
	writeJSON(w, http.StatusOK, out)
}

// handleGetWorkspace answers a workspace's status. Like every request
// addressed to a workspace, it counts as a use (last_used is now).
func (s *Server) handleGetWorkspace(w http.ResponseWriter, r *http.Request) {
	if ws, ok := s.workspaceFor(w, r.PathValue("ws"), false); ok {
		defer ws.release()
		writeJSON(w, http.StatusOK, info(ws))
	}
}

// handleDeleteWorkspace closes a workspace whether requests hold it or not
// (see workspaces.remove): once it answers, no request can start on it.
func (s *Server) handleDeleteWorkspace(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("ws")
	if err := checkID(id); err != nil {
		s.workspaceError(w, id, err)
		return
	}
	if !s.ws.remove(id) {
		s.workspaceError(w, id, errNoWorkspace)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleListSessions(w http.ResponseWriter, r *http.Request) {
	if ws, ok := s.workspaceFor(w, r.PathValue("ws"), false); ok {
		defer ws.release()
		writeJSON(w, http.StatusOK, map[string]any{"workspace": ws.id, "sessions": ws.box.Sessions().IDs()})
	}
}

func (s *Server) handleDeleteSession(w http.ResponseWriter, r *http.Request) {
	ws, ok := s.workspaceFor(w, r.PathValue("ws"), false)
	if !ok {
		return
	}
	defer ws.release()
	sid := r.PathValue("sid")
	found := false
	for _, id := range ws.box.Sessions().IDs() {
		found = found || id == sid
	}
	if !found {
		writeError(w, http.StatusNotFound, "no_session", fmt.Sprintf("workspace %s has no session %q", ws.id, sid))
		return
	}
	ws.box.Sessions().CloseSession(sid)
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleLs(w http.ResponseWriter, r *http.Request) {
	args, _ := json.Marshal(map[string]string{"path": r.URL.Query().Get("path")})
	s.runTool(w, r, r.PathValue("ws"), "ls", args)
}

func (s *Server) handleRead(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	a := map[string]any{"path": q.Get("path")}
	for _, k := range []string{"offset", "limit"} {
		if v := q.Get(k); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("%s must be an integer, not %q", k, v))
				return
			}
			a[k] = n
		}
	}
	args, _ := json.Marshal(a)
	s.runTool(w, r, r.PathValue("ws"), "read_file", args)
}

// handleDownload sends a file from the workspace's /output as it is. The
// file is streamed from disk (ranges and conditional requests work), never
// read whole into memory, and the transfer holds one of the server's
// concurrency slots like a tool call: parallel downloads of big files are
// bounded like everything else. It holds the workspace until the body is
// sent: the idle reaper does not close it meanwhile. A DELETE does; a body
// already being sent goes on from the open file, and a download that had
// not opened its file yet fails with workspace_closed.
func (s *Server) handleDownload(w http.ResponseWriter, r *http.Request) {
	ws, ok := s.workspaceFor(w, r.PathValue("ws"), false)
	if !ok {
		return
	}
	defer ws.release()
	p := path.Clean("/" + r.PathValue("path"))
	if !strings.HasPrefix(p, "/output/") {
		writeError(w, http.StatusForbidden, "not_output", fmt.Sprintf("only files under /output can be downloaded (not %s); read other files with GET /v1/workspaces/%s/read?path=...", p, ws.id))
		return
	}
	free, err := s.admit(r.Context())
	if err != nil {
		s.callError(w, err)
		return
	}
	defer free()
	if ws.closed.Load() { // deleted while this waited for its slot
		s.callError(w, ws.closedErr())
		return
	}
	f, fi, err := ws.box.Sandbox().OpenArtifact(p)
	if err != nil && ws.closed.Load() {
		s.callError(w, ws.closedErr())
		return
	}
	if err != nil {
		writeError(w, http.StatusNotFound, "not_found", fmt.Sprintf("%s is not a file in workspace %s's /output", p, ws.id))
		return
	}
	defer f.Close()
	sniff := make([]byte, 512)
	n, _ := f.ReadAt(sniff, 0)
	w.Header().Set("Content-Type", fsbridge.DetectMIME(p, sniff[:n]))
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", path.Base(p)))
	w.Header().Set("X-Content-Type-Options", "nosniff")
	// The slot must come back even if the client stops reading: a write
	// that makes no progress for downloadIdle fails, and so does every
	// write once the server's grace period is over.
	rc := http.NewResponseController(w)
	stop := context.AfterFunc(s.hard, func() { rc.SetWriteDeadline(time.Now()) })
	defer stop()
	http.ServeContent(&idleWriter{ResponseWriter: w, rc: rc, hard: s.hard}, r, "", fi.ModTime(), f)
}

// downloadIdle is how long a download may make no progress (the client
// reads nothing) before it is cut and its concurrency slot given back.
const downloadIdle = 30 * time.Second

// idleWriter pushes the write deadline forward before each write.
type idleWriter struct {
	http.ResponseWriter
	rc   *http.ResponseController
	hard context.Context
}

func (iw *idleWriter) Write(b []byte) (int, error) {
	iw.rc.SetWriteDeadline(time.Now().Add(downloadIdle))
	if iw.hard.Err() != nil { // canceled meanwhile: keep it cut
		iw.rc.SetWriteDeadline(time.Now())
	}
	return iw.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (iw *idleWriter) Unwrap() http.ResponseWriter { return iw.ResponseWriter }

// handleUpload writes the body (UTF-8 text) to a sandbox file with the
// write_file tool, so the policy applies exactly as for the model.
func (s *Server) handleUpload(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		bodyError(w, err)
		return
	}
	if !utf8.Valid(body) {
		writeError(w, http.StatusUnsupportedMediaType, "not_text", "the body must be UTF-8 text (write_file writes text); put binary files in a mounted folder instead")
		return
	}
	args, _ := json.Marshal(map[string]string{"path": "/" + r.PathValue("path"), "content": string(body)})
	s.runTool(w, r, r.PathValue("ws"), "write_file", args)
}
