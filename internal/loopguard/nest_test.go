package loopguard_test

import (
	"testing"

	"github.com/tetratelabs/wazero"
)

// Tests of loop nests under Options.Batch: every outlined loop of a nest
// counts in one local, set when the nest's outermost loop is entered, so
// the iterations of inner loops that end within a batch are counted by the
// nest instead of being lost; a counted loop inside a nest keeps its chunk
// bound in a second local.

// Functions of nestModule; every one but tick has type (i32) -> (i32).
const (
	nTick    = iota
	nThree   // three nested loops, none counted; returns a sum over all three
	nCounted // an outer loop around a counted loop and a loop that is not counted
	nFuncs
)

// nestModule builds the functions above; tick counts loop bodies in mem[0].
// No loop of nThree is counted (each reads its counter in its body), so
// all three count in the nest's local; nCounted's middle loop is counted
// (chunk.go) and keeps its bound in the second local.
func nestModule() []byte {
	tick := body(nil, i32Const(0), i32Const(0), op(opI32Load, memarg(2, 0)), i32Const(1), i32Add, op(opI32Store, memarg(2, 0)), end)
	add := func(s, v uint32) []byte { return cat(localGet(s), localGet(v), i32Add, localSet(s)) }
	// Locals: 0 n (the outer counter), 1 j, 2 k, 3 s.
	loc := [][2]byte{{3, i32}}
	three := body(loc,
		loop(empty), call(nTick), add(3, 0),
		/**/ i32Const(3), localSet(1),
		/**/ loop(empty), call(nTick), add(3, 1),
		/*    */ i32Const(2), localSet(2),
		/*    */ loop(empty), call(nTick), add(3, 2), decr(2), brIf(0), end,
		/**/ decr(1), brIf(0), end,
		decr(0), brIf(0), end,
		localGet(3), end)
	counted := body(loc,
		loop(empty), call(nTick), add(3, 0),
		/**/ i32Const(3), localSet(2),
		/**/ loop(empty), call(nTick), decr(2), brIf(0), end, // counted: k is read only by its test
		/**/ i32Const(2), localSet(1),
		/**/ loop(empty), call(nTick), add(3, 1), decr(1), brIf(0), end,
		decr(0), brIf(0), end,
		localGet(3), end)
	return module(
		shapeTypes(),
		section(secFunction, vec(u32(tVoid), u32(tI32I32), u32(tI32I32))),
		section(secMemory, vec([]byte{0x00, 0x01})),
		section(secExport, vec(exportEntry("three", kindFunc, nThree), exportEntry("counted", kindFunc, nCounted), exportEntry("mem", kindMemory, 0))),
		section(secCode, vec(tick, three, counted)),
	)
}

// TestNestedLoopsCompute checks which loops are batched and chunked, and
// that the functions compute what they did without the guard, running the
// same loop bodies.
func TestNestedLoopsCompute(t *testing.T) {
	ctx, ref, guarded := plainAndBatched(t, nestModule(), 6, 1)
	for _, fn := range []string{"three", "counted"} {
		// 300 outer iterations run several batches and chunks through
		// every loop of the nest.
		for _, n := range []uint64{1, 2, 21, 22, 300} {
			sameAsPlain(t, ctx, ref, guarded, fn, n)
		}
	}
}

// TestNestedLoopsKill spins each nest with the kill switch set and checks
// after how many loop bodies it traps, which pins down what the nest's
// local counts.
func TestNestedLoopsKill(t *testing.T) {
	out, _ := mustInstrument(t, nestModule(), batchOpts())
	ctx, r := newEHRuntime(t)
	cm, err := r.CompileModule(ctx, out)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	for _, tc := range []struct {
		fn   string
		want uint32
	}{
		// Every body of the three loops counts in the nest's local: 16
		// batches of 64 take the global from 1000 below zero. Were the
		// inner loops' visits (3 and 2 bodies) lost, as when each
		// innermost loop had its own local, it would take about 6 times
		// as many bodies.
		{"three", 16 * batchSize},
		// Per outer iteration the local counts the outer body and the 2
		// of the last loop, 3 of its 6 bodies; the counted loop's 3 are
		// chunks that end early, not counted. 1024 counted bodies are 341
		// iterations and the 342nd's outer body; that iteration's counted
		// loop runs, then the last loop's first check ends the 16th
		// batch. Had the counted loop's chunk bound gone in the nest's
		// local, the count would differ.
		{"counted", 341*6 + 1 + 3},
	} {
		mod, err := r.InstantiateModule(ctx, cm, wazero.NewModuleConfig().WithName(""))
		if err != nil {
			t.Fatal(err)
		}
		trapsAfter(t, ctx, mod, tc.fn, 1<<30, tc.want)
		mod.Close(ctx)
	}
	// A spinning nest is killed from another goroutine while garbage
	// collections run.
	killWithGC(t, ctx, r, nestModule(), "three/nested", "three")
}
