package loopguard_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"

	"github.com/pybox-dev/pybox/internal/loopguard"
)

// Tests of Options.Batch: innermost outlined loops count in a local and take
// Batch iterations at a time from the global countdown. shapesModule's
// functions count their loop-body entries in memory (tick), so the number of
// iterations before the kill switch is seen pins down how the batches and
// the global interact.

const (
	batchYield = 1000
	batchSize  = 64
)

func batchOpts() loopguard.Options {
	return loopguard.Options{YieldEvery: batchYield, Outline: true, Batch: batchSize}
}

// TestBatchedCountdownShapes checks which loops are batched, that the
// functions still compute what they did, and after how many iterations a
// spinning guest sees the kill switch.
func TestBatchedCountdownShapes(t *testing.T) {
	out, st := mustInstrument(t, shapesModule(), batchOpts())
	// 11 loops: multi's has parameters and catcher's function a handler,
	// so those two keep the inline check on the global; the other 9 are
	// outlined and batched, nested's two in one local.
	if st.InstrumentedFunctions != 10 || st.Loops != 11 || st.OutlinedLoops != 9 || st.BatchedLoops != 9 || st.LocalFunctions != 0 {
		t.Fatalf("stats %+v, want 10 instrumented functions, 11 loops, 9 outlined, 9 batched", st)
	}
	ctx, r := newEHRuntime(t)
	cm, err := r.CompileModule(ctx, out) // validates
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	type call struct {
		fn string
		n  uint64
	}
	tests := []struct {
		name string
		warm []call // with the kill switch off
		spin call   // with it on
		// ticks is the number of loop bodies run in all before the trap.
		ticks uint32
	}{
		// ceil(1000/64) = 16 batches of 64: the 16th takes the global
		// from 40 to -24, which yields and sees the switch.
		{"tight loop", nil, call{"loopN", 1 << 30}, 16 * batchSize},
		// The outer loop counts its first body in its local, not on the
		// global; the inner loop is counted (chunk.go) and runs 16
		// chunks of 64.
		{"nested", nil, call{"nested", 1 << 20}, 1 + 16*batchSize},
		// calls' loop is innermost (calls do not count) and batched; each
		// of its iterations calls loopN(3), a visit that ends within its
		// batch and is not counted: 16 batches of 64 iterations, 4 bodies
		// each.
		{"loop with calls", nil, call{"calls", 1 << 30}, 4 * 16 * batchSize},
		// loopN(1100) runs 17 full batches: after the 16th the global
		// (40 - 64) yields and is reset to 1000, the 17th leaves 936; the
		// last 12 iterations are not counted. multi's inline check then
		// counts the global down by one and traps at its 936th check.
		{"batches across a yield, then the global", []call{{"loopN", 1100}}, call{"multi", 1 << 30}, 1100 + 935},
		// 990 iterations: 15 batches (global 40), 30 not counted.
		{"short visit, then the global", []call{{"loopN", 990}}, call{"multi", 1 << 30}, 990 + 39},
		// Functions with a handler keep the global: catcher's iterations
		// count one each, middle's and thrower's loops (batched, 5 bodies
		// per catcher iteration) not at all.
		{"handler function", nil, call{"catcher", 1 << 30}, 5 * 999},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mod, err := r.InstantiateModule(ctx, cm, wazero.NewModuleConfig().WithName(""))
			if err != nil {
				t.Fatal(err)
			}
			defer mod.Close(ctx)
			for _, c := range tc.warm {
				if _, err := invoke(t, ctx, mod, c.fn, c.n); err != nil {
					t.Fatalf("%s(%d): %v", c.fn, c.n, err)
				}
			}
			killSwitch(t, mod).Set(1)
			_, err = invoke(t, ctx, mod, tc.spin.fn, tc.spin.n)
			if err == nil || !strings.Contains(err.Error(), "unreachable") {
				t.Fatalf("%s(%d) = %v, want an unreachable trap", tc.spin.fn, tc.spin.n, err)
			}
			if got := ticks(t, mod); got != tc.ticks {
				t.Fatalf("trapped after %d loop bodies, want %d", got, tc.ticks)
			}
		})
	}

	t.Run("results", func(t *testing.T) {
		mod, err := r.InstantiateModule(ctx, cm, wazero.NewModuleConfig().WithName(""))
		if err != nil {
			t.Fatal(err)
		}
		defer mod.Close(ctx)
		for _, c := range []struct {
			fn      string
			n, want uint64
		}{{"manyLocals", 300, 300}, {"multi", 50, 50}} {
			res, err := invoke(t, ctx, mod, c.fn, c.n)
			if err != nil || len(res) != 1 || res[0] != c.want {
				t.Fatalf("%s(%d) = %v, %v; want %d", c.fn, c.n, res, err, c.want)
			}
		}
		// Recursion whose loops all end within their batch counts
		// nothing, so it runs to its end with the switch set: the limit
		// of batching (see "Batched innermost loops").
		killSwitch(t, mod).Set(1)
		before := ticks(t, mod)
		if _, err := invoke(t, ctx, mod, "recurse", 200); err != nil {
			t.Fatalf("recurse(200): %v", err)
		}
		if got := ticks(t, mod) - before; got != 5*200 {
			t.Fatalf("recurse(200) ran %d loop bodies, want 1000", got)
		}
	})
}

