package adhoc

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/internal/platform"
	"github.com/tetratelabs/wazero/internal/testing/require"
)

// ehTestContext is the context runEHTests compile and call with:
// TestExceptionHandlingCompilerLazy swaps it for one that compiles lazily.
var ehTestContext = context.Background()

// TestExceptionHandlingCompilerLazy runs the EH tests with every function
// compiled when first called (pybox patch 0040): handlers set up, and
// exceptions thrown and caught, in frames of code compiled while the call
// stack was already running.
func TestExceptionHandlingCompilerLazy(t *testing.T) {
	if !platform.CompilerSupported() {
		t.Skip()
	}
	ehTestContext = experimental.WithLazyCompilation(context.Background())
	defer func() { ehTestContext = context.Background() }()
	cfg := wazero.NewRuntimeConfigCompiler().
		WithCoreFeatures(api.CoreFeaturesV2 | experimental.CoreFeaturesExceptionHandling)
	runEHTests(t, cfg)
}

// TestEHLazyConcurrentFirstCalls calls every function of a module compiled
// lazily from many goroutines at once, each in its own order, so that first
// calls of the same function race (pybox patch 0040). Each function throws
// and catches an exception; run with -race.
func TestEHLazyConcurrentFirstCalls(t *testing.T) {
	if !platform.CompilerSupported() {
		t.Skip()
	}
	const numFuncs, goroutines = 64, 16
	bin := buildEHModule(numFuncs)
	// Two workers: one more goroutine compiles callees ahead (pybox patch
	// 0043), racing the callers too.
	ctx := experimental.WithLazyCompilation(experimental.WithCompilationWorkers(context.Background(), 2))
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().
		WithCoreFeatures(api.CoreFeaturesV2|experimental.CoreFeaturesExceptionHandling))
	defer r.Close(ctx)
	compiled, err := r.CompileModule(ctx, bin)
	require.NoError(t, err)
	// Two instances of one compiled module share its code.
	var mods []api.Module
	for i := 0; i < 2; i++ {
		mod, err := r.InstantiateModule(ctx, compiled, wazero.NewModuleConfig().WithName(fmt.Sprint(i)).WithStartFunctions())
		require.NoError(t, err)
		mods = append(mods, mod)
	}

	errs := make(chan error, goroutines)
	var start, done sync.WaitGroup
	start.Add(1)
	for g := 0; g < goroutines; g++ {
		done.Add(1)
		go func(g int) {
			defer done.Done()
			start.Wait()
			mod := mods[g%len(mods)]
			for k := 0; k < numFuncs; k++ {
				i := (k*7 + g*13) % numFuncs
				res, err := mod.ExportedFunction(fmt.Sprintf("f%d", i)).Call(ctx)
				if err != nil {
					errs <- fmt.Errorf("goroutine %d: f%d: %w", g, i, err)
					return
				}
				if res[0] != uint64(i) {
					errs <- fmt.Errorf("goroutine %d: f%d returned %d", g, i, res[0])
					return
				}
			}
			errs <- nil
		}(g)
	}
	start.Done()
	done.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
}
