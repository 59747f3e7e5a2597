package agent_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/pybox-dev/pybox/agent"
)

// postgresURL is the test database (scripts/test-postgres.sh starts one and
// sets PYBOX_TEST_POSTGRES). Without it the test is skipped, or fails when
// PYBOX_REQUIRE_POSTGRES=1 (scripts/test.sh, CI).
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

// stores returns each durable store kind for a subtest.
func stores() map[string]func(t *testing.T) agent.Store {
	return map[string]func(t *testing.T) agent.Store{
		"file": func(t *testing.T) agent.Store {
			s, err := agent.NewFileStore(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
		"postgres": func(t *testing.T) agent.Store {
			s, err := agent.NewPostgresStore(context.Background(), postgresURL(t))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		},
	}
}

func uniqueID(prefix string) string {
	b := make([]byte, 6)
	rand.Read(b)
	return prefix + "-" + hex.EncodeToString(b)
}

func TestStoreContract(t *testing.T) {
	ctx := context.Background()
	all := stores()
	all["memory"] = func(*testing.T) agent.Store { return agent.NewMemoryStore() }
	for name, mk := range all {
		t.Run(name, func(t *testing.T) {
			s := mk(t)
			id := uniqueID("contract")
			if steps, err := s.Steps(ctx, id); err != nil || len(steps) != 0 {
				t.Fatalf("unknown task: %v %v", steps, err)
			}
			unlock, err := s.Lock(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Lock(ctx, id); !errors.Is(err, agent.ErrLocked) {
				t.Fatalf("second lock: %v", err)
			}
			st0 := agent.Step{TaskID: id, N: 0, Kind: agent.StepTask, Start: &agent.TaskStart{Task: "t\x00with NUL", Meta: []byte{0, 1, 2}}}
			st1 := agent.Step{TaskID: id, N: 1, Kind: agent.StepToolDone, Call: &agent.ToolCall{ID: "c"}, Result: &agent.ToolResult{Text: "out"},
				Files: []agent.FileChange{{Path: "/output/x", Content: []byte("bin\x00ary"), Size: 7}}}
			for _, st := range []agent.Step{st0, st1} {
				if err := s.Append(ctx, st); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Append(ctx, st1); err == nil {
				t.Error("step 1 stored twice")
			}
			if err := s.Append(ctx, agent.Step{TaskID: id, N: 5, Kind: agent.StepNote}); err == nil {
				t.Error("gap accepted")
			}
			steps, err := s.Steps(ctx, id)
			if err != nil || len(steps) != 2 {
				t.Fatalf("steps %v %v", steps, err)
			}
			if steps[0].Start.Task != "t\x00with NUL" || string(steps[1].Files[0].Content) != "bin\x00ary" {
				t.Errorf("round trip: %+v %+v", steps[0].Start, steps[1].Files)
			}
			unlock()
			unlock2, err := s.Lock(ctx, id)
			if err != nil {
				t.Fatalf("lock after unlock: %v", err)
			}
			unlock2()
		})
	}
}

// A crash mid-write leaves a torn last line: reading ignores it, the next
// append replaces it.
func TestFileStoreTornTail(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, _ := agent.NewFileStore(dir)
	for i := 0; i < 2; i++ {
		if err := s.Append(ctx, agent.Step{TaskID: "t1", N: i, Kind: agent.StepNote, Note: "n"}); err != nil {
			t.Fatal(err)
		}
	}
	f, _ := os.OpenFile(filepath.Join(dir, "t1.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"task_id":"t1","step":2,"kind":"no`)
	f.Close()
	s2, _ := agent.NewFileStore(dir)
	steps, err := s2.Steps(ctx, "t1")
	if err != nil || len(steps) != 2 {
		t.Fatalf("steps %d %v", len(steps), err)
	}
	if err := s2.Append(ctx, agent.Step{TaskID: "t1", N: 2, Kind: agent.StepNote, Note: "after"}); err != nil {
		t.Fatal(err)
	}
	steps, err = agent.Must(agent.NewFileStore(dir)).Steps(ctx, "t1")
	if err != nil || len(steps) != 3 || steps[2].Note != "after" {
		t.Fatalf("after append: %d %v", len(steps), err)
	}
}
