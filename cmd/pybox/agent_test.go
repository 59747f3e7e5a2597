package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pybox-dev/pybox/internal/fakellm"
)

func pyArgs(code string) string {
	b, _ := json.Marshal(map[string]string{"code": code})
	return string(b)
}

// agentCmd prepares `pybox agent` against a scripted server, with a clean
// environment for the settings the test controls.
func agentCmd(t *testing.T, srv *fakellm.Server, stdin string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"agent"}, args...)...)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OPENAI_") && !strings.HasPrefix(kv, "PYBOX_AGENT_") && !strings.HasPrefix(kv, "PYBOX_MODEL=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "OPENAI_BASE_URL="+srv.BaseURL(), "OPENAI_API_KEY=test", "PYBOX_MODEL=scripted",
		"PYBOX_AGENT_STORE="+t.TempDir())
	cmd.Stdin = strings.NewReader(stdin)
	return cmd
}

func runAgent(t *testing.T, cmd *exec.Cmd) cliResult {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return cliResult{out.String(), errb.String(), code}
}

func TestCLIAgentRun(t *testing.T) {
	out := t.TempDir()
	srv := fakellm.New(func(n int, req *fakellm.Request) fakellm.Reply {
		if n == 0 {
			return fakellm.Reply{Content: "Writing the file.", Calls: []fakellm.Call{{Name: "execute_python", Arguments: pyArgs("open('/output/answer.txt', 'w').write('42')\nprint('saved')")}}}
		}
		return fakellm.Reply{Content: "The answer is in /output/answer.txt."}
	})
	defer srv.Close()
	r := runAgent(t, agentCmd(t, srv, "", "--yes", "--output", out, "--task-id", "cli-run", "write the answer"))
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if r.stdout != "Writing the file.\nThe answer is in /output/answer.txt.\n" {
		t.Errorf("stdout %q", r.stdout)
	}
	for _, want := range []string{"pybox: task cli-run", "▶ execute_python: open('/output/answer.txt', 'w').write('42')  (+1 lines)", "✓ status: ok",
		"saved", "output /output/answer.txt (2 bytes, text/plain", filepath.Join(out, "answer.txt"), "done: task cli-run, 2 model turns"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(out, "answer.txt")); string(b) != "42" {
		t.Errorf("answer.txt = %q", b)
	}
}

func TestCLIAgentUsage(t *testing.T) {
	srv := fakellm.New(func(int, *fakellm.Request) fakellm.Reply { return fakellm.Reply{Content: "x"} })
	defer srv.Close()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "give a task"},
		{[]string{"--config", "agent.json", "x"}, "pass agent.json with --agent-config"},
		{[]string{"--resume", "nope"}, `no task "nope"`},
		{[]string{"--tools", "execute_python,frob", "x"}, `unknown tool "frob"`},
	} {
		r := runAgent(t, agentCmd(t, srv, "", tc.args...))
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %s", tc.args, r.code, r.stderr)
		}
	}
}

// Confirmation on the terminal: deny with a reason; the reason reaches the
// model and the code does not run. Then: input closed means exit 2.
func TestCLIAgentDenyWithReason(t *testing.T) {
	work := t.TempDir()
	srv := fakellm.New(func(n int, req *fakellm.Request) fakellm.Reply {
		if n%2 == 0 {
			return fakellm.Reply{Calls: []fakellm.Call{{Name: "execute_python", Arguments: pyArgs("open('/work/ran', 'w').write('x')")}}}
		}
		return fakellm.Reply{Content: "Tool said: " + req.Last("tool").Text}
	})
	defer srv.Close()
	r := runAgent(t, agentCmd(t, srv, "maybe\nr\nplease do not write files\n", "--mount", work+":/work:rw", "x"))
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "The user denied this call; it did not run. Their reason: please do not write files") {
		t.Errorf("stdout %q", r.stdout)
	}
	if !strings.Contains(r.stderr, "   1 │ open('/work/ran', 'w').write('x')") || !strings.Contains(r.stderr, "[a]pprove, [d]eny, deny with [r]eason") {
		t.Errorf("prompt not shown: %s", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(work, "ran")); err == nil {
		t.Error("denied code ran")
	}
	r = runAgent(t, agentCmd(t, srv, "", "--mount", work+":/work:rw", "x"))
	if r.code != 2 || !strings.Contains(r.stderr, "--yes") {
		t.Errorf("closed stdin: exit %d: %s", r.code, r.stderr)
	}
}

