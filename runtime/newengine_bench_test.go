package runtime_test

import (
	"context"
	"testing"

	"github.com/pybox-dev/pybox/packages"
	"github.com/pybox-dev/pybox/runtime"
)

// BenchmarkNewEngineCached is what every pybox process pays before its
// first run when the compilation cache already holds python.wasm: loading
// the bundle (extracted once) and the compiled code.
func BenchmarkNewEngineCached(b *testing.B) {
	ctx := context.Background()
	bundle, err := packages.Default()
	if err != nil {
		b.Fatal(err)
	}
	warm, err := runtime.NewEngine(ctx, runtime.Config{Bundle: bundle, NoSnapshot: true})
	if err != nil {
		b.Fatal(err)
	}
	warm.Close(ctx)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e, err := runtime.NewEngine(ctx, runtime.Config{Bundle: bundle, NoSnapshot: true})
		if err != nil {
			b.Fatal(err)
		}
		e.Close(ctx)
	}
}
