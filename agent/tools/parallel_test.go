package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pybox-dev/pybox/agent/tools"
)

// barrierCode is guest code that announces itself in /output (bar-<me>), waits (inside
// the guest, for at most 45 s) until every one of names (one letter each) has, writes
// /output/<me>.txt and is refused a write outside the mounts under its own
// name. Calls that ran one after another never all meet: the first times
// out.
func barrierCode(me string, names []string) string {
	return fmt.Sprintf(`
import os, time
open('/output/bar-%[1]s', 'w').close()
deadline = time.time() + 45
while not all(os.path.exists('/output/bar-' + n) for n in %[2]q):
    if time.time() > deadline:
        raise TimeoutError('the other calls never ran at the same time')
    time.sleep(0.01)
open('/output/%[1]s.txt', 'w').write('%[1]s')
try:
    open('/refused-%[1]s', 'w')
except OSError:
    pass
print('met')
`, me, strings.Join(names, ""))
}

// Calls that share no interpreter run at the same time, and each reports
// only the /output file its own code wrote and the refusal its own code
// met.
func TestParallelCallsRunConcurrentlyAndKeepTheirOwnFiles(t *testing.T) {
	b, _ := newBox(t, func(c *tools.Config) { c.Limits.Timeout = 60 * time.Second })
	cases := []struct{ name, session string }{
		{"a", ""},
		{"b", "sb"},
		{"c", "sc"},
	}
	names := []string{"a", "b", "c"}
	type outcome struct {
		res *tools.Result
		err error
	}
	out := make([]outcome, len(cases))
	var wg sync.WaitGroup
	for i, c := range cases {
		args, _ := json.Marshal(map[string]any{"code": barrierCode(c.name, names), "session_id": c.session})
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := b.Call(context.Background(), "execute_python", args)
			out[i] = outcome{r, err}
		}()
	}
	wg.Wait()
	for i, c := range cases {
		if out[i].err != nil {
			t.Fatalf("call %s: %v", c.name, out[i].err)
		}
		er := out[i].res.Structured.(*tools.ExecResult)
		if er.Status != "ok" || !strings.Contains(er.Stdout, "met") {
			t.Errorf("call %s did not meet the others: %s", c.name, out[i].res.Text())
			continue
		}
		var files []string
		for _, f := range er.Files {
			files = append(files, f.Path)
		}
		want := []string{"/output/bar-" + c.name, "/output/" + c.name + ".txt"}
		slices.Sort(want)
		if !slices.Equal(files, want) {
			t.Errorf("call %s reports files %q, want only its own %q", c.name, files, want)
		}
		if len(er.Denials) != 1 || !strings.Contains(er.Denials[0], "/refused-"+c.name) {
			t.Errorf("call %s reports refusals %q, want only its own /refused-%s", c.name, er.Denials, c.name)
		}
	}
}

// Calls in one session run one after another, in the order they came:
// the second, sent while the first is still running, sees the first's
// variables and its effects.
func TestSessionCallsStayInOrder(t *testing.T) {
	b, _ := newBox(t, nil)
	first := make(chan *tools.Result, 1)
	go func() {
		r, _ := b.Call(context.Background(), "execute_python", json.RawMessage(`{"session_id": "s", "code": "import os, time\nopen('/output/first-started', 'w').close()\nd = time.time() + 15\nwhile not os.path.exists('/output/release') and time.time() < d:\n    time.sleep(0.01)\nx = 'set by the first call'\nprint('first done', os.path.exists('/output/release'))"}`))
		first <- r
	}()
	// Wait (in another interpreter) until the first call runs.
	r := call(t, b, "execute_python", `{"code": "import os, time\nd = time.time() + 15\nwhile not os.path.exists('/output/first-started') and time.time() < d:\n    time.sleep(0.01)\nprint(os.path.exists('/output/first-started'))"}`)
	if !strings.Contains(r.Text(), "True") {
		t.Fatalf("the first call never started: %s", r.Text())
	}
	second := make(chan *tools.Result, 1)
	go func() {
		r, _ := b.Call(context.Background(), "execute_python", json.RawMessage(`{"session_id": "s", "code": "print(x)"}`))
		second <- r
	}()
	call(t, b, "write_file", `{"path": "/output/release", "content": "go"}`)
	if r := <-first; r == nil || !strings.Contains(r.Text(), "first done True") {
		t.Fatalf("first call: %v", r)
	}
	if r := <-second; r == nil || !strings.Contains(r.Text(), "set by the first call") {
		t.Fatalf("second call did not run after the first: %v", r)
	}
}
