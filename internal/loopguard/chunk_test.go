package loopguard_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/pybox-dev/pybox/internal/loopguard"
)

// Tests of counted innermost loops (chunk.go): batched loops whose own exit
// test is cut into chunks of Batch iterations instead of counting in the
// batch local. They must compute what they computed before, whatever the
// counter's start and however it wraps, and yield and see the kill switch
// after exactly as many iterations as a batched loop.

// Functions of countedModule; every one but tick has type (i32) -> (i32).
const (
	cTick      = iota
	cDown      // k = n; do { tick } while (--k != 0) (i32.sub 1); returns k
	cDownAdd   // the same with i32.add -1
	cUpSum     // i = 0; do { tick; s += i } while (n != ++i); returns s
	cBytes     // i = n; do { tick } while ((i += 4) != 1000); returns i
	cDownStep  // b = 0; i = n; do { tick } while ((i -= 2) != b); returns i
	cBreakStep // i = 0; do { tick; if i == 5 break } while (n != ++i); returns i
	cReadsK    // k = n; do { tick; s += k } while (--k != 0): not counted
	cBoundSet  // do { tick; n = n } while (n != ++i): the bound is written, not counted
	cBreakDown // do { tick; if k == 5 break } while (--k != 0): a break leaves k live, not counted
	cStep3     // i = n; do { tick } while ((i += 3) != 999): step not a power of two, not counted
	cContinue  // s = n; do { tick; if (--s > 0) continue } while (n != ++i): two back edges, not counted
	cResult    // a loop with a result (the count): not counted
	cLtU       // i = n; do { tick } while ((i += 4) <u 1000); returns i
	cGtS       // k = n; do { tick } while (--k >s 0); returns k
	cMirror    // i = 0; do { tick; s += i } while (n >s ++i) (bound first); returns s
	cLtUTop    // i = n; do { tick } while ((i += 4) <u 0xfffffffe): the step may wrap past the bound
	cGtUDown   // b = 100; i = n; do { tick } while ((i -= 8) >u b); returns i
	cWrongDir  // i = n; do { tick } while (--i <u 1000): a step away from the bound, not counted
	cDown2     // k = n; do { tick } while ((k += -2) != 0); returns k
	cDown4     // k = n; do { tick } while ((k -= 4) != 0) (i32.sub 4); returns k
	cDown3     // k = n; do { tick } while ((k -= 3) != 0): step not a power of two, not counted
	cTailNe    // i = 0; do { tick; if (n != ++i) continue; break } (br_if 0, br out); returns i
	cTailLtU   // i = 0; do { tick; if (++i <u n) continue; break }; returns i
	cTailDown  // do { tick; if (--k != 0) continue; break }: leaves by a branch, not counted
	cFuncs
)