// TestBatchedCountdownKill kills spinning batched loops from another
// goroutine while garbage collections run, as TestLocalCountdownKill does.
func TestBatchedCountdownKill(t *testing.T) {
	opts := batchOpts()
	opts.YieldEvery = 16384
	out, _ := mustInstrument(t, shapesModule(), opts)
	ctx, r := newEHRuntime(t)
	cm, err := r.CompileModule(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	for _, fn := range []string{"loopN", "calls", "nested"} {
		killOne(t, ctx, r, cm, fmt.Sprintf("%s/batched", fn), fn)
	}
}

// TestBatchedCountdownInsertedCode pins the code around the loop of
// countedModule's readsK, a batched loop that is not counted (chunk.go).
func TestBatchedCountdownInsertedCode(t *testing.T) {
	out, _ := mustInstrument(t, countedModule(), batchOpts())
	const c, ctr, kill = 4, 1, 0 // readsK(n): count local 4; globals: kill 0, countdown 1
	check := cat(localGet(c), i32Const(1), i32Sub, localTee(c), []byte{0x45}, brIf(1))
	yieldPath := batchYieldPath(ctr, kill)
	want := cat(vec(cat(u32(3), []byte{i32}), cat(u32(1), []byte{i32})),
		block(empty), loop(empty), i32Const(batchSize+1), localSet(c), block(empty),
		loop(empty), check,
		call(cTick), localGet(1), localGet(0), i32Add, localSet(1), decr(0), brIf(0), end,
		yieldPath, localGet(1), end)
	if !strings.Contains(string(out), string(cat(u32(uint32(len(want))), want))) {
		t.Fatalf("instrumented module lacks body % x", want)
	}
}

// batchYieldPath is what follows a batched (or chunked) loop's end with
// batchOpts: the branch to $exit, then the yield path that takes a batch
// from the countdown global ctr, yields and checks the kill global when it
// runs out, and re-enters the loop.
func batchYieldPath(ctr, kill uint32) []byte {
	return cat(br(2), end, // to $exit; end of $yield
		globalGet(ctr), i32Const(batchSize), i32Sub, globalSet(ctr),
		globalGet(ctr), i32Const(0), []byte{0x4c}, []byte{0x04, empty}, // i32.le_s, if
		i32Const(batchYield), globalSet(ctr), i32Const(0), []byte{0x40, 0x00, 0x1a},
		globalGet(kill), []byte{0x04, empty}, unreachable, end,
		end,
		br(0), end, end) // to $outer; end of $outer, of $exit
}

// TestBatchedCountdownOptions checks the option errors.
func TestBatchedCountdownOptions(t *testing.T) {
	for _, tc := range []struct {
		opts loopguard.Options
		want string
	}{
		{loopguard.Options{YieldEvery: 100, LocalCountdown: true, Batch: 8}, "cannot be combined"},
		{loopguard.Options{YieldEvery: 100, Outline: true, Batch: 1 << 31}, "too large"},
	} {
		if _, _, err := loopguard.Instrument(shapesModule(), tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want an error containing %q", tc.opts, err, tc.want)
		}
	}
	// Without Outline (or without YieldEvery) Batch changes nothing.
	plain, _ := mustInstrument(t, shapesModule(), loopguard.Options{YieldEvery: 100})
	withBatch, st := mustInstrument(t, shapesModule(), loopguard.Options{YieldEvery: 100, Batch: 8})
	if string(plain) != string(withBatch) || st.BatchedLoops != 0 {
		t.Fatalf("Batch without Outline changed the output (%d loops batched)", st.BatchedLoops)
	}
}
