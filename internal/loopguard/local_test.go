package loopguard_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/pybox-dev/pybox/internal/loopguard"
)

// Tests of Options.LocalCountdown: the countdown lives in a local of each
// instrumented function and is synchronised with the global around calls,
// returns and throws. The property that matters is that the countdown stays
// one program-wide count: with the kill switch set before the call, the
// guest traps at its YieldEvery-th loop iteration counted over every loop it
// runs, however the iterations are spread over nested loops, callers,
// callees, recursion, calls from the host and exceptions. Every loop body of
// the module below first calls tick, which counts loop-body entries in
// memory, so after the trap the count must be exactly YieldEvery-1, with the
// global countdown and with the local one alike.

const (
	fTick = iota
	fLoopN
	fNested
	fCalls
	fRecurse
	fManyLocals
	fMulti
	fThrower
	fMiddle
	fCatcher
	fTailLoop
)

const (
	tVoidI32   = 0 // (i32) -> ()
	tVoid      = 1 // () -> ()
	tPair      = 2 // (i32 i32) -> (i32 i32), a multi-value loop type
	tI32I32    = 3 // (i32) -> (i32)
	secTagID   = 13
	opI32Load  = 0x28
	opI32Store = 0x36
	opI64Load  = 0x29
)

// decr emits local[i] -= 1 leaving the new value on the stack.
func decr(i uint32) []byte { return cat(localGet(i), i32Const(1), i32Sub, localTee(i)) }

// shapesModule builds the module described by the f* constants:
//
//	tick()           mem[0] += 1 (no loop)
//	loopN(n)         n iterations
//	nested(n)        n outer iterations; the k-th (from 0) has n-k inner ones
//	calls(n)         n iterations, each calling loopN(3)
//	recurse(n)       returns at once (br_if to the function label) when n
//	                 is 0, else loopN(2), one own iteration, recurse(n-1),
//	                 loopN(2): 5 iterations per level
//	manyLocals(n)    n iterations counting in local 204 (after 200 i64 and
//	                 3 f32 locals) and local 150; returns local 150
//	multi(n)         a loop of type (i32 i32) -> (i32 i32) carrying an
//	                 accumulator and the count on the stack; returns n
//	thrower(n)       n iterations, then throws the tag
//	middle(n)        one iteration, then thrower(n) (unwound through)
//	catcher(n)       n iterations, each catching the throw of middle(3)
//	                 in a try_table: 5 iterations each
//	tailLoop(n)      one iteration, then return_call loopN(n)
func shapesModule() []byte {
	tick := body(nil, i32Const(0), i32Const(0), op(opI32Load, memarg(2, 0)), i32Const(1), i32Add, op(opI32Store, memarg(2, 0)), end)
	loopN := body(nil, loop(empty), call(fTick), decr(0), brIf(0), end, end)
	nested := body([][2]byte{{1, i32}},
		loop(empty), call(fTick),
		localGet(0), localSet(1),
		loop(empty), call(fTick), decr(1), brIf(0), end,
		decr(0), brIf(0), end, end)
	calls := body(nil, loop(empty), call(fTick), i32Const(3), call(fLoopN), decr(0), brIf(0), end, end)
	recurse := body(nil,
		localGet(0), []byte{0x45}, brIf(0), // i32.eqz br_if 0: leaves the function
		i32Const(2), call(fLoopN),
		loop(empty), call(fTick), end,
		localGet(0), i32Const(1), i32Sub, call(fRecurse),
		i32Const(2), call(fLoopN), end)
	manyLocals := body([][2]byte{{200, i64}, {3, f32}, {1, i32}},
		localGet(0), localSet(204),
		loop(empty), call(fTick),
		localGet(150), i64Const(1), i64Add, localSet(150),
		decr(204), brIf(0), end,
		localGet(150), wrapI64, end)
	multi := body([][2]byte{{1, i32}},
		i32Const(0), localGet(0), // acc, count
		loop(tPair), call(fTick),
		localSet(1), i32Const(1), i32Add, decr(1), localGet(1), brIf(0),
		end,
		[]byte{0x1a}, end) // drop the count, return acc
	thrower := body(nil, loop(empty), call(fTick), decr(0), brIf(0), end, op(0x08, u32(0)), end)
	middle := body(nil, loop(empty), call(fTick), end, localGet(0), call(fThrower), end)
	catcher := body(nil,
		loop(empty), call(fTick),
		block(empty),
		[]byte{0x1f, empty}, vec([]byte{0x02, 0x00}), // try_table (catch_all 0)
		i32Const(3), call(fMiddle),
		end, end,
		decr(0), brIf(0), end, end)
	tailLoop := body(nil, loop(empty), call(fTick), end, localGet(0), op(0x12, u32(fLoopN)), end)

	names := []string{"tick", "loopN", "nested", "calls", "recurse", "manyLocals", "multi", "thrower", "middle", "catcher", "tailLoop"}
	var exports [][]byte
	for i, n := range names {
		exports = append(exports, exportEntry(n, kindFunc, uint32(i)))
	}
	exports = append(exports, exportEntry("mem", kindMemory, 0))
	return module(
		shapeTypes(),
		section(secFunction, vec(u32(tVoid), u32(tVoidI32), u32(tVoidI32), u32(tVoidI32), u32(tVoidI32),
			u32(tI32I32), u32(tI32I32), u32(tVoidI32), u32(tVoidI32), u32(tVoidI32), u32(tVoidI32))),
		section(secMemory, vec([]byte{0x00, 0x01})),
		section(secTagID, vec([]byte{0x00, tVoid})),
		section(secExport, vec(exports...)),
		section(secCode, vec(tick, loopN, nested, calls, recurse, manyLocals, multi, thrower, middle, catcher, tailLoop)),
	)
}

