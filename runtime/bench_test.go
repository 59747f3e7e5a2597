package runtime_test

import (
	"context"
	"testing"
	"time"

	"github.com/pybox-dev/pybox/runtime"
)

// BenchmarkRunPrint measures a fresh, isolated interpreter running print(1):
// instantiate, boot, run, finalize.
func BenchmarkRunPrint(b *testing.B) {
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		res, err := engine.Run(ctx, runtime.Request{Code: "print(1)"})
		if err != nil || res.Status != runtime.StatusOK {
			b.Fatalf("%v %v", err, res.Status)
		}
	}
}

// BenchmarkStop measures how fast a runaway guest stops after its timeout:
// raise-ms is interrupt → KeyboardInterrupt caught (the user's code has
// stopped), stop-ms is interrupt → interpreter gone. C loops that never poll
// for signals are killed after KillAfter (here 50 ms); their stop-ms includes
// that wait.
func BenchmarkStop(b *testing.B) {
	cases := []struct {
		name, code string
		killed     bool
	}{
		{"python-loop", "while True:\n    pass\n", false},
		{"python-calls", "def f(x):\n    return x + 1\nwhile True:\n    f(1)\n", false},
		{"sleep", "import time\ntime.sleep(3600)\n", false},
		{"regex", "import re\nre.match(r'(a*)*b', 'a' * 40)\n", false},
		{"c-loop", "sum(range(10**15))\n", true},
		{"c-loop-itertools", "import itertools, collections\ncollections.deque(itertools.count(), maxlen=0)\n", true},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var raise, stop time.Duration
			for i := 0; i < b.N; i++ {
				res, err := engine.Run(context.Background(), runtime.Request{
					Code:   c.code,
					Limits: runtime.Limits{Timeout: 30 * time.Millisecond, KillAfter: 50 * time.Millisecond},
				})
				if err != nil || res.Status != runtime.StatusTimeout || res.Stop == nil {
					b.Fatalf("%v %+v", err, res)
				}
				if res.Stop.Abandoned {
					b.Fatalf("guest could not be stopped: %+v", res.Stop)
				}
				if res.Stop.Killed != c.killed {
					b.Fatalf("killed=%v, want %v", res.Stop.Killed, c.killed)
				}
				raise += res.Stop.RaiseLatency
				stop += res.Stop.Latency
			}
			b.ReportMetric(float64(raise.Microseconds())/1000/float64(b.N), "raise-ms")
			b.ReportMetric(float64(stop.Microseconds())/1000/float64(b.N), "stop-ms")
		})
	}
}