// countedModule builds the functions above; tick counts loop bodies in
// mem[0], as in shapesModule.
func countedModule() []byte {
	tick := body(nil, i32Const(0), i32Const(0), op(opI32Load, memarg(2, 0)), i32Const(1), i32Add, op(opI32Store, memarg(2, 0)), end)
	inc := func(i uint32, s int32) []byte { return cat(localGet(i), i32Const(s), i32Add, localTee(i)) }
	eq, ltU, gtU := []byte{0x46}, []byte{0x49}, []byte{0x4b}
	loc := [][2]byte{{3, i32}} // locals 1, 2, 3
	bodies := [cFuncs][]byte{
		cTick:    tick,
		cDown:    body(nil, loop(empty), call(cTick), decr(0), brIf(0), end, localGet(0), end),
		cDownAdd: body(nil, loop(empty), call(cTick), localGet(0), i32Const(-1), i32Add, localTee(0), brIf(0), end, localGet(0), end),
		cUpSum: body(loc, loop(empty), call(cTick),
			localGet(2), localGet(1), i32Add, localSet(2),
			localGet(0), inc(1, 1), i32Ne, brIf(0), end, localGet(2), end),
		cBytes:    body(nil, loop(empty), call(cTick), inc(0, 4), i32Const(1000), i32Ne, brIf(0), end, localGet(0), end),
		cDownStep: body(loc, i32Const(0), localSet(1), loop(empty), call(cTick), inc(0, -2), localGet(1), i32Ne, brIf(0), end, localGet(0), end),
		cBreakStep: body(loc, block(empty), loop(empty), call(cTick),
			localGet(1), i32Const(5), eq, brIf(1),
			localGet(0), inc(1, 1), i32Ne, brIf(0), end, end, localGet(1), end),
		cReadsK: body(loc, loop(empty), call(cTick),
			localGet(1), localGet(0), i32Add, localSet(1),
			decr(0), brIf(0), end, localGet(1), end),
		cBoundSet: body(loc, loop(empty), call(cTick),
			localGet(0), localSet(0),
			localGet(0), inc(1, 1), i32Ne, brIf(0), end, localGet(1), end),
		cBreakDown: body(nil, block(empty), loop(empty), call(cTick),
			localGet(0), i32Const(5), eq, brIf(1),
			decr(0), brIf(0), end, end, localGet(0), end),
		cStep3: body(nil, loop(empty), call(cTick), inc(0, 3), i32Const(999), i32Ne, brIf(0), end, localGet(0), end),
		cContinue: body(loc, localGet(0), localSet(3), loop(empty), call(cTick),
			decr(3), i32Const(0), i32GtS, brIf(0),
			localGet(0), inc(1, 1), i32Ne, brIf(0), end, localGet(1), end),
		cResult: body(nil, loop(i32), call(cTick), localGet(0), decr(0), brIf(0), end, end),
		cLtU:    body(nil, loop(empty), call(cTick), inc(0, 4), i32Const(1000), ltU, brIf(0), end, localGet(0), end),
		cGtS:    body(nil, loop(empty), call(cTick), inc(0, -1), i32Const(0), i32GtS, brIf(0), end, localGet(0), end),
		cMirror: body(loc, loop(empty), call(cTick),
			localGet(2), localGet(1), i32Add, localSet(2),
			localGet(0), inc(1, 1), i32GtS, brIf(0), end, localGet(2), end),
		cLtUTop:   body(nil, loop(empty), call(cTick), inc(0, 4), i32Const(-2), ltU, brIf(0), end, localGet(0), end),
		cGtUDown:  body(loc, i32Const(100), localSet(1), loop(empty), call(cTick), inc(0, -8), localGet(1), gtU, brIf(0), end, localGet(0), end),
		cWrongDir: body(nil, loop(empty), call(cTick), inc(0, -1), i32Const(1000), ltU, brIf(0), end, localGet(0), end),
		cDown2:    body(nil, loop(empty), call(cTick), inc(0, -2), brIf(0), end, localGet(0), end),
		cDown4:    body(nil, loop(empty), call(cTick), localGet(0), i32Const(4), i32Sub, localTee(0), brIf(0), end, localGet(0), end),
		cDown3:    body(nil, loop(empty), call(cTick), localGet(0), i32Const(3), i32Sub, localTee(0), brIf(0), end, localGet(0), end),
		// After the loop, inside the block, code only a fall-through out
		// of the loop would run (the loops leave by br 1).
		cTailNe: body(loc, block(empty), loop(empty), call(cTick),
			localGet(0), inc(1, 1), i32Ne, brIf(0), br(1), end,
			i32Const(999), localSet(1), end, localGet(1), end),
		cTailLtU: body(loc, block(empty), loop(empty), call(cTick),
			inc(1, 1), localGet(0), ltU, brIf(0), br(1), end,
			i32Const(999), localSet(1), end, localGet(1), end),
		cTailDown: body(nil, block(empty), loop(empty), call(cTick),
			decr(0), brIf(0), br(1), end,
			i32Const(999), localSet(0), end, localGet(0), end),
	}
	names := [cFuncs]string{"tick", "down", "downAdd", "upSum", "bytes", "downStep", "breakStep", "readsK", "boundSet", "breakDown", "step3", "continue", "result",
		"ltU", "gtS", "mirror", "ltUTop", "gtUDown", "wrongDir", "down2", "down4", "down3", "tailNe", "tailLtU", "tailDown"}
	var exports, funcs [][]byte
	for i, n := range names {
		exports = append(exports, exportEntry(n, kindFunc, uint32(i)))
		if i == cTick {
			funcs = append(funcs, u32(tVoid))
		} else {
			funcs = append(funcs, u32(tI32I32))
		}
	}
	exports = append(exports, exportEntry("mem", kindMemory, 0))
	return module(
		shapeTypes(),
		section(secFunction, vec(funcs...)),
		section(secMemory, vec([]byte{0x00, 0x01})),
		section(secExport, vec(exports...)),
		section(secCode, vec(bodies[:]...)),
	)
}