// shapeTypes is the type section of shapesModule and countedModule, in the
// order of the t* constants.
func shapeTypes() []byte {
	return section(secType, vec(
		funcType([]byte{i32}, nil),
		funcType(nil, nil),
		funcType([]byte{i32, i32}, []byte{i32, i32}),
		funcType([]byte{i32}, []byte{i32})))
}

func newEHRuntime(t testing.TB) (context.Context, wazero.Runtime) {
	t.Helper()
	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().
		WithCoreFeatures(api.CoreFeaturesV2|experimental.CoreFeaturesExceptionHandling|experimental.CoreFeaturesTailCall))
	t.Cleanup(func() { r.Close(ctx) })
	return ctx, r
}

func ticks(t *testing.T, mod api.Module) uint32 {
	t.Helper()
	b, ok := mod.Memory().Read(0, 4)
	if !ok {
		t.Fatal("cannot read mem[0]")
	}
	return binary.LittleEndian.Uint32(b)
}

// TestLocalCountdownShapes checks the program-wide count described above,
// and that the instrumented functions still compute what they did.
func TestLocalCountdownShapes(t *testing.T) {
	const yield = 1000
	type call struct {
		fn   string
		n    uint64
		want int64 // result, -1 for none
	}
	tests := []struct {
		name string
		// warm runs with the kill switch off first (its iterations count
		// towards the countdown), then spin runs with it on and must trap.
		warm  []call
		spin  call
		ticks uint32 // iterations of warm (checked before spin)
	}{
		{"tight loop", nil, call{"loopN", 1 << 30, -1}, 0},
		{"nested", []call{{"nested", 10, -1}}, call{"nested", 1 << 20, -1}, 10 + 55},
		{"loop with calls", []call{{"calls", 7, -1}}, call{"calls", 1 << 30, -1}, 28},
		{"recursion", []call{{"recurse", 9, -1}}, call{"recurse", 1000, -1}, 45},
		{"many locals", []call{{"manyLocals", 77, 77}}, call{"manyLocals", 1 << 30, -1}, 77},
		{"multi-value loop", []call{{"multi", 50, 50}}, call{"multi", 1 << 30, -1}, 50},
		{"try_table catching a throw through a guarded frame", []call{{"catcher", 20, -1}}, call{"catcher", 1 << 30, -1}, 100},
		{"return_call", []call{{"tailLoop", 30, -1}}, call{"tailLoop", 1 << 30, -1}, 31},
		{"mixed", []call{{"calls", 3, -1}, {"nested", 5, -1}, {"catcher", 2, -1}, {"recurse", 4, -1}, {"multi", 9, 9}}, call{"recurse", 1000, -1}, 12 + 5 + 15 + 10 + 20 + 9},
	}
	for _, mode := range []struct {
		name           string
		local, outline bool
	}{{"inline", false, false}, {"outlined", false, true}, {"local", true, false}} {
		out, st := mustInstrument(t, shapesModule(), loopguard.Options{YieldEvery: yield, LocalCountdown: mode.local, Outline: mode.outline})
		// Every function with a loop is instrumented; only catcher (which
		// has a handler) keeps the global countdown in local mode.
		if st.InstrumentedFunctions != 10 || st.Loops != 11 {
			t.Fatalf("%s: stats %+v, want 10 instrumented functions and 11 loops", mode.name, st)
		}
		if wantLocal := map[bool]int{false: 0, true: 9}[mode.local]; st.LocalFunctions != wantLocal {
			t.Fatalf("%s: LocalFunctions = %d, want %d", mode.name, st.LocalFunctions, wantLocal)
		}
		ctx, r := newEHRuntime(t)
		cm, err := r.CompileModule(ctx, out) // validates
		if err != nil {
			t.Fatalf("%s: compile: %v", mode.name, err)
		}
		for _, tc := range tests {
			t.Run(mode.name+"/"+tc.name, func(t *testing.T) {
				mod, err := r.InstantiateModule(ctx, cm, wazero.NewModuleConfig().WithName(""))
				if err != nil {
					t.Fatal(err)
				}
				defer mod.Close(ctx)
				for _, c := range tc.warm {
					res, err := invoke(t, ctx, mod, c.fn, c.n)
					if err != nil {
						t.Fatalf("%s(%d): %v", c.fn, c.n, err)
					}
					if c.want >= 0 && (len(res) != 1 || int64(res[0]) != c.want) {
						t.Fatalf("%s(%d) = %v, want %d", c.fn, c.n, res, c.want)
					}
				}
				if got := ticks(t, mod); got != tc.ticks {
					t.Fatalf("%d iterations before the spin, want %d", got, tc.ticks)
				}
				killSwitch(t, mod).Set(1)
				_, err = invoke(t, ctx, mod, tc.spin.fn, tc.spin.n)
				if err == nil || !strings.Contains(err.Error(), "unreachable") {
					t.Fatalf("%s(%d) = %v, want an unreachable trap", tc.spin.fn, tc.spin.n, err)
				}
				if got := ticks(t, mod); got != yield-1 {
					t.Fatalf("trapped after %d iterations, want %d (the %dth iteration yields and sees the switch)", got, yield-1, yield)
				}
			})
		}
	}
}

