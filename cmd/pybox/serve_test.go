package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestCLIServeRefusesPublicAddressWithoutToken(t *testing.T) {
	r := pyboxEnv(t, []string{"PYBOX_TOKEN="}, "", "serve", "--addr", "0.0.0.0:0")
	if r.code != 2 || !strings.Contains(r.stderr, "without a token") {
		t.Fatalf("code %d, stderr %q", r.code, r.stderr)
	}
}

func TestCLITools(t *testing.T) {
	r := pybox(t, "", "tools", "--format", "openai")
	var fns []struct {
		Type     string
		Function struct {
			Name       string
			Parameters map[string]any
		}
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &fns) != nil || len(fns) != 7 {
		t.Fatalf("tools --format openai: %d %s %s", r.code, r.stdout, r.stderr)
	}
	for _, f := range fns {
		if f.Type != "function" || f.Function.Name == "" || f.Function.Parameters["type"] != "object" {
			t.Errorf("bad function: %+v", f)
		}
	}
	r = pybox(t, "", "tools", "--format", "mcp")
	var mcpTools []struct {
		Name        string
		InputSchema map[string]any `json:"inputSchema"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &mcpTools) != nil || len(mcpTools) != 7 || mcpTools[0].InputSchema == nil {
		t.Fatalf("tools --format mcp: %d %s", r.code, r.stdout)
	}
}

// server is a running `pybox serve`.
type server struct {
	cmd    *exec.Cmd
	url    string
	token  string
	stderr *bytes.Buffer
}

// startServe starts `pybox serve` on a free loopback port with a token
// file and waits until it answers.
func startServe(t *testing.T, args ...string) *server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	token := fmt.Sprintf("tok-%d", time.Now().UnixNano())
	tokenFile := filepath.Join(t.TempDir(), "token")
	os.WriteFile(tokenFile, []byte(token+"\n"), 0o600)
	s := &server{url: "http://" + addr, token: token, stderr: &bytes.Buffer{}}
	s.cmd = exec.Command(binary, append([]string{"serve", "--addr", addr, "--token-file", tokenFile}, args...)...)
	s.cmd.Stderr = s.stderr
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil {
			s.cmd.Process.Kill()
			s.cmd.Wait()
		}
	})
	deadline := time.Now().Add(2 * time.Minute)
	for {
		res, err := http.Get(s.url + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("pybox serve did not start: %s", s.stderr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (s *server) post(t *testing.T, path, body string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest("POST", s.url+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+s.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, data
}

// stop sends SIGTERM and waits for the exit status.
func (s *server) stop(t *testing.T, within time.Duration) int {
	t.Helper()
	s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(within):
		t.Fatalf("pybox serve still running %v after SIGTERM: %s", within, s.stderr)
	}
	return s.cmd.ProcessState.ExitCode()
}

// TestCLIServeGracefulShutdown: SIGTERM lets running code finish, refuses
// new work, and exits 0.
func TestCLIServeGracefulShutdown(t *testing.T) {
	s := startServe(t, "--grace", "20s")
	if st, data := s.post(t, "/v1/execute", `{"code":"1"}`); st != 200 {
		t.Fatalf("execute: %d %s", st, data)
	}
	req, _ := http.NewRequest("POST", s.url+"/v1/execute", nil)
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != 401 {
		t.Fatalf("no token: %v %v", res, err)
	}
	type answer struct {
		status int
		body   []byte
	}
	got := make(chan answer, 1)
	go func() {
		st, body := s.post(t, "/v1/execute", `{"code":"import time; time.sleep(1.5); print('finished')"}`)
		got <- answer{st, body}
	}()
	time.Sleep(500 * time.Millisecond)
	code := s.stop(t, 30*time.Second)
	a := <-got
	if a.status != 200 || !bytes.Contains(a.body, []byte(`"stdout":"finished\n"`)) {
		t.Fatalf("running call during shutdown: %d %s", a.status, a.body)
	}
	if code != 0 || !strings.Contains(s.stderr.String(), "shutting down") {
		t.Fatalf("exit %d: %s", code, s.stderr)
	}
}

// TestRealMCPClients runs MCP clients from the npm registry, written by
// others, against the built binary: the official MCP TypeScript SDK and the
// OpenAI Agents SDK for JavaScript, over stdio and streamable HTTP (see
// scripts/mcp-clients/check.mjs). Without node and npm it is skipped,
// unless PYBOX_REQUIRE_NODE=1 (scripts/test.sh sets it): then it fails.
func TestRealMCPClients(t *testing.T) {
	node, errNode := exec.LookPath("node")
	npm, errNpm := exec.LookPath("npm")
	if errNode != nil || errNpm != nil {
		if os.Getenv("PYBOX_REQUIRE_NODE") == "1" {
			t.Fatal("node and npm are required (PYBOX_REQUIRE_NODE=1) to run the real MCP clients")
		}
		t.Skip("node or npm not found; set PYBOX_REQUIRE_NODE=1 to make this a failure")
	}
	dir, err := filepath.Abs("../../scripts/mcp-clients")
	if err != nil {
		t.Fatal(err)
	}
	// npm ci unless node_modules was installed from this very lock file.
	lock, _ := os.Stat(filepath.Join(dir, "package-lock.json"))
	inst, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json"))
	if err != nil || lock == nil || inst.ModTime().Before(lock.ModTime()) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		ci := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund")
		ci.Dir = dir
		if out, err := ci.CombinedOutput(); err != nil {
			t.Fatalf("npm ci: %v\n%s", err, out)
		}
	}
	s := startServe(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "check.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PYBOX_BIN="+binary, "PYBOX_URL="+s.url+"/mcp", "PYBOX_TOKEN="+s.token)
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		t.Log(sc.Text())
	}
	if err := cmd.Wait(); err != nil {
		// Stop serve before reading its stderr, which it writes until then.
		s.stop(t, 60*time.Second)
		t.Fatalf("MCP clients failed: %v\n%s\npybox serve:\n%s", err, stderr.String(), s.stderr)
	}
	if code := s.stop(t, 60*time.Second); code != 0 {
		t.Fatalf("pybox serve exit %d: %s", code, s.stderr)
	}
}

// no_figures and no_preload in the [serve] section turn figure capture and
// the analysis preload off unless the command line says otherwise.
func TestServeConfigNoFigures(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pybox.toml")
	if err := os.WriteFile(file, []byte("[serve]\nno_figures = true\nno_preload = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, true},
		{[]string{"--no-figures=false", "--no-preload=false"}, false},
		{[]string{"--no-figures", "--no-preload"}, true},
	} {
		var f serveFlags
		if code, ok := f.parse("mcp", "", append([]string{"--config", file}, tc.args...), false); !ok {
			t.Fatalf("%v: parse failed with %d", tc.args, code)
		}
		if f.noFigures != tc.want || f.noPreload != tc.want {
			t.Errorf("%v: noFigures %v, noPreload %v, want %v", tc.args, f.noFigures, f.noPreload, tc.want)
		}
	}
}

// --preload (or preload in the [serve] section) adds modules to the
// snapshot's imports; a name import would not take is refused with the
// reason, and the command line replaces the file's list.
func TestServePreloadFlag(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pybox.toml")
	if err := os.WriteFile(file, []byte("[serve]\npreload = [\"scipy.stats\", \"sklearn.ensemble\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args    []string
		want    []string
		wantErr bool
	}{
		{[]string{"--preload", "scipy.stats, json", "--preload", "json,sklearn.linear_model"}, []string{"scipy.stats", "json", "sklearn.linear_model"}, false},
		{[]string{"--config", file}, []string{"scipy.stats", "sklearn.ensemble"}, false},
		{[]string{"--config", file, "--preload", "json"}, []string{"json"}, false},
		{[]string{"--preload", "scipy stats"}, nil, true},
		{[]string{"--preload", "scipy..stats"}, nil, true},
		{[]string{"--preload", "1numpy"}, nil, true},
		{[]string{"--preload", "os;import"}, nil, true},
	} {
		var f serveFlags
		code, ok := f.parse("mcp", "", tc.args, false)
		if tc.wantErr {
			if ok || code != 2 {
				t.Errorf("%q: accepted (%v), want a usage error", tc.args, f.preload)
			}
			continue
		}
		if !ok {
			t.Fatalf("%q: parse failed with %d", tc.args, code)
		}
		if !slices.Equal(f.preload, tc.want) {
			t.Errorf("%q: preload %q, want %q", tc.args, f.preload, tc.want)
		}
	}
	var m moduleList
	if err := m.Set("pandas,scipy stats"); err == nil || !strings.Contains(err.Error(), `"scipy stats" is not a Python module name`) {
		t.Errorf("bad name: %v", err)
	}
}

// A server started with --preload has those modules imported in every
// fresh interpreter, and logs a preload that fails to import, naming it
// and the exception, instead of failing or hiding it.
func TestCLIServePreload(t *testing.T) {
	s := startServe(t, "--no-preload", "--warm-pool", "1", "--preload", "json,no_such_module_x")
	for i := 0; i < 2; i++ { // the snapshot's boot, then an interpreter restored from it
		st, data := s.post(t, "/v1/execute", `{"code":"import sys; print('json' in sys.modules, 'numpy' in sys.modules)"}`)
		if st != 200 || !bytes.Contains(data, []byte(`"stdout":"True False\n"`)) {
			t.Fatalf("execute %d: %d %s", i, st, data)
		}
	}
	if code := s.stop(t, 30*time.Second); code != 0 {
		t.Fatalf("exit %d: %s", code, s.stderr)
	}
	logged := s.stderr.String()
	if strings.Count(logged, "module=no_such_module_x") != 1 || !strings.Contains(logged, "No module named 'no_such_module_x'") {
		t.Errorf("the failed preload is not logged once with its reason:\n%s", logged)
	}
}

// serve (and mcp, which share its set-up) keep their snapshot in the cache
// folder: the first server process boots CPython and imports the preloads,
// later ones start their interpreters from the file without rewriting it.
func TestCLIServeKeepsSnapshot(t *testing.T) {
	dir := snapshotCacheDir(t)
	code := `{"code":"import sys; print('json' in sys.modules, 'numpy' in sys.modules)"}`
	serveOnce := func() {
		s := startServe(t, "--cache-dir", dir, "--no-preload", "--preload", "json", "--warm-pool", "1")
		if st, data := s.post(t, "/v1/execute", code); st != 200 || !bytes.Contains(data, []byte(`"stdout":"True False\n"`)) {
			t.Fatalf("execute: %d %s", st, data)
		}
		if c := s.stop(t, 30*time.Second); c != 0 {
			t.Fatalf("exit %d: %s", c, s.stderr)
		}
	}
	serveOnce()
	path, before := snapshotFile(t, dir)
	serveOnce()
	after, err := os.Stat(path)
	if err != nil || !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Fatalf("the second server did not start from the kept snapshot (rewritten or removed): %v", err)
	}
}
