package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime/debug"
	"runtime/trace"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pybox-dev/pybox/agent/tools"
	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/runtime"
)

// BenchmarkAnalysisImport measures what a model's first data-analysis call
// costs in `pybox serve`: a fresh interpreter (no session_id) that imports
// numpy, pandas and, if the bundle has it, matplotlib.pyplot, and prints
// pd.__version__, posted to /v1/execute of a server configured as the CLI
// configures it (warm pool of 2, PreloadAnalysis). Calls are made one after
// another, as one agent makes them. It reports:
//
//   - p50-ms, p90-ms: the client's latency per call (HTTP and JSON included);
//   - server-p50-ms: the time the server's handler took (reading the
//     request to writing the answer): p50-ms less this is the loopback
//     HTTP and the client, in the same process;
//   - run-p50-ms: the run's own duration_ms (handing the code to the
//     interpreter until it ended);
//   - minflt-per-call: the process's minor page faults during a call (the
//     interpreter's first touches of its copy-on-write memory among them);
//   - snapshot-MiB: the non-zero bytes of the engine's snapshot, held once
//     and shared copy-on-write by every interpreter; snapshot-size-MiB its
//     whole linear memory;
//   - run-private-MiB: the private memory one interpreter adds after such a
//     run (16 sessions each ran the code; Linux smaps, Private_Clean +
//     Private_Dirty growth / 16), pooled-private-MiB the same for an
//     interpreter waiting for its first job.
//
// Each call is a region named "execute" in an execution trace
// (-test.trace): docs/RATIONALE.md ("A fresh call's latency in serve")
// says how the time of one was taken apart.
//
// preload=none is the same without PreloadAnalysis, for comparison (each
// call then imports the packages: about a second each). Run with
// PYBOX_BUNDLE pointing at a bundle with pandas, e.g.
//
//	PYBOX_BUNDLE=.../runtime.tar.zst go test ./agent/serve -run '^$' -bench 'AnalysisImport/preload=analysis' -benchtime 50x
func BenchmarkAnalysisImport(b *testing.B) {
	for _, preload := range []bool{true, false} {
		name := "preload=analysis"
		if !preload {
			name = "preload=none"
		}
		b.Run(name, func(b *testing.B) { benchAnalysisImport(b, preload) })
	}
}

func benchAnalysisImport(b *testing.B, preload bool) {
	ctx := context.Background()
	eng, err := runtime.NewEngine(ctx, runtime.Config{WarmPool: 2, PreloadAnalysis: preload})
	if err != nil {
		b.Fatal(err)
	}
	defer eng.Close(ctx)
	pre := runtime.AnalysisPreload(eng.Bundle())
	if !slices.Contains(pre, "pandas") {
		b.Skip("the runtime bundle has no pandas (set PYBOX_BUNDLE to a bundle that has)")
	}
	code := "import numpy as np\nimport pandas as pd\n"
	if slices.Contains(pre, "matplotlib.pyplot") {
		code += "import matplotlib.pyplot as plt\n"
	}
	code += "print(pd.__version__)\n"
	if preload {
		b.Logf("preloaded %v; code:\n%s", pre, code)
	}

	s, err := New(Config{Box: tools.Config{
		Engine: eng,
		Policy: fsbridge.Policy{TempDir: b.TempDir()},
		Limits: runtime.Limits{Timeout: 60 * time.Second},
	}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	// The handler's own time, to tell the server's part of a call from
	// the transport's: the calls are one at a time.
	var served time.Duration
	h := s.Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		h.ServeHTTP(w, r)
		served = time.Since(start)
	}))
	defer ts.Close()
	body, _ := json.Marshal(ExecuteRequest{Code: code, Workspace: "bench"})
	call := func() (time.Duration, float64) {
		// A region in an execution trace (-test.trace), to find each
		// call's events.
		defer trace.StartRegion(ctx, "execute").End()
		start := time.Now()
		resp, err := http.Post(ts.URL+"/v1/execute", "application/json", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		var res ExecuteResponse
		err = json.NewDecoder(resp.Body).Decode(&res)
		// Read to the end, so that the client reuses the connection as a
		// client with keep-alive does (a new connection per call is not
		// what is measured here).
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		d := time.Since(start)
		if err != nil || res.ExecResult == nil || res.Status != "ok" || !strings.HasPrefix(res.Stdout, "3.") {
			b.Fatalf("call: %v %+v", err, res.ExecResult)
		}
		return d, res.DurationMS
	}
	call() // the first takes the snapshot (boot and preloads)
	snap := eng.Snapshot()
	if !snap.Taken {
		b.Fatalf("no snapshot: %v", snap.Err)
	}
	lat := make([]time.Duration, 0, b.N)
	var runs, server, faults []float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// A refilled pool, as between a model's calls (it thinks for
		// seconds): restoring an interpreter takes a few milliseconds.
		waitWarm(b, eng)
		f0 := minorFaults()
		d, run := call()
		faults = append(faults, float64(minorFaults()-f0))
		lat = append(lat, d)
		runs = append(runs, run)
		server = append(server, float64(served.Microseconds())/1000)
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*9/10].Microseconds())/1000, "p90-ms")
	b.ReportMetric(median(server), "server-p50-ms")
	b.ReportMetric(median(runs), "run-p50-ms")
	if faults[0] >= 0 {
		b.ReportMetric(median(faults), "minflt-per-call")
	}
	b.ReportMetric(float64(snap.Resident)/(1<<20), "snapshot-MiB")
	b.ReportMetric(float64(snap.Size)/(1<<20), "snapshot-size-MiB")

	pooled, run, ok := privatePerInterpreter(b, eng, code)
	if ok {
		b.ReportMetric(pooled, "pooled-private-MiB")
		b.ReportMetric(run, "run-private-MiB")
	}
}