// TestLocalCountdownKill kills a tight loop and a loop that calls a looping
// function from another goroutine while garbage collections run, as
// TestKillSpinningLoop does for the global countdown.
func TestLocalCountdownKill(t *testing.T) {
	for _, opts := range []loopguard.Options{{YieldEvery: 16384, Outline: true}, {YieldEvery: 16384, LocalCountdown: true}} {
		out, _ := mustInstrument(t, shapesModule(), opts)
		ctx, r := newEHRuntime(t)
		cm, err := r.CompileModule(ctx, out)
		if err != nil {
			t.Fatal(err)
		}
		for _, fn := range []string{"loopN", "calls", "nested", "catcher"} {
			killOne(t, ctx, r, cm, fmt.Sprintf("%s/local=%v", fn, opts.LocalCountdown), fn)
		}
	}
}

func killOne(t *testing.T, ctx context.Context, r wazero.Runtime, cm wazero.CompiledModule, name, fn string) {
	{
		t.Run(name, func(t *testing.T) {
			mod, err := r.InstantiateModule(ctx, cm, wazero.NewModuleConfig().WithName(""))
			if err != nil {
				t.Fatal(err)
			}
			defer mod.Close(ctx)
			kill := killSwitch(t, mod)
			done := make(chan error, 1)
			go func() {
				_, err := mod.ExportedFunction(fn).Call(ctx, 1<<31-1)
				done <- err
			}()
			// Wait until the guest has run a good number of iterations
			// (and so yielded), collecting garbage all the while.
			for ticks(t, mod) < 1<<20 {
				select {
				case err := <-done:
					t.Fatalf("%s returned early: %v", fn, err)
				default:
				}
				runtime.GC()
			}
			kill.Set(1)
			if err := <-done; err == nil || !strings.Contains(err.Error(), "unreachable") {
				t.Fatalf("%s: %v, want an unreachable trap", fn, err)
			}
		})
	}
}

