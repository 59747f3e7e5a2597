package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pybox-dev/pybox/fsbridge"
)

// lockedLog collects what concurrent writers (a logger, the MCP SDK) write;
// it is also the stdout of ServeStdio, hence Close.
type lockedLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) Close() error { return nil }

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// panicServer is a server whose /boom folder is served by a fetcher with
// a bug: a slice index out of range, as a host-side Go panic.
func panicServer(t *testing.T, log *lockedLog) *Server {
	boom := fsbridge.FetcherFunc(func(ctx context.Context, name string) ([]byte, error) {
		if name == "x" {
			var b []byte
			return b[len(name):1], nil
		}
		return nil, fs.ErrNotExist
	})
	return newServer(t, func(c *Config) {
		c.Box.Policy.Virtual = []fsbridge.VirtualMount{{Guest: "/boom", Fetcher: boom}}
		c.Logger = slog.New(slog.NewTextHandler(log, nil))
	})
}

var internalID = regexp.MustCompile(`internal error \(id ([0-9a-f]{8})\)`)

// checkOpaque fails if text, which a client received, carries a Go
// panic's detail, and returns the incident id it names.
func checkOpaque(t *testing.T, what, text string) string {
	t.Helper()
	for _, bad := range []string{"goroutine ", ".go:", "0x", "out of range", "panic", "recovered by wazero"} {
		if strings.Contains(text, bad) {
			t.Errorf("%s: the client sees %q:\n%s", what, bad, text)
		}
	}
	m := internalID.FindStringSubmatch(text)
	if m == nil {
		t.Errorf("%s: no internal error id in:\n%s", what, text)
		return ""
	}
	return m[1]
}

// A Go panic in a tool reaches an HTTP client as a plain internal error
// with an id; the log has the panic and its stack under that id.
func TestHTTPPanicIsAnInternalError(t *testing.T) {
	var log lockedLog
	s := panicServer(t, &log)
	a := newAPI(t, s)
	st, _, body := a.do("POST", "/v1/tools/read_file", map[string]string{"path": "/boom/x"})
	if st != http.StatusInternalServerError {
		t.Fatalf("status %d: %s", st, body)
	}
	var e apiError
	if err := json.Unmarshal(body, &e); err != nil || e.Error.Code != "internal" {
		t.Fatalf("body %s (%v)", body, err)
	}
	id := checkOpaque(t, "HTTP tool", string(body))
	if e.Error.Message != "internal error (id "+id+")" {
		t.Errorf("message = %q", e.Error.Message)
	}
	logged := log.String()
	for _, want := range []string{"id=" + id, "slice bounds out of range", "leaks_test.go"} {
		if !strings.Contains(logged, want) {
			t.Errorf("log lacks %q:\n%s", want, logged)
		}
	}
	// The server goes on serving.
	var out ExecuteResponse
	a.json("POST", "/v1/execute", map[string]string{"code": "print(1)"}, http.StatusOK, &out)
	if out.Status != "ok" {
		t.Errorf("after the panic: %+v", out.ExecResult)
	}
}

// The same panic hit by the guest's own code (the fetch runs inside a
// host call of the interpreter) ends the run with an internal error and no
// Go detail in the result.
func TestExecutePanicIsAnInternalError(t *testing.T) {
	var log lockedLog
	s := panicServer(t, &log)
	a := newAPI(t, s)
	st, _, body := a.do("POST", "/v1/execute", map[string]string{"code": "print('before', flush=True)\nopen('/boom/x').read()"})
	if st != http.StatusOK {
		t.Fatalf("status %d: %s", st, body)
	}
	var out ExecuteResponse
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatal(err)
	}
	if out.Status != "crashed" || !strings.Contains(out.Stdout, "before") {
		t.Errorf("result %s", body)
	}
	checkOpaque(t, "execute", string(body))
}

// Over MCP a panic in a tool is a plain internal error too, and the
// session lives on.
func TestMCPPanicIsAnInternalError(t *testing.T) {
	var log lockedLog
	s := panicServer(t, &log)
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	cs := connectHTTP(t, ts.URL+"/mcp", "")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": "/boom/x"}})
	if err == nil {
		t.Fatal("read_file of a panicking fetch succeeded")
	}
	id := checkOpaque(t, "MCP tool", fmt.Sprint(err))
	if id != "" && !strings.Contains(log.String(), "id="+id) {
		t.Errorf("log lacks id %s:\n%s", id, log.String())
	}
	if got := text(callTool(t, cs, "execute_python", map[string]any{"code": "6*7"})); !strings.Contains(got, "42") {
		t.Errorf("after the panic: %s", got)
	}
}
