//go:build linux && amd64

package wazevo_test

import (
	"context"
	"errors"
	"math/rand"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/testcases"
	"github.com/tetratelabs/wazero/internal/sigguard"
	"github.com/tetratelabs/wazero/internal/testing/binaryencoding"
	"github.com/tetratelabs/wazero/internal/testing/require"
	"github.com/tetratelabs/wazero/internal/wasm"
	"github.com/tetratelabs/wazero/internal/wasmruntime"
)

// TestE2E_dispatchLoop runs testcases.DispatchLoopModule, an interpreter
// loop, on random programs and checks each result against the same
// interpreter in Go. With a guarded memory (as pybox runs) each handler
// ends with a copy of the br_table dispatch (pybox patch 0066,
// TestBrTableTailCopies); a program with no halt runs off the end of the
// memory, and the fault in a copy's load is the usual trap.
func TestE2E_dispatchLoop(t *testing.T) {
	for _, guarded := range []bool{false, true} {
		ctx := context.Background()
		if guarded {
			ctx = experimental.WithGuardedMemory(ctx)
		}
		r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler())
		compiled, err := r.CompileModule(ctx, binaryencoding.EncodeModule(testcases.DispatchLoopModule()))
		require.NoError(t, err)
		callCtx := ctx
		if guarded {
			callCtx = experimental.WithMemoryAllocator(ctx, &guardTestMemory{reserve: guardReserve, limit: 1 << 20})
		}
		inst, err := r.InstantiateModule(callCtx, compiled, wazero.NewModuleConfig())
		require.NoError(t, err)
		f := inst.ExportedFunction(testcases.ExportedFunctionName)

		rnd := rand.New(rand.NewSource(66))
		for i := 0; i < 50; i++ {
			prog := make([]byte, 1+rnd.Intn(60000))
			for j := range prog {
				prog[j] = byte(rnd.Intn(7))
			}
			prog[len(prog)-1] = byte(7 + rnd.Intn(249)) // any other byte halts
			start := uint32(rnd.Intn(64))
			mem := make([]byte, int(start)+len(prog))
			copy(mem[start:], prog)
			require.True(t, inst.Memory().Write(start, prog))
			res, err := f.Call(callCtx, uint64(start))
			require.NoError(t, err)
			require.Equal(t, testcases.DispatchLoopReference(mem, start), uint32(res[0]),
				"guarded=%v: program %d (%d bytes from %d)", guarded, i, len(prog), start)
		}

		// No halt: the loop reads past the last page.
		tail := make([]byte, 4096)
		for j := range tail {
			tail[j] = byte(rnd.Intn(7))
		}
		require.True(t, inst.Memory().Write(wasm.MemoryPageSize-uint32(len(tail)), tail))
		before := sigguard.Faults()
		_, err = f.Call(callCtx, uint64(wasm.MemoryPageSize-uint32(len(tail))))
		require.Error(t, err)
		require.True(t, errors.Is(err, wasmruntime.ErrRuntimeOutOfBoundsMemoryAccess), err.Error())
		if guarded {
			// A fault, not a bounds check: the code was compiled guarded.
			require.True(t, sigguard.Faults() > before, "no fault counted")
		}

		// The instance still runs.
		require.True(t, inst.Memory().Write(0, []byte{0, 0, 1, 9}))
		res, err := f.Call(callCtx, 0)
		require.NoError(t, err)
		require.Equal(t, uint32(6), uint32(res[0]))
		require.NoError(t, r.Close(ctx))
	}
}
