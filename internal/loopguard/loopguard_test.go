package loopguard_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/pybox-dev/pybox/internal/loopguard"
)

// ---------------------------------------------------------------------------
// A tiny assembler for the WebAssembly binary format, enough to hand-build the
// test modules (no wat2wasm here).

func u32(v uint32) []byte { // unsigned LEB128
	var b []byte
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func sleb(v int64) []byte { // signed LEB128
	var b []byte
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

func vec(items ...[]byte) []byte { return cat(u32(uint32(len(items))), cat(items...)) }
func str(s string) []byte        { return cat(u32(uint32(len(s))), []byte(s)) }

func section(id byte, payload ...[]byte) []byte {
	p := cat(payload...)
	return cat([]byte{id}, u32(uint32(len(p))), p)
}

func customSection(name string, payload ...[]byte) []byte {
	return section(0, str(name), cat(payload...))
}

func module(sections ...[]byte) []byte {
	return cat([]byte("\x00asm\x01\x00\x00\x00"), cat(sections...))
}

// nameSection builds a "name" custom section with function names (subsection 1).
func nameSection(funcNames ...string) []byte {
	var entries [][]byte
	for i, n := range funcNames {
		entries = append(entries, cat(u32(uint32(i)), str(n)))
	}
	sub := vec(entries...)
	return customSection("name", []byte{1}, u32(uint32(len(sub))), sub)
}

func funcType(params, results []byte) []byte {
	return cat([]byte{0x60}, u32(uint32(len(params))), params, u32(uint32(len(results))), results)
}

// body builds a code entry; locals are (count, type) pairs.
func body(locals [][2]byte, code ...[]byte) []byte {
	var ls [][]byte
	for _, l := range locals {
		ls = append(ls, cat(u32(uint32(l[0])), []byte{l[1]}))
	}
	b := cat(vec(ls...), cat(code...))
	return cat(u32(uint32(len(b))), b)
}

func exportEntry(name string, kind byte, idx uint32) []byte {
	return cat(str(name), []byte{kind}, u32(idx))
}

func importEntry(mod, name string, desc ...byte) []byte {
	return cat(str(mod), str(name), desc)
}

const (
	i32  = 0x7f
	i64  = 0x7e
	f32  = 0x7d
	f64  = 0x7c
	v128 = 0x7b

	empty = 0x40 // empty block type

	secType     = 1
	secImport   = 2
	secFunction = 3
	secTable    = 4
	secMemory   = 5
	secGlobal   = 6
	secExport   = 7
	secStart    = 8
	secElement  = 9
	secCode     = 10
	secData     = 11
	secDataCnt  = 12

	kindFunc   = 0
	kindMemory = 2
	kindGlobal = 3
)

// Instructions.
func op(code byte, imm ...[]byte) []byte { return cat([]byte{code}, cat(imm...)) }

var (
	end         = []byte{0x0b}
	unreachable = []byte{0x00}
	i32Add      = []byte{0x6a}
	i32Sub      = []byte{0x6b}
	i32And      = []byte{0x71}
	i32LtS      = []byte{0x48}
	i32GtS      = []byte{0x4a}
	i32Ne       = []byte{0x47}
	i64Add      = []byte{0x7c}
	i64Xor      = []byte{0x85}
	f64Add      = []byte{0xa0}
	wrapI64     = []byte{0xa7}
	extendI32S  = []byte{0xac}
	extendI32U  = []byte{0xad}
	selectOp    = []byte{0x1b}
)

func block(bt byte) []byte            { return []byte{0x02, bt} }
func loop(bt byte) []byte             { return []byte{0x03, bt} }
func br(l uint32) []byte              { return op(0x0c, u32(l)) }
func brIf(l uint32) []byte            { return op(0x0d, u32(l)) }
func call(f uint32) []byte            { return op(0x10, u32(f)) }
func localGet(i uint32) []byte        { return op(0x20, u32(i)) }
func localSet(i uint32) []byte        { return op(0x21, u32(i)) }
func localTee(i uint32) []byte        { return op(0x22, u32(i)) }
func globalGet(i uint32) []byte       { return op(0x23, u32(i)) }
func globalSet(i uint32) []byte       { return op(0x24, u32(i)) }
func i32Const(v int32) []byte         { return op(0x41, sleb(int64(v))) }
func i64Const(v int64) []byte         { return op(0x42, sleb(v)) }
func f32Bits(bits uint32) []byte      { return op(0x43, binary.LittleEndian.AppendUint32(nil, bits)) }
func f64Bits(bits uint64) []byte      { return op(0x44, binary.LittleEndian.AppendUint64(nil, bits)) }
func memarg(align, off uint32) []byte { return cat(u32(align), u32(off)) }
func fd(sub uint32, imm ...[]byte) []byte {
	return cat([]byte{0xfd}, u32(sub), cat(imm...))
}
func fc(sub uint32, imm ...[]byte) []byte {
	return cat([]byte{0xfc}, u32(sub), cat(imm...))
}

// ---------------------------------------------------------------------------
// Test modules.

// spinModule has
//
//	func 0 "spin" ()          : loop br 0 end (never returns)
//	func 1 "count" (n) -> i32 : i = 0; loop { i++; br_if (i < n) }; return i
func spinModule() []byte {
	return module(
		section(secType, vec(funcType(nil, nil), funcType([]byte{i32}, []byte{i32}))),
		section(secFunction, vec(u32(0), u32(1))),
		section(secMemory, vec([]byte{0x00, 0x01})),
		section(secExport, vec(exportEntry("spin", kindFunc, 0), exportEntry("count", kindFunc, 1))),
		section(secCode, vec(
			body(nil, loop(empty), br(0), end, end),
			body([][2]byte{{1, i32}},
				loop(empty),
				localGet(1), i32Const(1), i32Add, localTee(1),
				localGet(0), i32LtS, brIf(0),
				end,
				localGet(1), end),
		)),
		nameSection("spin", "count"),
	)
}

// envModule provides the imports of importsModule.
func envModule() []byte {
	return module(
		section(secType, vec(funcType([]byte{i32, i32}, []byte{i32}))),
		section(secFunction, vec(u32(0))),
		section(secGlobal, vec(
			cat([]byte{i32, 0}, i32Const(7), end),   // g_imp = 7
			cat([]byte{i32, 1}, i32Const(100), end), // g_mut = 100
		)),
		section(secExport, vec(
			exportEntry("add", kindFunc, 0),
			exportEntry("g_imp", kindGlobal, 0),
			exportEntry("g_mut", kindGlobal, 1),
		)),
		section(secCode, vec(body(nil, localGet(0), localGet(1), i32Add, end))),
	)
}

// sumBody is sum(n): acc = 0; for i := 1; i <= n; i++ { acc = add(acc, i) }
// with add being function addFunc; returns acc. Locals: 1 acc, 2 i.
func sumBody(addFunc uint32, tail ...[]byte) []byte {
	return body([][2]byte{{2, i32}},
		i32Const(1), localSet(2),
		block(empty),
		loop(empty),
		localGet(2), localGet(0), i32GtS, brIf(1),
		localGet(1), localGet(2), call(addFunc), localSet(1),
		localGet(2), i32Const(1), i32Add, localSet(2),
		br(0),
		end,
		end,
		cat(tail...),
		end)
}

// importsModule imports a function and two globals, defines two globals,
// a memory, exports and data, and has no start function.
//
//	func 1 "sum" (n) -> i32: sum 1..n via env.add + g_imp + g_mut + g3; sets g2
//	func 2 "peek" () -> i32: load8_u(1) + load8_u(4) of the data "hello"
func importsModule() []byte {
	return module(
		section(secType, vec(
			funcType([]byte{i32, i32}, []byte{i32}),
			funcType([]byte{i32}, []byte{i32}),
			funcType(nil, []byte{i32}),
		)),
		section(secImport, vec(
			importEntry("env", "add", kindFunc, 0),
			importEntry("env", "g_imp", kindGlobal, i32, 0),
			importEntry("env", "g_mut", kindGlobal, i32, 1),
		)),
		section(secFunction, vec(u32(1), u32(2))),
		section(secMemory, vec([]byte{0x00, 0x01})),
		section(secGlobal, vec(
			cat([]byte{i32, 1}, i32Const(0), end), // global 2: g2
			cat([]byte{i64, 0}, i64Const(5), end), // global 3: g3
		)),
		section(secExport, vec(
			exportEntry("sum", kindFunc, 1),
			exportEntry("peek", kindFunc, 2),
			exportEntry("mem", kindMemory, 0),
			exportEntry("g2", kindGlobal, 2),
		)),
		section(secCode, vec(
			sumBody(0,
				localGet(1), globalSet(2),
				localGet(1), globalGet(0), i32Add, globalGet(1), i32Add,
				globalGet(3), wrapI64, i32Add),
			body(nil,
				i32Const(0), op(0x2d, memarg(0, 1)),
				i32Const(0), op(0x2d, memarg(0, 4)), i32Add, end),
		)),
		section(secData, vec(cat([]byte{0x00}, i32Const(0), end, str("hello")))),
		customSection("producers", vec()),
	)
}

// bareModule has no global and no export section: its start function runs a
// loop and traps unless sum(1..1000) == 500500, so a successful instantiation
// proves it still computes the same result.
func bareModule() []byte {
	add := body(nil, localGet(0), localGet(1), i32Add, end)
	return module(
		customSection("first", []byte("custom before everything")),
		section(secType, vec(
			funcType([]byte{i32, i32}, []byte{i32}),
			funcType([]byte{i32}, []byte{i32}),
			funcType(nil, nil),
		)),
		section(secFunction, vec(u32(0), u32(1), u32(2))),
		customSection("between", []byte{1, 2, 3}),
		section(secStart, u32(2)),
		section(secCode, vec(
			add,
			sumBody(0, localGet(1)),
			body(nil,
				i32Const(1000), call(1), i32Const(500500), i32Ne,
				op(0x04, []byte{empty}), unreachable, end,
				end),
		)),
		customSection("last", []byte("x")),
	)
}

// bulkModule has a start function, a passive data segment used through a
// datacount section, memory.init and data.drop, and exports "sum" and "mem".
func bulkModule() []byte {
	return module(
		section(secType, vec(
			funcType([]byte{i32, i32}, []byte{i32}),
			funcType([]byte{i32}, []byte{i32}),
			funcType(nil, nil),
		)),
		section(secFunction, vec(u32(0), u32(1), u32(2))),
		section(secMemory, vec([]byte{0x01, 0x01, 0x02})),
		section(secExport, vec(exportEntry("sum", kindFunc, 1), exportEntry("mem", kindMemory, 0))),
		section(secStart, u32(2)),
		section(secDataCnt, u32(1)),
		section(secCode, vec(
			body(nil, localGet(0), localGet(1), i32Add, end),
			sumBody(0, localGet(1), i32Const(0), op(0x2d, memarg(0, 2)), i32Add),
			// start: memory.init 0 (dst 0, src 0, len 5); data.drop 0
			body(nil, i32Const(0), i32Const(0), i32Const(5), fc(8, u32(0), []byte{0}), fc(9, u32(0)), end),
		)),
		section(secData, vec(cat([]byte{0x01}, str("hello")))),
		nameSection("add", "sum", "start"),
	)
}

// mixModule exercises immediates that contain the byte 0x03 and most
// immediate kinds: br_table, f32/f64/i64 constants, memargs, memory.fill and
// memory.copy, select and typed select, call_indirect, a multi-value loop with
// a type-index block type, saturating truncation and sign extension.
// It has exactly 2 loops in "mix" and 1 in "simd".
func mixModule() []byte {
	mix := body([][2]byte{{1, i32}, {1, i64}, {1, f64}, {1, i32}}, // locals 1 i, 2 acc, 3 f, 4 tmp
		// memory.fill(16, 3, 8); memory.copy(32, 16, 8)
		i32Const(16), i32Const(3), i32Const(8), fc(11, []byte{0}),
		i32Const(32), i32Const(16), i32Const(8), fc(10, []byte{0}, []byte{0}),
		// acc = i64.load align=3 offset=3 (29)
		i32Const(29), op(0x29, memarg(3, 3)), localSet(2),
		// tmp = (loop (param i32) (result i32) ...) summing 0..n-1
		i32Const(0),
		[]byte{0x03}, sleb(1), // loop with block type = type index 1 ([i32] -> [i32])
		localGet(1), i32Add,
		localGet(1), i32Const(1), i32Add, localTee(1),
		localGet(0), i32LtS, brIf(0),
		end,
		localSet(4),
		i32Const(0), localSet(1),
		block(empty),
		loop(empty),
		block(empty), block(empty), block(empty), block(empty),
		localGet(1), i32Const(3), i32And,
		op(0x0e, vec(u32(0), u32(1), u32(2)), u32(3)), // br_table 0 1 2 default 3
		end, // case 0
		localGet(2), i64Const(-3), i64Add, localSet(2), br(2),
		end, // case 1
		localGet(3), f64Bits(0x4003030303030303), f64Add, localSet(3), br(1),
		end, // case 2
		localGet(2), i64Const(0x0303030303), i64Xor, localSet(2), br(0),
		end, // case 3 and everyone else
		// acc = (i & 1) ? acc+1 : acc
		localGet(2), i64Const(1), i64Add, localGet(2), localGet(1), i32Const(1), i32And, selectOp, localSet(2),
		// f = i < 5 ? f : 1.5 (typed select)
		localGet(3), f64Bits(math.Float64bits(1.5)), localGet(1), i32Const(5), i32LtS,
		op(0x1c, vec([]byte{f64})), localSet(3),
		// store8 offset=3 (64) = i
		i32Const(64), localGet(1), op(0x3a, memarg(0, 3)),
		// i++; continue while i < n
		localGet(1), i32Const(1), i32Add, localTee(1),
		localGet(0), i32LtS, brIf(0),
		end,
		end,
		// result = acc + tmp + trunc(f) + load8_u offset=3 (64) + triple(3) + trunc(3.0f) + memory.size + ...
		localGet(2),
		localGet(4), extendI32S, i64Add,
		localGet(3), []byte{0xb0}, i64Add, // i64.trunc_f64_s
		i32Const(64), op(0x31, memarg(0, 3)), i64Add, // i64.load8_u
		i32Const(3), i32Const(0), op(0x11, u32(1), u32(0)), extendI32U, i64Add, // call_indirect (type 1) table 0
		f32Bits(0x40400000), []byte{0xa8}, extendI32S, i64Add, // i32.trunc_f32_s 3.0
		[]byte{0x3f, 0x00}, extendI32U, i64Add, // memory.size
		localGet(3), fc(2), extendI32S, i64Add, // i32.trunc_sat_f64_s
		i32Const(0x83), []byte{0xc0}, extendI32S, i64Add, // i32.extend8_s
		end)
	triple := body(nil, localGet(0), i32Const(3), []byte{0x6c}, end) // i32.mul
	simd := body([][2]byte{{1, i32}, {1, v128}},                     // locals 0 i, 1 v
		// mem[0..16] = 03 03 ...
		i32Const(0), fd(0x0c, bytes.Repeat([]byte{3}, 16)), fd(0x0b, memarg(4, 0)),
		// v = shuffle(load(0), const 0..15, lanes 3,19,3,19,...)
		i32Const(0), fd(0x00, memarg(4, 0)),
		fd(0x0c, []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}),
		fd(0x0d, []byte{3, 19, 3, 19, 3, 19, 3, 19, 3, 19, 3, 19, 3, 19, 3, 19}),
		localSet(1),
		// for i = 0; i < 3; i++ { v = i32x4.add(v, v) }
		loop(empty),
		localGet(1), localGet(1), fd(0xae), localSet(1), // i32x4.add (two-byte sub-opcode)
		localGet(0), i32Const(1), i32Add, localTee(0), i32Const(3), i32LtS, brIf(0),
		end,
		localGet(1), fd(0x1b, []byte{3}), // i32x4.extract_lane 3
		i32Const(0), i32Const(0), fd(0x11, nil), fd(0x56, memarg(2, 0), []byte{3}), fd(0x1b, []byte{3}), i32Add, // v128.load32_lane 3
		i32Const(0), fd(0x5c, memarg(2, 0)), fd(0x1b, []byte{0}), i32Add, // v128.load32_zero
		i32Const(7), fd(0x0f), i32Const(9), fd(0x0f), fd(0x6e), fd(0x15, []byte{3}), i32Add, // i8x16.splat, i8x16.add, extract_lane_s 3
		end)
	return module(
		section(secType, vec(
			funcType([]byte{i32}, []byte{i64}), // 0 mix
			funcType([]byte{i32}, []byte{i32}), // 1 triple, loop block type
			funcType(nil, []byte{i32}),         // 2 simd
		)),
		section(secFunction, vec(u32(0), u32(1), u32(2))),
		section(secTable, vec([]byte{0x70, 0x00, 0x01})),
		section(secMemory, vec([]byte{0x00, 0x01})),
		section(secExport, vec(exportEntry("mix", kindFunc, 0), exportEntry("simd", kindFunc, 2))),
		section(secElement, vec(cat([]byte{0x00}, i32Const(0), end, vec(u32(1))))),
		section(secCode, vec(mix, triple, simd)),
	)
}

// ---------------------------------------------------------------------------
// Helpers.

func mustInstrument(t testing.TB, wasm []byte, opts loopguard.Options) ([]byte, loopguard.Stats) {
	t.Helper()
	out, st, err := loopguard.Instrument(wasm, opts)
	if err != nil {
		t.Fatalf("Instrument: %v", err)
	}
	return out, st
}

func newRuntime(t testing.TB) (context.Context, wazero.Runtime) {
	t.Helper()
	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	t.Cleanup(func() { r.Close(ctx) })
	return ctx, r
}

func instantiate(t testing.TB, ctx context.Context, r wazero.Runtime, wasm []byte, name string) api.Module {
	t.Helper()
	mod, err := r.InstantiateWithConfig(ctx, wasm, wazero.NewModuleConfig().WithName(name))
	if err != nil {
		t.Fatalf("instantiate %s: %v", name, err)
	}
	return mod
}

func killSwitch(t testing.TB, mod api.Module) api.MutableGlobal {
	t.Helper()
	g, ok := mod.ExportedGlobal(loopguard.DefaultGlobalName).(api.MutableGlobal)
	if !ok {
		t.Fatalf("module does not export mutable global %q", loopguard.DefaultGlobalName)
	}
	if g.Type() != api.ValueTypeI32 || g.Get() != 0 {
		t.Fatalf("kill switch: type %v value %d, want i32 0", g.Type(), g.Get())
	}
	return g
}

func invoke(t testing.TB, ctx context.Context, mod api.Module, fn string, args ...uint64) ([]uint64, error) {
	t.Helper()
	f := mod.ExportedFunction(fn)
	if f == nil {
		t.Fatalf("no exported function %q", fn)
	}
	return f.Call(ctx, args...)
}

// ---------------------------------------------------------------------------
// Tests.

// TestKillSpinningLoop is case (a): an infinite loop stops when the host sets
// the global from another goroutine.
//
// Go cannot preempt a goroutine running wazero-compiled code. Without
// YieldEvery, a stop-the-world (GC) that starts while the guest spins would
// hang the test binary for good, so that case runs with the GC off until the
// guest has stopped. The YieldEvery cases instead force garbage collections
// (and GOMAXPROCS=1) while the guest spins, which is what a real host sees.
func TestKillSpinningLoop(t *testing.T) {
	tests := []struct {
		name       string
		yieldEvery uint32
		gcDuring   bool // run runtime.GC() concurrently while the guest spins
		maxProcs1  bool // run with GOMAXPROCS=1
	}{
		{name: "kill switch only, GC off"},
		{name: "yield, GC during spin", yieldEvery: 16384, gcDuring: true},
		{name: "yield, GOMAXPROCS=1, GC during spin", yieldEvery: 16384, gcDuring: true, maxProcs1: true},
		{name: "yield every iteration", yieldEvery: 1, gcDuring: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, st := mustInstrument(t, spinModule(), loopguard.Options{YieldEvery: tc.yieldEvery})
			if want := (loopguard.Stats{Functions: 2, InstrumentedFunctions: 2, Loops: 2, Global: 0}); st != want {
				t.Fatalf("stats = %+v, want %+v", st, want)
			}
			ctx, r := newRuntime(t)
			mod := instantiate(t, ctx, r, out, "spin")
			kill := killSwitch(t, mod)

			// Loops still work while the switch is off.
			if res, err := invoke(t, ctx, mod, "count", 100000); err != nil || res[0] != 100000 {
				t.Fatalf("count(100000) = %v, %v; want 100000", res, err)
			}

			if tc.yieldEvery == 0 {
				old := debug.SetGCPercent(-1)
				defer func() {
					if !t.Failed() { // with the guest still spinning this would hang
						debug.SetGCPercent(old)
					}
				}()
			}
			if tc.maxProcs1 {
				old := runtime.GOMAXPROCS(1)
				defer runtime.GOMAXPROCS(old)
			}

			done := make(chan error, 1)
			go func() {
				_, err := mod.ExportedFunction("spin").Call(ctx)
				done <- err
			}()
			gcs := 0
			deadline := time.Now().Add(50 * time.Millisecond)
			for time.Now().Before(deadline) {
				if tc.gcDuring {
					runtime.GC() // stops the world: needs the spinning goroutine to yield
					gcs++
				} else {
					time.Sleep(5 * time.Millisecond)
				}
			}
			select {
			case err := <-done:
				t.Fatalf("spin returned before the kill switch was set: %v", err)
			default:
			}
			start := time.Now()
			kill.Set(1)
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), "unreachable") {
					t.Fatalf("spin returned %v, want an unreachable trap", err)
				}
				t.Logf("%d GCs while spinning; stopped %v after the kill switch was set: %v",
					gcs, time.Since(start), strings.SplitN(err.Error(), "\n", 2)[0])
			case <-time.After(5 * time.Second):
				t.Fatal("spin did not stop within 5s of setting the kill switch")
			}
		})
	}
}

