package agent_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pybox-dev/pybox/agent"
	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/internal/fakellm"
)

const appendOnce = `with open('/work/count.txt', 'a') as f:
    f.write('ran\n')
open('/output/report.txt', 'w').write('hello from step 1')
x = 41
print('written')`

// A run stopped right after a tool call that wrote files (the model's next
// request never answers) is resumed with a fresh Box (a new temporary
// /output): the finished call is not run again, /output is restored from
// the store, and the model is told that its session is gone.
func TestResumeAfterStop(t *testing.T) {
	for name, mk := range stores() {
		t.Run(name, func(t *testing.T) {
			store := mk(t)
			work := t.TempDir()
			blocked := make(chan struct{})
			var resumeNote string
			srv := fakellm.New(func(n int, req *fakellm.Request) fakellm.Reply {
				switch n {
				case 0:
					return fakellm.Reply{Calls: []fakellm.Call{{Name: "execute_python", Arguments: args(t, map[string]string{"code": appendOnce, "session_id": "main"})}}}
				case 1:
					return fakellm.Reply{Block: true, Blocked: blocked}
				case 2:
					resumeNote = req.Messages[len(req.Messages)-1].Text
					return fakellm.Reply{Calls: []fakellm.Call{{Name: "execute_python", Arguments: py(t,
						"print(open('/output/report.txt').read(), '|', open('/work/count.txt').read().count('ran'))")}}}
				default:
					return fakellm.Reply{Content: "final: " + req.Last("tool").Text}
				}
			})
			defer srv.Close()
			policy := fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadWriteMount(work, "/work")}}
			id := uniqueID("resume")

			ctx, cancel := context.WithCancel(context.Background())
			go func() { <-blocked; cancel() }()
			box1 := newBox(t, policy)
			cfg := config(srv, box1)
			cfg.Store, cfg.TaskID = store, id
			if _, err := agent.Run(ctx, cfg, "count"); !errors.Is(err, context.Canceled) {
				t.Fatalf("first run: %v", err)
			}
			box1.Close() // its temporary /output goes with it

			box2 := newBox(t, policy)
			cfg.Box = box2
			out, err := agent.Resume(context.Background(), cfg, id)
			if err != nil {
				t.Fatal(err)
			}
			if !out.Resumed || out.Turns != 3 || !strings.Contains(out.Answer, "hello from step 1 | 1") {
				t.Fatalf("outcome %+v", out)
			}
			for _, want := range []string{"resumed", "not run again", "/output/report.txt", "sessions (main) were lost"} {
				if !strings.Contains(resumeNote, want) {
					t.Errorf("resume note lacks %q: %s", want, resumeNote)
				}
			}
			if b, _ := os.ReadFile(filepath.Join(work, "count.txt")); string(b) != "ran\n" {
				t.Errorf("count.txt = %q: the call ran more than once", b)
			}
			if len(out.Files) != 1 || out.Files[0].Path != "/output/report.txt" {
				t.Fatalf("files %+v", out.Files)
			}
			if b, err := os.ReadFile(out.Files[0].HostPath); err != nil || string(b) != "hello from step 1" {
				t.Errorf("restored file: %q %v", b, err)
			}
			// The model saw the stored result of the first call again.
			req := srv.Requests()[2]
			if res := req.ToolResult(req.Messages[2].Calls[0].ID); res == nil || !strings.Contains(res.Text, "written") {
				t.Errorf("stored tool result not replayed: %+v", req.Messages)
			}
			// Resuming a finished task returns its outcome, with no request.
			n := len(srv.Requests())
			again, err := agent.Resume(context.Background(), cfg, id)
			if err != nil || again.Answer != out.Answer || len(srv.Requests()) != n {
				t.Fatalf("resume of a finished task: %+v %v", again, err)
			}
			// Run refuses an existing id.
			if _, err := agent.Run(context.Background(), cfg, "again"); !errors.Is(err, agent.ErrTaskExists) {
				t.Errorf("Run on an existing task: %v", err)
			}
		})
	}
}

// A call that had started but not finished when the process died is not run
// again: the model is told it was interrupted. (The store is cut after the
// call's tool_start, as a kill -9 during the call leaves it.)
func TestResumeInterruptedCall(t *testing.T) {
	ctx := context.Background()
	work := t.TempDir()
	srv := fakellm.New(func(n int, req *fakellm.Request) fakellm.Reply {
		if n == 0 {
			return fakellm.Reply{Calls: []fakellm.Call{{Name: "execute_python", Arguments: py(t, appendOnce)}}}
		}
		return fakellm.Reply{Content: "final: " + req.Last("tool").Text}
	})
	defer srv.Close()
	policy := fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadWriteMount(work, "/work")}}
	mem := agent.NewMemoryStore()
	cfg := config(srv, newBox(t, policy))
	cfg.Store, cfg.TaskID = mem, "whole"
	if _, err := agent.Run(ctx, cfg, "count"); err != nil {
		t.Fatal(err)
	}
	steps, _ := mem.Steps(ctx, "whole")
	cut, _ := agent.NewFileStore(t.TempDir())
	for _, s := range steps {
		s.TaskID = "cut"
		if err := cut.Append(ctx, s); err != nil {
			t.Fatal(err)
		}
		if s.Kind == agent.StepToolStart {
			break
		}
	}
	cfg.Box, cfg.Store, cfg.TaskID = newBox(t, policy), cut, ""
	out, err := agent.Resume(ctx, cfg, "cut")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Answer, "interrupted") || !strings.Contains(out.Answer, "NOT run again") {
		t.Fatalf("answer %q", out.Answer)
	}
	if b, _ := os.ReadFile(filepath.Join(work, "count.txt")); string(b) != "ran\n" {
		t.Errorf("count.txt = %q", b)
	}
	got, _ := cut.Steps(ctx, "cut")
	var kinds []string
	for _, s := range got {
		kinds = append(kinds, string(s.Kind))
	}
	if strings.Join(kinds, " ") != "task model tool_start tool_done note model final" {
		t.Errorf("steps: %v", kinds)
	}
}

