package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/internal/manualclock"
	"github.com/pybox-dev/pybox/runtime"
)

func newSession(t *testing.T) *runtime.Session {
	t.Helper()
	s, err := engine.NewSession(context.Background(), runtime.SessionConfig{Memory: 256 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func sexec(t *testing.T, s *runtime.Session, code string, lim runtime.Limits) *runtime.Result {
	t.Helper()
	res, err := s.Exec(context.Background(), runtime.Request{Code: code, Limits: lim})
	if err != nil {
		t.Fatalf("Exec(%q): %v", code, err)
	}
	return res
}

func TestSessionKeepsState(t *testing.T) {
	s := newSession(t)
	steps := []struct {
		code, stdout, value string
		status              runtime.Status
	}{
		{"import json\nx = 21", "", "", runtime.StatusOK},
		{"x * 2", "", "42", runtime.StatusOK},
		{"print(json.dumps({'x': x}))\ny = [1, 2]", "{\"x\": 21}\n", "", runtime.StatusOK},
		{"y.append(3); y", "", "[1, 2, 3]", runtime.StatusOK},
		{"_ + [4]", "", "[1, 2, 3, 4]", runtime.StatusOK}, // _ is the last value
		{"1/0", "", "", runtime.StatusError},
		{"x", "", "21", runtime.StatusOK}, // an exception does not lose state
		{"import sys; sys.exit(3)", "", "", runtime.StatusExit},
		{"x + 1", "", "22", runtime.StatusOK}, // nor does sys.exit
		{"None", "", "", runtime.StatusOK},
		{"def f():\n    return 5\nf()", "", "5", runtime.StatusOK},
		{"'__pybox_value__' in globals(), _", "", "(False, 5)", runtime.StatusOK}, // the runner's name does not stay
		{"x = (", "", "", runtime.StatusError},                                    // SyntaxError
		{"if x:\n    x + 2", "", "", runtime.StatusOK},                            // only a top-level expression has a value
	}
	for _, st := range steps {
		res := sexec(t, s, st.code, runtime.Limits{})
		if res.Status != st.status || string(res.Stdout) != st.stdout || res.Value != st.value {
			t.Fatalf("%q: status %s stdout %q value %q; want %s %q %q\nstderr: %s", st.code, res.Status, res.Stdout, res.Value, st.status, st.stdout, st.value, res.Stderr)
		}
		if res.SessionRestarted || res.SessionLost {
			t.Fatalf("%q: session restarted/lost: %s", st.code, res.Message)
		}
	}
}

func TestSessionsAreIsolated(t *testing.T) {
	a, b := newSession(t), newSession(t)
	sexec(t, a, "secret = 'a'\nimport random\nrandom.seed(1)\nopen('/tmp/f', 'w').write('a')", runtime.Limits{})
	res := sexec(t, b, "print('secret' in globals())", runtime.Limits{})
	if string(res.Stdout) != "False\n" {
		t.Fatalf("session b sees a's globals: %q %s", res.Stdout, res.Stderr)
	}
}

func TestSessionInterruptKeepsState(t *testing.T) {
	s := newSession(t)
	sexec(t, s, "before = 'kept'\ncount = 0", runtime.Limits{})
	res := sexec(t, s, "while True:\n    count += 1\n", runtime.Limits{Timeout: 200 * time.Millisecond})
	if res.Status != runtime.StatusTimeout || res.Stop == nil || res.Stop.Killed || res.SessionLost {
		t.Fatalf("interrupt: status %s stop %+v lost %v", res.Status, res.Stop, res.SessionLost)
	}
	res = sexec(t, s, "before, count > 0", runtime.Limits{})
	if res.Value != "('kept', True)" || res.SessionRestarted {
		t.Fatalf("after interrupt: value %q restarted %v stderr %s", res.Value, res.SessionRestarted, res.Stderr)
	}
	// A later call is not hit by a stale interrupt.
	res = sexec(t, s, "import time\ntime.sleep(0.05)\n'fine'", runtime.Limits{})
	if res.Value != "'fine'" {
		t.Fatalf("stale interrupt: %s %q %s", res.Status, res.Value, res.Stderr)
	}
}

func TestSessionKilledIsRestarted(t *testing.T) {
	s := newSession(t)
	sexec(t, s, "state = 1", runtime.Limits{})
	res := sexec(t, s, "sum(range(10 ** 15))", runtime.Limits{Timeout: 100 * time.Millisecond, KillAfter: 100 * time.Millisecond})
	if res.Status != runtime.StatusTimeout || !res.Stop.Killed || !res.SessionLost {
		t.Fatalf("C loop: status %s stop %+v lost %v", res.Status, res.Stop, res.SessionLost)
	}
	res = sexec(t, s, "'state' in globals()", runtime.Limits{})
	if !res.SessionRestarted || res.Value != "False" || !strings.Contains(res.Message, "restarted with a fresh state") {
		t.Fatalf("after kill: restarted %v value %q message %q", res.SessionRestarted, res.Value, res.Message)
	}
	res = sexec(t, s, "1 + 1", runtime.Limits{})
	if res.SessionRestarted || res.Value != "2" {
		t.Fatalf("second call after restart: %+v", res)
	}
}

func TestSessionReset(t *testing.T) {
	s := newSession(t)
	sexec(t, s, "v = 1", runtime.Limits{})
	if err := s.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	if res := sexec(t, s, "'v' in globals()", runtime.Limits{}); res.Value != "False" || res.SessionRestarted {
		t.Fatalf("after reset: %q %v", res.Value, res.SessionRestarted)
	}
	s.Close()
	if _, err := s.Exec(context.Background(), runtime.Request{Code: "1"}); err != runtime.ErrSessionClosed {
		t.Fatalf("Exec after Close: %v", err)
	}
}

// TestSessionsManager runs on a clock of its own: on the wall clock a
// 300 ms idle timeout passed, on a busy machine under -race, while the test
// still started its sessions, and the reaper closed them before the test
// counted them ("Len = 1, want 3").
func TestSessionsManager(t *testing.T) {
	const idle = 300 * time.Millisecond
	clock := manualclock.New(time.Now())
	ss := engine.NewSessionsAt(runtime.SessionsConfig{Max: 3, IdleTimeout: idle, Session: runtime.SessionConfig{Memory: 128 << 20}}, clock.Now)
	defer ss.Close()
	ctx := context.Background()
	wantIDs := func(want ...string) {
		t.Helper()
		if ids := ss.IDs(); !slices.Equal(ids, want) {
			t.Fatalf("sessions %q, want %q", ids, want)
		}
	}
	for i := 0; i < 3; i++ {
		s, err := ss.Get(ctx, fmt.Sprintf("agent-%d", i))
		if err != nil {
			t.Fatal(err)
		}
		sexec(t, s, fmt.Sprintf("me = %d", i), runtime.Limits{})
		clock.Advance(time.Millisecond) // agent-i last used at +i ms
	}
	s1, err := ss.Get(ctx, "agent-1")
	if err != nil {
		t.Fatal(err)
	}
	if res := sexec(t, s1, "me", runtime.Limits{}); res.Value != "1" {
		t.Fatalf("agent-1 state: %q", res.Value)
	}
	clock.Advance(time.Millisecond) // agent-1 last used at +3 ms
	// A fourth session evicts the least recently used idle one (agent-0).
	if _, err := ss.Get(ctx, "agent-3"); err != nil {
		t.Fatal(err)
	}
	wantIDs("agent-1", "agent-2", "agent-3")

	// Idle sessions expire once IdleTimeout has passed, not before: at
	// +2ms+idle agent-2 is just at its time; a millisecond later it is
	// over it, and agent-1 (last used at +3 ms) just at it.
	clock.Advance(idle - 2*time.Millisecond)
	ss.ReapIdle()
	wantIDs("agent-1", "agent-2", "agent-3")
	clock.Advance(time.Millisecond)
	ss.ReapIdle()
	wantIDs("agent-1", "agent-3")
	clock.Advance(idle)
	ss.ReapIdle()
	wantIDs()
	if _, err := s1.Exec(ctx, runtime.Request{Code: "me"}); err != runtime.ErrSessionClosed {
		t.Fatalf("Exec on an expired session: %v, want ErrSessionClosed", err)
	}
}

// A session Get hands out stays open for the caller's call: a Get that
// needs room does not evict it, nor does the reaper close it, however long
// it was idle before. (Before, both could close it between Get and Exec,
// and the caller's Exec failed with ErrSessionClosed.)
func TestSessionsGetHoldsSessionForItsCall(t *testing.T) {
	const idle = 300 * time.Millisecond
	clock := manualclock.New(time.Now())
	ss := engine.NewSessionsAt(runtime.SessionsConfig{Max: 1, IdleTimeout: idle, Session: runtime.SessionConfig{Memory: 128 << 20}}, clock.Now)
	defer ss.Close()
	ctx := context.Background()

	a, err := ss.Get(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ss.Get(ctx, "b"); !errors.Is(err, runtime.ErrTooManySessions) {
		t.Fatalf("Get(b) while a is handed out: %v, want ErrTooManySessions", err)
	}
	sexec(t, a, "x = 1", runtime.Limits{})

	clock.Advance(2 * idle) // a has been idle past its time, not yet reaped
	a2, err := ss.Get(ctx, "a")
	if err != nil || a2 != a {
		t.Fatalf("Get(a) again: %p %v, want %p", a2, err, a)
	}
	ss.ReapIdle()
	if _, err := ss.Get(ctx, "b"); !errors.Is(err, runtime.ErrTooManySessions) {
		t.Fatalf("Get(b) while a is handed out again: %v, want ErrTooManySessions", err)
	}
	if res, err := a.Exec(ctx, runtime.Request{Code: "x"}); err != nil || res.Value != "1" {
		t.Fatalf("Exec on the session Get handed out: %v %+v", err, res)
	}

	// Its call over, a is idle and makes room.
	if _, err := ss.Get(ctx, "b"); err != nil {
		t.Fatalf("Get(b) once a is idle: %v", err)
	}
	if ids := ss.IDs(); !slices.Equal(ids, []string{"b"}) {
		t.Fatalf("sessions %q, want [b]", ids)
	}
	// A Get whose call never comes holds its session for IdleTimeout only.
	clock.Advance(idle + time.Millisecond)
	ss.ReapIdle()
	if n := ss.Len(); n != 0 {
		t.Fatalf("%d sessions left after an unused Get's idle timeout", n)
	}
}

// Max counts the sessions being started, and concurrent Gets of one new id
// start one session. (Before, Gets that started sessions at the same time
// all found room, and the set grew past Max.)
func TestSessionsMaxCountsStarts(t *testing.T) {
	arrived := make(chan string)
	release := make(chan struct{})
	ss := engine.NewSessions(runtime.SessionsConfig{Max: 2, Configure: func(id string) (runtime.SessionConfig, error) {
		arrived <- id // the start of id has begun (and holds a place)
		<-release
		return runtime.SessionConfig{Memory: 128 << 20}, nil
	}})
	defer ss.Close()
	ids := []string{"a", "b", "c", "d"}
	errs := make(chan error, len(ids))
	for _, id := range ids {
		go func() {
			_, err := ss.Get(context.Background(), id)
			errs <- err
		}()
	}
	// Every Get either begins a start or fails; only then may the starts
	// end.
	starts, failed := 0, 0
	for starts+failed < len(ids) {
		select {
		case <-arrived:
			starts++
		case err := <-errs:
			if !errors.Is(err, runtime.ErrTooManySessions) {
				t.Errorf("Get before any start ended: %v, want ErrTooManySessions", err)
			}
			failed++
		}
	}
	close(release)
	for range starts {
		if err := <-errs; err != nil {
			t.Errorf("Get: %v", err)
		}
	}
	if starts != 2 || ss.Len() != 2 {
		t.Fatalf("%d sessions started, %d open, with Max 2", starts, ss.Len())
	}

	var configured atomic.Int32
	one := engine.NewSessions(runtime.SessionsConfig{Max: 2, Configure: func(string) (runtime.SessionConfig, error) {
		configured.Add(1)
		return runtime.SessionConfig{Memory: 128 << 20}, nil
	}})
	defer one.Close()
	got := make(chan *runtime.Session, 3)
	for range 3 {
		go func() {
			s, err := one.Get(context.Background(), "same")
			if err != nil {
				t.Error(err)
			}
			got <- s
		}()
	}
	first := <-got
	if s, s2 := <-got, <-got; s != first || s2 != first {
		t.Fatalf("concurrent Gets of one id returned different sessions")
	}
	if n := configured.Load(); n != 1 {
		t.Fatalf("concurrent Gets of one id started %d sessions, want 1", n)
	}
}

// Once closed, Sessions start no session that nothing would close, and
// closing twice is harmless. (Before, a Get after Close started one, and a
// second Close panicked.)
func TestSessionsGetAfterClose(t *testing.T) {
	ss := engine.NewSessions(runtime.SessionsConfig{Session: runtime.SessionConfig{Memory: 128 << 20}})
	ss.Close()
	if s, err := ss.Get(context.Background(), "late"); err != runtime.ErrSessionClosed {
		if s != nil {
			s.Close()
		}
		t.Fatalf("Get after Close: %v, want ErrSessionClosed", err)
	}
	ss.Close()
}

func TestConcurrentSessions(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			s, err := engine.NewSession(context.Background(), runtime.SessionConfig{Memory: 128 << 20})
			if err != nil {
				errs <- err
				return
			}
			defer s.Close()
			for k := 0; k < 5; k++ {
				res, err := s.Exec(context.Background(), runtime.Request{Code: fmt.Sprintf("n = globals().get('n', %d) + 1\nn", i*100)})
				if err != nil {
					errs <- err
					return
				}
				if want := fmt.Sprint(i*100 + k + 1); res.Value != want {
					errs <- fmt.Errorf("session %d call %d: %q, want %s", i, k, res.Value, want)
					return
				}
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// Opening and closing many sessions must not leak: the Go heap returns to
// where it was.
func TestManySessionsFlatMemory(t *testing.T) {
	heap := func() uint64 {
		goruntime.GC()
		var m goruntime.MemStats
		goruntime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	cycle := func(n int) {
		for i := 0; i < n; i++ {
			s, err := engine.NewSession(context.Background(), runtime.SessionConfig{Memory: 64 << 20})
			if err != nil {
				t.Fatal(err)
			}
			if res, err := s.Exec(context.Background(), runtime.Request{Code: "x = list(range(10000)); len(x)"}); err != nil || res.Value != "10000" {
				t.Fatalf("%v %+v", err, res)
			}
			s.Close()
		}
	}
	cycle(10) // warm up
	before := heap()
	cycle(100)
	time.Sleep(100 * time.Millisecond) // instances close asynchronously
	after := heap()
	t.Logf("Go heap before %d MiB, after 100 sessions %d MiB", before>>20, after>>20)
	if after > before+64<<20 {
		t.Fatalf("heap grew from %d to %d bytes over 100 sessions", before, after)
	}
}

// The runner's mmap copies the file (WASI cannot map memory) and writes a
// shared map's changes back: after every job of a session, so a host
// program reading the file between calls sees them, and never silently
// drops them when it cannot (testdata/mmap_basics.py covers the module's
// behaviour against native CPython).
func TestMmapWriteBackInSession(t *testing.T) {
	work := t.TempDir()
	sb, err := fsbridge.New(fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadWriteMount(work, "/work")}})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	if err := os.WriteFile(filepath.Join(work, "a.bin"), []byte("aaaaaaaa"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := engine.NewSession(context.Background(), runtime.SessionConfig{Memory: 256 << 20, FS: sb.FS()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	host := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(work, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	// Changed, neither flushed nor closed: on the host when the call returns.
	res := sexec(t, s, "import mmap\nwith open('/work/a.bin', 'r+b') as f:\n    m = mmap.mmap(f.fileno(), 0)\nm[:3] = b'xyz'", runtime.Limits{})
	if res.Status != runtime.StatusOK {
		t.Fatalf("map: %s %s", res.Status, res.Stderr)
	}
	if got := host("a.bin"); got != "xyzaaaaa" {
		t.Fatalf("after the first call the host reads %q, want %q", got, "xyzaaaaa")
	}
	// And again after a later call: the map stays live across calls.
	sexec(t, s, "m[7] = ord('!')", runtime.Limits{})
	if got := host("a.bin"); got != "xyzaaaa!" {
		t.Fatalf("after the second call the host reads %q, want %q", got, "xyzaaaa!")
	}

	// Made from a bare descriptor that is then closed: the runner cannot
	// reopen the file, so flush() says so instead of dropping the change,
	// and the end of the call says it once on stderr.
	res = sexec(t, s, `import os
fd = os.open('/work/a.bin', os.O_RDWR)
m2 = mmap.mmap(fd, 0)
os.close(fd)
m2[0] = ord('Q')
try:
    m2.flush()
except OSError as e:
    print('flush', e.errno == __import__('errno').EBADF, 'flush() the map before closing the file' in str(e))
`, runtime.Limits{})
	if got := string(res.Stdout); got != "flush True True\n" {
		t.Fatalf("flush through a closed descriptor printed %q (stderr %s)", got, res.Stderr)
	}
	if !strings.Contains(string(res.Stderr), "mmap: changes not written back to the file") {
		t.Fatalf("the call's stderr does not say the change was not written back: %q", res.Stderr)
	}
	res = sexec(t, s, "m2[1] = ord('R')", runtime.Limits{})
	if strings.Contains(string(res.Stderr), "mmap:") {
		t.Fatalf("the warning is repeated on a later call: %q", res.Stderr)
	}
	if got := host("a.bin"); got != "xyzaaaa!" {
		t.Fatalf("the host file changed through a closed descriptor: %q", got)
	}
}
