package runtime_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pybox-dev/pybox/runtime"
)

func pooledEngine(t testing.TB, size int, preload ...string) *runtime.Engine {
	t.Helper()
	e, err := runtime.NewEngine(context.Background(), runtime.Config{WarmPool: size, Preload: preload})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(context.Background()) })
	return e
}

func TestWarmPoolRunsAreFreshAndIsolated(t *testing.T) {
	e := pooledEngine(t, 2, "json")
	time.Sleep(300 * time.Millisecond) // let the pool fill
	for i := 0; i < 4; i++ {
		res, err := e.Run(context.Background(), runtime.Request{
			Code: fmt.Sprintf("import sys\nprint('json' in sys.modules, 'json' in globals(), hasattr(sys, 'mark'))\nsys.mark = %d", i),
		})
		if err != nil {
			t.Fatal(err)
		}
		// Preloaded into sys.modules, not into the user's namespace; and
		// nothing from the previous run (sys.mark) is visible.
		if res.Status != runtime.StatusOK || string(res.Stdout) != "True False False\n" {
			t.Fatalf("run %d: %s %q %s", i, res.Status, res.Stdout, res.Stderr)
		}
	}
	// Limits still apply to a pooled interpreter.
	res, err := e.Run(context.Background(), runtime.Request{Code: "x = bytearray(300 << 20)", Limits: runtime.Limits{Memory: 128 << 20}})
	if err != nil || res.Exception == nil || res.Exception.Type != "MemoryError" {
		t.Fatalf("memory limit on a pooled interpreter: %v %+v", err, res)
	}
}

// BenchmarkFreshRun measures isolated one-off runs of print(1): without a
// pool every run boots an interpreter; with one it was booted ahead. It
// reports p50/p99 latency of single runs, and runs/s with 2 goroutines.
func BenchmarkFreshRun(b *testing.B) {
	for _, pool := range []int{0, 4} {
		b.Run(fmt.Sprintf("pool=%d", pool), func(b *testing.B) {
			e := pooledEngine(b, pool)
			ctx := context.Background()
			lat := make([]time.Duration, 0, b.N)
			for i := 0; i < b.N; i++ {
				if pool > 0 {
					time.Sleep(60 * time.Millisecond) // latency of a run with the pool ready, not of a drained pool
				}
				start := time.Now()
				res, err := e.Run(ctx, runtime.Request{Code: "print(1)"})
				if err != nil || res.Status != runtime.StatusOK {
					b.Fatal(err, res)
				}
				lat = append(lat, time.Since(start))
			}
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")

			// Throughput: 2 goroutines (one per core) for a fixed time.
			var n atomic.Int64
			deadline := time.Now().Add(2 * time.Second)
			var wg sync.WaitGroup
			for g := 0; g < 2; g++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for time.Now().Before(deadline) {
						if res, err := e.Run(ctx, runtime.Request{Code: "print(1)"}); err == nil && res.Status == runtime.StatusOK {
							n.Add(1)
						}
					}
				}()
			}
			wg.Wait()
			b.ReportMetric(float64(n.Load())/2, "runs/s")
		})
	}
}

// BenchmarkSessionRoundTrip measures one call of trivial code in a live
// session, and reports the guest memory of an idle session.
func BenchmarkSessionRoundTrip(b *testing.B) {
	s, err := engine.NewSession(context.Background(), runtime.SessionConfig{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	var peak int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := s.Exec(ctx, runtime.Request{Code: "1"})
		if err != nil || res.Value != "1" {
			b.Fatal(err, res)
		}
		peak = res.PeakMemory
	}
	b.ReportMetric(float64(peak)/(1<<20), "guest-MiB")
}
