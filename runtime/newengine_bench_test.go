package runtime_test

import (
	"context"
	"testing"

	"github.com/pybox-dev/pybox/packages"
	"github.com/pybox-dev/pybox/runtime"
)

// BenchmarkNewEngineCached is what every pybox process pays before its
// first run when the compilation cache already holds python.wasm: loading
// the bundle (extracted once) and the compiled code. "verified" is the
// default; "unverified" skips the checksum of the mapped code, as the CLI
// does (Config.SkipCodeChecksum).
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
	for _, skip := range []bool{false, true} {
		name := "verified"
		if skip {
			name = "unverified"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				e, err := runtime.NewEngine(ctx, runtime.Config{Bundle: bundle, NoSnapshot: true, SkipCodeChecksum: skip})
				if err != nil {
					b.Fatal(err)
				}
				if _, hit := e.CompileTime(); !hit {
					b.Fatal("not loaded from the cache")
				}
				e.Close(ctx)
			}
		})
	}
}