// TestInsertedCode pins the exact bytes inserted into a loop.
func TestInsertedCode(t *testing.T) {
	spinBody := func(check ...[]byte) []byte { return body(nil, loop(empty), cat(check...), br(0), end, end) }
	killCheck := cat(globalGet(0), []byte{0x04, empty}, unreachable, end)
	tests := []struct {
		name string
		opts loopguard.Options
		want []byte
	}{
		{"kill switch", loopguard.Options{}, spinBody(killCheck)},
		// The kill flag is read only when the countdown runs out.
		{"with yield", loopguard.Options{YieldEvery: 300}, spinBody(
			globalGet(1), i32Const(1), i32Sub, globalSet(1),
			globalGet(1), []byte{0x45, 0x04, empty}, // i32.eqz if
			i32Const(300), globalSet(1),
			i32Const(0), []byte{0x40, 0x00, 0x1a}, // memory.grow 0, drop
			killCheck,
			end)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, _ := mustInstrument(t, spinModule(), tc.opts)
			if !bytes.Contains(out, tc.want) {
				t.Fatalf("instrumented module lacks body % x", tc.want)
			}
		})
	}
	// A 64-bit memory gets an i64 operand for memory.grow.
	mem64 := module(
		section(secType, vec(funcType(nil, nil))),
		section(secFunction, vec(u32(0))),
		section(secMemory, vec([]byte{0x04, 0x01})),
		section(secCode, vec(body(nil, loop(empty), end, end))),
	)
	out, _ := mustInstrument(t, mem64, loopguard.Options{YieldEvery: 5})
	if !bytes.Contains(out, []byte{0x42, 0x00, 0x40, 0x00, 0x1a, 0x23}) {
		t.Fatal("memory64 module: no i64.const 0 memory.grow 0")
	}
}