// TestCountdownsValidate checks the test modules instrumented with the
// local, outlined and batched countdowns with wasm-tools when it is
// installed (wazero already validated them in the other tests).
func TestCountdownsValidate(t *testing.T) {
	tool, err := exec.LookPath("wasm-tools")
	if err != nil {
		t.Skip("wasm-tools not installed")
	}
	modes := map[string]loopguard.Options{
		"LocalCountdown": {YieldEvery: 7, LocalCountdown: true},
		"Outline":        {YieldEvery: 7, Outline: true},
		"Batch":          {YieldEvery: 7, Outline: true, Batch: 3},
	}
	for i, m := range append(seedModules(), shapesModule(), sumModule()) {
		for name, opts := range modes {
			out, _, err := loopguard.Instrument(m, opts)
			if err != nil && strings.Contains(err.Error(), "needs a memory") {
				continue
			}
			if err != nil {
				t.Fatalf("module %d, %s: %v", i, name, err)
			}
			path := filepath.Join(t.TempDir(), "m.wasm")
			if err := os.WriteFile(path, out, 0o644); err != nil {
				t.Fatal(err)
			}
			if msg, err := exec.Command(tool, "validate", "--features", "all", path).CombinedOutput(); err != nil {
				t.Fatalf("module %d, %s: wasm-tools validate: %v\n%s", i, name, err, msg)
			}
		}
	}
}

// TestLocalCountdownInsertedCode pins the code around a call in a loop.
func TestLocalCountdownInsertedCode(t *testing.T) {
	out, _ := mustInstrument(t, shapesModule(), loopguard.Options{YieldEvery: 300, LocalCountdown: true})
	const c, ctr, kill = 1, 1, 0 // calls(n): countdown local 1; globals: kill 0, countdown 1
	load := cat(globalGet(ctr), localSet(c))
	save := cat(localGet(c), globalSet(ctr))
	// The loop is wrapped as block $exit (loop $outer (block $yield (loop
	// ...))): the check leaves it for the yield path, which re-enters it.
	check := cat(localGet(c), i32Const(1), i32Sub, localTee(c), []byte{0x45}, brIf(1))
	yieldPath := cat(br(2), end, // to $exit; end of $yield
		i32Const(301), localSet(c), i32Const(0), []byte{0x40, 0x00, 0x1a},
		globalGet(kill), []byte{0x04, empty}, unreachable, end,
		br(0), end, end) // to $outer; end of $outer, of $exit
	want := cat(vec(cat(u32(1), []byte{i32})), load,
		block(empty), loop(empty), block(empty),
		loop(empty), check,
		call(fTick), // tick has no loop and calls nothing: no write-back, no reload
		i32Const(3), save, call(fLoopN), load,
		decr(0), brIf(0), end,
		yieldPath, save, end)
	if !strings.Contains(string(out), string(cat(u32(uint32(len(want))), want))) {
		t.Fatalf("instrumented module lacks body % x", want)
	}
}

