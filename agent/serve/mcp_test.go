package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pybox-dev/pybox/agent/tools"
	"github.com/pybox-dev/pybox/runtime"
)

// bearer adds a token to every request of an http.Client.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func connectHTTP(t *testing.T, url, token string) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "serve-test", Version: "1"}, nil)
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token}}}
	cs, err := c.Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callBudget(t, 95))
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// checkMCP runs the same conversation over any transport.
func checkMCP(t *testing.T, cs *mcp.ClientSession, s *Server) {
	ctx := context.Background()
	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(lt.Tools) != len(s.defs) {
		t.Fatalf("%d tools, want %d", len(lt.Tools), len(s.defs))
	}
	defs := map[string]tools.Tool{}
	for _, d := range s.defs {
		defs[d.Name] = d
	}
	for i, tool := range lt.Tools {
		def := defs[tool.Name]
		got, _ := json.Marshal(tool.InputSchema)
		var a, b any
		json.Unmarshal(got, &a)
		json.Unmarshal(def.Parameters, &b)
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if tool.Name != def.Name || tool.Description != def.Description || string(ja) != string(jb) {
			t.Errorf("tool %d: %s differs from the tools package's definition", i, tool.Name)
		}
	}

	res := callTool(t, cs, "execute_python", map[string]any{"code": pngCode})
	if res.IsError || !strings.Contains(text(res), "saved") || !strings.Contains(text(res), "42") {
		t.Fatalf("execute: %+v", text(res))
	}
	var img *mcp.ImageContent
	var link *mcp.ResourceLink
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.ImageContent:
			img = c
		case *mcp.ResourceLink:
			link = c
		}
	}
	if img == nil || img.MIMEType != "image/png" {
		t.Fatalf("no PNG image content: %+v", res.Content)
	}
	if p, err := png.Decode(bytes.NewReader(img.Data)); err != nil || p.Bounds().Dx() != 64 {
		t.Fatalf("image: %v", err)
	}
	if link == nil || !strings.HasPrefix(link.URI, ResourceScheme+"://") || !strings.HasSuffix(link.URI, "/output/data.csv") || link.MIMEType != "text/csv; charset=utf-8" {
		t.Fatalf("no resource link for the CSV: %+v", link)
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: link.URI})
	if err != nil || len(rr.Contents) != 1 || rr.Contents[0].Text != "a,b\n1,2\n" {
		t.Fatalf("read resource: %v %+v", err, rr)
	}
	lr, err := cs.ListResources(ctx, nil)
	if err != nil || len(lr.Resources) != 2 {
		t.Fatalf("list resources: %v %+v", err, lr)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: ResourceScheme + "://other/output/data.csv"}); err == nil {
		t.Fatal("read another workspace's file")
	}
	// A resource is sent whole in one message: a big one is refused, not
	// read into memory.
	callTool(t, cs, "execute_python", map[string]any{"code": "open('/output/huge.bin', 'wb').truncate((64 << 20) + 1)"})
	huge := strings.TrimSuffix(link.URI, "data.csv") + "huge.bin"
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: huge}); err == nil || !strings.Contains(err.Error(), "too big to return as a resource") {
		t.Fatalf("read a 64 MiB resource: %v, want it refused as too big", err)
	}
	if st, ok := res.StructuredContent.(map[string]any); !ok || st["status"] != "ok" {
		t.Fatalf("structured content: %+v", res.StructuredContent)
	}

	// Python errors are tool errors, not protocol errors.
	res = callTool(t, cs, "execute_python", map[string]any{"code": "1/0"})
	if !res.IsError || !strings.Contains(text(res), "ZeroDivisionError") {
		t.Fatalf("python error: %v %s", res.IsError, text(res))
	}
	res = callTool(t, cs, "execute_python", map[string]any{"cod": "1"})
	if !res.IsError {
		t.Fatalf("bad arguments: %s", text(res))
	}
	// Session state between calls.
	callTool(t, cs, "execute_python", map[string]any{"code": "counter = 41", "session_id": "main"})
	res = callTool(t, cs, "execute_python", map[string]any{"code": "counter + 1", "session_id": "main"})
	if res.IsError || !strings.Contains(text(res), "42") {
		t.Fatalf("session state: %s", text(res))
	}
	// The other tools share the workspace.
	res = callTool(t, cs, "ls", map[string]any{"path": "/output"})
	if !strings.Contains(text(res), "box.png") {
		t.Fatalf("ls: %s", text(res))
	}
	res = callTool(t, cs, "describe", map[string]any{"path": "/output/box.png"})
	if len(res.Content) != 2 {
		t.Fatalf("describe: %+v", res.Content)
	}
}

