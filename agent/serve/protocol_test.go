package serve

import (
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