// TestSkipFunctions is case (b): loops of skipped functions ignore the switch.
// The switch is set before the calls, so nothing can hang: an instrumented
// loop traps on its first iteration and a skipped one runs to completion.
func TestSkipFunctions(t *testing.T) {
	orig := spinModule()
	tests := []struct {
		name             string
		skip             []string
		wantLoops        int
		countCompletes   bool // count(n) runs to completion with the switch set
		spinInstrumented bool
	}{
		{name: "none", skip: nil, wantLoops: 2, countCompletes: false, spinInstrumented: true},
		{name: "count", skip: []string{"count"}, wantLoops: 1, countCompletes: true, spinInstrumented: true},
		{name: "spin", skip: []string{"spin"}, wantLoops: 1, countCompletes: false, spinInstrumented: false},
		{name: "both", skip: []string{"spin", "count"}, wantLoops: 0, countCompletes: true, spinInstrumented: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, st := mustInstrument(t, orig, loopguard.Options{SkipFunctions: tc.skip})
			if st.Loops != tc.wantLoops || st.InstrumentedFunctions != tc.wantLoops || st.Functions != 2 {
				t.Fatalf("stats = %+v, want %d loops in %d functions of 2", st, tc.wantLoops, tc.wantLoops)
			}
			ctx, r := newRuntime(t)
			mod := instantiate(t, ctx, r, out, "m")
			killSwitch(t, mod).Set(1)

			const n = 2_000_000
			res, err := invoke(t, ctx, mod, "count", n)
			if tc.countCompletes {
				if err != nil || res[0] != n {
					t.Fatalf("skipped count(%d) = %v, %v; want %d", n, res, err, n)
				}
			} else if err == nil || !strings.Contains(err.Error(), "unreachable") {
				t.Fatalf("instrumented count(%d) = %v, %v; want an unreachable trap", n, res, err)
			}
			if tc.spinInstrumented {
				// With the switch set, the infinite loop traps at once.
				if _, err := invoke(t, ctx, mod, "spin"); err == nil || !strings.Contains(err.Error(), "unreachable") {
					t.Fatalf("spin = %v, want an unreachable trap", err)
				}
			}
			// A skipped function's body is copied byte for byte.
			if !tc.spinInstrumented && !bytes.Contains(out, body(nil, loop(empty), br(0), end, end)) {
				t.Fatal("skipped spin body was modified")
			}
		})
	}
}

