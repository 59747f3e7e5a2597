//go:build linux && amd64

package wazevo_test

import (
	"context"
	"testing"

	"github.com/tetratelabs/wazero/experimental"
)

// TestE2E_goMemCallKeepsCalleeSavedLazyGuarded is
// TestE2E_goMemCallKeepsCalleeSaved with the code compiled lazily and with
// a guarded memory, both linux/amd64 only, as pybox runs it.
func TestE2E_goMemCallKeepsCalleeSavedLazyGuarded(t *testing.T) {
	for _, mode := range []string{"lazy", "guarded"} {
		t.Run(mode, func(t *testing.T) {
			ctx := context.Background()
			callCtx := ctx
			if mode == "lazy" {
				ctx = experimental.WithLazyCompilation(ctx)
			} else {
				ctx = experimental.WithGuardedMemory(ctx)
				callCtx = experimental.WithMemoryAllocator(ctx, &guardTestMemory{reserve: guardReserve, limit: 1 << 20})
			}
			testGoMemCallKeepsCalleeSaved(t, ctx, callCtx)
		})
	}
}
