//go:build linux && amd64

package wazevo_test

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/testcases"
	"github.com/tetratelabs/wazero/internal/testing/binaryencoding"
	"github.com/tetratelabs/wazero/internal/testing/require"
)

// TestE2E_copyAndAdd runs every function of testcases.CopyAndAddModule (a
// value plus or minus a constant, or another value, while the value stays
// in use) on operands at the edges of 32 and 64 bits, and checks each
// result against Go. On amd64 the encoder emits such a copy and add as one
// lea (pybox patch 0069, TestCopyAndAddFused); a lea of the wrong width or
// displacement shows here as a wrong sum, or as a trap where the sum is a
// memory address (guarded, as pybox compiles, the 32-bit address register
// is used as it is). Run unguarded and guarded.
func TestE2E_copyAndAdd(t *testing.T) {
	for _, guarded := range []bool{false, true} {
		t.Run(fmt.Sprintf("guarded=%v", guarded), func(t *testing.T) { testCopyAndAdd(t, guarded) })
	}
}

func testCopyAndAdd(t *testing.T, guarded bool) {
	ctx := context.Background()
	if guarded {
		ctx = experimental.WithGuardedMemory(ctx)
	}
	m, cases := testcases.CopyAndAddModule()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler())
	defer r.Close(ctx)
	compiled, err := r.CompileModule(ctx, binaryencoding.EncodeModule(m))
	require.NoError(t, err)
	if guarded {
		ctx = experimental.WithMemoryAllocator(ctx, &guardTestMemory{reserve: guardReserve, limit: 1 << 20})
	}
	inst, err := r.InstantiateModule(ctx, compiled, wazero.NewModuleConfig())
	require.NoError(t, err)

	edges := []uint64{
		0, 1, 4, math.MaxUint64, math.MaxUint64 - 3,
		math.MaxInt32, math.MaxInt32 + 1, math.MaxUint32, math.MaxUint32 + 1,
		math.MaxInt64, math.MaxInt64 + 1, 0xffffffff00000000, 0x00000001fffffffc,
	}
	rnd := rand.New(rand.NewSource(70))
	for i := 0; i < 6; i++ {
		edges = append(edges, rnd.Uint64(), uint64(rnd.Uint32()))
	}
	for i, c := range cases {
		f := inst.ExportedFunction(fmt.Sprintf("f%d", i))
		for _, a := range edges {
			for _, b := range edges {
				res, err := f.Call(ctx, a, b)
				require.NoError(t, err)
				require.Equal(t, c.Want(a, b), res[0], "%s (a=%#x, b=%#x)", c.Name, a, b)
			}
		}
	}
}