// agent.json + PROMPT.md beside it, AGENTS.md in the working folder.
func TestCLIAgentConfigFile(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	os.Mkdir(data, 0o755)
	os.WriteFile(filepath.Join(data, "n.txt"), []byte("7\n"), 0o644)
	srv := fakellm.New(func(n int, req *fakellm.Request) fakellm.Reply {
		if n == 0 {
			return fakellm.Reply{Calls: []fakellm.Call{{Name: "execute_python", Arguments: pyArgs("print(int(open('/data/n.txt').read()) * 6)")}}}
		}
		return fakellm.Reply{Content: "Result: " + req.Last("tool").Text}
	})
	defer srv.Close()
	cfg := fmt.Sprintf(`{"model": "from-file", "endpointUrl": %q, "tools": ["execute_python", "help"], "maxTurns": 5,
 "limits": {"timeout": "20s"}, "sandbox": {"mounts": ["./data:/data:ro"]}}`, srv.BaseURL())
	os.WriteFile(filepath.Join(dir, "agent.json"), []byte(cfg), 0o644)
	os.WriteFile(filepath.Join(dir, "PROMPT.md"), []byte("You are the config-file prompt."), 0o644)
	cwd := t.TempDir()
	os.WriteFile(filepath.Join(cwd, "AGENTS.md"), []byte("Always answer in one line."), 0o644)
	cmd := agentCmd(t, srv, "", "--yes", "--agent-config", dir, "times six")
	cmd.Dir = cwd
	cmd.Env = append(cmd.Env, "OPENAI_BASE_URL=http://127.0.0.1:1/v1", "PYBOX_MODEL=from-env") // the file wins over the environment
	r := runAgent(t, cmd)
	if r.code != 0 || !strings.Contains(r.stdout, "42") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	req := srv.Requests()[0]
	sys := req.Messages[0].Text
	if req.Model != "from-file" || strings.Join(req.Tools, ",") != "execute_python,help" ||
		!strings.HasPrefix(sys, "You are the config-file prompt.") || !strings.Contains(sys, "Always answer in one line.") {
		t.Errorf("model %q tools %v system %q", req.Model, req.Tools, sys)
	}
}

