package runtime_test

import (
	"bytes"
	"context"
	"os"
	goruntime "runtime"
	"runtime/metrics"
	"runtime/pprof"
	"sync"
	"testing"
	"time"

	"github.com/pybox-dev/pybox/packages"
	"github.com/pybox-dev/pybox/runtime"
)

// BenchmarkNewEngineCold is the first run's compile: python.wasm compiled
// into an empty compilation cache (a new folder each iteration), written to
// it, and the engine closed. It reports the peak of the Go heap's live
// objects during the iteration (sampled every 10 ms) as peak-heap-MB. With
// PYBOX_HEAP_PEAK_PROFILE=FILE it writes the heap profile taken closest to
// that peak (a profile reflects the last finished GC, so it is close, not
// exact).
func BenchmarkNewEngineCold(b *testing.B) {
	ctx := context.Background()
	bundle, err := packages.Default()
	if err != nil {
		b.Fatal(err)
	}
	profPath := os.Getenv("PYBOX_HEAP_PEAK_PROFILE")
	var peak uint64
	var peakProf bytes.Buffer
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dir := b.TempDir()
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
			var last uint32
			tick := time.NewTicker(10 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
				}
				metrics.Read(sample)
				v := sample[0].Value.Uint64()
				if v > peak {
					peak = v
					// Profile again only after another GC finished.
					var ms goruntime.MemStats
					if profPath != "" {
						goruntime.ReadMemStats(&ms)
						if ms.NumGC != last {
							last = ms.NumGC
							peakProf.Reset()
							_ = pprof.Lookup("heap").WriteTo(&peakProf, 0)
						}
					}
				}
			}
		}()
		e, err := runtime.NewEngine(ctx, runtime.Config{Bundle: bundle, CacheDir: dir, NoSnapshot: true})
		close(stop)
		wg.Wait()
		if err != nil {
			b.Fatal(err)
		}
		e.Close(ctx)
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	if profPath != "" && peakProf.Len() > 0 {
		if err := os.WriteFile(profPath, peakProf.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}