// TestModulesStillWork is case (c): modules with imports, defined globals,
// exports, data, start sections and custom sections validate and compute the
// same results before and after instrumentation.
func TestModulesStillWork(t *testing.T) {
	type result struct {
		name string
		vals []uint64
	}
	tests := []struct {
		name       string
		wasm       []byte
		opts       loopguard.Options
		wantStats  loopguard.Stats
		run        func(t *testing.T, ctx context.Context, mod api.Module) []uint64
		wantResult []uint64
	}{
		{
			name:      "imports globals exports data",
			wasm:      importsModule(),
			wantStats: loopguard.Stats{Functions: 2, InstrumentedFunctions: 1, Loops: 1, Global: 4},
			run: func(t *testing.T, ctx context.Context, mod api.Module) []uint64 {
				sum, err := invoke(t, ctx, mod, "sum", 1000)
				if err != nil {
					t.Fatal(err)
				}
				peek, err := invoke(t, ctx, mod, "peek")
				if err != nil {
					t.Fatal(err)
				}
				g2 := mod.ExportedGlobal("g2").Get()
				return []uint64{sum[0], peek[0], g2}
			},
			// 500500 + 7 + 100 + 5; 'e' + 'o'; g2 = 500500
			wantResult: []uint64{500612, 'e' + 'o', 500500},
		},
		{
			name:      "imports globals exports data stripped",
			wasm:      importsModule(),
			opts:      loopguard.Options{StripCustomSections: true},
			wantStats: loopguard.Stats{Functions: 2, InstrumentedFunctions: 1, Loops: 1, Global: 4},
			run: func(t *testing.T, ctx context.Context, mod api.Module) []uint64 {
				sum, err := invoke(t, ctx, mod, "sum", 10)
				if err != nil {
					t.Fatal(err)
				}
				return sum
			},
			wantResult: []uint64{55 + 112},
		},
		{
			name:      "no global, export or memory section, start function",
			wasm:      bareModule(),
			wantStats: loopguard.Stats{Functions: 3, InstrumentedFunctions: 1, Loops: 1, Global: 0},
			run: func(t *testing.T, ctx context.Context, mod api.Module) []uint64 {
				return nil // the start function checked the sum
			},
		},
		{
			name:      "start, datacount, passive data, memory.init",
			wasm:      bulkModule(),
			wantStats: loopguard.Stats{Functions: 3, InstrumentedFunctions: 1, Loops: 1, Global: 0},
			run: func(t *testing.T, ctx context.Context, mod api.Module) []uint64 {
				sum, err := invoke(t, ctx, mod, "sum", 100)
				if err != nil {
					t.Fatal(err)
				}
				return sum
			},
			wantResult: []uint64{5050 + 'l'},
		},
		{
			name:      "skip by name",
			wasm:      bulkModule(),
			opts:      loopguard.Options{SkipFunctions: []string{"sum"}},
			wantStats: loopguard.Stats{Functions: 3, InstrumentedFunctions: 0, Loops: 0, Global: 0},
			run: func(t *testing.T, ctx context.Context, mod api.Module) []uint64 {
				sum, err := invoke(t, ctx, mod, "sum", 100)
				if err != nil {
					t.Fatal(err)
				}
				return sum
			},
			wantResult: []uint64{5050 + 'l'},
		},
		{
			name:      "imports globals exports data, yield",
			wasm:      importsModule(),
			opts:      loopguard.Options{YieldEvery: 7},
			wantStats: loopguard.Stats{Functions: 2, InstrumentedFunctions: 1, Loops: 1, Global: 4},
			run: func(t *testing.T, ctx context.Context, mod api.Module) []uint64 {
				sum, err := invoke(t, ctx, mod, "sum", 1000)
				if err != nil {
					t.Fatal(err)
				}
				return []uint64{sum[0], mod.ExportedGlobal("g2").Get()}
			},
			wantResult: []uint64{500612, 500500},
		},
		{
			name:      "start, datacount, passive data, memory.init, yield",
			wasm:      bulkModule(),
			opts:      loopguard.Options{YieldEvery: 1},
			wantStats: loopguard.Stats{Functions: 3, InstrumentedFunctions: 1, Loops: 1, Global: 0},
			run: func(t *testing.T, ctx context.Context, mod api.Module) []uint64 {
				sum, err := invoke(t, ctx, mod, "sum", 100)
				if err != nil {
					t.Fatal(err)
				}
				return []uint64{sum[0], uint64(mod.ExportedMemory("mem").Size())}
			},
			wantResult: []uint64{5050 + 'l', 65536}, // memory.grow 0 leaves the size alone
		},
		{
			name:      "custom global name",
			wasm:      bulkModule(),
			opts:      loopguard.Options{GlobalName: "stop"},
			wantStats: loopguard.Stats{Functions: 3, InstrumentedFunctions: 1, Loops: 1, Global: 0},
			run: func(t *testing.T, ctx context.Context, mod api.Module) []uint64 {
				sum, err := invoke(t, ctx, mod, "sum", 100)
				if err != nil {
					t.Fatal(err)
				}
				return sum
			},
			wantResult: []uint64{5050 + 'l'},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, st := mustInstrument(t, tc.wasm, tc.opts)
			if st != tc.wantStats {
				t.Fatalf("stats = %+v, want %+v", st, tc.wantStats)
			}
			var results [2]result
			for i, w := range [][]byte{tc.wasm, out} {
				ctx, r := newRuntime(t)
				instantiate(t, ctx, r, envModule(), "env")
				mod := instantiate(t, ctx, r, w, "m")
				results[i] = result{name: []string{"original", "instrumented"}[i], vals: tc.run(t, ctx, mod)}
				name := tc.opts.GlobalName
				if name == "" {
					name = loopguard.DefaultGlobalName
				}
				g := mod.ExportedGlobal(name)
				if (g != nil) != (i == 1) {
					t.Fatalf("%s: exported global %q present = %v", results[i].name, name, g != nil)
				}
			}
			if fmt.Sprint(results[0].vals) != fmt.Sprint(tc.wantResult) || fmt.Sprint(results[1].vals) != fmt.Sprint(tc.wantResult) {
				t.Fatalf("results: original %v, instrumented %v, want %v", results[0].vals, results[1].vals, tc.wantResult)
			}
			hasCustom := bytes.Contains(out, []byte("producers")) || bytes.Contains(out, []byte("between")) || bytes.Contains(out, []byte("\x04name"))
			if tc.opts.StripCustomSections && hasCustom {
				t.Fatal("custom sections were not stripped")
			}
			// Instrumenting twice is refused: the export name is taken.
			if _, _, err := loopguard.Instrument(out, tc.opts); err == nil || !strings.Contains(err.Error(), "already exports") {
				t.Fatalf("second Instrument: %v, want an already-exported error", err)
			}
		})
	}
}