// sumModule has sum(n) -> i32: a loop of n iterations over memory keeping
// five values live in registers (index, three accumulators, n), like the
// inner loops of a tokenizer or of numpy's element-wise kernels.
func sumModule() []byte {
	load := op(opI32Load, memarg(2, 0))
	code := body([][2]byte{{4, i32}}, // 1 i, 2 a, 3 b, 4 c
		loop(empty),
		localGet(2), localGet(1), i32Const(0xffc), i32And, load, i32Add, localSet(2),
		localGet(3), localGet(1), []byte{0x73}, localGet(2), i32Add, localSet(3), // b = (b ^ i) + a
		localGet(4), localGet(3), i32Const(3), []byte{0x6c}, i32Add, localSet(4), // c += b * 3
		localGet(1), i32Const(4), i32Add, localTee(1), localGet(0), i32Ne, brIf(0),
		end,
		localGet(2), localGet(3), i32Add, localGet(4), i32Add, end)
	return module(
		section(secType, vec(funcType([]byte{i32}, []byte{i32}))),
		section(secFunction, vec(u32(0))),
		section(secMemory, vec([]byte{0x00, 0x01})),
		section(secExport, vec(exportEntry("sum", kindFunc, 0))),
		section(secCode, vec(code)),
	)
}

// BenchmarkLoopCost reports the cost per loop iteration of sumModule's loop
// uninstrumented, with the kill check only, and with the global and the
// local countdown. Run with -bench LoopCost -count 5 and compare side by
// side.
func BenchmarkLoopCost(b *testing.B) {
	const iters = 1 << 20
	for _, v := range []struct {
		name string
		opts *loopguard.Options
	}{
		{"none", nil},
		{"kill-only", &loopguard.Options{}},
		{"global", &loopguard.Options{YieldEvery: 16384}},
		{"local", &loopguard.Options{YieldEvery: 16384, LocalCountdown: true}},
	} {
		b.Run(v.name, func(b *testing.B) {
			wasm := sumModule()
			if v.opts != nil {
				wasm, _ = mustInstrument(b, wasm, *v.opts)
			}
			ctx, r := newRuntime(b)
			mod := instantiate(b, ctx, r, wasm, "")
			f := mod.ExportedFunction("sum")
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := f.Call(ctx, iters*4); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/iters, "ns/iter")
		})
	}
}

// sumOutlined is sumModule's loop with a local countdown whose yield is
// outside the loop: block $exit (loop $outer (block $yield (loop $L
// check br_if $yield; body) br $exit) yield br $outer)).
func sumOutlined() []byte {
	load := op(opI32Load, memarg(2, 0))
	code := body([][2]byte{{5, i32}}, // 1 i, 2 a, 3 b, 4 c, 5 countdown
		i32Const(16384), localSet(5),
		block(empty), loop(empty), block(empty),
		loop(empty),
		localGet(5), i32Const(1), i32Sub, localTee(5), []byte{0x45}, brIf(1),
		localGet(2), localGet(1), i32Const(0xffc), i32And, load, i32Add, localSet(2),
		localGet(3), localGet(1), []byte{0x73}, localGet(2), i32Add, localSet(3),
		localGet(4), localGet(3), i32Const(3), []byte{0x6c}, i32Add, localSet(4),
		localGet(1), i32Const(4), i32Add, localTee(1), localGet(0), i32Ne, brIf(0),
		end,
		br(2),
		end,
		i32Const(16384), localSet(5), i32Const(0), []byte{0x40, 0x00, 0x1a},
		globalGet(0), []byte{0x04, empty}, unreachable, end,
		br(0),
		end, end,
		localGet(2), localGet(3), i32Add, localGet(4), i32Add, end)
	return module(
		section(secType, vec(funcType([]byte{i32}, []byte{i32}))),
		section(secFunction, vec(u32(0))),
		section(secMemory, vec([]byte{0x00, 0x01})),
		section(secGlobal, vec([]byte{i32, 0x01, 0x41, 0x00, 0x0b})),
		section(secExport, vec(exportEntry("sum", kindFunc, 0))),
		section(secCode, vec(code)),
	)
}

func BenchmarkLoopOutlined(b *testing.B) {
	const iters = 1 << 20
	ctx, r := newRuntime(b)
	mod := instantiate(b, ctx, r, sumOutlined(), "")
	f := mod.ExportedFunction("sum")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := f.Call(ctx, iters*4); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/iters, "ns/iter")
}