// median returns the middle value of x (sorting x).
func median(x []float64) float64 {
	slices.Sort(x)
	return x[len(x)/2]
}

// minorFaults returns the process's minor page faults so far (getrusage),
// -1 where it cannot tell.
func minorFaults() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return int64(ru.Minflt)
}

// waitWarm waits, with the benchmark's timer stopped, until eng's warm pool
// is full and the housekeeping of the calls before is done.
func waitWarm(b *testing.B, eng *runtime.Engine) {
	b.StopTimer()
	defer b.StartTimer()
	if err := eng.WaitWarm(context.Background()); err != nil {
		b.Fatal(err)
	}
}

// privatePerInterpreter starts 16 sessions from eng's snapshot and runs code
// in each; it returns the growth of the process's private memory per
// interpreter after they started and after they ran. ok is false where
// /proc/self/smaps_rollup cannot be read.
func privatePerInterpreter(b *testing.B, eng *runtime.Engine, code string) (pooled, run float64, ok bool) {
	const n = 16
	ctx := context.Background()
	private := func() (int64, bool) {
		debug.FreeOSMemory() // a steadier Go heap
		data, err := os.ReadFile("/proc/self/smaps_rollup")
		if err != nil {
			return 0, false
		}
		var kb int64
		for _, line := range strings.Split(string(data), "\n") {
			f := strings.Fields(line)
			if len(f) == 3 && (f[0] == "Private_Clean:" || f[0] == "Private_Dirty:") {
				v, _ := strconv.ParseInt(f[1], 10, 64)
				kb += v
			}
		}
		return kb, true
	}
	before, ok := private()
	if !ok {
		return 0, 0, false
	}
	var sessions []*runtime.Session
	defer func() {
		for _, s := range sessions {
			s.Close()
		}
	}()
	for i := 0; i < n; i++ {
		// A sandbox as a workspace has: matplotlib, when it was not
		// preloaded, writes its cache folder under /tmp.
		sb, err := fsbridge.New(fsbridge.Policy{TempDir: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		defer sb.Close()
		s, err := eng.NewSession(ctx, runtime.SessionConfig{FS: sb.FS()})
		if err != nil {
			b.Fatal(err)
		}
		sessions = append(sessions, s)
	}
	// A trivial call: the session is then surely started and waiting.
	for _, s := range sessions {
		if res, err := s.Exec(ctx, runtime.Request{Code: "1"}); err != nil || res.Status != runtime.StatusOK {
			b.Fatal(err, res)
		}
	}
	started, _ := private()
	for _, s := range sessions {
		if res, err := s.Exec(ctx, runtime.Request{Code: code}); err != nil || res.Status != runtime.StatusOK {
			b.Fatal(err, res)
		}
	}
	after, _ := private()
	mib := func(kb int64) float64 { return float64(kb) / 1024 / n }
	return mib(started - before), mib(after - before), true
}

// BenchmarkSciencePreload measures whether the snapshot that serve, mcp and
// agent start interpreters from should also import scipy, scikit-learn and
// statsmodels (issue 15: "the snapshot preloads only what pays for
// itself"). For each preload set it reports, with a warm pool of 2 and one
// fresh interpreter per call as in serve:
//
//   - boot-s: the engine's first call, which boots CPython and imports the
//     preloads before it takes the snapshot (paid once per engine);
//   - trivial-p50-ms: a fresh run of print(1);
//   - sci-p50-ms: a fresh run that imports scipy.stats, sklearn.ensemble and
//     statsmodels.formula.api and prints their versions (what a modelling
//     answer's first call costs);
//   - snapshot-MiB, snapshot-size-MiB: the snapshot's non-zero bytes and its
//     whole linear memory (held once per engine);
//   - guest-MiB: one interpreter's linear memory after print(1), which counts
//     against its --memory limit;
//   - pooled-private-MiB, run-private-MiB: the private memory one
//     interpreter adds when started and after print(1) (16 sessions).
//
// Run it as:
//
//	go test ./agent/serve -run '^$' -bench SciencePreload -benchtime 5x
func BenchmarkSciencePreload(b *testing.B) {
	science := []string{"scipy.stats", "sklearn.ensemble", "statsmodels.formula.api"}
	sets := []struct {
		name  string
		extra []string
	}{
		{"analysis", nil},
		{"analysis+scipy.stats", science[:1]},
		{"analysis+scipy+sklearn+statsmodels", science},
	}
	for _, set := range sets {
		b.Run("preload="+set.name, func(b *testing.B) {
			ctx := context.Background()
			eng, err := runtime.NewEngine(ctx, runtime.Config{WarmPool: 2, PreloadAnalysis: true, Preload: set.extra})
			if err != nil {
				b.Fatal(err)
			}
			defer eng.Close(ctx)
			for _, m := range science {
				top, _, _ := strings.Cut(m, ".")
				if _, err := fs.Stat(eng.Bundle().Files, "lib/python3.11/site-packages/"+top); err != nil {
					b.Skipf("the runtime bundle has no %s", top)
				}
			}
			run := func(code string) (time.Duration, *runtime.Result) {
				start := time.Now()
				res, err := eng.Run(ctx, runtime.Request{Code: code})
				if err != nil || res.Status != runtime.StatusOK {
					b.Fatalf("run %q: %v %+v", code, err, res)
				}
				return time.Since(start), res
			}
			sci := "import scipy, sklearn, statsmodels\nimport scipy.stats, sklearn.ensemble, statsmodels.formula.api\n" +
				"print(scipy.__version__, sklearn.__version__, statsmodels.__version__)\n"
			boot, _ := run("print(1)")
			if snap := eng.Snapshot(); !snap.Taken {
				b.Fatalf("no snapshot: %v", snap.Err)
			}
			var trivial, sciLat []time.Duration
			var guest int64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				waitWarm(b, eng)
				d, res := run("print(1)")
				trivial = append(trivial, d)
				guest = res.PeakMemory
				waitWarm(b, eng)
				d, _ = run(sci)
				sciLat = append(sciLat, d)
			}
			b.StopTimer()
			slices.Sort(trivial)
			slices.Sort(sciLat)
			snap := eng.Snapshot()
			b.ReportMetric(boot.Seconds(), "boot-s")
			b.ReportMetric(float64(trivial[len(trivial)/2].Microseconds())/1000, "trivial-p50-ms")
			b.ReportMetric(float64(sciLat[len(sciLat)/2].Microseconds())/1000, "sci-p50-ms")
			b.ReportMetric(float64(snap.Resident)/(1<<20), "snapshot-MiB")
			b.ReportMetric(float64(snap.Size)/(1<<20), "snapshot-size-MiB")
			b.ReportMetric(float64(guest)/(1<<20), "guest-MiB")
			if pooled, run, ok := privatePerInterpreter(b, eng, "print(1)"); ok {
				b.ReportMetric(pooled, "pooled-private-MiB")
				b.ReportMetric(run, "run-private-MiB")
			}
		})
	}
}