// TestImmediates is case (d): a module full of immediates containing 0x03
// bytes gets exactly its real loops instrumented and computes the same.
func TestImmediates(t *testing.T) {
	orig := mixModule()
	for _, opts := range []loopguard.Options{{}, {YieldEvery: 3}} {
		t.Run(fmt.Sprintf("yield=%d", opts.YieldEvery), func(t *testing.T) {
			out, st := mustInstrument(t, orig, opts)
			if want := (loopguard.Stats{Functions: 3, InstrumentedFunctions: 2, Loops: 3, Global: 0}); st != want {
				t.Fatalf("stats = %+v, want %+v", st, want)
			}
			for _, tc := range []struct {
				fn   string
				args []uint64
			}{
				{"mix", []uint64{0}}, {"mix", []uint64{1}}, {"mix", []uint64{7}}, {"mix", []uint64{1000}}, {"simd", nil},
			} {
				var got [2][]uint64
				for i, w := range [][]byte{orig, out} {
					ctx, r := newRuntime(t)
					mod := instantiate(t, ctx, r, w, "m")
					res, err := invoke(t, ctx, mod, tc.fn, tc.args...)
					if err != nil {
						t.Fatalf("%s%v (instrumented=%v): %v", tc.fn, tc.args, i == 1, err)
					}
					got[i] = res
				}
				if fmt.Sprint(got[0]) != fmt.Sprint(got[1]) {
					t.Errorf("%s%v: original %v, instrumented %v", tc.fn, tc.args, got[0], got[1])
				}
			}

			// And the switch stops both functions' loops.
			ctx, r := newRuntime(t)
			mod := instantiate(t, ctx, r, out, "m")
			killSwitch(t, mod).Set(1)
			for _, tc := range []struct {
				fn   string
				args []uint64
			}{{"mix", []uint64{10}}, {"simd", nil}} {
				if _, err := invoke(t, ctx, mod, tc.fn, tc.args...); err == nil || !strings.Contains(err.Error(), "unreachable") {
					t.Fatalf("%s with the switch set: %v, want an unreachable trap", tc.fn, err)
				}
			}
		})
	}
}

