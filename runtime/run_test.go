package runtime_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pybox-dev/pybox/runtime"
)

// engine is shared by every test in the package: compiling python.wasm is
// the slow step, and an Engine is meant to serve many runs.
var engine *runtime.Engine

func TestMain(m *testing.M) {
	ctx := context.Background()
	var err error
	engine, err = runtime.NewEngine(ctx, runtime.Config{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "NewEngine:", err)
		os.Exit(1)
	}
	code := m.Run()
	engine.Close(ctx)
	os.Exit(code)
}

func run(t *testing.T, req runtime.Request) *runtime.Result {
	t.Helper()
	res, err := engine.Run(context.Background(), req)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

func TestRunOutcomes(t *testing.T) {
	tests := []struct {
		name       string
		code       string
		args       []string
		stdin      string
		status     runtime.Status
		exit       int
		stdout     string // exact, if set
		stderrHas  []string
		excType    string
		excMessage string
	}{
		{name: "print", code: "print('hello')", status: runtime.StatusOK, stdout: "hello\n"},
		{name: "version", code: "import sys, json; print(json.dumps(sys.version_info[:2]))", status: runtime.StatusOK, stdout: "[3, 11]\n"},
		{name: "unicode", code: "print('héllo wörld ✓ 日本語 🐍')", status: runtime.StatusOK, stdout: "héllo wörld ✓ 日本語 🐍\n"},
		{name: "stderr", code: "import sys; print('out'); print('err', file=sys.stderr)", status: runtime.StatusOK, stdout: "out\n", stderrHas: []string{"err\n"}},
		{name: "exit code", code: "import sys; sys.exit(3)", status: runtime.StatusExit, exit: 3},
		{name: "exit zero", code: "raise SystemExit(0)", status: runtime.StatusOK},
		{name: "exit message", code: "import sys; sys.exit('bad input')", status: runtime.StatusExit, exit: 1, stderrHas: []string{"bad input"}},
		{name: "os._exit", code: "import os; print('x', flush=True); os._exit(7)", status: runtime.StatusExit, exit: 7, stdout: "x\n"},
		{
			name: "traceback", code: "def f(x):\n    return 1 / x\n\nf(0)\n",
			status: runtime.StatusError, exit: 1,
			stderrHas:  []string{"Traceback (most recent call last):", `File "<string>", line 4, in <module>`, `line 2, in f`, "return 1 / x", "ZeroDivisionError: division by zero"},
			excType:    "ZeroDivisionError",
			excMessage: "division by zero",
		},
		{
			name: "syntax error", code: "def f(:\n", status: runtime.StatusError, exit: 1,
			stderrHas: []string{"SyntaxError"}, excType: "SyntaxError",
		},
		{name: "user KeyboardInterrupt", code: "raise KeyboardInterrupt", status: runtime.StatusError, exit: 1, excType: "KeyboardInterrupt"},
		{name: "argv", code: "import sys; print(sys.argv)", args: []string{"a", "b c"}, status: runtime.StatusOK, stdout: "['<string>', 'a', 'b c']\n"},
		{name: "stdin", code: "import sys; print(sys.stdin.read().upper())", stdin: "abc\n", status: runtime.StatusOK, stdout: "ABC\n\n"},
		{name: "no stdin is EOF", code: "import sys; print(repr(sys.stdin.read()))", status: runtime.StatusOK, stdout: "''\n"},
		{name: "clean main namespace", code: "print(sorted(k for k in globals() if not k.startswith('__')))", status: runtime.StatusOK, stdout: "[]\n"},
		{name: "main module", code: "import __main__; print(__name__, __main__.__file__)", status: runtime.StatusOK, stdout: "__main__ <string>\n"},
		{name: "atexit runs", code: "import atexit; atexit.register(print, 'bye'); print('hi')", status: runtime.StatusOK, stdout: "hi\nbye\n"},
		{name: "stdlib", code: "import zlib, csv, io, decimal, datetime, hashlib, re, collections, statistics, zipfile, base64, xml.etree.ElementTree as ET\nprint(zlib.decompress(zlib.compress(b'ok')).decode(), decimal.Decimal('1.1')+decimal.Decimal('2.2'), hashlib.sha256(b'').hexdigest()[:8])", status: runtime.StatusOK, stdout: "ok 3.3 e3b0c442\n"},
		{name: "exception in finally keeps output", code: "try:\n    print('partial', flush=True)\n    raise ValueError('boom')\nfinally:\n    print('cleanup')\n", status: runtime.StatusError, exit: 1, stdout: "partial\ncleanup\n", excType: "ValueError", excMessage: "boom"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			req := runtime.Request{Code: tc.code, Args: tc.args}
			if tc.stdin != "" {
				req.Stdin = strings.NewReader(tc.stdin)
			}
			res := run(t, req)
			if res.Status != tc.status || res.ExitCode != tc.exit {
				t.Fatalf("status %s exit %d, want %s exit %d\nstdout: %s\nstderr: %s", res.Status, res.ExitCode, tc.status, tc.exit, res.Stdout, res.Stderr)
			}
			if tc.stdout != "" && string(res.Stdout) != tc.stdout {
				t.Errorf("stdout = %q, want %q", res.Stdout, tc.stdout)
			}
			for _, s := range tc.stderrHas {
				if !strings.Contains(string(res.Stderr), s) {
					t.Errorf("stderr lacks %q:\n%s", s, res.Stderr)
				}
			}
			if tc.excType != "" {
				if res.Exception == nil || res.Exception.Type != tc.excType {
					t.Fatalf("exception = %+v, want type %s", res.Exception, tc.excType)
				}
				if tc.excMessage != "" && res.Exception.Message != tc.excMessage {
					t.Errorf("exception message = %q, want %q", res.Exception.Message, tc.excMessage)
				}
				if !strings.Contains(res.Exception.Traceback, tc.excType) {
					t.Errorf("traceback lacks %s: %s", tc.excType, res.Exception.Traceback)
				}
			}
			if tc.status == runtime.StatusOK && len(res.Stderr) != 0 && len(tc.stderrHas) == 0 {
				t.Errorf("unexpected stderr: %s", res.Stderr)
			}
		})
	}
}

