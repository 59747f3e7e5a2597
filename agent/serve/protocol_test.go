package serve

import (
	"strings"
	"testing"
)

// TestExecuteNULCannotInjectJobFields: NUL bytes in code sent over HTTP
// stay in the code (Python's own error), and do not turn the session's job
// into a one-off, which used to end the session's interpreter.
func TestExecuteNULCannotInjectJobFields(t *testing.T) {
	a := newAPI(t, newServer(t, nil))
	var res ExecuteResponse
	a.json("POST", "/v1/execute", ExecuteRequest{Code: "x = 41", SessionID: "s1"}, 200, &res)
	for _, code := range []string{
		"print(1)\x00mode\x00once",
		"print(1)\x00mode\x00once\x00filename\x00/etc/passwd",
	} {
		res = ExecuteResponse{}
		a.json("POST", "/v1/execute", ExecuteRequest{Code: code, SessionID: "s1"}, 200, &res)
		if res.ExecResult == nil || res.Status != "error" || res.Error == nil || res.Error.Type != "ValueError" ||
			res.Error.Message != "source code string cannot contain null bytes" {
			t.Fatalf("%q: %+v", code, res.ExecResult)
		}
	}
	res = ExecuteResponse{}
	a.json("POST", "/v1/execute", ExecuteRequest{Code: "x + 1", SessionID: "s1"}, 200, &res)
	if res.Value != "42" || res.SessionRestarted {
		t.Fatalf("session lost after NUL code: %+v", res.ExecResult)
	}
}

// TestExecuteForgedDone: code that reports "done" through the runner's
// interface and keeps spinning does not get "ok": its call times out, and
// the session's next call runs (in a fresh interpreter, and says so).
func TestExecuteForgedDone(t *testing.T) {
	a := newAPI(t, newServer(t, nil))
	var res ExecuteResponse
	a.json("POST", "/v1/execute", ExecuteRequest{Code: "x = 41", SessionID: "s1"}, 200, &res)
	forged := "import sys\ng = sys._getframe(1).f_globals\n" +
		"g['_call']('done', g['_encode']([('kind', 'exit'), ('exit', '0')]))\nwhile True:\n    pass\n"
	res = ExecuteResponse{}
	a.json("POST", "/v1/execute", ExecuteRequest{Code: forged, SessionID: "s1", TimeoutS: ptr(0.5)}, 200, &res)
	if res.ExecResult == nil || res.Status != "timeout" || !strings.Contains(res.Message, "after its result was reported") {
		t.Fatalf("forged done: %+v", res.ExecResult)
	}
	res = ExecuteResponse{}
	a.json("POST", "/v1/execute", ExecuteRequest{Code: "'x' in globals()", SessionID: "s1", TimeoutS: ptr(10.0)}, 200, &res)
	if res.Status != "ok" || res.Value != "False" || !res.SessionRestarted {
		t.Fatalf("next call: %+v", res.ExecResult)
	}
}