func TestErrors(t *testing.T) {
	spin := spinModule()
	withImport := func(code ...[]byte) []byte {
		return module(
			section(secType, vec(funcType(nil, nil))),
			section(secImport, vec(importEntry("env", "f", kindFunc, 0))),
			section(secFunction, vec(u32(0))),
			section(secCode, vec(body(nil, code...))),
		)
	}
	badOp := withImport(i32Const(3), []byte{0x1a}, loop(empty), []byte{0x27}, end, end)
	badOpAt := bytes.LastIndexByte(badOp, 0x27)
	badSIMD := withImport(fd(0x9a), end)
	badFC := withImport(fc(0x20), end)
	badFE := withImport([]byte{0xfe}, u32(0x04), end)

	tests := []struct {
		name string
		wasm []byte
		opts loopguard.Options
		want []string // substrings of the error
	}{
		{"empty", nil, loopguard.Options{}, []string{"shorter than the 8-byte header"}},
		{"bad magic", append([]byte("\x00wasm"), spin[5:]...), loopguard.Options{}, []string{"bad magic"}},
		{"bad version", cat([]byte("\x00asm\x0d\x00\x01\x00"), spin[8:]), loopguard.Options{}, []string{"unsupported binary version"}},
		{"truncated section", spin[:len(spin)-20], loopguard.Options{}, []string{"exceeds"}},
		{"truncated body", module(section(secType, vec(funcType(nil, nil))), section(secFunction, vec(u32(0))),
			section(secCode, vec(cat(u32(3), []byte{0, 0x03, 0x40})))), loopguard.Options{}, []string{"function 0", "not terminated by end"}},
		{"unknown opcode", badOp, loopguard.Options{}, []string{"function 1", fmt.Sprintf("unknown opcode 0x27 at offset 0x%x", badOpAt)}},
		{"unknown simd opcode", badSIMD, loopguard.Options{}, []string{"function 1", "unknown opcode 0xfd 154"}},
		{"unknown 0xfc opcode", badFC, loopguard.Options{}, []string{"function 1", "unknown opcode 0xfc 32"}},
		{"unknown 0xfe opcode", badFE, loopguard.Options{}, []string{"function 1", "unknown opcode 0xfe 4"}},
		{"bytes after end", withImport(end, []byte{0x01}), loopguard.Options{}, []string{"function 1", "1 bytes after the final end"}},
		{"bad local type", module(section(secType, vec(funcType(nil, nil))), section(secFunction, vec(u32(0))),
			section(secCode, vec(body([][2]byte{{1, 0x55}}, end)))), loopguard.Options{}, []string{"function 0", "unknown value type 0x55"}},
		{"overlong LEB", withImport(op(0x41, []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x00}), []byte{0x1a}, end), loopguard.Options{}, []string{"too long"}},
		{"unknown section", cat(spin, section(14, nil)), loopguard.Options{}, []string{"unknown section id 14"}},
		{"duplicate section", cat(spin, section(secCode, vec())), loopguard.Options{}, []string{"duplicate code section"}},
		{"out of order", module(section(secFunction, vec()), section(secType, vec())), loopguard.Options{}, []string{"type section", "out of order"}},
		{"missing code", module(section(secType, vec(funcType(nil, nil))), section(secFunction, vec(u32(0)))), loopguard.Options{}, []string{"no code section"}},
		{"code count mismatch", module(section(secType, vec(funcType(nil, nil))), section(secFunction, vec(u32(0), u32(0))),
			section(secCode, vec(body(nil, end)))), loopguard.Options{}, []string{"1 function bodies", "declares 2"}},
		{"debug info", cat(spin, customSection(".debug_info", []byte{1, 2, 3})), loopguard.Options{}, []string{".debug_info", "StripCustomSections"}},
		{"already exported", spin, loopguard.Options{GlobalName: "count"}, []string{`already exports "count"`}},
		{"skip without names", withImport(end), loopguard.Options{SkipFunctions: []string{"f"}}, []string{"no \"name\" custom section"}},
		{"skip unknown name", spin, loopguard.Options{SkipFunctions: []string{"spin", "nope"}}, []string{`["nope"]`}},
		{"bad global name", spin, loopguard.Options{GlobalName: "\xff"}, []string{"UTF-8"}},
		{"yield without memory", bareModule(), loopguard.Options{YieldEvery: 100}, []string{"YieldEvery needs a memory"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := loopguard.Instrument(tc.wasm, tc.opts)
			if err == nil {
				t.Fatalf("Instrument succeeded (%d bytes), want an error", len(out))
			}
			if out != nil {
				t.Error("Instrument returned output together with an error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if !strings.HasPrefix(err.Error(), "loopguard: ") {
				t.Errorf("error %q lacks the loopguard: prefix", err)
			}
		})
	}

	// Debug info is fine once stripped.
	out, _ := mustInstrument(t, cat(spin, customSection(".debug_info", []byte{1, 2, 3})), loopguard.Options{StripCustomSections: true})
	if bytes.Contains(out, []byte(".debug_info")) || bytes.Contains(out, []byte("\x04name")) {
		t.Fatal("custom sections survived StripCustomSections")
	}
}