func TestStreamsLive(t *testing.T) {
	// The first line must reach the live writer while the code still runs.
	var mu sync.Mutex
	var live bytes.Buffer
	seen := make(chan struct{})
	w := writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		live.Write(p)
		if strings.Contains(live.String(), "first") {
			select {
			case <-seen:
			default:
				close(seen)
			}
		}
		return len(p), nil
	})
	done := make(chan *runtime.Result)
	go func() {
		res, _ := engine.Run(context.Background(), runtime.Request{
			Code:   "import time\nprint('first')\ntime.sleep(0.3)\nprint('second')",
			Stdout: w,
		})
		done <- res
	}()
	select {
	case <-seen:
	case <-done:
		t.Fatal("run finished before its first line was streamed")
	}
	select {
	case <-done:
		t.Fatal("run finished before the streamed line was observed as live")
	default:
	}
	res := <-done
	if string(res.Stdout) != "first\nsecond\n" || live.String() != "first\nsecond\n" {
		t.Fatalf("captured %q, live %q", res.Stdout, live.String())
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestOutputLimit(t *testing.T) {
	res := run(t, runtime.Request{
		Code:   "import sys\nfor i in range(100000):\n    print('line', i)\nprint('done', file=sys.stderr)\n",
		Limits: runtime.Limits{Output: 4096},
	})
	if res.Status != runtime.StatusOK {
		t.Fatalf("status %s: %s", res.Status, res.Stderr)
	}
	if !res.Truncated {
		t.Fatal("Truncated not set")
	}
	if !strings.Contains(string(res.Stdout), "output limit of 4096 bytes reached") {
		t.Fatalf("no truncation marker in stdout tail: %q", tail(res.Stdout))
	}
	if n := len(res.Stdout) + len(res.Stderr); n > 4096+2*200 {
		t.Fatalf("captured %d bytes with a 4096-byte limit", n)
	}
	if !strings.HasPrefix(string(res.Stdout), "line 0\nline 1\n") {
		t.Fatalf("stdout does not start with the first lines: %q", res.Stdout[:40])
	}
}

func tail(b []byte) string {
	if len(b) > 200 {
		b = b[len(b)-200:]
	}
	return string(b)
}

func TestTimeoutKeepsPartialOutput(t *testing.T) {
	tests := []struct {
		name   string
		code   string
		killed bool
	}{
		{"python loop", "print('before', flush=True)\nwhile True:\n    pass\n", false},
		{"sleep", "import time\nprint('before', flush=True)\ntime.sleep(3600)\n", false},
		{"regex backtracking", "import re\nprint('before', flush=True)\nre.match(r'(a*)*b', 'a' * 40)\n", false},
		{"big integer power", "print('before', flush=True)\nx = 7 ** (10 ** 9)\n", false},
		{"swallows KeyboardInterrupt", "print('before', flush=True)\nwhile True:\n    try:\n        while True:\n            pass\n    except KeyboardInterrupt:\n        pass\n", true},
		// C loops that never poll for signals: only the kill stops them.
		{"C loop", "print('before', flush=True)\nsum(range(10 ** 15))\n", true},
		{"C loop over an iterator", "import itertools, collections\nprint('before', flush=True)\ncollections.deque(itertools.count(), maxlen=0)\n", true},
		// A C loop whose every step runs a short C loop (str.upper over 3
		// characters): the loop guard counts the inner loop's visits in
		// batches that never fill, so only the outer loop's count yields.
		{"C loop over short C loops", "import itertools, collections\nprint('before', flush=True)\ncollections.deque(map(str.upper, itertools.repeat('abc')), maxlen=0)\n", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := run(t, runtime.Request{Code: tc.code, Limits: runtime.Limits{Timeout: 300 * time.Millisecond, KillAfter: 300 * time.Millisecond}})
			if res.Status != runtime.StatusTimeout || res.ExitCode != runtime.ExitCodeTimeout {
				t.Fatalf("status %s exit %d; stderr: %s", res.Status, res.ExitCode, res.Stderr)
			}
			if string(res.Stdout) != "before\n" {
				t.Errorf("stdout = %q, want the partial output", res.Stdout)
			}
			if !strings.Contains(string(res.Stderr), "timed out after 300ms") {
				t.Errorf("stderr lacks the timeout notice: %s", res.Stderr)
			}
			if res.Stop == nil || res.Stop.Killed != tc.killed || res.Stop.Abandoned {
				t.Fatalf("stop = %+v, want killed=%v", res.Stop, tc.killed)
			}
			if tc.killed && !strings.Contains(res.Message, "was killed") {
				t.Errorf("message = %q", res.Message)
			}
			if !tc.killed && (res.Exception == nil || res.Exception.Type != "KeyboardInterrupt") {
				t.Errorf("exception = %+v, want KeyboardInterrupt", res.Exception)
			}
			t.Logf("stopped %s after the interrupt", res.Stop.Latency)
		})
	}
}

func TestContextCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	res, err := engine.Run(ctx, runtime.Request{Code: "while True: pass"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != runtime.StatusCanceled || res.ExitCode != runtime.ExitCodeCanceled {
		t.Fatalf("status %s exit %d", res.Status, res.ExitCode)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	res, err = engine.Run(ctx, runtime.Request{Code: "while True: pass"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != runtime.StatusTimeout {
		t.Fatalf("deadline: status %s", res.Status)
	}
}

// TestCancelEndingInSleep: a script whose last statement is time.sleep,
// canceled while it sleeps, still reports KeyboardInterrupt. The host stores
// the interrupt flags before it wakes the sleeping guest; in the other order
// the sleep could return normally and the script end before the flags were
// set (seen in agent/serve's TestGracefulShutdown under load).
func TestCancelEndingInSleep(t *testing.T) {
	for i := 0; i < 5; i++ {
		ctx, cancel := context.WithCancel(context.Background())
		// Canceled once the guest has printed, so the interrupt reaches the
		// job's own code (in time.sleep, or just before it).
		out := cancelOnWrite{cancel: cancel}
		res, err := engine.Run(ctx, runtime.Request{
			Code:   "import time\nprint('start', flush=True)\ntime.sleep(60)\n",
			Stdout: &out,
		})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != runtime.StatusCanceled || res.Exception == nil || res.Exception.Type != "KeyboardInterrupt" {
			t.Fatalf("run %d: status %s, exception %+v, message %q", i, res.Status, res.Exception, res.Message)
		}
	}
}

// cancelOnWrite is a Stdout that cancels its run at the first write.
type cancelOnWrite struct {
	once   sync.Once
	cancel context.CancelFunc
}

func (w *cancelOnWrite) Write(p []byte) (int, error) {
	w.once.Do(w.cancel)
	return len(p), nil
}

func TestMemoryLimit(t *testing.T) {
	res := run(t, runtime.Request{
		Code:   "print('start', flush=True)\nx = bytearray(300 * 1024 * 1024)\n",
		Limits: runtime.Limits{Memory: 128 << 20},
	})
	if res.Status != runtime.StatusError || res.Exception == nil || res.Exception.Type != "MemoryError" {
		t.Fatalf("status %s exception %+v stderr %s", res.Status, res.Exception, res.Stderr)
	}
	if !res.MemoryLimitHit {
		t.Error("MemoryLimitHit not set")
	}
	if res.PeakMemory > 128<<20 {
		t.Errorf("peak memory %d exceeds the limit", res.PeakMemory)
	}
	if !strings.Contains(res.Message, "memory limit of 128 MiB") {
		t.Errorf("message = %q", res.Message)
	}
	// The same limit still allows ordinary work.
	res = run(t, runtime.Request{Code: "x = bytearray(50 * 1024 * 1024); print(len(x))", Limits: runtime.Limits{Memory: 128 << 20}})
	if res.Status != runtime.StatusOK {
		t.Fatalf("50 MiB under a 128 MiB limit: %s %s", res.Status, res.Stderr)
	}
	// Growing a list until memory runs out is caught too.
	res = run(t, runtime.Request{Code: "l = []\nwhile True:\n    l.append('x' * 100000)\n", Limits: runtime.Limits{Memory: 96 << 20}})
	if res.Status != runtime.StatusError || res.Exception == nil || res.Exception.Type != "MemoryError" {
		t.Fatalf("list growth: status %s exception %+v", res.Status, res.Exception)
	}
}

// A limit too small to hold python.wasm's initial memory is refused with an
// error naming both sizes (wazero panicked allocating such a memory).
// (A limit below the snapshot's size makes the run boot a new interpreter
// under that limit; a pooled interpreter would not be affected.)
func TestMemoryLimitBelowInitialMemory(t *testing.T) {
	e, err := runtime.NewEngine(context.Background(), runtime.Config{CacheDir: snapCacheDir(t), PersistSnapshot: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	runOK(t, e, runtime.Request{Code: "pass"})
	res, err := e.Run(context.Background(), runtime.Request{Code: "print(1)", Limits: runtime.Limits{Memory: 1 << 20}})
	if err == nil || !strings.Contains(err.Error(), "memory limit of 1048576 bytes is below python.wasm's initial memory") {
		t.Fatalf("err %v, result %+v", err, res)
	}
	// The engine carries on.
	if out := runOK(t, e, runtime.Request{Code: "print('fine')"}); out != "fine\n" {
		t.Fatalf("next run: %q", out)
	}
}

func TestCrashThenRunAgain(t *testing.T) {
	// Deep recursion inside C (repr of a deeply nested list, with the
	// recursion limit lifted) overflows the C stack: the interpreter traps.
	res := run(t, runtime.Request{Code: "import sys\nsys.setrecursionlimit(10**8)\nl = []\nfor _ in range(10**6):\n    l = [l]\nrepr(l)\n"})
	if res.Status != runtime.StatusCrashed || res.ExitCode != runtime.ExitCodeCrashed {
		t.Fatalf("status %s exit %d stderr %s", res.Status, res.ExitCode, tail(res.Stderr))
	}
	if !strings.Contains(string(res.Stderr), "pybox: the Python interpreter crashed") {
		t.Errorf("stderr lacks the crash notice: %s", tail(res.Stderr))
	}
	res = run(t, runtime.Request{Code: "print('still fine')"})
	if res.Status != runtime.StatusOK || string(res.Stdout) != "still fine\n" {
		t.Fatalf("run after crash: %s %q", res.Status, res.Stdout)
	}
}

func TestConcurrentRunsAreIsolated(t *testing.T) {
	const n = 20
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			code := fmt.Sprintf("import sys\nassert 'marker' not in globals()\nmarker = %d\nsys.modules['json'] = None if 'json' in sys.modules else None\nprint(sum(range(%d)), marker)", i, 1000*i)
			res, err := engine.Run(context.Background(), runtime.Request{Code: code})
			if err != nil {
				errs <- err
				return
			}
			want := fmt.Sprintf("%d %d\n", (1000*i)*(1000*i-1)/2, i)
			if i == 0 {
				want = "0 0\n"
			}
			if res.Status != runtime.StatusOK || string(res.Stdout) != want {
				errs <- fmt.Errorf("run %d: status %s stdout %q want %q stderr %s", i, res.Status, res.Stdout, want, res.Stderr)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestFreshInterpreterEachRun(t *testing.T) {
	res := run(t, runtime.Request{Code: "import random, sys\nrandom.seed(1)\nsys.stuff = 42\nimport json\njson.dumps = None\nprint('set')"})
	if res.Status != runtime.StatusOK {
		t.Fatal(res.Status)
	}
	res = run(t, runtime.Request{Code: "import sys, json\nprint(hasattr(sys, 'stuff'), json.dumps([1]))"})
	if string(res.Stdout) != "False [1]\n" {
		t.Fatalf("state leaked between runs: %q %s", res.Stdout, res.Stderr)
	}
}

func TestRandomAndClock(t *testing.T) {
	res1 := run(t, runtime.Request{Code: "import os; print(os.urandom(16).hex())"})
	res2 := run(t, runtime.Request{Code: "import os; print(os.urandom(16).hex())"})
	if bytes.Equal(res1.Stdout, res2.Stdout) {
		t.Fatalf("os.urandom repeated across runs: %s", res1.Stdout)
	}
	res := run(t, runtime.Request{Code: "import time; print(time.time() > 1.7e9)"})
	if string(res.Stdout) != "True\n" {
		t.Fatalf("wall clock is not real: %q", res.Stdout)
	}
}

// A guest busy in a loop must not stall the Go garbage collector: Go cannot
// preempt wazero-compiled code, so the guest yields on its own (CPython's
// eval-breaker countdown, the loop guard in C loops). If that broke, the GC's
// stop-the-world would wait for the guest and freeze the whole process, the
// test's own timeout included, so the check runs in a child process that the
// parent can kill.
func TestBusyGuestDoesNotStallGC(t *testing.T) {
	if os.Getenv("PYBOX_GC_CHILD") == "1" {
		busyGuestChild(t)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestBusyGuestDoesNotStallGC$", "-test.v")
	cmd.Env = append(os.Environ(), "PYBOX_GC_CHILD=1")
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("child process hung: a busy guest stalled the Go runtime\n%s", out)
	}
	if err != nil {
		t.Fatalf("child failed: %v\n%s", err, out)
	}
	t.Logf("%s", lastLines(string(out), 3))
}

func busyGuestChild(t *testing.T) {
	loops := []string{
		"while True:\n    pass\n",                    // Python loop
		"sum(range(10 ** 15))\n",                     // C loop, no signal checks
		"x = 7 ** (10 ** 9)\n",                       // C loop that polls signals
		"import re\nre.match(r'(a*)*b', 'a' * 60)\n", // regex backtracking
	}
	var wg sync.WaitGroup
	for _, code := range loops {
		wg.Add(1)
		go func(code string) {
			defer wg.Done()
			res, err := engine.Run(context.Background(), runtime.Request{Code: code, Limits: runtime.Limits{Timeout: 1500 * time.Millisecond, KillAfter: 200 * time.Millisecond}})
			if err != nil || res.Status != runtime.StatusTimeout || res.Stop.Abandoned {
				t.Errorf("%q: %v %+v", code, err, res)
			}
		}(code)
	}
	// Force collections while the guests spin. What a busy guest could
	// stall is the stop-the-world pause (it waits until every goroutine
	// reaches a safe point), so that is what is measured; a whole GC cycle
	// also competes with four CPU-bound guests for two cores.
	time.Sleep(200 * time.Millisecond)
	var before goruntime.MemStats
	goruntime.ReadMemStats(&before)
	var worstCycle time.Duration
	for i := 0; i < 20; i++ {
		start := time.Now()
		goruntime.GC()
		if d := time.Since(start); d > worstCycle {
			worstCycle = d
		}
		time.Sleep(20 * time.Millisecond)
	}
	var after goruntime.MemStats
	goruntime.ReadMemStats(&after)
	wg.Wait()
	var worstPause time.Duration
	for n := before.NumGC + 1; n <= after.NumGC && after.NumGC-n < 256; n++ {
		if p := time.Duration(after.PauseNs[(n+255)%256]); p > worstPause {
			worstPause = p
		}
	}
	fmt.Printf("%d GCs with 4 busy guests: longest stop-the-world pause %s, longest cycle %s\n",
		after.NumGC-before.NumGC, worstPause, worstCycle)
	if worstPause > time.Second {
		t.Errorf("a stop-the-world pause took %s while guests were busy", worstPause)
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
