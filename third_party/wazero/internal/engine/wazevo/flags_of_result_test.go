package wazevo_test

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/testcases"
	"github.com/tetratelabs/wazero/internal/testing/binaryencoding"
	"github.com/tetratelabs/wazero/internal/testing/require"
)

// TestE2E_flagsOfResult runs every function of
// testcases.FlagsOfResultModule (an add, sub, and, or or xor compared with
// zero and branched or selected on, at both widths, and a countdown loop)
// on operands chosen to make the arithmetic carry, overflow, come out zero
// and change sign, and checks each result against Go. On amd64 the encoder
// leaves out the compare where the arithmetic's flags answer it (pybox
// patch 0068, TestCmpWithZeroDropped); where they would not (a signed or
// unsigned order after an add or a sub) a wrong drop shows here as a
// wrong branch.
func TestE2E_flagsOfResult(t *testing.T) {
	ctx := context.Background()
	m, cases := testcases.FlagsOfResultModule()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler())
	defer r.Close(ctx)
	inst, err := r.Instantiate(ctx, binaryencoding.EncodeModule(m))
	require.NoError(t, err)

	edges := []uint64{
		0, 1, 2, 3, math.MaxUint64, math.MaxUint64 - 1,
		math.MaxInt32, math.MaxInt32 + 1, math.MaxUint32, math.MaxUint32 + 1,
		math.MaxInt64, math.MaxInt64 + 1, 0xffffffff00000000, 0x8000000080000000,
		0x00000001ffffffff, 0x7fffffff80000000,
	}
	rnd := rand.New(rand.NewSource(68))
	for i := 0; i < 8; i++ {
		edges = append(edges, rnd.Uint64(), uint64(rnd.Uint32()), -uint64(rnd.Uint32()))
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