// TestChunkedLoopsCompute runs every function of countedModule, guarded and
// not, and compares the results and the number of loop bodies run.
func TestChunkedLoopsCompute(t *testing.T) {
	// down, downAdd, upSum, bytes, downStep, breakStep, ltU, gtS, mirror,
	// ltUTop, gtUDown, down2, down4, tailNe and tailLtU are counted; all
	// 24 loops are innermost and batched.
	ctx, ref, guarded := plainAndBatched(t, countedModule(), 24, 15)
	tests := []struct {
		fn   string
		args []int32
	}{
		// Around the batch size, and past it several times.
		{"down", []int32{1, 2, 63, 64, 65, 127, 128, 129, 1000, 4097}},
		{"downAdd", []int32{1, 64, 65, 200}},
		{"upSum", []int32{1, 2, 63, 64, 65, 640, 641, 3000}},
		// From below 1000, from below 0 (i wraps through zero), and from
		// 1000-4k for k near the batch size.
		{"bytes", []int32{996, 992, 0, -24, 1000 - 4*64, 1000 - 4*65, 1000 - 4*129, -4000}},
		{"downStep", []int32{2, 4, 126, 128, 130, 256, 258, 10000}},
		{"breakStep", []int32{1, 3, 5, 6, 7, 64, 65, 100}},
		{"readsK", []int32{1, 64, 65, 300}},
		{"boundSet", []int32{1, 64, 65, 300}},
		{"breakDown", []int32{1, 4, 5, 6, 64, 65, 300}},
		{"step3", []int32{996, 0, 999 - 3*64, 999 - 3*65, 999 - 3*300}},
		{"continue", []int32{1, 64, 65, 300}},
		{"result", []int32{1, 64, 65, 300}},
		// From below the bound, at it, past it, and from the top of the
		// range, where the first step wraps to 0 or 2 and the loop goes on
		// from there.
		{"ltU", []int32{0, 4, 996, 1000, 2000, 1000 - 4*64, 1000 - 4*65, -400, -8, -4, -2}},
		{"gtS", []int32{1, 2, 64, 65, 100, 0, -5}},
		{"mirror", []int32{1, 2, 64, 65, 300, 0, -3}},
		// Too close to the top for chunks: one iteration at a time.
		{"ltUTop", []int32{-13, -5, -101}},
		{"gtUDown", []int32{100, 101, 108, 116, 100 + 8*64, 100 + 8*65, 100 + 8*64 + 3, 5000}},
		{"wrongDir", []int32{1, 500, 999, 1000}},
		{"down2", []int32{2, 4, 126, 128, 130, 256, 258, 1000}},
		{"down4", []int32{4, 252, 256, 260, 512, 516, 4000}},
		{"down3", []int32{3, 6, 192, 195, 300}},
		{"tailNe", []int32{1, 2, 64, 65, 130, 1000}},
		{"tailLtU", []int32{0, 1, 2, 64, 65, 129, 1000}},
		{"tailDown", []int32{1, 64, 65, 100}},
	}
	for _, tc := range tests {
		for _, n := range tc.args {
			sameAsPlain(t, ctx, ref, guarded, tc.fn, uint64(uint32(n)))
		}
	}
}

// plainAndBatched instruments plain with batchOpts, checks the numbers of
// batched and chunked loops, and instantiates both modules.
func plainAndBatched(t *testing.T, plain []byte, batched, chunked int) (context.Context, api.Module, api.Module) {
	t.Helper()
	out, st := mustInstrument(t, plain, batchOpts())
	if st.BatchedLoops != batched || st.ChunkedLoops != chunked {
		t.Fatalf("stats %+v, want %d loops batched, %d of them chunked", st, batched, chunked)
	}
	ctx, r := newEHRuntime(t)
	return ctx, instantiate(t, ctx, r, plain, "plain"), instantiate(t, ctx, r, out, "guarded")
}

