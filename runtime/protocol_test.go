package runtime_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pybox-dev/pybox/runtime"
)

// forge is Python that reaches the runner's host interface the way an
// attacker would (the runner's frame is the caller of the user's module
// frame) and defines call(op, payload) and ok, a well-formed outcome saying
// "exit 0".
const forge = `import sys
_g = sys._getframe(1).f_globals
call, _enc = _g["_call"], _g["_encode"]
ok = _enc([("kind", "exit"), ("exit", "0")])
del _g
`

// noGoInternals fails if text shows Go internals (a recovered panic).
func noGoInternals(t *testing.T, what, text string) {
	t.Helper()
	for _, bad := range []string{"goroutine ", "panic", "closed channel", ".go:", "recovered by wazero"} {
		if strings.Contains(text, bad) {
			t.Errorf("%s shows Go internals (%q): %s", what, bad, text)
		}
	}
}

// TestForgedDoneThenSpin: guest code reports "done" itself and keeps
// running. The call must not return "ok" while the guest burns CPU: it is
// on the call's clock until the interpreter is back waiting for a job, so it
// times out, is killed, and the session says so and starts afresh.
func TestForgedDoneThenSpin(t *testing.T) {
	for _, tc := range []struct {
		name, code string
		killed     bool // else the sleep is cut short, the code ends and reports again
	}{
		{"spin", forge + "call('done', ok)\nwhile True:\n    pass\n", true},
		{"sleep", forge + "import time\ncall('done', ok)\ntime.sleep(3600)\n", false},
		{"catch interrupts", forge + "call('done', ok)\nwhile True:\n    try:\n        while True:\n            pass\n    except KeyboardInterrupt:\n        pass\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSession(t)
			sexec(t, s, "state = 1", runtime.Limits{})
			lim := runtime.Limits{Timeout: 300 * time.Millisecond, KillAfter: 200 * time.Millisecond}
			res := sexec(t, s, tc.code, lim)
			if res.Status != runtime.StatusTimeout || res.Stop == nil || res.Stop.Killed != tc.killed || !res.SessionLost {
				t.Fatalf("status %s stop %+v lost %v message %q stderr %s", res.Status, res.Stop, res.SessionLost, res.Message, res.Stderr)
			}
			why := "after its result was reported" // killed
			if !tc.killed {
				why = "done was reported twice"
			}
			if !strings.Contains(res.Message, why) || !strings.Contains(res.Message, "internal runner interface") {
				t.Errorf("message does not say what happened (%q): %q", why, res.Message)
			}
			noGoInternals(t, "message", res.Message+string(res.Stderr))
			res = sexec(t, s, "'state' in globals()", runtime.Limits{Timeout: 10 * time.Second})
			if res.Status != runtime.StatusOK || !res.SessionRestarted || res.Value != "False" || !strings.Contains(res.Message, "restarted with a fresh state") {
				t.Fatalf("next call: status %s restarted %v value %q message %q", res.Status, res.SessionRestarted, res.Value, res.Message)
			}
		})
	}
}

// TestForgedDoneOneOff: the same against a one-off run.
func TestForgedDoneOneOff(t *testing.T) {
	res := run(t, runtime.Request{
		Code:   forge + "call('done', ok)\nwhile True:\n    pass\n",
		Limits: runtime.Limits{Timeout: 300 * time.Millisecond, KillAfter: 200 * time.Millisecond},
	})
	if res.Status != runtime.StatusTimeout || res.Stop == nil || !res.Stop.Killed {
		t.Fatalf("status %s stop %+v message %q", res.Status, res.Stop, res.Message)
	}
}