// Two processes cannot run one task: the second fails at once.
func TestResumeLocked(t *testing.T) {
	store, _ := agent.NewFileStore(t.TempDir())
	unlock, err := store.Lock(context.Background(), "busy")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	srv := fakellm.New(func(int, *fakellm.Request) fakellm.Reply { return fakellm.Reply{Content: "x"} })
	defer srv.Close()
	cfg := config(srv, newBox(t, fsbridge.Policy{}))
	cfg.Store, cfg.TaskID = store, "busy"
	if _, err := agent.Run(context.Background(), cfg, "x"); !errors.Is(err, agent.ErrLocked) {
		t.Fatalf("err %v", err)
	}
}

// Resume never destroys data. The task wrote /work/a.txt and /work/b.txt,
// then a second call started (rewriting a.txt, creating part.txt) and the
// process died before it was recorded as done; while the task was stopped
// a host program edited b.txt and the temporary /output went away. The
// resume writes back only the missing /output file, keeps the interrupted
// call's partial work and the host edit byte for byte, and tells the model
// which files changed and how.
func TestResumeKeepsData(t *testing.T) {
	ctx := context.Background()
	work := t.TempDir()
	const first = `open('/work/a.txt', 'w').write('a from step 1')
open('/work/b.txt', 'w').write('b from step 1')
open('/output/r.txt', 'w').write('report')`
	const second = `open('/work/a.txt', 'w').write('a half-rewritten by step 2')
open('/work/part.txt', 'w').write('partial')`
	srv := fakellm.New(func(n int, req *fakellm.Request) fakellm.Reply {
		switch n {
		case 0:
			return fakellm.Reply{Calls: []fakellm.Call{{Name: "execute_python", Arguments: py(t, first)}}}
		case 1:
			return fakellm.Reply{Calls: []fakellm.Call{{Name: "execute_python", Arguments: py(t, second)}}}
		default:
			return fakellm.Reply{Content: "done"}
		}
	})
	defer srv.Close()
	policy := fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadWriteMount(work, "/work")}}
	mem := agent.NewMemoryStore()
	cfg := config(srv, newBox(t, policy))
	cfg.Store, cfg.TaskID = mem, "whole"
	if _, err := agent.Run(ctx, cfg, "write"); err != nil {
		t.Fatal(err)
	}
	// Keep the steps up to the second call's tool_start: what a kill -9
	// during that call leaves. Its effects are already on disk.
	steps, _ := mem.Steps(ctx, "whole")
	cut := agent.NewMemoryStore()
	starts := 0
	for _, s := range steps {
		s.TaskID = "cut"
		if err := cut.Append(ctx, s); err != nil {
			t.Fatal(err)
		}
		if s.Kind == agent.StepToolStart {
			if starts++; starts == 2 {
				break
			}
		}
	}
	if starts != 2 {
		t.Fatalf("expected two tool calls in %d steps", len(steps))
	}
	// The host edit made while the task was stopped.
	if err := os.WriteFile(filepath.Join(work, "b.txt"), []byte("edited on the host"), 0o644); err != nil {
		t.Fatal(err)
	}
	var note string
	srv2 := fakellm.New(func(n int, req *fakellm.Request) fakellm.Reply {
		for _, m := range req.Messages {
			if m.Role == "user" && strings.Contains(m.Text, "[pybox]") {
				note = m.Text
			}
		}
		return fakellm.Reply{Content: "resumed"}
	})
	defer srv2.Close()
	box2 := newBox(t, policy) // a new temporary /output: r.txt is missing there
	cfg2 := config(srv2, box2)
	cfg2.Store = cut
	out, err := agent.Resume(ctx, cfg2, "cut")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"a.txt":    "a half-rewritten by step 2",
		"b.txt":    "edited on the host",
		"part.txt": "partial",
	} {
		if b, err := os.ReadFile(filepath.Join(work, name)); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q (resume must not touch it)", name, b, err, want)
		}
	}
	if len(out.Files) != 1 || out.Files[0].Path != "/output/r.txt" {
		t.Fatalf("files %+v", out.Files)
	}
	if b, err := os.ReadFile(out.Files[0].HostPath); err != nil || string(b) != "report" {
		t.Errorf("/output/r.txt not written back: %q %v", b, err)
	}
	for _, want := range []string{
		"were missing were written back from the stored steps: /output/r.txt",
		"differ from what the task last recorded, changed by the interrupted call (execute_python) or outside this task while it was stopped: /work/a.txt, /work/b.txt",
		"left exactly as they are",
		"after the last recorded step (by the interrupted call or outside this task), left as they are: /work/part.txt",
	} {
		if !strings.Contains(note, want) {
			t.Errorf("resume note lacks %q:\n%s", want, note)
		}
	}
	if strings.Contains(note, "restored to the state") {
		t.Errorf("note claims files were reverted: %s", note)
	}
}