// Scenario 4 of the mission: kill -9 the agent right after a tool call that
// wrote files, resume it, and see it finish with every tool call executed
// exactly once, on the embedded store and on PostgreSQL.
func TestCLIAgentKillAndResume(t *testing.T) {
	stores := map[string]func(t *testing.T) string{
		"file":     func(t *testing.T) string { return t.TempDir() },
		"postgres": postgresURL,
	}
	for name, storeSpec := range stores {
		t.Run(name, func(t *testing.T) {
			store := storeSpec(t)
			work, out := t.TempDir(), filepath.Join(t.TempDir(), "out")
			blocked := make(chan struct{})
			var note string
			srv := fakellm.New(func(n int, req *fakellm.Request) fakellm.Reply {
				switch n {
				case 0:
					return fakellm.Reply{Calls: []fakellm.Call{{Name: "execute_python", Arguments: pyArgs(
						"with open('/work/count.txt', 'a') as f: f.write('ran\\n')\nopen('/output/report.txt', 'w').write('report v1')")}}}
				case 1:
					return fakellm.Reply{Block: true, Blocked: blocked} // the test kills the agent now
				case 2:
					note = req.Messages[len(req.Messages)-1].Text
					return fakellm.Reply{Calls: []fakellm.Call{{Name: "execute_python", Arguments: pyArgs(
						"print('lines:', open('/work/count.txt').read().count('ran'), '|', open('/output/report.txt').read())")}}}
				default:
					return fakellm.Reply{Content: "Final: " + req.Last("tool").Text}
				}
			})
			defer srv.Close()
			id := "kill-" + name + fmt.Sprint(time.Now().UnixNano())
			cmd := agentCmd(t, srv, "", "--yes", "--store", store, "--task-id", id, "--mount", work+":/work:rw", "--output", out, "count")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			select {
			case <-blocked:
			case <-time.After(2 * time.Minute):
				cmd.Process.Kill()
				t.Fatalf("the agent never made its second request:\n%s", stderr.String())
			}
			cmd.Process.Kill() // SIGKILL: no chance to clean up
			cmd.Wait()
			if b, _ := os.ReadFile(filepath.Join(work, "count.txt")); string(b) != "ran\n" {
				t.Fatalf("before resume: count.txt = %q", b)
			}
			os.RemoveAll(out) // as if resumed on another machine: /output must come back from the store

			r := runAgent(t, agentCmd(t, srv, "", "--yes", "--store", store, "--resume", id))
			if r.code != 0 {
				t.Fatalf("resume: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stdout, "Final: status: ok") || !strings.Contains(r.stdout, "lines: 1 | report v1") {
				t.Errorf("stdout %q", r.stdout)
			}
			if b, _ := os.ReadFile(filepath.Join(work, "count.txt")); string(b) != "ran\n" {
				t.Errorf("after resume: count.txt = %q: a tool call ran twice", b)
			}
			if !strings.Contains(note, "resumed") || !strings.Contains(note, "/output/report.txt") {
				t.Errorf("resume note %q", note)
			}
			if !strings.Contains(r.stderr, "output /output/report.txt") || !strings.Contains(r.stderr, "resuming task "+id) {
				t.Errorf("stderr %s", r.stderr)
			}
			if len(srv.Requests()) != 4 {
				t.Errorf("%d model requests, want 4", len(srv.Requests()))
			}
		})
	}
}

func postgresURL(t *testing.T) string {
	t.Helper()
	u := os.Getenv("PYBOX_TEST_POSTGRES")
	if u == "" {
		if os.Getenv("PYBOX_REQUIRE_POSTGRES") == "1" {
			t.Fatal("PYBOX_TEST_POSTGRES is not set but PYBOX_REQUIRE_POSTGRES=1: run scripts/test.sh, which starts PostgreSQL")
		}
		t.Skip("PYBOX_TEST_POSTGRES not set (scripts/test.sh starts a PostgreSQL and sets it)")
	}
	return u
}

// With no base URL and no API key, pybox agent does not silently target
// OpenAI's public endpoint: it says what to set. A bad --reasoning is
// refused the same way.
func TestCLIAgentNeedsEndpoint(t *testing.T) {
	srv := fakellm.New(func(int, *fakellm.Request) fakellm.Reply { return fakellm.Reply{Content: "x"} })
	defer srv.Close()
	cmd := agentCmd(t, srv, "", "--yes", "task")
	var env []string
	for _, kv := range cmd.Env {
		if !strings.HasPrefix(kv, "OPENAI_") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	res := runAgent(t, cmd)
	if res.code != 2 || !strings.Contains(res.stderr, "no model endpoint") || !strings.Contains(res.stderr, "--base-url") {
		t.Fatalf("exit %d, stderr %q", res.code, res.stderr)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests", n)
	}
	res = runAgent(t, agentCmd(t, srv, "", "--yes", "--reasoning", "maybe", "task"))
	if res.code != 2 || !strings.Contains(res.stderr, "use auto, send or drop") {
		t.Fatalf("exit %d, stderr %q", res.code, res.stderr)
	}
}