// TestProtocolViolations: host calls out of place end the instance with a
// clear status (never a Go panic), whatever the guest reported, and the
// session's next call runs in a fresh interpreter.
func TestProtocolViolations(t *testing.T) {
	tests := []struct {
		name, code, why string
	}{
		{"done twice", "call('done', ok)\ncall('done', ok)", "done was reported twice"},
		{"done then finish", "call('done', ok)\nprint('more')", "done was reported twice"},
		{"job before done", "call('job', b'')", "before the running one was reported"},
		{"unknown op", "call('bogus', b'')", `unknown operation "bogus"`},
		{"signals again", "call('signals', bytes(20))", "interrupt flags were reported again"},
		{"fds after set-up", "call('fds', b'3')", "descriptors were reported after set-up"},
		{"malformed done", "call('done', b'kind\\x00exit')", "malformed outcome"},
		{"unknown kind", "call('done', _enc([('kind', 'ok')]))", "malformed outcome"},
		{"through _imp", "import _imp, importlib.machinery as m\np = _imp.create_builtin(m.ModuleSpec('_pybox', None))\np.call('done', ok)\np.call('done', ok)", "done was reported twice"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSession(t)
			sexec(t, s, "state = 1", runtime.Limits{})
			res := sexec(t, s, forge+tc.code, runtime.Limits{Timeout: 10 * time.Second})
			if res.Status != runtime.StatusCrashed || !res.SessionLost || res.Exception != nil || res.Value != "" {
				t.Fatalf("status %s lost %v exception %+v message %q stderr %s", res.Status, res.SessionLost, res.Exception, res.Message, res.Stderr)
			}
			if !strings.Contains(res.Message, tc.why) || !strings.Contains(res.Message, "internal runner interface") {
				t.Errorf("message %q does not say %q", res.Message, tc.why)
			}
			noGoInternals(t, "result", res.Message+string(res.Stderr))
			res = sexec(t, s, "'state' in globals()", runtime.Limits{Timeout: 10 * time.Second})
			if res.Status != runtime.StatusOK || !res.SessionRestarted || res.Value != "False" {
				t.Fatalf("next call: status %s restarted %v value %q message %q", res.Status, res.SessionRestarted, res.Value, res.Message)
			}
		})
	}
	// One-off runs too.
	res := run(t, runtime.Request{Code: forge + "call('done', ok)\ncall('done', ok)"})
	if res.Status != runtime.StatusCrashed || !strings.Contains(res.Message, "done was reported twice") {
		t.Fatalf("one-off: status %s message %q", res.Status, res.Message)
	}
	noGoInternals(t, "one-off result", res.Message+string(res.Stderr))
}

// TestForgedDoneThenJob: guest code that reports and then waits for the next
// job itself follows the protocol: it can fake its own call's result (and
// swallow the next call's code), but not run past any call's deadline.
func TestForgedDoneThenJob(t *testing.T) {
	s := newSession(t)
	res := sexec(t, s, forge+"call('done', ok)\njob = call('job', b'')\nwhile True:\n    pass\n", runtime.Limits{Timeout: 10 * time.Second})
	if res.Status != runtime.StatusOK {
		t.Fatalf("forged call: status %s message %q", res.Status, res.Message)
	}
	// The guest is parked in the forged "job" call; the next call's code
	// goes to it, it spins, and the deadline holds: the interrupt stops the
	// spin, and the runner reports it for the call that is running.
	res = sexec(t, s, "1", runtime.Limits{Timeout: 300 * time.Millisecond, KillAfter: 200 * time.Millisecond})
	if res.Status != runtime.StatusTimeout || res.Exception == nil || res.Exception.Type != "KeyboardInterrupt" {
		t.Fatalf("swallowed call: status %s exception %+v message %q", res.Status, res.Exception, res.Message)
	}
	res = sexec(t, s, "2", runtime.Limits{Timeout: 10 * time.Second})
	if res.Status != runtime.StatusOK || res.Value != "2" {
		t.Fatalf("after: status %s value %q restarted %v", res.Status, res.Value, res.SessionRestarted)
	}
}

// TestPyboxNotImportable: user code cannot import the host interface.
func TestPyboxNotImportable(t *testing.T) {
	for _, code := range []string{
		"import _pybox",
		"import importlib; importlib.import_module('_pybox')",
		"import sys; sys.modules['_pybox']",
	} {
		res := run(t, runtime.Request{Code: code})
		if res.Status != runtime.StatusError {
			t.Errorf("%s: status %s, want error", code, res.Status)
			continue
		}
		if code[len(code)-1] == ']' {
			if res.Exception.Type != "KeyError" {
				t.Errorf("%s: %s", code, res.Exception.Type)
			}
			continue
		}
		if res.Exception.Type != "ImportError" || !strings.Contains(res.Exception.Message, "not available to user code") {
			t.Errorf("%s: %s: %s", code, res.Exception.Type, res.Exception.Message)
		}
		if strings.Contains(res.Exception.Traceback, "<pybox-runner>") {
			t.Errorf("%s: traceback shows the runner: %s", code, res.Exception.Traceback)
		}
	}
}