// TestPrefixes checks every prefix of the test modules: no panic, and
// whatever is accepted still compiles in wazero.
func TestPrefixes(t *testing.T) {
	ctx, r := newRuntime(t)
	for _, m := range seedModules() {
		for n := 0; n < len(m); n++ {
			out, _, err := loopguard.Instrument(m[:n], loopguard.Options{})
			if err != nil {
				continue
			}
			if _, errOrig := r.CompileModule(ctx, m[:n]); errOrig != nil {
				continue // not a valid module to start with
			}
			if _, err := r.CompileModule(ctx, out); err != nil {
				t.Fatalf("prefix %d accepted by wazero, but its instrumented version is not: %v", n, err)
			}
		}
	}
}

// TestRealModule instruments a real module, e.g. CPython, named by
// PYBOX_TEST_WASM.
func TestRealModule(t *testing.T) {
	path := os.Getenv("PYBOX_TEST_WASM")
	if path == "" {
		t.Skip("PYBOX_TEST_WASM not set")
	}
	wasm, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, opts := range []loopguard.Options{
		{StripCustomSections: true},
		{StripCustomSections: true, YieldEvery: 16384},
	} {
		start := time.Now()
		out, st := mustInstrument(t, wasm, opts)
		t.Logf("%s %+v: %d -> %d bytes in %v; %+v", path, opts, len(wasm), len(out), time.Since(start), st)
		if st.Loops <= 0 || st.Functions <= 0 {
			t.Fatalf("stats = %+v, want loops", st)
		}
		ctx, r := newRuntime(t)
		start = time.Now()
		if _, err := r.CompileModule(ctx, out); err != nil {
			t.Fatalf("CompileModule(instrumented): %v", err)
		}
		t.Logf("compiled in %v", time.Since(start))
	}
}

// TestRealPythonKill runs a real CPython build (PYBOX_TEST_WASM) with its
// standard library (PYBOX_TEST_PYTHONLIB, the directory holding python3.X/,
// mounted at /usr/local/lib) and kills it while it spins in a Python loop and
// in a C loop (regular expression backtracking inside _sre), with garbage
// collections forced all the while. Imports other than WASI are stubbed to
// return zeros.
func TestRealPythonKill(t *testing.T) {
	path, lib := os.Getenv("PYBOX_TEST_WASM"), os.Getenv("PYBOX_TEST_PYTHONLIB")
	if path == "" || lib == "" {
		t.Skip("PYBOX_TEST_WASM and PYBOX_TEST_PYTHONLIB not both set")
	}
	wasm, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, local := range []bool{false, true} {
		t.Run(fmt.Sprintf("LocalCountdown=%v", local), func(t *testing.T) {
			realPythonKill(t, wasm, lib, loopguard.Options{StripCustomSections: true, YieldEvery: 16384, LocalCountdown: local})
		})
	}
	t.Run("Batch=64", func(t *testing.T) {
		realPythonKill(t, wasm, lib, loopguard.Options{StripCustomSections: true, YieldEvery: 16384, Outline: true, Batch: 64})
	})
}

func realPythonKill(t *testing.T, wasm []byte, lib string, opts loopguard.Options) {
	out, _ := mustInstrument(t, wasm, opts)
	ctx, r := newEHRuntime(t)
	wasi_snapshot_preview1.MustInstantiate(ctx, r)
	cm, err := r.CompileModule(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	stubs := map[string]wazero.HostModuleBuilder{}
	for _, f := range cm.ImportedFunctions() {
		modName, name, _ := f.Import()
		if modName == wasi_snapshot_preview1.ModuleName {
			continue
		}
		if stubs[modName] == nil {
			stubs[modName] = r.NewHostModuleBuilder(modName)
		}
		results := len(f.ResultTypes())
		stubs[modName].NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(func(_ context.Context, _ api.Module, stack []uint64) {
			clear(stack[:results])
		}), f.ParamTypes(), f.ResultTypes()).Export(name)
	}
	for name, b := range stubs {
		if _, err := b.Instantiate(ctx); err != nil {
			t.Fatalf("stub module %s: %v", name, err)
		}
	}
	for _, code := range []string{"while True: pass", "import re; re.match('(a*)*b', 'a' * 64)",
		"import itertools; sum(itertools.repeat(1))", // a C loop calling a C function
		"import itertools, collections; b = bytes(1 << 24); collections.deque(map(b.count, itertools.repeat(b'x')), maxlen=0)"} {
		cfg := wazero.NewModuleConfig().WithStdout(os.Stdout).WithStderr(os.Stderr).
			WithArgs("python", "-S", "-c", code).WithEnv("PYTHONHOME", "/usr/local").
			WithEnv("PYTHONDONTWRITEBYTECODE", "1").
			WithFSConfig(wazero.NewFSConfig().WithReadOnlyDirMount(lib, "/usr/local/lib")).
			WithSysWalltime().WithSysNanotime().WithName("").WithStartFunctions()
		mod, err := r.InstantiateModule(ctx, cm, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if mod.ExportedFunction("_start") == nil {
			t.Skip("PYBOX_TEST_WASM is not a command module (no _start): a reactor build needs pybox's host")
		}
		done := make(chan error, 1)
		go func() {
			_, err := mod.ExportedFunction("_start").Call(ctx)
			done <- err
		}()
		gcs := 0
		for deadline := time.Now().Add(500 * time.Millisecond); time.Now().Before(deadline); gcs++ {
			runtime.GC()
		}
		select {
		case err := <-done:
			t.Fatalf("%q returned before the kill switch was set: %v", code, err)
		default:
		}
		start := time.Now()
		killSwitch(t, mod).Set(1)
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "unreachable") {
				t.Fatalf("%q: %v, want an unreachable trap", code, err)
			}
			t.Logf("%q: %d GCs while running; stopped %v after the kill switch was set", code, gcs, time.Since(start))
		case <-time.After(5 * time.Second):
			t.Fatalf("%q did not stop within 5s of setting the kill switch", code)
		}
		mod.Close(ctx)
	}
}

// seedModules are the hand-built modules, used as fuzz seeds too.
func seedModules() [][]byte {
	return [][]byte{spinModule(), importsModule(), bareModule(), bulkModule(), mixModule(), envModule(), countedModule(), nestModule()}
}

