// Command fma times a 500x500 DGEMM on pybox's OpenBLAS micro-kernel
// compiled to wasm twice, with SIMD128 multiplications and additions and
// with relaxed SIMD's f64x2.relaxed_madd, under pybox's wazero fork
// (which compiles relaxed_madd to VFMADD231PD on amd64 with FMA, FMLA on
// arm64). Rounds alternate between the two modules in one process; each
// call is timed in thread CPU time. fma.sh builds the modules and runs it.
//
//	go run ./scripts/bench/fma -plain plain.wasm -relaxed relaxed.wasm
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"runtime"
	"sort"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"golang.org/x/sys/unix"
)

func main() {
	plain := flag.String("plain", "", "the DGEMM module built with -msimd128")
	relaxed := flag.String("relaxed", "", "the DGEMM module built with -msimd128 -mrelaxed-simd (optional)")
	n := flag.Int("n", 500, "matrix order (a multiple of 4)")
	rounds := flag.Int("rounds", 7, "rounds; each runs every module reps times")
	reps := flag.Int("reps", 3, "DGEMMs per module per round")
	flag.Parse()
	if *plain == "" {
		flag.Usage()
		os.Exit(2)
	}
	runtime.LockOSThread()
	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().
		WithCoreFeatures(api.CoreFeaturesV2|experimental.CoreFeaturesRelaxedSIMD))
	defer r.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, r)

	type variant struct {
		name     string
		run      api.Function
		mod      api.Module
		gflops   []float64
		sum, err float64
	}
	var vs []*variant
	for _, p := range []struct{ name, path string }{{"mul+add", *plain}, {"relaxed_madd", *relaxed}} {
		if p.path == "" {
			continue
		}
		bin, err := os.ReadFile(p.path)
		if err != nil {
			log.Fatal(err)
		}
		mod, err := r.InstantiateWithConfig(ctx, bin, wazero.NewModuleConfig().
			WithName(p.name).WithStartFunctions("_initialize"))
		if err != nil {
			log.Fatalf("%s: %v", p.path, err)
		}
		res, err := mod.ExportedFunction("setup").Call(ctx, uint64(*n))
		if err != nil || int32(res[0]) != 0 {
			log.Fatalf("%s: setup(%d): %v %v", p.path, *n, res, err)
		}
		vs = append(vs, &variant{name: p.name, run: mod.ExportedFunction("run"), mod: mod})
	}
	flops := 2 * math.Pow(float64(*n), 3)
	for round := 0; round < *rounds; round++ {
		order := vs
		if round%2 == 1 && len(vs) == 2 {
			order = []*variant{vs[1], vs[0]}
		}
		for _, v := range order {
			for i := 0; i < *reps; i++ {
				before := threadCPU()
				res, err := v.run.Call(ctx)
				if err != nil {
					log.Fatal(err)
				}
				v.gflops = append(v.gflops, flops/(threadCPU()-before).Seconds()/1e9)
				v.sum = api.DecodeF64(res[0])
			}
		}
	}
	fmt.Printf("DGEMM %dx%d, %d rounds x %d, GFLOP/s in thread CPU time\n", *n, *n, *rounds, *reps)
	for _, v := range vs {
		res, err := v.mod.ExportedFunction("maxrelerr").Call(ctx)
		if err != nil {
			log.Fatal(err)
		}
		v.err = api.DecodeF64(res[0])
		g := append([]float64(nil), v.gflops...)
		sort.Float64s(g)
		fmt.Printf("%-13s best %5.2f  median %5.2f  worst %5.2f  (sum of C %.17g, max relative error %.2g)\n",
			v.name, g[len(g)-1], g[len(g)/2], g[0], v.sum, v.err)
	}
	if len(vs) == 2 {
		a, b := median(vs[0].gflops), median(vs[1].gflops)
		fmt.Printf("relaxed_madd / mul+add (medians): %.2fx\n", b/a)
	}
}

func median(x []float64) float64 {
	g := append([]float64(nil), x...)
	sort.Float64s(g)
	return g[len(g)/2]
}

// threadCPU is the CPU time of the calling OS thread (the goroutine is
// locked to it). CLOCK_THREAD_CPUTIME_ID exists on Linux and macOS alike.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		log.Fatal(err)
	}
	return time.Duration(ts.Nano())
}