// TestNULCannotInjectJobFields: NUL bytes in any field of a job stay in
// that field. Code with NUL gets Python's own error; a session is not turned
// into a one-off (which would end its interpreter).
func TestNULCannotInjectJobFields(t *testing.T) {
	s := newSession(t)
	sexec(t, s, "state = 1", runtime.Limits{})
	for _, code := range []string{
		"print(1)\x00mode\x00once",
		"print(1)\x00mode\x00once\x00",
		"x\x00filename\x00/etc/passwd\x00argv\x00a",
	} {
		res := sexec(t, s, code, runtime.Limits{Timeout: 10 * time.Second})
		if res.Status != runtime.StatusError || res.Exception == nil || res.Exception.Type != "ValueError" ||
			res.Exception.Message != "source code string cannot contain null bytes" {
			t.Fatalf("%q: status %s exception %+v stderr %s", code, res.Status, res.Exception, res.Stderr)
		}
		if res.SessionLost || res.SessionRestarted {
			t.Fatalf("%q: session lost %v restarted %v", code, res.SessionLost, res.SessionRestarted)
		}
	}
	res, err := s.Exec(context.Background(), runtime.Request{
		Code:     "import sys; (sys.argv, __file__, state)",
		Filename: "f\x00mode\x00once",
		Args:     []string{"a\x00mode\x00once", "\x00", ""},
		Limits:   runtime.Limits{Timeout: 10 * time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `(['f\x00mode\x00once', 'a\x00mode\x00once', '\x00', ''], 'f\x00mode\x00once', 1)`
	if res.Status != runtime.StatusOK || res.Value != want || res.SessionLost {
		t.Fatalf("status %s value %s lost %v stderr %s; want %s", res.Status, res.Value, res.SessionLost, res.Stderr, want)
	}
	if res := sexec(t, s, "state + 1", runtime.Limits{}); res.Value != "2" || res.SessionRestarted {
		t.Fatalf("session state lost: %q %v", res.Value, res.SessionRestarted)
	}
}

// TestQueuedCallDeadline: a call queued behind a long one on the same
// session times out at its own deadline, without running, and leaves the
// session alone.
func TestQueuedCallDeadline(t *testing.T) {
	s := newSession(t)
	started := make(chan struct{})
	var once bool
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type outcome struct {
		res *runtime.Result
		err error
	}
	first := make(chan outcome, 1)
	go func() {
		res, err := s.Exec(ctx, runtime.Request{
			Code: "import time\nprint('started', flush=True)\ntime.sleep(3600)",
			Stdout: writerFunc(func(p []byte) (int, error) {
				if !once {
					once = true
					close(started)
				}
				return len(p), nil
			}),
			Limits: runtime.Limits{Timeout: time.Hour},
		})
		first <- outcome{res, err}
	}()
	<-started
	res := sexec(t, s, "queued = True", runtime.Limits{Timeout: 200 * time.Millisecond})
	if res.Status != runtime.StatusTimeout || res.Stop == nil || res.Stop.Reason != "timeout" || res.SessionLost ||
		!strings.Contains(res.Message, "waiting for this session's previous call") || !strings.Contains(res.Message, "did not run") {
		t.Fatalf("queued call: status %s stop %+v lost %v message %q", res.Status, res.Stop, res.SessionLost, res.Message)
	}
	cancel()
	o := <-first
	if o.err != nil || o.res.Status != runtime.StatusCanceled || o.res.SessionLost {
		t.Fatalf("long call: %v %+v", o.err, o.res)
	}
	if res := sexec(t, s, "'queued' in globals()", runtime.Limits{}); res.Value != "False" {
		t.Fatalf("the timed-out queued call ran: %q", res.Value)
	}
}

// TestDeepRecursionTraceback: an uncaught RecursionError a hundred thousand
// frames deep is formatted from the frames that are shown (the innermost
// 1000, repeats collapsed), not from every frame; the text is what the
// interpreter's own printer would show.
func TestDeepRecursionTraceback(t *testing.T) {
	tests := []struct {
		name, code string
		maxLines   int
		has        []string
	}{
		{
			name:     "direct",
			code:     "import sys\nsys.setrecursionlimit(10**6)\ndef f(n):\n    return f(n + 1) if n < 100000 else 1 / 0\nf(0)\n",
			maxLines: 20,
			has:      []string{"earlier entries not shown", "[99002 earlier entries not shown]", "[Previous line repeated 997 more times]", "ZeroDivisionError"},
		},
		{
			name:     "mutual",
			code:     "import sys\nsys.setrecursionlimit(10**6)\ndef f(n):\n    return g(n + 1)\ndef g(n):\n    return f(n + 1) if n < 100000 else 1 / 0\nf(0)\n",
			maxLines: 3100,
			has:      []string{"earlier entries not shown", "ZeroDivisionError"},
		},
		{
			name:     "chained",
			code:     "import sys\nsys.setrecursionlimit(10**6)\ndef f(n):\n    return f(n + 1) if n < 100000 else 1 / 0\ntry:\n    f(0)\nexcept ZeroDivisionError as e:\n    saved = e\n    raise ValueError('wrapped') from e\n",
			maxLines: 40,
			has:      []string{"[Previous line repeated", "The above exception was the direct cause", "ValueError: wrapped"},
		},
		{
			name:     "tracebacklimit",
			code:     "import sys\nsys.tracebacklimit = 5\ndef f(n):\n    return f(n + 1) if n < 50 else 1 / 0\nf(0)\n",
			maxLines: 20,
			has:      []string{"[47 earlier entries not shown]", "[Previous line repeated 2 more times]"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, runtime.Request{Code: tc.code, Limits: runtime.Limits{Timeout: 2 * time.Minute}})
			if res.Status != runtime.StatusError || res.Exception == nil {
				t.Fatalf("status %s message %q stderr %s", res.Status, res.Message, tail(res.Stderr))
			}
			tb := res.Exception.Traceback
			if n := strings.Count(tb, "\n"); n > tc.maxLines {
				t.Errorf("traceback has %d lines, want at most %d:\n%s", n, tc.maxLines, lastLines(tb, 20))
			}
			for _, h := range tc.has {
				if !strings.Contains(tb, h) {
					t.Errorf("traceback lacks %q:\n%s", h, tb)
				}
			}
		})
	}
}

// TestTracebackTrimIsTemporary: formatting trims chained exceptions'
// tracebacks only while it formats; user code that kept the exception sees
// it whole in the next call.
func TestTracebackTrimIsTemporary(t *testing.T) {
	s := newSession(t)
	res := sexec(t, s, "def f(n):\n    return f(n + 1) if n < 500 else 1 / 0\ntry:\n    f(0)\nexcept ZeroDivisionError as e:\n    saved = e\n    raise ValueError('wrapped') from e\n", runtime.Limits{})
	if res.Status != runtime.StatusError || !strings.Contains(res.Exception.Traceback, "[Previous line repeated") {
		t.Fatalf("status %s traceback %s", res.Status, res.Exception.Traceback)
	}
	res = sexec(t, s, "n, tb = 0, saved.__traceback__\nwhile tb:\n    n, tb = n + 1, tb.tb_next\nn", runtime.Limits{})
	if res.Value != "502" {
		t.Fatalf("saved exception's traceback has %s entries, want 502", res.Value)
	}
}

// TestRefusalsExplainThemselves: sockets, asyncio's network and process
// functions, multiprocessing's workers and threads are refused with a message that names the operation
// and the reason; importing the modules still works.
func TestRefusalsExplainThemselves(t *testing.T) {
	tests := []struct {
		name, code, excType string
		has                 []string
	}{
		{"socket", "import socket\nsocket.socket()", "PermissionError", []string{"network denied: cannot create a socket", "no sockets"}},
		{"socket with args", "import socket\nsocket.socket(socket.AF_INET, socket.SOCK_STREAM)", "PermissionError", []string{"network denied: cannot create a socket"}},
		{"socketpair", "import socket\nsocket.socketpair()", "PermissionError", []string{"network denied: cannot create a socket pair"}},
		{"open_connection", "import asyncio\nasyncio.run(asyncio.open_connection('example.com', 80))", "PermissionError", []string{"network denied: cannot connect to ('example.com', 80)"}},
		{"open_connection in a coroutine", "import asyncio\nasync def main():\n    await asyncio.open_connection(host='example.com', port=443)\nasyncio.run(main())", "PermissionError", []string{"network denied: cannot connect to ('example.com', 443)", "no sockets"}},
		{"start_server", "import asyncio\nasyncio.start_server(None, '0.0.0.0', 8080)", "PermissionError", []string{"network denied: cannot serve on ('0.0.0.0', 8080)"}},
		{"subprocess_exec", "import asyncio\nasyncio.run(asyncio.create_subprocess_exec('ls', '-l'))", "PermissionError", []string{"process denied: cannot run 'ls'", "no processes"}},
		{"subprocess_shell", "import asyncio.subprocess as s\ns.create_subprocess_shell('ls')", "PermissionError", []string{"process denied: cannot run 'ls'"}},
		{"multiprocessing.Pool", "import multiprocessing\nmultiprocessing.Pool(2)", "PermissionError", []string{"process denied: cannot start a process pool (multiprocessing.Pool)", "no processes", "n_jobs=1"}},
		{"forkserver Pool", "import multiprocessing\nmultiprocessing.set_start_method('forkserver', force=True)\nmultiprocessing.get_context('forkserver').Pool(2)", "PermissionError", []string{"process denied: cannot start a process pool"}},
		{"multiprocessing.Process", "import multiprocessing\nmultiprocessing.Process(target=print, name='w').start()", "PermissionError", []string{"process denied: cannot start process 'w'"}},
		{"multiprocessing.Manager", "import multiprocessing\nmultiprocessing.Manager()", "PermissionError", []string{"process denied: cannot start a manager process"}},
		{"ProcessPoolExecutor", "import concurrent.futures as cf\nwith cf.ProcessPoolExecutor(2) as ex:\n    list(ex.map(abs, [1]))", "PermissionError", []string{"process denied: cannot start a process pool (concurrent.futures.ProcessPoolExecutor)", "n_jobs=1", "ThreadPoolExecutor runs each call in turn"}},
		{"from concurrent.futures import ProcessPoolExecutor", "from concurrent.futures import ProcessPoolExecutor\nProcessPoolExecutor()", "PermissionError", []string{"process denied: cannot start a process pool"}},
		{"scipy workers", "from scipy.optimize import differential_evolution\ndifferential_evolution(lambda x: (x**2).sum(), [(-1, 1)], workers=2, updating='deferred', maxiter=1)", "PermissionError", []string{"process denied: cannot start a process pool", "workers=1"}},
		// (asyncio signal handlers work: asyncio_basics.py.)
		{"thread", "import threading\nthreading.Thread(target=print, name='worker').start()", "RuntimeError", []string{"thread denied: cannot start thread 'worker'", "no threads", "call the function directly"}},
		{"_thread", "import _thread\n_thread.start_new_thread(print, ())", "RuntimeError", []string{"thread denied: cannot start a thread running <built-in function print>"}},
		// (A ThreadPoolExecutor runs its calls at once: asyncio_basics.py.)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, runtime.Request{Code: tc.code, Limits: runtime.Limits{Timeout: time.Minute}})
			if res.Status != runtime.StatusError || res.Exception == nil {
				t.Fatalf("status %s stderr %s", res.Status, res.Stderr)
			}
			if tc.excType != "" && res.Exception.Type != tc.excType {
				t.Errorf("exception %s: %s, want %s", res.Exception.Type, res.Exception.Message, tc.excType)
			}
			for _, h := range tc.has {
				if !strings.Contains(res.Exception.Message, h) {
					t.Errorf("message %q lacks %q", res.Exception.Message, h)
				}
			}
			if strings.Contains(string(res.Stderr), "Exception ignored") {
				t.Errorf("noise on stderr: %s", res.Stderr)
			}
		})
	}
	res := run(t, runtime.Request{Code: "import asyncio, threading, socket, subprocess, concurrent.futures, asyncio.subprocess\n" +
		"threading.current_thread().name, threading.Lock().acquire(), asyncio.iscoroutinefunction(asyncio.sleep)"})
	if res.Status != runtime.StatusOK || res.Value != "('MainThread', True, True)" {
		t.Fatalf("imports: status %s value %q stderr %s", res.Status, res.Value, res.Stderr)
	}
	// CPython for WASI has no native thread ids; the runner gives the one
	// thread the process id, as Linux does for a main thread.
	res = run(t, runtime.Request{Code: "import os, threading, _thread\n" +
		"from threading import *\n" +
		"n = threading.get_native_id()\n" +
		"(n == os.getpid() == _thread.get_native_id() == threading.main_thread().native_id == get_native_id(), type(n).__name__)"})
	if res.Status != runtime.StatusOK || res.Value != "(True, 'int')" {
		t.Errorf("native thread id: status %s value %q exception %+v stderr %s", res.Status, res.Value, res.Exception, res.Stderr)
	}
}