// sameAsPlain calls fn(arg) on the unguarded module ref and on guarded, and
// checks that both return the same and run the same loop bodies.
func sameAsPlain(t *testing.T, ctx context.Context, ref, guarded api.Module, fn string, arg uint64) {
	t.Helper()
	before := [2]uint32{ticks(t, ref), ticks(t, guarded)}
	want, err := invoke(t, ctx, ref, fn, arg)
	if err != nil {
		t.Fatalf("plain %s(%d): %v", fn, int32(arg), err)
	}
	got, err := invoke(t, ctx, guarded, fn, arg)
	if err != nil {
		t.Fatalf("guarded %s(%d): %v", fn, int32(arg), err)
	}
	bodies := [2]uint32{ticks(t, ref) - before[0], ticks(t, guarded) - before[1]}
	if got[0] != want[0] || bodies[0] != bodies[1] {
		t.Errorf("%s(%d) = %d after %d loop bodies, want %d after %d", fn, int32(arg), int32(got[0]), bodies[1], int32(want[0]), bodies[0])
	}
}

// TestChunkedLoopsKill spins each counted loop with the kill switch set,
// including counts no chunk can finish (down from 0 runs 2^32 iterations;
// bytes from 2 and downStep from an odd number never meet their bound and
// run for ever): each must trap after the same number of loop bodies as a
// batched loop, ceil(YieldEvery/Batch) full chunks.
func TestChunkedLoopsKill(t *testing.T) {
	out, _ := mustInstrument(t, countedModule(), batchOpts())
	ctx, r := newEHRuntime(t)
	cm, err := r.CompileModule(ctx, out)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	const full = 16 * batchSize // 1000/64 rounded up
	for _, tc := range []struct {
		fn   string
		n    int32
		want uint32
	}{
		{"down", 0, full}, {"down", 1 << 30, full}, {"downAdd", 0, full}, {"upSum", 0, full}, {"upSum", 1 << 30, full},
		{"bytes", 2, full}, {"bytes", 1004, full}, {"downStep", 7, full}, {"downStep", 1 << 30, full},
		{"readsK", 0, full}, {"step3", 1000, full}, {"continue", 0, full},
		{"mirror", 1 << 30, full}, {"gtUDown", 1 << 30, full},
		// Down by 2 from 0 is 2^31 iterations; from an odd number, and
		// down by 4 from 6, zero is never reached.
		{"down2", 0, full}, {"down2", 7, full}, {"down4", 6, full}, {"down4", 1 << 30, full},
		{"tailNe", 0, full}, {"tailLtU", 1 << 30, full}, {"tailDown", 0, full},
		// From INT_MIN the first step wraps to INT_MAX: that iteration is
		// a chunk of its own (counted as a batch), then 15 full chunks.
		{"gtS", -1 << 31, 1 + 15*batchSize},
		// Towards a bound too close to the top, a chunk ends early where
		// its end would wrap: from -2000 by 4 towards 0xfffffffe, 7 full
		// chunks (1998 > 7*256), then one iteration at a time, each
		// counted as a batch (global 1000-7*64 = 552 lasts 9 of them): the
		// guest yields sooner, not later.
		{"ltUTop", 0, full}, {"ltUTop", -2000, 7*batchSize + 9},
	} {
		mod, err := r.InstantiateModule(ctx, cm, wazero.NewModuleConfig().WithName(""))
		if err != nil {
			t.Fatal(err)
		}
		trapsAfter(t, ctx, mod, tc.fn, uint64(uint32(tc.n)), tc.want)
		mod.Close(ctx)
	}
	// A spinning counted loop is killed from another goroutine while
	// garbage collections run, as the batched ones are.
	killWithGC(t, ctx, r, countedModule(), "down/chunked", "down")
}

// trapsAfter calls fn(arg) on mod with the kill switch on and checks that
// it traps after exactly want loop bodies (tick calls).
func trapsAfter(t *testing.T, ctx context.Context, mod api.Module, fn string, arg uint64, want uint32) {
	t.Helper()
	killSwitch(t, mod).Set(1)
	_, err := invoke(t, ctx, mod, fn, arg)
	if err == nil || !strings.Contains(err.Error(), "unreachable") {
		t.Errorf("%s(%d) = %v, want an unreachable trap", fn, arg, err)
	} else if got := ticks(t, mod); got != want {
		t.Errorf("%s(%d) trapped after %d loop bodies, want %d", fn, arg, got, want)
	}
}