// FuzzInstrument checks that Instrument never panics, and that a module
// wazero accepts is instrumented into a module wazero accepts.
func FuzzInstrument(f *testing.F) {
	for _, m := range seedModules() {
		f.Add(m)
	}
	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer r.Close(ctx)
	f.Fuzz(func(t *testing.T, data []byte) {
		valid := false
		if smallLEBs(data) {
			if cm, err := r.CompileModule(ctx, data); err == nil {
				valid = true
				cm.Close(ctx)
			}
		}
		for _, opts := range []loopguard.Options{{}, {YieldEvery: 5}, {YieldEvery: 5, LocalCountdown: true}, {YieldEvery: 5, Outline: true}, {YieldEvery: 5, Outline: true, Batch: 2}} {
			fuzzOne(t, ctx, r, data, valid, opts)
		}
	})
}

// smallLEBs reports whether no two consecutive bytes of data have the LEB128
// continuation bit, so that no LEB128 number in it exceeds 14 bits. wazero
// preallocates from untrusted counts (a code section claiming 2^28 bodies
// makes CompileModule die of out-of-memory), so only such inputs are handed
// to it.
func smallLEBs(data []byte) bool {
	for i := 1; i < len(data); i++ {
		if data[i-1]&0x80 != 0 && data[i]&0x80 != 0 {
			return false
		}
	}
	return true
}

// TestMutations flips single bytes of the test modules: whatever wazero
// accepts must be instrumented into something wazero accepts, and Instrument
// must not reject it (except for the documented reasons).
func TestMutations(t *testing.T) {
	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer r.Close(ctx)
	valid, total := 0, 0
	for _, m := range seedModules() {
		for i := 8; i < len(m); i++ {
			for _, b := range []byte{m[i] ^ 0x01, m[i] ^ 0x02, m[i] ^ 0x40, m[i] + 1, m[i] - 1, 0x00, 0x03, 0x7f} {
				if b == m[i] {
					continue
				}
				mut := bytes.Clone(m)
				mut[i] = b
				if !smallLEBs(mut) {
					continue
				}
				total++
				ok := false
				if cm, err := r.CompileModule(ctx, mut); err == nil {
					ok = true
					valid++
					cm.Close(ctx)
				}
				for _, opts := range []loopguard.Options{{}, {YieldEvery: 5}, {YieldEvery: 5, LocalCountdown: true}, {YieldEvery: 5, Outline: true}, {YieldEvery: 5, Outline: true, Batch: 2}} {
					fuzzOne(t, ctx, r, mut, ok, opts)
				}
			}
		}
	}
	t.Logf("%d mutants, %d of them valid for wazero", total, valid)
}

// fuzzOne checks one input under one set of options.
func fuzzOne(t *testing.T, ctx context.Context, r wazero.Runtime, data []byte, valid bool, opts loopguard.Options) {
	out, st, err := loopguard.Instrument(data, opts)
	if err != nil {
		if out != nil {
			t.Fatal("output together with an error")
		}
		if valid && !strings.Contains(err.Error(), "already exports") && !strings.Contains(err.Error(), "refers to code offsets") &&
			!strings.Contains(err.Error(), "needs a memory") {
			t.Fatalf("wazero accepts the input but Instrument(%+v) fails: %v", opts, err)
		}
		return
	}
	// Instrumenting the output again under another name must work and
	// find the same loops (the inserted if is not a loop) plus the outer
	// loop of each outlined one.
	_, st2, err := loopguard.Instrument(out, loopguard.Options{GlobalName: "\x00second"})
	if err != nil && !strings.Contains(err.Error(), "already exports") {
		t.Fatalf("re-instrumenting the output: %v", err)
	}
	added := uint32(1)
	if opts.YieldEvery > 0 {
		added = 2
	}
	if err == nil && (st2.Loops != st.Loops+st.OutlinedLoops || st2.Functions != st.Functions || st2.Global != st.Global+added) {
		t.Fatalf("re-instrumenting: stats %+v after %+v", st2, st)
	}
	if !valid {
		return
	}
	cm, err := r.CompileModule(ctx, out)
	if err != nil {
		t.Fatalf("wazero accepts the input but not the output of Instrument(%+v): %v", opts, err)
	}
	cm.Close(ctx)
}

// ExampleInstrument shows how a host stops a guest stuck in a loop.
func ExampleInstrument() {
	// (module (memory 1) (func (export "spin") (loop (br 0))))
	wasm := []byte{
		0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // header
		0x01, 0x04, 0x01, 0x60, 0x00, 0x00, // type section: () -> ()
		0x03, 0x02, 0x01, 0x00, // function section
		0x05, 0x03, 0x01, 0x00, 0x01, // memory section: 1 page
		0x07, 0x08, 0x01, 0x04, 's', 'p', 'i', 'n', 0x00, 0x00, // export "spin"
		0x0a, 0x09, 0x01, 0x07, 0x00, 0x03, 0x40, 0x0c, 0x00, 0x0b, 0x0b, // code: loop br 0 end end
	}
	// YieldEvery lets the Go scheduler and GC preempt the spinning guest,
	// so the goroutine below gets to run whatever GOMAXPROCS and the GC do.
	guarded, stats, err := loopguard.Instrument(wasm, loopguard.Options{YieldEvery: 16384})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d loop(s) in %d function(s) guarded by global %d\n", stats.Loops, stats.InstrumentedFunctions, stats.Global)

	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	defer r.Close(ctx)
	mod, err := r.Instantiate(ctx, guarded)
	if err != nil {
		panic(err)
	}
	kill := mod.ExportedGlobal(loopguard.DefaultGlobalName).(api.MutableGlobal)
	go func() {
		time.Sleep(10 * time.Millisecond)
		kill.Set(1) // e.g. when a deadline passes
	}()
	_, err = mod.ExportedFunction("spin").Call(ctx)
	fmt.Println("stopped:", err != nil && strings.Contains(err.Error(), "unreachable"))
	// Output:
	// 1 loop(s) in 1 function(s) guarded by global 0
	// stopped: true
}

// BenchmarkLoop measures the cost of the inserted code on a tight loop
// (count(n): i++ until n), per loop iteration.
func BenchmarkLoop(b *testing.B) {
	const n = 1 << 20
	orig := spinModule()
	for _, bc := range []struct {
		name string
		opts *loopguard.Options
	}{
		{"original", nil},
		{"kill", &loopguard.Options{}},
		{"kill+yield16384", &loopguard.Options{YieldEvery: 16384}},
		{"kill+yield1024", &loopguard.Options{YieldEvery: 1024}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			w := orig
			if bc.opts != nil {
				w, _ = mustInstrument(b, orig, *bc.opts)
			}
			ctx, r := newRuntime(b)
			f := instantiate(b, ctx, r, w, "m").ExportedFunction("count")
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := f.Call(ctx, n); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/iter")
		})
	}
}
