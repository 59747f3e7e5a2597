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

// TestE2E_lowHalf runs every function of testcases.LowHalfModule (an
// i32.wrap_i64 handed to one consumer, or an i32 zero-extended to i64) on
// operands whose upper halves are not zero, and checks each result against
// Go. On amd64 a consumer that reads only the low 32 bits takes the wrap's
// 64-bit argument, and zero-extending an i32 register is a copy (pybox patch
// 0071, TestLowHalfFolded); an i32 left with a nonzero upper half shows here
// as a wrong i64 result, or, used as an address, as a trap. Run unguarded
// and guarded.
func TestE2E_lowHalf(t *testing.T) {
	for _, guarded := range []bool{false, true} {
		t.Run(fmt.Sprintf("guarded=%v", guarded), func(t *testing.T) { testLowHalf(t, guarded) })
	}
}

func testLowHalf(t *testing.T, guarded bool) {
	ctx := context.Background()
	if guarded {
		ctx = experimental.WithGuardedMemory(ctx)
	}
	m, cases := testcases.LowHalfModule()
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
		0, 1, 0x7f, 0x80, 0xff, 0xffff, 0x8000, math.MaxUint64, math.MaxUint64 - 3,
		math.MaxInt32, math.MaxInt32 + 1, math.MaxUint32, math.MaxUint32 + 1,
		math.MaxInt64, math.MaxInt64 + 1, 0xffffffff00000000, 0x00000001fffffffc,
		0xdeadbeef00000005, 0x123456789abcdef0,
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
				require.NoError(t, err, "%s (a=%#x, b=%#x)", c.Name, a, b)
				require.Equal(t, c.Want(a, b), res[0], "%s (a=%#x, b=%#x)", c.Name, a, b)
			}
		}
	}
}
