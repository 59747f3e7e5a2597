package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pybox-dev/pybox/internal/fakellm"
)

// findPython returns a Python 3.10+ interpreter (3.11 preferred, the one
// scripts/py-agents/requirements.txt was resolved with), or "".
func findPython() string {
	for _, name := range []string{"python3.11", "python3.12", "python3.13", "python3.10", "python3"} {
		p, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		if exec.Command(p, "-c", "import sys, venv; sys.exit(sys.version_info < (3, 10))").Run() == nil {
			return p
		}
	}
	return ""
}

// pyAgentsVenv creates or reuses scripts/py-agents/.venv with the pinned
// requirements installed, reinstalling when requirements.txt is newer than
// the venv's stamp file, and returns the venv's python. It skips the test
// (or fails it, with PYBOX_REQUIRE_PYAGENTS=1) when no Python or venv can
// be had.
func pyAgentsVenv(t *testing.T, dir string) string {
	t.Helper()
	unavailable := func(format string, args ...any) {
		t.Helper()
		if os.Getenv("PYBOX_REQUIRE_PYAGENTS") == "1" {
			t.Fatalf(format+" (PYBOX_REQUIRE_PYAGENTS=1)", args...)
		}
		t.Skipf(format+"; set PYBOX_REQUIRE_PYAGENTS=1 to make this a failure", args...)
	}
	python := findPython()
	if python == "" {
		unavailable("no Python 3.10+ with venv found")
	}
	venv := filepath.Join(dir, ".venv")
	vpython := filepath.Join(venv, "bin", "python")
	stamp := filepath.Join(venv, ".requirements-installed")
	req, err := os.Stat(filepath.Join(dir, "requirements.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(stamp); err == nil && !st.ModTime().Before(req.ModTime()) {
		if _, err := os.Stat(vpython); err == nil {
			return vpython
		}
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	os.RemoveAll(venv)
	if out, err := exec.CommandContext(ctx, python, "-m", "venv", venv).CombinedOutput(); err != nil {
		os.RemoveAll(venv)
		unavailable("%s -m venv: %v\n%s", python, err, out)
	}
	pip := exec.CommandContext(ctx, vpython, "-m", "pip", "install", "--disable-pip-version-check",
		"--no-input", "-q", "--require-hashes", "-r", "requirements.txt")
	pip.Dir = dir
	if out, err := pip.CombinedOutput(); err != nil {
		os.RemoveAll(venv)
		t.Fatalf("pip install --require-hashes: %v\n%s", err, out)
	}
	if err := os.WriteFile(stamp, []byte(time.Now().UTC().Format(time.RFC3339)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("installed scripts/py-agents/.venv with %s in %v", python, time.Since(start).Round(time.Second))
	return vpython
}

// TestPythonAgentsSDK runs the README's OpenAI Agents SDK (Python) snippet,
// scripts/py-agents/check.py, against the scripted model server: over stdio
// (the SDK starts `pybox mcp --mount ./data:/data:ro`) and over streamable
// HTTP (a running `pybox serve` with the same mount). The model calls
// execute_python on the mounted CSV and answers with what the tool printed,
// so "42" reaches result.final_output only if the SDK, pybox and the tool
// result all worked.
func TestPythonAgentsSDK(t *testing.T) {
	dir, err := filepath.Abs("../../scripts/py-agents")
	if err != nil {
		t.Fatal(err)
	}
	python := pyAgentsVenv(t, dir)

	work := t.TempDir()
	data := filepath.Join(work, "data")
	os.Mkdir(data, 0o755)
	csv := "road,weather,accidents\nA1,rain,10\nA2,dry,12\nA3,fog,20\n"
	if err := os.WriteFile(filepath.Join(data, "traffic_accidents.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	code := "import csv\n" +
		"rows = list(csv.DictReader(open('/data/traffic_accidents.csv')))\n" +
		"print('total accidents:', sum(int(r['accidents']) for r in rows))"
	model := fakellm.New(func(n int, req *fakellm.Request) fakellm.Reply {
		last := req.Messages[len(req.Messages)-1]
		if last.Role == "tool" {
			return fakellm.Reply{Format: fakellm.GPTOSS, Reasoning: "The tool answered.",
				Content: "From the data: " + last.Text}
		}
		return fakellm.Reply{Format: fakellm.GPTOSS, Reasoning: "I will sum the column.",
			Calls: []fakellm.Call{{Name: "execute_python", Arguments: pyArgs(code)}}}
	})
	defer model.Close()

	s := startServe(t, "--mount", data+":/data:ro")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	start := time.Now()
	cmd := exec.CommandContext(ctx, python, filepath.Join(dir, "check.py"))
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "PYBOX_MODEL_URL="+model.BaseURL(), "PYBOX_MODEL=openai/gpt-oss-20b",
		"PYBOX_BIN="+binary, "PYBOX_URL="+s.url+"/mcp", "PYBOX_TOKEN="+s.token, "PYBOX_EXPECT=total accidents: 42")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	sc := bufio.NewScanner(bytes.NewReader(out.Bytes()))
	for sc.Scan() {
		t.Log(sc.Text())
	}
	if err != nil {
		// Stop serve before reading its stderr, which it writes until then.
		s.stop(t, 60*time.Second)
		t.Fatalf("check.py: %v\npybox serve:\n%s", err, s.stderr)
	}
	t.Logf("check.py ran in %v", time.Since(start).Round(100*time.Millisecond))

	// Both runs reached the model with pybox's tools and brought the tool's
	// output back to it.
	reqs := model.Requests()
	if len(reqs) != 4 {
		t.Fatalf("model got %d requests, want 4 (a tool call and an answer per transport)", len(reqs))
	}
	for i, req := range reqs {
		t.Logf("request %d: stream=%v, %d messages, tools %v", i, req.Stream, len(req.Messages), req.Tools)
		if !strings.Contains(strings.Join(req.Tools, " "), "execute_python") {
			t.Errorf("request %d offered tools %v, no execute_python", i, req.Tools)
		}
		if i%2 == 1 {
			if tr := req.Last("tool"); tr == nil || !strings.Contains(tr.Text, "total accidents: 42") {
				t.Errorf("request %d: tool result %+v lacks the script's output", i, tr)
			}
		}
	}
	if code := s.stop(t, 60*time.Second); code != 0 {
		t.Fatalf("pybox serve exit %d: %s", code, s.stderr)
	}
}
