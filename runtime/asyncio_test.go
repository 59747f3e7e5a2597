package runtime_test

import (
	"strings"
	"testing"
	"time"

	"github.com/pybox-dev/pybox/runtime"
)

// A run stuck in an await (asyncio's loop sleeping in the host until its
// next timer) is interrupted by the time limit like any code, and the
// session's interpreter goes on: the next asyncio.run in it works.
func TestAsyncioInterruptedInSession(t *testing.T) {
	s := newSession(t)
	res := sexec(t, s, "import asyncio\nasync def forever():\n    await asyncio.sleep(3600)\nasyncio.run(forever())", runtime.Limits{Timeout: 500 * time.Millisecond})
	if res.Status != runtime.StatusTimeout {
		t.Fatalf("await asyncio.sleep(3600) under a 500ms limit: %s %s", res.Status, res.Stderr)
	}
	if res.SessionRestarted || res.SessionLost {
		t.Fatalf("the session's interpreter did not survive the interrupt: %+v", res)
	}
	res = sexec(t, s, "async def two():\n    await asyncio.sleep(0.01)\n    return 2\nasyncio.run(two())", runtime.Limits{Timeout: 10 * time.Second})
	if res.Status != runtime.StatusOK || res.Value != "2" {
		t.Fatalf("asyncio.run after the interrupt: %s %q %s", res.Status, res.Value, res.Stderr)
	}
	// The loop's own resources were released: no warning about an unclosed
	// loop or a self-pipe.
	if strings.Contains(string(res.Stderr), "Warning") {
		t.Errorf("stderr: %s", res.Stderr)
	}
}
