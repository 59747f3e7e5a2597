package runtime_test

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
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
	if err := e.WaitWarm(context.Background()); err != nil { // let the pool fill
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		res, err := e.Run(context.Background(), runtime.Request{
			Code: fmt.Sprintf("print(sorted(k for k in globals() if not k.startswith('__')))\nimport sys\nprint('json' in sys.modules, 'json' in globals(), hasattr(sys, 'mark'))\nsys.mark = %d", i),
		})
		if err != nil {
			t.Fatal(err)
		}
		// Preloaded into sys.modules, not into the user's namespace; and
		// nothing from the previous run (sys.mark) or from the warm-up job
		// the interpreter ran in the pool (its names, "_") is visible.
		if res.Status != runtime.StatusOK || string(res.Stdout) != "[]\nTrue False False\n" {
			t.Fatalf("run %d: %s %q %s", i, res.Status, res.Stdout, res.Stderr)
		}
	}
	// The pool refills after the runs took from it.
	if err := e.WaitWarm(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Limits still apply to a pooled interpreter.
	res, err := e.Run(context.Background(), runtime.Request{Code: "x = bytearray(300 << 20)", Limits: runtime.Limits{Memory: 128 << 20}})
	if err != nil || res.Exception == nil || res.Exception.Type != "MemoryError" {
		t.Fatalf("memory limit on a pooled interpreter: %v %+v", err, res)
	}
}

// BenchmarkFreshRun measures isolated one-off runs of print(1), side by
// side: interpreters booted from scratch (NoSnapshot) or restored from the
// engine's snapshot; without a pool, or with 4 started ahead; with nothing
// preloaded, or numpy and PIL.Image imported before the run. It reports
// p50/p99 latency of single runs, and runs/s sustained by 2 goroutines
// (run with GOMAXPROCS=2 for the 2-core figure).
func BenchmarkFreshRun(b *testing.B) {
	for _, start := range []string{"boot", "snapshot"} {
		for _, preload := range [][]string{nil, {"numpy", "PIL.Image"}} {
			for _, pool := range []int{0, 4} {
				name := fmt.Sprintf("start=%s/preload=%s/pool=%d", start, preloadName(preload), pool)
				b.Run(name, func(b *testing.B) {
					e, err := runtime.NewEngine(context.Background(), runtime.Config{WarmPool: pool, Preload: preload, NoSnapshot: start == "boot"})
					if err != nil {
						b.Fatal(err)
					}
					defer e.Close(context.Background())
					benchFresh(b, e, pool, len(preload) > 0)
				})
			}
		}
	}
}

func preloadName(p []string) string {
	if len(p) == 0 {
		return "none"
	}
	return strings.Join(p, "+")
}

func benchFresh(b *testing.B, e *runtime.Engine, pool int, numpy bool) {
	ctx := context.Background()
	code := "print(1)"
	if numpy {
		code = "import numpy, PIL.Image\nprint(1)"
	}
	run := func() {
		res, err := e.Run(ctx, runtime.Request{Code: code})
		if err != nil || res.Status != runtime.StatusOK {
			b.Fatal(err, res)
		}
	}
	run() // the engine's first run takes the snapshot
	// Let the pool fill: the latency of a run with the pool ready, not of
	// a drained pool.
	wait := func() {
		if err := e.WaitWarm(ctx); err != nil {
			b.Fatal(err)
		}
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		wait()
		b.StartTimer()
		start := time.Now()
		run()
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")

	// Throughput: 2 goroutines for a fixed time.
	var n atomic.Int64
	d := 2 * time.Second
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				if res, err := e.Run(ctx, runtime.Request{Code: code}); err == nil && res.Status == runtime.StatusOK {
					n.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	b.ReportMetric(float64(n.Load())/d.Seconds(), "runs/s")
}

// BenchmarkIdleMemory reports what an idle interpreter costs the host: 16
// sessions are started (each is what a pooled interpreter is: started and
// waiting for its first job), then each runs one trivial call. rss-MiB is
// the growth of the process's resident set per interpreter, private-MiB the
// growth of its private (unshared) memory: a restored interpreter shares
// its untouched snapshot pages with every other. guest-MiB is the size of
// one interpreter's linear memory; snapshot-MiB what the engine's snapshot
// holds (once). Linux only (/proc/self/smaps_rollup). It measures once
// whatever b.N is: run it with -benchtime=1x.
func BenchmarkIdleMemory(b *testing.B) {
	if _, err := smapsRollup(); err != nil {
		b.Skip(err)
	}
	for _, start := range []string{"boot", "snapshot"} {
		for _, preload := range [][]string{nil, {"numpy", "PIL.Image"}} {
			b.Run(fmt.Sprintf("start=%s/preload=%s", start, preloadName(preload)), func(b *testing.B) {
				e, err := runtime.NewEngine(context.Background(), runtime.Config{Preload: preload, NoSnapshot: start == "boot"})
				if err != nil {
					b.Fatal(err)
				}
				defer e.Close(context.Background())
				ctx := context.Background()
				for i := 0; i < b.N; i++ {
					warm, err := e.NewSession(ctx, runtime.SessionConfig{}) // takes the snapshot
					if err != nil {
						b.Fatal(err)
					}
					warm.Close()
					const n = 16
					debug.FreeOSMemory() // a steadier Go heap
					before, _ := smapsRollup()
					var sessions []*runtime.Session
					for j := 0; j < n; j++ {
						s, err := e.NewSession(ctx, runtime.SessionConfig{})
						if err != nil {
							b.Fatal(err)
						}
						sessions = append(sessions, s)
					}
					time.Sleep(50 * time.Millisecond) // let them reach their first job call
					debug.FreeOSMemory()              // a steadier Go heap
					started, _ := smapsRollup()
					var guest int64
					for _, s := range sessions {
						res, err := s.Exec(ctx, runtime.Request{Code: "1"})
						if err != nil || res.Value != "1" {
							b.Fatal(err, res)
						}
						guest = res.PeakMemory
					}
					debug.FreeOSMemory() // a steadier Go heap
					idle, _ := smapsRollup()
					for _, s := range sessions {
						s.Close()
					}
					mib := func(kb int64) float64 { return float64(kb) / 1024 / n }
					b.ReportMetric(mib(started["Rss"]-before["Rss"]), "pooled-rss-MiB")
					b.ReportMetric(mib(started["Private_Dirty"]+started["Private_Clean"]-before["Private_Dirty"]-before["Private_Clean"]), "pooled-private-MiB")
					b.ReportMetric(mib(idle["Rss"]-before["Rss"]), "session-rss-MiB")
					b.ReportMetric(mib(idle["Private_Dirty"]+idle["Private_Clean"]-before["Private_Dirty"]-before["Private_Clean"]), "session-private-MiB")
					b.ReportMetric(float64(guest)/(1<<20), "guest-MiB")
					// Held once per engine, shared by all its interpreters.
					b.ReportMetric(float64(e.Snapshot().Resident)/(1<<20), "snapshot-MiB")
				}
			})
		}
	}
}

// smapsRollup reads the process's memory totals in kB.
func smapsRollup() (map[string]int64, error) {
	data, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		return nil, err
	}
	m := map[string]int64{}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 3 && f[2] == "kB" {
			v, _ := strconv.ParseInt(f[1], 10, 64)
			m[strings.TrimSuffix(f[0], ":")] = v
		}
	}
	return m, nil
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