func TestMCPStreamableHTTP(t *testing.T) {
	s := newServer(t, func(c *Config) { c.Token = "tok" })
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close) // after the clients' cleanups: their streams end first
	cs := connectHTTP(t, ts.URL+"/mcp", "tok")
	checkMCP(t, cs, s)

	// The MCP session's workspace is visible over the HTTP API under the
	// session id, and its files download there.
	var list []WorkspaceInfo
	a := &api{t: t, url: ts.URL, token: "tok"}
	a.json("GET", "/v1/workspaces", nil, 200, &list)
	if len(list) != 1 || list[0].ID != cs.ID() || list[0].Owner != "mcp" {
		t.Fatalf("workspaces: %+v (session %s)", list, cs.ID())
	}
	if st, _, data := a.do("GET", DownloadPath(cs.ID(), "/output/data.csv"), nil); st != 200 || string(data) != "a,b\n1,2\n" {
		t.Fatalf("download: %d %s", st, data)
	}
	// A second MCP session has its own workspace and sessions.
	cs2 := connectHTTP(t, ts.URL+"/mcp", "tok")
	res := callTool(t, cs2, "execute_python", map[string]any{"code": "'counter' in globals(), __import__('os').listdir('/output')", "session_id": "main"})
	if !strings.Contains(text(res), "(False, [])") {
		t.Fatalf("second session sees the first: %s", text(res))
	}
	// Closing an MCP session closes its workspace.
	cs2.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		a.json("GET", "/v1/workspaces", nil, 200, &list)
		if len(list) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("workspace of a closed MCP session still open: %+v", list)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Without the token there is no MCP.
	c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	if _, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", MaxRetries: -1}, nil); err == nil {
		t.Fatal("connected without the token")
	}
}

func TestMCPStdio(t *testing.T) {
	s := newServer(t, nil)
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- s.ServeStdio(ctx, sr, sw) }()
	c := mcp.NewClient(&mcp.Implementation{Name: "serve-test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkMCP(t, cs, s)
	cs.Close()
	select {
	case err := <-served:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeStdio did not return when the client hung up")
	}
}

// TestMCPBusy: over MCP, busy is a tool error the model can read.
func TestMCPBusy(t *testing.T) {
	s := newServer(t, func(c *Config) { c.MaxConcurrent, c.MaxQueue = 1, -1 })
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close) // after the clients' cleanups: their streams end first
	cs1 := connectHTTP(t, ts.URL+"/mcp", "")
	cs2 := connectHTTP(t, ts.URL+"/mcp", "")
	done := make(chan *mcp.CallToolResult)
	go func() {
		done <- callTool(t, cs1, "execute_python", map[string]any{"code": "import time; time.sleep(1.5)"})
	}()
	waitRunning(t, &api{t: t, url: ts.URL}, 1)
	res := callTool(t, cs2, "execute_python", map[string]any{"code": "1"})
	if !res.IsError || !strings.Contains(text(res), "busy") {
		t.Fatalf("busy over MCP: %v %s", res.IsError, text(res))
	}
	if r := <-done; r.IsError {
		t.Fatalf("first call: %s", text(r))
	}
}

