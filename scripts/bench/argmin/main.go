// Command argmin times the nearest-centre step of scikit-learn's KMeans
// (argmin.c, built for wasm32-wasi by argmin.sh) under pybox's wazero fork:
// the `if (d < min) { min = d; label = j; }` form, whose f64 select the
// compiler may lower to a branch (mispredicted about half the time on random
// distances) or to MINSD, and a form with f64.min. Each call is timed in
// thread CPU time; rounds alternate the two.
//
//	go run ./scripts/bench/argmin -wasm argmin.wasm
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"sort"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"golang.org/x/sys/unix"
)

func main() {
	path := flag.String("wasm", "", "argmin.wasm")
	rounds := flag.Int("rounds", 7, "rounds")
	reps := flag.Int("reps", 20000, "chunks (256 samples x 8 centres) per call")
	flag.Parse()
	if *path == "" {
		flag.Usage()
		os.Exit(2)
	}
	runtime.LockOSThread()
	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler())
	defer r.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, r)
	bin, err := os.ReadFile(*path)
	if err != nil {
		log.Fatal(err)
	}
	mod, err := r.InstantiateWithConfig(ctx, bin, wazero.NewModuleConfig().WithStartFunctions("_initialize"))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := mod.ExportedFunction("setup").Call(ctx, 1); err != nil {
		log.Fatal(err)
	}
	names := []string{"run_select", "run_fmin"}
	ns := map[string][]float64{}
	sums := map[string]uint64{}
	for round := 0; round < *rounds; round++ {
		for k := range names {
			name := names[(k+round)%len(names)]
			before := threadCPU()
			res, err := mod.ExportedFunction(name).Call(ctx, uint64(*reps))
			if err != nil {
				log.Fatal(err)
			}
			ns[name] = append(ns[name], float64(threadCPU()-before)/float64(*reps*256))
			sums[name] = res[0]
		}
	}
	for _, name := range names {
		t := append([]float64(nil), ns[name]...)
		sort.Float64s(t)
		fmt.Printf("%-10s ns per sample: best %.2f median %.2f (checksum %d)\n", name, t[0], t[len(t)/2], sums[name])
	}
}

func threadCPU() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		log.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
