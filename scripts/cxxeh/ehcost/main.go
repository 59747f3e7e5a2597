// Command ehcost times the exported `run(n)` of WebAssembly reactors built
// from the same C++ source with and without exception support
// (scripts/cxxeh/measure-eh-cost.sh), under wazero's compiler with the
// features pybox enables, and prints each module's code size and its
// fastest time over several interleaved rounds.
//
//	go run ./scripts/cxxeh/ehcost -n 2000 -rounds 7 a.wasm b.wasm
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

func main() {
	n := flag.Int("n", 2000, "argument of run(n)")
	rounds := flag.Int("rounds", 7, "interleaved timing rounds; the fastest counts")
	flag.Parse()
	ctx := context.Background()
	// The engine's features (runtime.guestFeatures).
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().
		WithCoreFeatures(api.CoreFeaturesV2|experimental.CoreFeaturesExceptionHandling|experimental.CoreFeaturesRelaxedSIMD))
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)

	type entry struct {
		path   string
		size   int
		run    api.Function
		best   time.Duration
		result float64
	}
	var mods []*entry
	for _, path := range flag.Args() {
		wasm, err := os.ReadFile(path)
		if err != nil {
			log.Fatal(err)
		}
		mod, err := rt.InstantiateWithConfig(ctx, wasm, wazero.NewModuleConfig().
			WithName(path).WithStartFunctions("_initialize"))
		if err != nil {
			log.Fatalf("%s: %v", path, err)
		}
		mods = append(mods, &entry{path: path, size: len(wasm), run: mod.ExportedFunction("run")})
	}
	for r := 0; r < *rounds; r++ {
		for _, m := range mods {
			start := time.Now()
			res, err := m.run.Call(ctx, api.EncodeI32(int32(*n)))
			if err != nil {
				log.Fatalf("%s: %v", m.path, err)
			}
			d := time.Since(start)
			if m.best == 0 || d < m.best {
				m.best = d
			}
			m.result = api.DecodeF64(res[0])
		}
	}
	for _, m := range mods {
		fmt.Printf("%-40s %8d bytes  best %v  result %.6f\n", m.path, m.size, m.best, m.result)
	}
}
