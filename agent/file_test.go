package agent_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pybox-dev/pybox/agent"
)

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "data"), 0o755)
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("agent.json", `{"model": "m", "endpointUrl": "http://x/v1", "provider": "vllm", "servers": [],
	  "limits": {"timeout": "90s", "memory": "512MiB"},
	  "sandbox": {"mounts": ["data:/data:ro"], "limits": {"fileSize": "1MiB"},
	    "fetch": [{"guest": "/network", "routes": {"ip": "http://127.0.0.1:1/ip"}, "timeout": "2s"}]}}`)
	write("PROMPT.md", "prompt text")
	f, err := agent.LoadFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	if f.Model != "m" || f.Prompt != "prompt text" {
		t.Errorf("%+v", f)
	}
	l, _, err := f.RunLimits()
	if err != nil || l.Timeout != 90*time.Second || l.Memory != 512<<20 {
		t.Errorf("limits %+v %v", l, err)
	}
	p, err := f.Policy()
	if err != nil || len(p.Mounts) != 1 || p.Mounts[0].Host != filepath.Join(dir, "data") || len(p.Virtual) != 1 || p.Limits.FileSize != 1<<20 {
		t.Errorf("policy %+v %v", p, err)
	}
	for _, bad := range []struct{ json, want string }{
		{`{"modle": "typo"}`, `unknown field "modle"`},
		{`{"limits": {"timeout": "soon"}}`, "limits.timeout"},
		{`{"sandbox": {"mounts": ["data:/data:xx"]}}`, "sandbox"},
		{`{"system": "missing.md"}`, "system prompt"},
	} {
		write("agent.json", bad.json)
		if _, err := agent.LoadFile(filepath.Join(dir, "agent.json")); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: err %v, want %q", bad.json, err, bad.want)
		}
	}
}

func TestTerminalApprover(t *testing.T) {
	var out strings.Builder
	a := agent.NewTerminalApprover(strings.NewReader("what\nd\nr\ntoo slow\nall\n"), &out)
	req := agent.ApprovalRequest{Call: agent.ToolCall{Name: "execute_python"}, Code: "print(1)\nprint(2)", Summary: "run Python code"}
	ctx := t.Context()
	for _, want := range []agent.Decision{{}, {Reason: "too slow"}, {Approved: true}, {Approved: true}} {
		d, err := a.Approve(ctx, req)
		if err != nil || d != want {
			t.Fatalf("got %+v %v, want %+v", d, err, want)
		}
	}
	if !strings.Contains(out.String(), "   2 │ print(2)") {
		t.Errorf("prompt %q", out.String())
	}
	if _, err := agent.NewTerminalApprover(strings.NewReader(""), &out).Approve(ctx, req); err != agent.ErrNoAnswer {
		t.Errorf("EOF: %v", err)
	}
}