// killWithGC instruments plain with batchOpts and pybox's yield interval,
// and kills its spinning function fn from another goroutine while garbage
// collections run (killOne).
func killWithGC(t *testing.T, ctx context.Context, r wazero.Runtime, plain []byte, name, fn string) {
	t.Helper()
	opts := batchOpts()
	opts.YieldEvery = 16384
	out, _ := mustInstrument(t, plain, opts)
	cm, err := r.CompileModule(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	killOne(t, ctx, r, cm, name, fn)
}

// TestChunkedLoopsInsertedCode pins the code of a counted loop of each kind.
func TestChunkedLoopsInsertedCode(t *testing.T) {
	out, _ := mustInstrument(t, countedModule(), batchOpts())
	yieldPath := batchYieldPath(1, 0) // globals: kill 0, countdown 1
	ltU := []byte{0x49}
	ifEmpty, ifI32, els := []byte{0x04, empty}, []byte{0x04, i32}, []byte{0x05}
	// down(n): count local 1.
	down := cat(vec(cat(u32(1), []byte{i32})),
		block(empty), loop(empty),
		localGet(0), i32Const(-1), i32Add, i32Const(batchSize), ltU, ifEmpty,
		localGet(0), localSet(1), i32Const(0), localSet(0),
		els, i32Const(batchSize), localSet(1), localGet(0), i32Const(batchSize), i32Sub, localSet(0), end,
		block(empty), loop(empty), call(cTick), localGet(1), i32Const(1), i32Sub, localTee(1), brIf(0), end,
		localGet(0), brIf(0), yieldPath,
		localGet(0), end)
	// downStep(n): locals 1-3, count local 4, bound local 1, step -2.
	downStep := cat(vec(cat(u32(3), []byte{i32}), cat(u32(1), []byte{i32})),
		i32Const(0), localSet(1),
		block(empty), loop(empty),
		localGet(0), localGet(1), i32Sub, localTee(4), i32Const(-1), i32Add, i32Const(2*batchSize), ltU,
		localGet(4), i32Const(1), i32And, []byte{0x45}, i32And, ifI32,
		localGet(1), els, localGet(0), i32Const(-2*batchSize), i32Add, end, localSet(4),
		block(empty), loop(empty), call(cTick), localGet(0), i32Const(-2), i32Add, localTee(0), localGet(4), i32Ne, brIf(0), end,
		localGet(0), localGet(1), i32Ne, brIf(0), yieldPath,
		localGet(0), end)
	// ltU(n): count local 1, bound 1000, step 4.
	leU := []byte{0x4d}
	ltUBody := cat(vec(cat(u32(1), []byte{i32})),
		block(empty), loop(empty),
		i32Const(1000), localGet(0), i32Sub, i32Const(-1), i32Add, i32Const(4*batchSize), ltU,
		i32Const(1000), i32Const(-4), leU, i32And, ifI32,
		i32Const(1000), els, localGet(0), i32Const(4*batchSize), i32Add,
		i32Const(0), localGet(0), i32Const(1000), ltU, selectOp, end, localSet(1),
		block(empty), loop(empty), call(cTick), localGet(0), i32Const(4), i32Add, localTee(0), localGet(1), ltU, brIf(0), end,
		localGet(0), i32Const(1000), ltU, brIf(0), yieldPath,
		localGet(0), end)
	for name, want := range map[string][]byte{"down": down, "downStep": downStep, "ltU": ltUBody} {
		if !strings.Contains(string(out), string(cat(u32(uint32(len(want))), want))) {
			t.Errorf("instrumented module lacks %s's body % x", name, want)
		}
	}
	// Without Batch, counted loops are outlined on the global like any
	// other.
	_, st := mustInstrument(t, countedModule(), loopguard.Options{YieldEvery: batchYield, Outline: true})
	if st.ChunkedLoops != 0 || st.BatchedLoops != 0 {
		t.Fatalf("without Batch: stats %+v, want no loop batched or chunked", st)
	}
}

// TestChunkedLoopsRandom compares guarded and unguarded step loops of every
// recognised test, step and operand order on random starts and bounds
// drawn near the places where arithmetic wraps (0, 2^31, 2^32) and near
// each other, skipping those that would run for long.
func TestChunkedLoopsRandom(t *testing.T) {
	type shape struct {
		cmp        byte
		step       int32
		boundFirst bool
	}
	var shapes []shape
	for _, cmp := range []byte{0x47, 0x48, 0x49, 0x4a, 0x4b} { // ne, lt_s, lt_u, gt_s, gt_u
		for _, step := range []int32{1, 2, 8, -1, -4} {
			if (cmp == 0x48 || cmp == 0x49) && step < 0 || (cmp == 0x4a || cmp == 0x4b) && step > 0 {
				continue
			}
			shapes = append(shapes, shape{cmp, step, false}, shape{cmp, step, true})
		}
	}
	// The bound-first form compares n with i': mirror the test.
	mirror := map[byte]byte{0x47: 0x47, 0x48: 0x4a, 0x49: 0x4b, 0x4a: 0x48, 0x4b: 0x49}
	tick := body(nil, i32Const(0), i32Const(0), op(opI32Load, memarg(2, 0)), i32Const(1), i32Add, op(opI32Store, memarg(2, 0)), end)
	bodies := [][]byte{tick}
	funcs := [][]byte{u32(0)}
	exports := [][]byte{exportEntry("mem", kindMemory, 0)}
	for k, sh := range shapes {
		inc := cat(localGet(0), i32Const(sh.step), i32Add, localTee(0))
		test := cat(inc, localGet(1), []byte{sh.cmp})
		if sh.boundFirst {
			test = cat(localGet(1), inc, []byte{mirror[sh.cmp]})
		}
		bodies = append(bodies, body(nil, loop(empty), call(0), test, brIf(0), end, localGet(0), end))
		funcs = append(funcs, u32(1))
		exports = append(exports, exportEntry(fmt.Sprintf("f%d", k), kindFunc, uint32(k+1)))
	}
	plain := module(
		section(secType, vec(funcType(nil, nil), funcType([]byte{i32, i32}, []byte{i32}))),
		section(secFunction, vec(funcs...)),
		section(secMemory, vec([]byte{0x00, 0x01})),
		section(secExport, vec(exports...)),
		section(secCode, vec(bodies...)),
	)
	out, st := mustInstrument(t, plain, batchOpts())
	if st.ChunkedLoops != len(shapes) {
		t.Fatalf("%d of %d loops chunked", st.ChunkedLoops, len(shapes))
	}
	ctx, r := newEHRuntime(t)
	ref := instantiate(t, ctx, r, plain, "plain")
	guarded := instantiate(t, ctx, r, out, "guarded")
	// iterations returns how many bodies the loop runs from i0 towards n,
	// or -1 if more than limit.
	holds := func(cmp byte, a, b uint32) bool {
		switch cmp {
		case 0x47:
			return a != b
		case 0x48:
			return int32(a) < int32(b)
		case 0x49:
			return a < b
		case 0x4a:
			return int32(a) > int32(b)
		}
		return a > b
	}
	const limit = 5000
	iterations := func(sh shape, i0, n uint32) int {
		i := i0
		for k := 1; k <= limit; k++ {
			i += uint32(sh.step)
			if !holds(sh.cmp, i, n) {
				return k
			}
		}
		return -1
	}
	rng := rand.New(rand.NewPCG(1, 2))
	anchors := []uint32{0, 1 << 31, 1<<32 - 1, 1000}
	near := func() uint32 { return anchors[rng.IntN(len(anchors))] + uint32(rng.IntN(2*limit)-limit) }
	ran := 0
	for trial := 0; trial < 4000; trial++ {
		k := rng.IntN(len(shapes))
		sh := shapes[k]
		i0 := near()
		n := i0 + uint32(int32(rng.IntN(6*limit)-3*limit))
		if rng.IntN(2) == 0 {
			n = near()
		}
		want := iterations(sh, i0, n)
		if want < 0 {
			continue
		}
		ran++
		fn := fmt.Sprintf("f%d", k)
		before := [2]uint32{ticks(t, ref), ticks(t, guarded)}
		w, err1 := invoke(t, ctx, ref, fn, uint64(i0), uint64(n))
		g, err2 := invoke(t, ctx, guarded, fn, uint64(i0), uint64(n))
		if err1 != nil || err2 != nil {
			t.Fatalf("%+v from %#x to %#x: %v, %v", sh, i0, n, err1, err2)
		}
		bodies := [2]uint32{ticks(t, ref) - before[0], ticks(t, guarded) - before[1]}
		if w[0] != g[0] || bodies[0] != bodies[1] || int(bodies[0]) != want {
			t.Fatalf("%+v from %#x to %#x: guarded %#x after %d bodies, unguarded %#x after %d, want %d bodies",
				sh, i0, n, g[0], bodies[1], w[0], bodies[0], want)
		}
	}
	if ran < 1000 {
		t.Fatalf("only %d of 4000 trials ran", ran)
	}
}