// Over stdio, input that ends while calls are running does not drop them:
// every request is answered before ServeStdio returns (`printf ... | pybox
// mcp`), and a request the client cancelled gets no response, as the MCP
// specification asks.
func TestMCPStdioAnswersThenEnds(t *testing.T) {
	s := newServer(t, nil)
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"printf","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"execute_python","arguments":{"code":"print(6*7)"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"execute_python","arguments":{"code":"import time; time.sleep(30)"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"user"}}`,
	}
	in := io.NopCloser(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	var out lockedLog
	if err := s.ServeStdio(context.Background(), in, &out); err != nil {
		t.Fatal(err)
	}
	ids := map[float64]string{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct {
			ID     *float64        `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("output line %q: %v", line, err)
		}
		if m.ID != nil {
			ids[*m.ID] = string(m.Result)
		}
	}
	if init, ok := ids[1]; !ok || strings.Contains(init, "listChanged") || !strings.Contains(init, `"resources":{}`) {
		t.Errorf("initialize not answered, or it advertises list-changed notifications pybox never sends: %s", out.String())
	}
	if !strings.Contains(ids[2], "42") {
		t.Errorf("the call in flight when stdin closed was not answered: %s", out.String())
	}
	if r, ok := ids[3]; ok {
		t.Errorf("the cancelled request got a response: %s", r)
	}
}

// With EngineReady instead of an Engine (the interpreter still compiling),
// an MCP client is answered at once for everything that runs no code, and
// its first tool call waits for the engine and then runs.
//
// A call that asked for progress (a progressToken) gets progress
// notifications while it waits.
func TestMCPAnswersBeforeTheEngine(t *testing.T) {
	asked, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	s := newServer(t, func(c *Config) {
		c.Box.Engine = nil
		c.EngineReady = func(ctx context.Context) (*runtime.Engine, error) {
			once.Do(func() { close(asked) })
			select {
			case <-release:
				return engine, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
	})
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	progress := make(chan *mcp.ProgressNotificationParams, 100)
	c := mcp.NewClient(&mcp.Implementation{Name: "serve-test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			select {
			case progress <- req.Params:
			default:
			}
		},
	})
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp"}, nil) // initialize, before any engine
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	tl, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(tl.Tools) != 7 {
		t.Fatalf("tools/list before the engine: %v %v", tl, err)
	}
	select {
	case <-asked:
		t.Fatal("the engine was asked for before any tool call")
	default:
	}
	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		params := &mcp.CallToolParams{Name: "execute_python", Arguments: map[string]any{"code": "print(6*7)"}}
		params.SetProgressToken("first-call")
		res, err := cs.CallTool(context.Background(), params)
		if err != nil {
			res = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
		}
		done <- res
	}()
	<-asked // the call waits for the engine, and says so to a client that asked for progress...
	p := <-progress
	if p.ProgressToken != "first-call" || !strings.Contains(p.Message, "waiting") || !strings.Contains(p.Message, "Python runtime") {
		t.Errorf("progress while waiting for the engine: %+v", p)
	}
	close(release)
	res := <-done // ...and runs once it is there
	if res.IsError || !strings.Contains(text(res), "42") {
		t.Fatalf("call after the engine came: %s", text(res))
	}
}

// A matplotlib figure left open comes back from MCP as image content, and
// from the HTTP API as a file to download.
func TestFigureAsMCPImage(t *testing.T) {
	found := false
	for _, s := range engine.Bundle().Manifest.Sources {
		found = found || strings.EqualFold(s.Name, "matplotlib")
	}
	if !found {
		t.Skip("the runtime bundle's manifest lists no matplotlib: nothing to test (set PYBOX_BUNDLE to a bundle with it)")
	}
	s := newServer(t, nil)
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	const code = "import matplotlib.pyplot as plt\nplt.figure(figsize=(2, 2), dpi=40)\nplt.plot([1, 3, 2])"
	cs := connectHTTP(t, ts.URL+"/mcp", "")
	res := callTool(t, cs, "execute_python", map[string]any{"code": code})
	var img *mcp.ImageContent
	for _, c := range res.Content {
		if c, ok := c.(*mcp.ImageContent); ok {
			img = c
		}
	}
	if res.IsError || img == nil || img.MIMEType != "image/png" {
		t.Fatalf("no PNG image content: %s %+v", text(res), res.Content)
	}
	if _, err := png.Decode(bytes.NewReader(img.Data)); err != nil {
		t.Fatalf("image: %v", err)
	}

	a := &api{t: t, url: ts.URL}
	var er ExecuteResponse
	a.json("POST", "/v1/execute", ExecuteRequest{Code: code, Workspace: "fig"}, 200, &er)
	if len(er.Files) != 1 || !strings.HasSuffix(er.Files[0].URL, "/output/figure-1.png") || er.Files[0].MIME != "image/png" {
		t.Fatalf("HTTP files: %+v", er.Files)
	}
	if st, _, data := a.do("GET", er.Files[0].URL, nil); st != 200 {
		t.Fatalf("download: %d", st)
	} else if _, err := png.Decode(bytes.NewReader(data)); err != nil {
		t.Fatalf("downloaded figure: %v", err)
	}
}

// Parallel tools/call requests on one MCP session that share no
// interpreter run at the same time: each guest waits (for at most 20 s,
// inside the guest) until all three have started, which calls served one
// after another never do.
func TestMCPParallelCallsOnOneSession(t *testing.T) {
	s := newServer(t, func(c *Config) { c.MaxConcurrent = 3 })
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	cs := connectHTTP(t, ts.URL+"/mcp", "")
	names := []string{"a", "b", "c"}
	results := make([]*mcp.CallToolResult, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, n := range names {
		code := fmt.Sprintf("import os, time\nopen('/output/bar-%s', 'w').close()\nd = time.time() + 20\n"+
			"while not all(os.path.exists('/output/bar-' + n) for n in 'abc') and time.time() < d:\n    time.sleep(0.01)\n"+
			"print('met' if time.time() < d else 'alone')", n)
		args := map[string]any{"code": code}
		if i > 0 {
			args["session_id"] = "s" + n
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			results[i], errs[i] = cs.CallTool(ctx, &mcp.CallToolParams{Name: "execute_python", Arguments: args})
		}()
	}
	wg.Wait()
	for i, n := range names {
		if errs[i] != nil {
			t.Fatalf("call %s: %v", n, errs[i])
		}
		if got := text(results[i]); !strings.Contains(got, "met") {
			t.Errorf("call %s ran alone: %s", n, got)
		}
	}
}

// mcpPost sends one JSON-RPC message to the streamable-HTTP endpoint and
// returns the response (its body still to read).
func mcpPost(t *testing.T, url, session, msg string) *http.Response {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(msg))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-06-18")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// Over streamable HTTP too, a request the client cancelled gets no
// response (the stream of its POST ends without one), its code is
// interrupted, and the session's other requests are answered as usual.
func TestMCPHTTPCancelledRequestGetsNoResponse(t *testing.T) {
	s := newServer(t, nil)
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	url := ts.URL + "/mcp"

	resp := mcpPost(t, url, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	session := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || session == "" {
		t.Fatalf("initialize: status %d, session %q", resp.StatusCode, session)
	}
	resp = mcpPost(t, url, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	resp.Body.Close()

	type answer struct {
		body string
		err  error
	}
	slow := make(chan answer, 1)
	go func() {
		resp := mcpPost(t, url, session, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"execute_python","arguments":{"code":"import time\ntime.sleep(25)\nprint('not interrupted')"}}}`)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		slow <- answer{string(b), err}
	}()
	waitRunning(t, &api{t: t, url: ts.URL}, 1)
	started := time.Now()
	resp = mcpPost(t, url, session, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"user"}}`)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("cancellation: status %d", resp.StatusCode)
	}
	a := <-slow
	if a.err != nil {
		t.Fatalf("reading the cancelled call's stream: %v", a.err)
	}
	if strings.Contains(a.body, `"id":7`) {
		t.Errorf("the cancelled request got a response: %s", a.body)
	}
	if waited := time.Since(started); waited > 20*time.Second {
		t.Errorf("the cancelled call's code was not interrupted (its stream ended after %v)", waited)
	}

	resp = mcpPost(t, url, session, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"execute_python","arguments":{"code":"print(6*7)"}}}`)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"id":8`) || !strings.Contains(string(b), "42") {
		t.Errorf("the next call in the session was not answered: %s", b)
	}
}

// When the engine cannot be prepared (EngineReady fails), a tool call gets
// a tool error saying so, over MCP and the JSON API, not a hang or a bare
// internal error; the HTTP client gets the id of the reason in the log,
// not the reason (it may name host folders).
func TestEngineFailureReachesTheCall(t *testing.T) {
	var logged bytes.Buffer
	s := newServer(t, func(c *Config) {
		c.Box.Engine = nil
		c.Logger = slog.New(slog.NewTextHandler(&logged, nil))
		c.EngineReady = func(ctx context.Context) (*runtime.Engine, error) {
			return nil, errors.New("unpack the runtime bundle: /host/cache: no space left on device")
		}
	})
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	cs := connectHTTP(t, ts.URL+"/mcp", "")
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "execute_python", Arguments: map[string]any{"code": "print(1)"}})
	if err != nil {
		t.Fatalf("the call failed as a protocol error, not a tool error: %v", err)
	}
	if msg := text(res); !res.IsError || !strings.Contains(msg, "the Python runtime could not be started") ||
		!strings.Contains(msg, "under id ") || strings.Contains(msg, "/host/cache") {
		t.Errorf("MCP result: %s", msg)
	}
	a := &api{t: t, url: ts.URL}
	st, _, data := a.do("POST", "/v1/execute", ExecuteRequest{Code: "print(1)"})
	if st != http.StatusServiceUnavailable || errorCode(t, data) != "no_runtime" || strings.Contains(string(data), "/host/cache") {
		t.Errorf("HTTP API: %d %s", st, data)
	}
	if !strings.Contains(logged.String(), "no space left on device") {
		t.Errorf("the reason is not in the log:\n%s", logged.String())
	}
}
