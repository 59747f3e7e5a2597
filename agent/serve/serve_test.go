package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pybox-dev/pybox/agent/tools"
	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/internal/manualclock"
	"github.com/pybox-dev/pybox/runtime"
)

var engine *runtime.Engine

func TestMain(m *testing.M) {
	ctx := context.Background()
	var err error
	engine, err = runtime.NewEngine(ctx, runtime.Config{WarmPool: 2})
	if err != nil {
		fmt.Fprintln(os.Stderr, "NewEngine:", err)
		os.Exit(1)
	}
	code := m.Run()
	engine.Close(ctx)
	os.Exit(code)
}

// newServer returns a Server with test defaults changed by mod.
func newServer(t *testing.T, mod func(*Config)) *Server {
	t.Helper()
	cfg := Config{
		Box: tools.Config{
			Engine: engine,
			Policy: fsbridge.Policy{TempDir: t.TempDir()},
			Limits: runtime.Limits{Timeout: callBudget(t, 90)},
		},
	}
	if mod != nil {
		mod(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// callBudget is pct % of what is left of the test binary's -timeout (10
// minutes if there is none): the time limit of the calls of tests that are
// not about time limits, and of a client's wait for them. A fixed budget
// (it was 30 s) is one a loaded machine can exceed: importing matplotlib at
// nice 19 under a load average of 15 did. This one waits for the call to
// end, and a hang still ends as a failed call, reported, before the test
// binary is killed.
func callBudget(t *testing.T, pct int64) time.Duration {
	left := 10 * time.Minute
	if d, ok := t.Deadline(); ok {
		left = time.Until(d)
	}
	return left / 100 * time.Duration(pct)
}

// api is an HTTP client for one test server.
type api struct {
	t     *testing.T
	url   string
	token string
}

func newAPI(t *testing.T, s *Server) *api {
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return &api{t: t, url: ts.URL}
}

// do sends a request and returns the status, headers and body.
func (a *api) do(method, path string, body any) (int, http.Header, []byte) {
	a.t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	case []byte:
		r = bytes.NewReader(b)
	default:
		j, _ := json.Marshal(b)
		r = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, a.url+path, r)
	if err != nil {
		a.t.Fatal(err)
	}
	if a.token != "" {
		req.Header.Set("Authorization", "Bearer "+a.token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, data
}

func (a *api) json(method, path string, body any, wantStatus int, out any) {
	a.t.Helper()
	st, _, data := a.do(method, path, body)
	if st != wantStatus {
		a.t.Fatalf("%s %s: status %d, want %d: %s", method, path, st, wantStatus, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			a.t.Fatalf("%s %s: %v: %s", method, path, err, data)
		}
	}
}

// errorCode decodes an error answer's code.
func errorCode(t *testing.T, data []byte) string {
	t.Helper()
	var e apiError
	if err := json.Unmarshal(data, &e); err != nil || e.Error.Code == "" {
		t.Fatalf("not a JSON error answer: %s", data)
	}
	return e.Error.Code
}

const pngCode = `from PIL import Image, ImageDraw
img = Image.new("RGB", (64, 32), "white")
ImageDraw.Draw(img).rectangle((4, 4, 60, 28), outline="red")
img.save("/output/box.png")
open("/output/data.csv", "w").write("a,b\n1,2\n")
print("saved")
6 * 7`

func TestExecuteFilesAndDownload(t *testing.T) {
	a := newAPI(t, newServer(t, nil))
	var res ExecuteResponse
	a.json("POST", "/v1/execute", ExecuteRequest{Code: pngCode, Workspace: "w1"}, 200, &res)
	if res.Status != "ok" || res.Stdout != "saved\n" || res.Value != "42" || res.Workspace != "w1" {
		t.Fatalf("result: %+v", res)
	}
	if len(res.Files) != 2 {
		t.Fatalf("files: %+v", res.Files)
	}
	for _, f := range res.Files {
		st, h, data := a.do("GET", f.URL, nil)
		if st != 200 || int64(len(data)) != f.Size || h.Get("Content-Type") != f.MIME {
			t.Fatalf("download %s: %d %s %d bytes", f.URL, st, h.Get("Content-Type"), len(data))
		}
		if f.MIME == "image/png" {
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil || img.Bounds().Dx() != 64 {
				t.Fatalf("png: %v", err)
			}
		}
	}
	// The file tools over HTTP.
	var ls ToolResponse
	a.json("GET", "/v1/workspaces/w1/ls?path=/output", nil, 200, &ls)
	if ls.IsError || !strings.Contains(ls.Text(), "box.png") {
		t.Fatalf("ls: %s", ls.Text())
	}
	var rd ToolResponse
	a.json("GET", "/v1/workspaces/w1/read?path=/output/data.csv&offset=2&limit=1", nil, 200, &rd)
	if rd.IsError || !strings.Contains(rd.Text(), "1,2") || strings.Contains(rd.Text(), "a,b") {
		t.Fatalf("read: %s", rd.Text())
	}
	var wr ToolResponse
	a.json("PUT", "/v1/workspaces/w1/files/output/notes.txt", "hello\n", 200, &wr)
	if wr.IsError {
		t.Fatalf("write: %s", wr.Text())
	}
	if st, _, data := a.do("GET", "/v1/workspaces/w1/files/output/notes.txt", nil); st != 200 || string(data) != "hello\n" {
		t.Fatalf("download written file: %d %q", st, data)
	}
	// Writes follow the policy: / is not writable.
	a.json("PUT", "/v1/workspaces/w1/files/etc/hosts", "x", 200, &wr)
	if !wr.IsError || !strings.Contains(wr.Text(), "/etc/hosts") {
		t.Fatalf("write outside writable mounts: %+v", wr.Text())
	}
	// Only /output downloads; missing files are 404.
	if st, _, data := a.do("GET", "/v1/workspaces/w1/files/help/index.md", nil); st != 403 || errorCode(t, data) != "not_output" {
		t.Fatalf("download outside /output: %d %s", st, data)
	}
	if st, _, _ := a.do("GET", "/v1/workspaces/w1/files/output/nope.txt", nil); st != 404 {
		t.Fatalf("missing file: %d", st)
	}
	if st, _, _ := a.do("GET", "/v1/workspaces/w1/files/output/../../etc/passwd", nil); st == 200 {
		t.Fatal("path traversal served a file")
	}
	// Workspaces do not see each other's files.
	a.json("POST", "/v1/execute", ExecuteRequest{Code: "import os; os.listdir('/output')", Workspace: "w2"}, 200, &res)
	if res.Value != "[]" {
		t.Fatalf("w2 sees w1's output: %s", res.Value)
	}
}

func TestErrors(t *testing.T) {
	a := newAPI(t, newServer(t, nil))
	var res ExecuteResponse
	// A Python exception is a result, not an HTTP error.
	a.json("POST", "/v1/execute", ExecuteRequest{Code: "1/0"}, 200, &res)
	if res.Status != "error" || res.Error == nil || res.Error.Type != "ZeroDivisionError" || res.Workspace != DefaultWorkspace {
		t.Fatalf("python error: %+v", res)
	}
	a.json("POST", "/v1/execute", ExecuteRequest{Code: "import time; time.sleep(5)", TimeoutS: ptr(0.3)}, 200, &res)
	if res.Status != "timeout" {
		t.Fatalf("timeout: %+v", res)
	}
	var tr ToolResponse
	a.json("POST", "/v1/tools/execute_python", `{"code": "raise ValueError('boom')"}`, 200, &tr)
	if !tr.IsError || !strings.Contains(tr.Text(), "ValueError: boom") {
		t.Fatalf("tool error: %s", tr.Text())
	}
	for _, c := range []struct {
		method, path string
		body         any
		status       int
		code         string
	}{
		{"POST", "/v1/execute", ExecuteRequest{Code: ""}, 400, "bad_request"},
		{"POST", "/v1/execute", "{not json", 400, "bad_request"},
		{"POST", "/v1/execute", ExecuteRequest{Code: "1", Workspace: "../x"}, 400, "bad_request"},
		{"POST", "/v1/tools/nope", "{}", 404, "no_tool"},
		{"POST", "/v1/tools/ls", "[1,", 400, "bad_request"},
		{"GET", "/v1/workspaces/none", nil, 404, "no_workspace"},
		{"GET", "/v1/workspaces/none/sessions", nil, 404, "no_workspace"},
		{"DELETE", "/v1/workspaces/default/sessions/none", nil, 404, "no_session"},
		{"GET", "/v1/nothing", nil, 404, "not_found"},
		{"PUT", "/v1/workspaces/default/files/output/bin", []byte{0xff, 0xfe}, 415, "not_text"},
		{"GET", "/v1/workspaces/default/read?path=/x&offset=a", nil, 400, "bad_request"},
	} {
		st, _, data := a.do(c.method, c.path, c.body)
		if st != c.status || errorCode(t, data) != c.code {
			t.Errorf("%s %s: %d %s, want %d %s", c.method, c.path, st, data, c.status, c.code)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func TestSessionsAndWorkspaces(t *testing.T) {
	a := newAPI(t, newServer(t, nil))
	var res ExecuteResponse
	a.json("POST", "/v1/execute", ExecuteRequest{Code: "x = 41", SessionID: "s1", Workspace: "agent1"}, 200, &res)
	a.json("POST", "/v1/execute", ExecuteRequest{Code: "x + 1", SessionID: "s1", Workspace: "agent1"}, 200, &res)
	if res.Value != "42" || res.SessionID != "s1" {
		t.Fatalf("session state lost: %+v", res)
	}
	// Another workspace has its own session s1.
	a.json("POST", "/v1/execute", ExecuteRequest{Code: "'x' in globals()", SessionID: "s1", Workspace: "agent2"}, 200, &res)
	if res.Value != "False" {
		t.Fatalf("sessions leak across workspaces: %+v", res)
	}
	var ss struct{ Sessions []string }
	a.json("GET", "/v1/workspaces/agent1/sessions", nil, 200, &ss)
	if len(ss.Sessions) != 1 || ss.Sessions[0] != "s1" {
		t.Fatalf("sessions: %+v", ss)
	}
	var list []WorkspaceInfo
	a.json("GET", "/v1/workspaces", nil, 200, &list)
	if len(list) != 2 || list[0].ID != "agent1" || list[0].Owner != "http" || len(list[0].Sessions) != 1 {
		t.Fatalf("workspaces: %+v", list)
	}
	a.json("DELETE", "/v1/workspaces/agent1/sessions/s1", nil, 204, nil)
	a.json("POST", "/v1/execute", ExecuteRequest{Code: "'x' in globals()", SessionID: "s1", Workspace: "agent1"}, 200, &res)
	if res.Value != "False" {
		t.Fatalf("deleted session kept state: %+v", res)
	}
	a.json("DELETE", "/v1/workspaces/agent1", nil, 204, nil)
	a.json("GET", "/v1/workspaces/agent1", nil, 404, nil)
}

// An idle workspace is closed once IdleTimeout has passed, not before. The
// test moves its own clock: on the wall clock, a loaded machine could take
// the whole 300 ms between the call and the test's first look. It looks
// with the list of workspaces, which is not a use of them (a GET of the
// workspace is: TestGetRefreshesWorkspaceIdle).
func TestIdleWorkspacesExpire(t *testing.T) {
	const idle = 300 * time.Millisecond
	clock := manualclock.New(time.Now())
	s := newServer(t, func(c *Config) { c.IdleTimeout, c.clock = idle, clock.Now })
	a := newAPI(t, s)
	a.json("POST", "/v1/execute", ExecuteRequest{Code: "open('/output/f', 'w').write('x')", Workspace: "idle"}, 200, nil)
	clock.Advance(idle)
	s.ws.reapIdle()
	var list []WorkspaceInfo
	a.json("GET", "/v1/workspaces", nil, 200, &list)
	if len(list) != 1 || list[0].ID != "idle" {
		t.Fatalf("workspaces after exactly IdleTimeout: %+v, want [idle]", list)
	}
	clock.Advance(time.Millisecond)
	s.ws.reapIdle()
	a.json("GET", "/v1/workspaces/idle", nil, 404, nil)
}

func TestAuth(t *testing.T) {
	a := newAPI(t, newServer(t, func(c *Config) { c.Token = "s3cret" }))
	for _, p := range []string{"/v1/tools", "/v1/workspaces", "/mcp"} {
		st, h, data := a.do("GET", p, nil)
		if st != 401 || !strings.HasPrefix(h.Get("WWW-Authenticate"), "Bearer") || errorCode(t, data) != "unauthorized" {
			t.Errorf("GET %s without token: %d %s", p, st, data)
		}
	}
	a.token = "wrong"
	if st, _, _ := a.do("POST", "/v1/execute", ExecuteRequest{Code: "1"}); st != 401 {
		t.Errorf("wrong token: %d", st)
	}
	a.token = "s3cret"
	var res ExecuteResponse
	a.json("POST", "/v1/execute", ExecuteRequest{Code: "1"}, 200, &res)
	a.token = ""
	a.json("GET", "/healthz", nil, 200, nil)
	a.json("GET", "/openapi.json", nil, 200, nil)
}

func TestNoTokenOnlyLoopbackHosts(t *testing.T) {
	a := newAPI(t, newServer(t, nil))
	req, _ := http.NewRequest("GET", a.url+"/v1/tools", nil)
	req.Host = "evil.example:8765"
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 403 {
		t.Fatalf("DNS-rebinding Host accepted: %d", res.StatusCode)
	}
}

func TestCheckAddr(t *testing.T) {
	for _, c := range []struct {
		addr  string
		token bool
		ok    bool
	}{
		{"127.0.0.1:8765", false, true},
		{"[::1]:8765", false, true},
		{"localhost:8765", false, true},
		{":8765", false, false},
		{"0.0.0.0:8765", false, false},
		{"[::]:8765", false, false},
		{"0.0.0.0:8765", true, true},
		{"nonsense", false, false},
	} {
		err := CheckAddr(c.addr, c.token)
		if (err == nil) != c.ok {
			t.Errorf("CheckAddr(%q, %v) = %v", c.addr, c.token, err)
		}
		if err != nil && !c.token && strings.Contains(c.addr, "0.0.0.0") && !strings.Contains(err.Error(), "without a token") {
			t.Errorf("unclear error: %v", err)
		}
	}
}

func TestRequestTooLarge(t *testing.T) {
	a := newAPI(t, newServer(t, func(c *Config) { c.MaxRequestBytes = 1024 }))
	big := ExecuteRequest{Code: "#" + strings.Repeat("x", 4096)}
	st, _, data := a.do("POST", "/v1/execute", big)
	if st != 413 || errorCode(t, data) != "too_large" {
		t.Fatalf("declared length: %d %s", st, data)
	}
	// Chunked: no Content-Length, the limit applies while reading.
	pr, pw := io.Pipe()
	go func() { json.NewEncoder(pw).Encode(big); pw.Close() }()
	req, _ := http.NewRequest("POST", a.url+"/v1/execute", pr)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	data, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 413 || errorCode(t, data) != "too_large" {
		t.Fatalf("chunked: %d %s", res.StatusCode, data)
	}
	if st, _, _ := a.do("PUT", "/v1/workspaces/default/files/output/big.txt", strings.Repeat("y", 2048)); st != 413 {
		t.Fatalf("upload: %d", st)
	}
}

// TestBusy: one slot, no queue: a second call while one runs is refused
// with 429 and Retry-After, and nothing of it ran.
func TestBusy(t *testing.T) {
	a := newAPI(t, newServer(t, func(c *Config) { c.MaxConcurrent, c.MaxQueue = 1, -1 }))
	started := make(chan struct{})
	done := make(chan ExecuteResponse)
	go func() {
		var res ExecuteResponse
		close(started)
		a.json("POST", "/v1/execute", ExecuteRequest{Code: "import time; time.sleep(1.5); 'first'", Workspace: "a"}, 200, &res)
		done <- res
	}()
	<-started
	waitRunning(t, a, 1)
	st, h, data := a.do("POST", "/v1/execute", ExecuteRequest{Code: "open('/output/ran','w')", Workspace: "b"})
	if st != 429 || h.Get("Retry-After") == "" || errorCode(t, data) != "busy" || !strings.Contains(string(data), "try again") {
		t.Fatalf("busy: %d %v %s", st, h, data)
	}
	if res := <-done; res.Value != "'first'" {
		t.Fatalf("first call: %+v", res)
	}
	// The refused call never ran; after the first one ends it goes through.
	var ls ToolResponse
	a.json("GET", "/v1/workspaces/b/ls?path=/output", nil, 200, &ls)
	if strings.Contains(ls.Text(), "ran") {
		t.Fatal("refused call ran")
	}
	a.json("POST", "/v1/execute", ExecuteRequest{Code: "1", Workspace: "b"}, 200, nil)
}

// TestQueue: calls beyond the slots wait and succeed; one that waits past
// QueueTimeout is refused as busy.
func TestQueue(t *testing.T) {
	a := newAPI(t, newServer(t, func(c *Config) {
		c.MaxConcurrent, c.MaxQueue, c.QueueTimeout = 1, 4, 500*time.Millisecond
	}))
	var wg sync.WaitGroup
	statuses := make([]int, 3)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code := "1"
			if i == 0 {
				code = "import time; time.sleep(2)"
			}
			statuses[i], _, _ = a.do("POST", "/v1/execute", ExecuteRequest{Code: code, Workspace: fmt.Sprintf("q%d", i)})
		}()
		if i == 0 {
			waitRunning(t, a, 1)
		}
	}
	wg.Wait()
	if statuses[0] != 200 || statuses[1] != 429 || statuses[2] != 429 {
		t.Fatalf("statuses %v: want the long call to pass and the waiting ones to time out as busy", statuses)
	}
	// Short waits are absorbed by the queue.
	a2 := newAPI(t, newServer(t, func(c *Config) { c.MaxConcurrent, c.MaxQueue = 1, 16 }))
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i], _, _ = a2.do("POST", "/v1/execute", ExecuteRequest{Code: "sum(range(1000))", Workspace: fmt.Sprintf("q%d", i)})
		}()
	}
	wg.Wait()
	for i, st := range statuses {
		if st != 200 {
			t.Fatalf("queued call %d: %d", i, st)
		}
	}
}

// waitRunning waits until n calls hold a slot.
func waitRunning(t *testing.T, a *api, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		var h struct{ Running int }
		a.json("GET", "/healthz", nil, 200, &h)
		if h.Running >= n {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("never %d running", n)
}

// TestGracefulShutdown: code running when the shutdown starts finishes
// within the grace period; code still running after it is interrupted and
// its (canceled) result still reaches the client; new calls are refused.
func TestGracefulShutdown(t *testing.T) {
	for _, c := range []struct {
		name       string
		code       string
		grace      time.Duration
		wantStatus string
	}{
		{"finishes", "import time; time.sleep(1); print('done')", 10 * time.Second, "ok"},
		{"interrupted", "import time\nprint('start', flush=True)\ntime.sleep(60)", 500 * time.Millisecond, "canceled"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newServer(t, func(cfg *Config) {
				cfg.Grace = c.grace
				// The guest must stop on KeyboardInterrupt by itself: with
				// the default 500 ms before a kill, a CI machine loaded by
				// the whole suite under -race sometimes killed it first
				// (status canceled, no exception).
				cfg.Box.Limits.KillAfter = 10 * time.Second
			})
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			ctx, stop := context.WithCancel(context.Background())
			served := make(chan error, 1)
			go func() { served <- s.Serve(ctx, ln) }()
			a := &api{t: t, url: "http://" + ln.Addr().String()}
			got := make(chan ExecuteResponse, 1)
			go func() {
				var res ExecuteResponse
				a.json("POST", "/v1/execute", ExecuteRequest{Code: c.code}, 200, &res)
				got <- res
			}()
			waitRunning(t, a, 1)
			if c.wantStatus == "canceled" {
				// Holding a slot is not the same as having run the first
				// line: on a loaded machine the interpreter may still be
				// starting, and an interrupt then comes before 'start' is
				// printed. The code sleeps for 60 s, so waiting a second
				// here costs nothing and leaves it inside time.sleep.
				time.Sleep(time.Second)
			}
			start := time.Now()
			stop()
			// New calls are refused while draining (the listener may
			// already be closed: then the connection fails, also a refusal).
			time.Sleep(100 * time.Millisecond)
			if st, err := rawStatus(a.url+"/v1/execute", `{"code":"1"}`); err == nil && st != 503 {
				t.Errorf("call during shutdown: %d", st)
			}
			res := <-got
			if res.Status != c.wantStatus {
				t.Fatalf("status %q, want %q: %+v", res.Status, c.wantStatus, res)
			}
			if c.wantStatus == "canceled" && (res.Stdout != "start\n" || res.Error == nil || res.Error.Type != "KeyboardInterrupt") {
				t.Fatalf("interrupted result: stdout %q, error %+v", res.Stdout, res.Error)
			}
			select {
			case err := <-served:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(c.grace + 20*time.Second):
				t.Fatal("Serve did not return")
			}
			t.Logf("shutdown took %v", time.Since(start).Round(time.Millisecond))
		})
	}
}

func rawStatus(url, body string) (int, error) {
	res, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	res.Body.Close()
	return res.StatusCode, nil
}

// TestManyConcurrent: 200 concurrent executions from 200 workspaces on a
// small queue all succeed, or are refused busy and succeed on retry.
func TestManyConcurrent(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 40
	}
	a := newAPI(t, newServer(t, nil))
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for attempt := 0; ; attempt++ {
				st, h, data := a.do("POST", "/v1/execute", ExecuteRequest{Code: fmt.Sprintf("sum(range(%d))", i), Workspace: fmt.Sprintf("c%d", i)})
				if st == 429 && h.Get("Retry-After") != "" && attempt < 20 {
					time.Sleep(time.Second)
					continue
				}
				var res ExecuteResponse
				if st != 200 || json.Unmarshal(data, &res) != nil || res.Value != fmt.Sprint(i*(i-1)/2) {
					errs <- fmt.Errorf("call %d: %d %s", i, st, data)
				}
				return
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestDownloadFollowsNoLink: a symbolic link a host program put in a
// workspace's /output (the guest cannot make one) is never served, whether
// it leads out of the folder or to a file inside it.
func TestDownloadFollowsNoLink(t *testing.T) {
	base := t.TempDir()
	out := filepath.Join(base, "out")
	if err := os.WriteFile(filepath.Join(base, "secret.txt"), []byte("TOPSECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := newAPI(t, newServer(t, func(c *Config) { c.Box.Policy.Output = out }))
	var res ExecuteResponse
	a.json("POST", "/v1/execute", ExecuteRequest{Code: "import os\nos.makedirs('/output/sub')\nopen('/output/sub/x.txt', 'w').write('x')\nopen('/output/real.txt', 'w').write('real\\n')", Workspace: "w1"}, 200, &res)
	if res.Status != "ok" {
		t.Fatalf("result: %+v", res)
	}
	dir := filepath.Join(out, "w1")
	for name, target := range map[string]string{"leak": "../../secret.txt", "in": "real.txt", "dl": "sub", "sub/up": ".."} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"leak", "in", "dl/x.txt", "sub/up/real.txt"} {
		if st, _, data := a.do("GET", "/v1/workspaces/w1/files/output/"+p, nil); st == 200 {
			t.Errorf("download of /output/%s followed a link: %q", p, data)
		}
	}
	if st, _, data := a.do("GET", "/v1/workspaces/w1/files/output/real.txt", nil); st != 200 || string(data) != "real\n" {
		t.Errorf("download real.txt: %d %q", st, data)
	}
}

// With a tool prefix and strict schemas, clients see prefixed names whose
// schemas OpenAI's strict mode accepts (every property required, optional
// ones nullable), and a strict call that sends null and 0 for what it
// means to leave out runs with the defaults.
func TestToolPrefixAndStrictSchemas(t *testing.T) {
	a := newAPI(t, newServer(t, func(c *Config) { c.ToolPrefix, c.StrictSchemas = "pybox_", true }))
	var fns []tools.OpenAIFunction
	a.json("GET", "/v1/tools?format=openai", nil, http.StatusOK, &fns)
	byName := map[string]tools.OpenAIFunction{}
	for _, f := range fns {
		byName[f.Function.Name] = f
	}
	exec, ok := byName["pybox_execute_python"]
	if !ok || len(byName) != len(fns) {
		t.Fatalf("tools %v", fns)
	}
	if _, clash := byName["read_file"]; clash {
		t.Fatal("an unprefixed name is still offered")
	}
	if !exec.Function.Strict || !strings.Contains(exec.Function.Description, "pybox_") && strings.Contains(exec.Function.Description, "read_file") {
		t.Errorf("strict %v, description %q", exec.Function.Strict, exec.Function.Description)
	}
	var schema struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
		Required             []string `json:"required"`
		AdditionalProperties *bool    `json:"additionalProperties"`
	}
	if err := json.Unmarshal(exec.Function.Parameters, &schema); err != nil {
		t.Fatal(err)
	}
	if strings.Join(schema.Required, ",") != "code,session_id,timeout_s" || schema.AdditionalProperties == nil || *schema.AdditionalProperties {
		t.Errorf("schema %s", exec.Function.Parameters)
	}
	if typ, _ := json.Marshal(schema.Properties["timeout_s"].Type); string(typ) != `["number","null"]` {
		t.Errorf("timeout_s type %s", typ)
	}
	if typ, _ := json.Marshal(schema.Properties["code"].Type); string(typ) != `"string"` {
		t.Errorf("code type %s", typ)
	}
	var res ToolResponse
	a.json("POST", "/v1/tools/pybox_execute_python", `{"code": "print(6*7)", "session_id": null, "timeout_s": 0}`, http.StatusOK, &res)
	if res.IsError || !strings.Contains(res.Text(), "42") {
		t.Fatalf("strict call: %+v", res.Result)
	}
	st, _, data := a.do("POST", "/v1/tools/execute_python", `{"code": "1"}`)
	if st != http.StatusNotFound || !strings.Contains(string(data), "pybox_execute_python") {
		t.Errorf("unprefixed call: %d %s", st, data)
	}
}

// With an operator output folder, each HTTP workspace writes into its own
// subfolder, removed at close when the code left nothing there; the stdio
// workspace (the one client of pybox mcp) writes into the folder itself,
// as pybox run and pybox agent do.
func TestOutputFolderLayout(t *testing.T) {
	out := t.TempDir()
	s := newServer(t, func(c *Config) { c.Box.Policy.Output = out })
	a := newAPI(t, s)
	a.json("POST", "/v1/execute", map[string]any{"code": "open('/output/r.txt', 'w').write('x')", "workspace": "kept"}, http.StatusOK, nil)
	a.json("POST", "/v1/execute", map[string]any{"code": "1", "workspace": "empty"}, http.StatusOK, nil)
	for _, id := range []string{"kept", "empty"} {
		a.json("DELETE", "/v1/workspaces/"+id, nil, http.StatusNoContent, nil)
	}
	if b, err := os.ReadFile(filepath.Join(out, "kept", "r.txt")); err != nil || string(b) != "x" {
		t.Errorf("kept/r.txt: %q %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(out, "empty")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("an empty workspace folder was left behind: %v", err)
	}
	lines := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"execute_python","arguments":{"code":"open('/output/stdio.txt', 'w').write('y')"}}}`,
	}, "\n") + "\n"
	var sink lockedLog
	if err := s.ServeStdio(context.Background(), io.NopCloser(strings.NewReader(lines)), &sink); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(out, "stdio.txt")); err != nil || string(b) != "y" {
		t.Errorf("stdio output not in the folder itself: %q %v (%s)", b, err, sink.String())
	}
	if _, err := os.Stat(filepath.Join(out, "stdio")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a stdio subfolder was made: %v", err)
	}
}

// TestDownloadStreamsAndHoldsASlot: a download is streamed from the file
// (ranges work, the size is announced before any byte is read), and while
// its body is being sent it holds a concurrency slot like a tool call, so
// parallel downloads of big files are bounded (six parallel 256 MiB
// downloads cost +3 GiB of memory when each was read whole).
func TestDownloadStreamsAndHoldsASlot(t *testing.T) {
	a := newAPI(t, newServer(t, func(c *Config) { c.MaxConcurrent, c.MaxQueue = 1, -1 }))
	var res ExecuteResponse
	a.json("POST", "/v1/execute", ExecuteRequest{Workspace: "w", Code: `
with open('/output/big.bin', 'wb') as f:
    f.truncate(200 << 20)
    f.seek(100_000_000)
    f.write(b'0123456789')
'ok'`}, 200, &res)
	if res.Status != "ok" {
		t.Fatalf("setup: %+v", res)
	}
	url := a.url + "/v1/workspaces/w/files/output/big.bin"
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Range", "bytes=100000002-100000005")
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	part, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if r.StatusCode != http.StatusPartialContent || string(part) != "2345" {
		t.Fatalf("range: %d %q", r.StatusCode, part)
	}

	// A whole download, its body left unread: the handler is still
	// sending and must hold the only slot.
	r, err = http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	if r.StatusCode != 200 || r.ContentLength != 200<<20 || r.Header.Get("Content-Disposition") == "" {
		r.Body.Close()
		t.Fatalf("download: %d, %d bytes announced, %v", r.StatusCode, r.ContentLength, r.Header)
	}
	waitRunning(t, a, 1)
	st, _, data := a.do("POST", "/v1/execute", ExecuteRequest{Code: "1", Workspace: "w2"})
	if st != 429 || errorCode(t, data) != "busy" {
		r.Body.Close()
		t.Fatalf("a call during a download: %d %s, want busy", st, data)
	}
	st, _, data = a.do("GET", "/v1/workspaces/w/files/output/big.bin", nil)
	if st != 429 || errorCode(t, data) != "busy" {
		r.Body.Close()
		t.Fatalf("a second download during a download: %d %s, want busy", st, data)
	}
	n, err := io.Copy(io.Discard, r.Body)
	r.Body.Close()
	if err != nil || n != 200<<20 {
		t.Fatalf("body: %d bytes, %v", n, err)
	}
	// The slot is given back once the body is sent.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var h struct{ Running int }
		a.json("GET", "/healthz", nil, 200, &h)
		if h.Running == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the download still holds its slot after its body was sent")
		}
	}
	a.json("POST", "/v1/execute", ExecuteRequest{Code: "1", Workspace: "w2"}, 200, nil)
}

// TestShutdownCutsAStalledDownload: a download whose client stopped
// reading holds its slot only until the grace period is over; then it is
// cut, and the shutdown completes.
func TestShutdownCutsAStalledDownload(t *testing.T) {
	s := newServer(t, func(c *Config) { c.Grace = 100 * time.Millisecond })
	a := newAPI(t, s)
	a.json("POST", "/v1/execute", ExecuteRequest{Workspace: "w", Code: "open('/output/big.bin', 'wb').truncate(200 << 20)"}, 200, nil)
	r, err := http.Get(a.url + "/v1/workspaces/w/files/output/big.bin")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	waitRunning(t, a, 1)
	done := make(chan struct{})
	go func() {
		s.Shutdown()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("shutdown still waits for a download whose client reads nothing")
	}
	if n, _ := io.Copy(io.Discard, r.Body); n >= 200<<20 {
		t.Errorf("the cut download still sent all %d bytes", n)
	}
}

// A call's time limit covers its wait for its session: a call queued
// behind a long one in the same interpreter session ends at its own deadline, as a
// timeout, without running its code (issue: the timeout started only when
// the guest took the job).
func TestQueuedCallKeepsItsDeadline(t *testing.T) {
	a := newAPI(t, newServer(t, nil))
	type outcome struct{ Status, Message string }
	first := make(chan outcome, 1)
	go func() {
		var r outcome
		st, data, err := rawPost(a.url+"/v1/execute", `{"code": "import time; time.sleep(3)", "workspace": "q", "session_id": "s", "timeout_s": 30}`)
		json.Unmarshal(data, &r)
		if err != nil || st != http.StatusOK {
			r.Status = fmt.Sprintf("HTTP %d %v", st, err)
		}
		first <- r
	}()
	waitRunning(t, a, 1)
	var second outcome
	a.json("POST", "/v1/execute", map[string]any{"code": "open('/output/ran.txt', 'w').write('x')", "workspace": "q", "session_id": "s", "timeout_s": 0.5}, http.StatusOK, &second)
	if second.Status != "timeout" || !strings.Contains(second.Message, "waiting for the previous call in this session") {
		t.Fatalf("queued call: %+v", second)
	}
	if r := <-first; r.Status != "ok" {
		t.Fatalf("first call: %+v", r)
	}
	var ls ToolResponse
	a.json("POST", "/v1/tools/ls?workspace=q", `{"path": "/output"}`, http.StatusOK, &ls)
	if strings.Contains(ls.Text(), "ran.txt") {
		t.Errorf("the timed-out call ran: %s", ls.Text())
	}
}

// rawPost posts a JSON body off the test goroutine (no t.Fatal there).
func rawPost(url, body string) (int, []byte, error) {
	res, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	return res.StatusCode, data, err
}
