//go:build linux && amd64

package wazevo_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"unsafe"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/internal/sigguard"
	"github.com/tetratelabs/wazero/internal/testing/binaryencoding"
	"github.com/tetratelabs/wazero/internal/testing/require"
	"github.com/tetratelabs/wazero/internal/wasm"
	"github.com/tetratelabs/wazero/internal/wasmruntime"
)

// guardTestMemory is a GuardedLinearMemory like an embedder would write one:
// the whole reservation is PROT_NONE, growth makes a prefix read-write, and
// limit caps the size (in bytes) as a memory limit would.
type guardTestMemory struct {
	reserve  uint64 // bytes to reserve
	limit    uint64
	mapping  []byte
	enabled  uint64
	notGuard bool // Reserved reports less than wazero requires
}

func (m *guardTestMemory) Allocate(_, _ uint64) experimental.LinearMemory {
	b, err := syscall.Mmap(-1, 0, int(m.reserve), syscall.PROT_NONE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		panic(err)
	}
	m.mapping = b
	return m
}

func (m *guardTestMemory) Reallocate(size uint64) []byte {
	if m.limit != 0 && size > m.limit {
		return nil
	}
	if size > m.enabled {
		if err := syscall.Mprotect(m.mapping[m.enabled:size], syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
			panic(err)
		}
		m.enabled = size
	}
	return m.mapping[:size:size]
}

func (m *guardTestMemory) Free() {
	if m.mapping != nil {
		_ = syscall.Munmap(m.mapping)
		m.mapping = nil
	}
}

func (m *guardTestMemory) Reserved() uint64 {
	if m.notGuard {
		return 4 << 30
	}
	return m.reserve
}

// plainTestMemory is a LinearMemory that makes no guard promise.
type plainTestMemory struct{ guardTestMemory }

func (m *plainTestMemory) Allocate(c, mx uint64) experimental.LinearMemory {
	m.guardTestMemory.Allocate(c, mx)
	return m
}

// plainTestMemory hides Reserved.
func (m *plainTestMemory) Reserved() {}

const (
	page         = 65536
	guardReserve = experimental.GuardedMemoryReservation
)

// guardTestModule has one memory (1 page, at most 4) and functions that load
// and store at guest-chosen addresses.
func guardTestModule() []byte {
	u32max := []byte{0xff, 0xff, 0xff, 0xff, 0x0f} // LEB128 0xFFFFFFFF
	cat := func(parts ...[]byte) []byte {
		var b []byte
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	i32, i64 := wasm.ValueTypeI32, wasm.ValueTypeI64
	m := &wasm.Module{
		TypeSection: []wasm.FunctionType{
			{Params: []wasm.ValueType{i32}, Results: []wasm.ValueType{i32}},      // 0
			{Params: []wasm.ValueType{i32}, Results: []wasm.ValueType{i64}},      // 1
			{Params: []wasm.ValueType{i32, i32}},                                 // 2
			{Params: []wasm.ValueType{i32, i64}},                                 // 3
			{Params: []wasm.ValueType{i32}},                                      // 4
			{Results: []wasm.ValueType{i32}},                                     // 5
			{Params: []wasm.ValueType{i32, i32}, Results: []wasm.ValueType{i32}}, // 6
		},
		FunctionSection: []wasm.Index{0, 1, 2, 3, 0, 4, 5, 6, 6, 0, 6, 5, 0, 0, 0, 0, 1},
		CodeSection: []wasm.Code{
			{Body: []byte{0x20, 0, 0x28, 2, 0, 0x0b}},                                                    // 0 load32(a): i32.load a
			{Body: cat([]byte{0x20, 0, 0x29, 3}, u32max, []byte{0x0b})},                                  // 1 load_off(a): i64.load offset=0xFFFFFFFF
			{Body: []byte{0x20, 0, 0x20, 1, 0x36, 2, 0, 0x0b}},                                           // 2 store(a, v): i32.store
			{Body: cat([]byte{0x20, 0, 0x20, 1, 0x37, 3}, u32max, []byte{0x0b})},                         // 3 store_off(a, v): i64.store offset=0xFFFFFFFF
			{Body: []byte{0x20, 0, 0x40, 0, 0x0b}},                                                       // 4 grow(n)
			{Body: []byte{0x20, 0, 0x28, 2, 0, 0x1a, 0x0b}},                                              // 5 load_drop(a): the result is unused
			{Body: []byte{0x3f, 0, 0x0b}},                                                                // 6 size()
			{Body: []byte{0x20, 0, 0x28, 2, 0, 0x1a, 0x20, 1, 0x40, 0, 0x1a, 0x20, 0, 0x28, 2, 0, 0x0b}}, // 7 grow_then_load(a, n): load, memory.grow n, load again
			{Body: []byte{0x20, 0, 0x28, 2, 0, 0x1a, 0x20, 1, 0x10, 4, 0x1a, 0x20, 0, 0x28, 2, 0, 0x0b}}, // 8 call_grow_then_load(a, n): the same, growing in a callee
			{Body: []byte{0x20, 0, 0xfd, 0, 4, 0, 0xfd, 0x1b, 0, 0x0b}},                                  // 9 load_v128(a): i32x4.extract_lane 0 (v128.load a)
			// 10 call_grow_then_atomic(a, n): i32.atomic.load 0 (reads the length), call grow(n), then
			// i32.atomic.load a, checked against the length reloaded after the call
			{Body: []byte{0x41, 0, 0xfe, 0x10, 2, 0, 0x1a, 0x20, 1, 0x10, 4, 0x1a, 0x20, 0, 0xfe, 0x10, 2, 0, 0x0b}},
			// 11 load_const_high(): i32.load (i32.const 0xFFFFFFF0), a constant
			// address of 2 GiB or more (pybox patch 0051)
			{Body: []byte{0x41, 0x70, 0x28, 2, 0, 0x0b}},
			// 12 load64_wrap(a): i32.wrap_i64 (i64.load a); 13 load32_ext8(a):
			// i32.extend8_s (i32.load a); 14 load32_ext16(a): i32.extend16_s
			// (i32.load a); 15 load64_wrap_add(a): i32.wrap_i64 (i64.load a) + 1.
			// Each reads fewer bytes than it loads, and must trap where the
			// whole load would (pybox patch 0072).
			{Body: []byte{0x20, 0, 0x29, 3, 0, 0xa7, 0x0b}},
			{Body: []byte{0x20, 0, 0x28, 2, 0, 0xc0, 0x0b}},
			{Body: []byte{0x20, 0, 0x28, 2, 0, 0xc1, 0x0b}},
			{Body: []byte{0x20, 0, 0x29, 3, 0, 0xa7, 0x41, 1, 0x6a, 0x0b}},
			// 16 load64_wrap_ext(a): i64.extend_i32_u (i32.wrap_i64 (i64.load a)),
			// the wrap folded into the extension (pybox patch 0071).
			{Body: []byte{0x20, 0, 0x29, 3, 0, 0xa7, 0xad, 0x0b}},
		},
		MemorySection: &wasm.Memory{Min: 1, Max: 4, IsMaxEncoded: true},
		ExportSection: []wasm.Export{
			{Type: wasm.ExternTypeMemory, Name: "memory", Index: 0},
			{Type: wasm.ExternTypeFunc, Name: "load32", Index: 0},
			{Type: wasm.ExternTypeFunc, Name: "load_off", Index: 1},
			{Type: wasm.ExternTypeFunc, Name: "store", Index: 2},
			{Type: wasm.ExternTypeFunc, Name: "store_off", Index: 3},
			{Type: wasm.ExternTypeFunc, Name: "grow", Index: 4},
			{Type: wasm.ExternTypeFunc, Name: "load_drop", Index: 5},
			{Type: wasm.ExternTypeFunc, Name: "size", Index: 6},
			{Type: wasm.ExternTypeFunc, Name: "grow_then_load", Index: 7},
			{Type: wasm.ExternTypeFunc, Name: "call_grow_then_load", Index: 8},
			{Type: wasm.ExternTypeFunc, Name: "load_v128", Index: 9},
			{Type: wasm.ExternTypeFunc, Name: "call_grow_then_atomic", Index: 10},
			{Type: wasm.ExternTypeFunc, Name: "load_const_high", Index: 11},
			{Type: wasm.ExternTypeFunc, Name: "load64_wrap", Index: 12},
			{Type: wasm.ExternTypeFunc, Name: "load32_ext8", Index: 13},
			{Type: wasm.ExternTypeFunc, Name: "load32_ext16", Index: 14},
			{Type: wasm.ExternTypeFunc, Name: "load64_wrap_add", Index: 15},
			{Type: wasm.ExternTypeFunc, Name: "load64_wrap_ext", Index: 16},
		},
	}
	return binaryencoding.EncodeModule(m)
}

var guardSink byte

type guardFixture struct {
	t   *testing.T
	ctx context.Context
	mod api.Module
	mem *guardTestMemory
	// guarded: the module's code relies on the guard region.
	guarded bool
}

func newGuardFixture(t *testing.T, r wazero.Runtime, compiled wazero.CompiledModule, limit uint64) *guardFixture {
	mem := &guardTestMemory{reserve: guardReserve, limit: limit}
	ctx := experimental.WithMemoryAllocator(context.Background(), mem)
	mod, err := r.InstantiateModule(ctx, compiled, wazero.NewModuleConfig().WithName(""))
	require.NoError(t, err)
	return &guardFixture{t: t, ctx: ctx, mod: mod, mem: mem, guarded: true}
}

func (f *guardFixture) call(name string, args ...uint64) ([]uint64, error) {
	return f.mod.ExportedFunction(name).Call(f.ctx, args...)
}

func (f *guardFixture) ok(name string, args ...uint64) uint64 {
	f.t.Helper()
	res, err := f.call(name, args...)
	require.NoError(f.t, err, name)
	if len(res) > 0 {
		return res[0]
	}
	return 0
}

func (f *guardFixture) traps(name string, args ...uint64) {
	f.t.Helper()
	before := sigguard.Faults()
	_, err := f.call(name, args...)
	if f.guarded && name != "grow_then_load" && name != "call_grow_then_load" {
		// The trap was a fault, not a bounds check. (Other goroutines'
		// faults may be counted too.)
		require.True(f.t, sigguard.Faults() > before, "no fault counted")
	}
	require.Error(f.t, err, fmt.Sprintf("%s%v", name, args))
	require.True(f.t, errors.Is(err, wasmruntime.ErrRuntimeOutOfBoundsMemoryAccess), err.Error())
	// The instance is still usable.
	require.Equal(f.t, uint64(0), f.ok("load32", 0)&0)
}

func guardedRuntime(t *testing.T) (wazero.Runtime, wazero.CompiledModule) {
	return guardedRuntimeCtx(t, context.Background())
}

// guardedRuntimeCtx compiles guardTestModule with ctx for a guarded memory.
func guardedRuntimeCtx(t *testing.T, ctx context.Context) (wazero.Runtime, wazero.CompiledModule) {
	ctx = experimental.WithGuardedMemory(ctx)
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().
		WithCoreFeatures(api.CoreFeaturesV2|experimental.CoreFeaturesThreads))
	t.Cleanup(func() { _ = r.Close(ctx) })
	compiled, err := r.CompileModule(ctx, guardTestModule())
	require.NoError(t, err)
	return r, compiled
}

func TestGuardedMemoryTraps(t *testing.T) {
	r, compiled := guardedRuntime(t)
	testGuardedMemoryTraps(t, r, compiled)
}

// TestGuardedMemoryTrapsLazy: faults in code compiled when first called
// (pybox patch 0040) are traps too, and the trap's backtrace names the
// function.
func TestGuardedMemoryTrapsLazy(t *testing.T) {
	r, compiled := guardedRuntimeCtx(t, experimental.WithLazyCompilation(context.Background()))
	testGuardedMemoryTraps(t, r, compiled)
	f := newGuardFixture(t, r, compiled, 0)
	_, err := f.call("call_grow_then_load", 5*page, 0)
	require.Error(t, err)
	require.Contains(t, err.Error(), ".$8(")
}

func testGuardedMemoryTraps(t *testing.T, r wazero.Runtime, compiled wazero.CompiledModule) {
	f := newGuardFixture(t, r, compiled, 2*page)

	// In bounds.
	f.ok("store", page-4, 0x01020304)
	require.Equal(t, uint64(0x01020304), f.ok("load32", page-4))
	f.ok("store", page-16, 0x0a0b0c0d)
	require.Equal(t, uint64(0x0a0b0c0d), f.ok("load_v128", page-16))

	// Just past the end, straddling it, and far beyond.
	for _, a := range []uint64{page - 3, page - 1, page, page + 4096, 4 << 30 >> 1, 0xFFFFFFFC, 0xFFFFFFFF} {
		f.traps("load32", a)
		f.traps("load_drop", a)
		f.traps("store", a, 0xAAAAAAAA)
		f.traps("load_v128", a)
		f.traps("load_off", a)
		f.traps("store_off", a, 0xBBBBBBBBBBBBBBBB)
	}
	f.traps("load_off", 0)
	f.traps("load_off", 0xFFFFFFFF)
	f.traps("store_off", 0xFFFFFFFF, 1)
	f.traps("load_v128", page-15)
	// A constant address is zero-extended like any other: 0xFFFFFFF0 is
	// 16 bytes below 4 GiB, not 16 bytes below the memory (pybox patch
	// 0051; before it, amd64 sign-extended it and the load read the host's
	// memory below the reservation, or crashed the process there).
	f.traps("load_const_high")
	// A load whose value is narrowed (wrapped, or sign-extended from its
	// low byte or half) reads its whole width: it traps where any of its
	// bytes is out of bounds, though only the low ones are used (pybox
	// patch 0072; before it, amd64 fused the load into the narrowing
	// instruction as a narrower access, which did not reach the guard).
	f.ok("store", page-8, 0x11223344)
	f.ok("store", page-4, 0x01020304)
	require.Equal(t, uint64(0x11223344), f.ok("load64_wrap", page-8))
	require.Equal(t, uint64(0x11223345), f.ok("load64_wrap_add", page-8))
	require.Equal(t, uint64(0x11223344), f.ok("load64_wrap_ext", page-8))
	require.Equal(t, uint64(4), f.ok("load32_ext8", page-4))
	require.Equal(t, uint64(0x0304), f.ok("load32_ext16", page-4))
	for _, a := range []uint64{page - 7, page - 4, page - 1} {
		f.traps("load64_wrap", a)
		f.traps("load64_wrap_add", a)
		f.traps("load64_wrap_ext", a)
	}
	for _, a := range []uint64{page - 3, page - 2, page - 1} {
		f.traps("load32_ext8", a)
		f.traps("load32_ext16", a)
	}
	// A store that straddles the end writes nothing.
	require.Equal(t, uint64(0x01020304), f.ok("load32", page-4))
	b, ok := f.mod.Memory().Read(page-4, 4)
	require.True(t, ok)
	require.Equal(t, []byte{4, 3, 2, 1}, b)

	// After growth the new page is accessible, the next is not.
	require.Equal(t, uint64(1), f.ok("grow", 1))
	require.Equal(t, uint64(0), f.ok("load32", page))
	f.ok("store", 2*page-4, 7)
	require.Equal(t, uint64(7), f.ok("load32", 2*page-4))
	f.traps("load32", 2*page-2)
	f.traps("store", 2*page, 1)

	// At the limit (2 pages): growth fails and the memory stays guarded.
	require.Equal(t, uint64(0xFFFFFFFF), f.ok("grow", 1))
	require.Equal(t, uint64(2), f.ok("size"))
	f.traps("load32", 2*page)
	f.traps("grow_then_load", 2*page, 1)
	f.traps("call_grow_then_load", 2*page, 1)
}

func TestGuardedMemoryGrowInsideFunction(t *testing.T) {
	r, compiled := guardedRuntime(t)
	f := newGuardFixture(t, r, compiled, 0)
	// The load after a memory.grow, and after a call that grows, sees the
	// new length (the base is not reloaded; it does not move).
	require.Equal(t, uint64(0), f.ok("grow_then_load", 0, 1))             // load 0, grow to 2 pages, load 0
	f.traps("grow_then_load", 2*page, 0)                                  // the first load traps
	require.Equal(t, uint64(0), f.ok("call_grow_then_load", 2*page-4, 0)) // in bounds, no growth
	f.traps("call_grow_then_load", 3*page, 0)
	// The first load is in bounds, the second one too only after the callee grew the memory.
	f.ok("store", 4, 0x55)
	_, err := f.call("call_grow_then_load", 2*page, 1) // first load at 2 pages: traps before growing
	require.True(t, errors.Is(err, wasmruntime.ErrRuntimeOutOfBoundsMemoryAccess))
	require.Equal(t, uint64(2), f.ok("size"))
	f.ok("grow", 1)
	require.Equal(t, uint64(0), f.ok("call_grow_then_load", 3*page-4, 1)) // 3 -> 4 pages
	require.Equal(t, uint64(4), f.ok("size"))
	require.Equal(t, uint64(0), f.ok("load32", 4*page-4))
	f.traps("load32", 4*page)
}

func TestGuardedMemoryAtomicCheckAfterCalleeGrows(t *testing.T) {
	r, compiled := guardedRuntime(t)
	f := newGuardFixture(t, r, compiled, 0)
	// Atomics keep their bounds check, against the length reloaded after
	// the call that grew the memory (the base is kept).
	_, err := f.call("call_grow_then_atomic", page, 0)
	require.True(t, errors.Is(err, wasmruntime.ErrRuntimeOutOfBoundsMemoryAccess))
	f.ok("store", page-4, 9)
	require.Equal(t, uint64(9), f.ok("call_grow_then_atomic", page-4, 0))
	require.Equal(t, uint64(0), f.ok("call_grow_then_atomic", page, 1))
	require.Equal(t, uint64(2), f.ok("size"))
	_, err = f.call("call_grow_then_atomic", 2*page, 0)
	require.True(t, errors.Is(err, wasmruntime.ErrRuntimeOutOfBoundsMemoryAccess))
}

func TestGuardedMemoryTrapStackTrace(t *testing.T) {
	r, compiled := guardedRuntime(t)
	f := newGuardFixture(t, r, compiled, 0)
	_, err := f.call("call_grow_then_load", 5*page, 0)
	require.Error(t, err)
	require.Contains(t, err.Error(), "out of bounds memory access")
	require.Contains(t, err.Error(), ".$8(") // the function that faulted is in the trace
}

func TestGuardedMemoryRefusesOtherMemories(t *testing.T) {
	r, compiled := guardedRuntime(t)
	// No allocator: a Go slice, which may move and has no guard region.
	_, err := r.InstantiateModule(context.Background(), compiled, wazero.NewModuleConfig().WithName("a"))
	require.Error(t, err)
	require.Contains(t, err.Error(), "GuardedLinearMemory")
	// An allocator whose memory makes no guard promise.
	ctx := experimental.WithMemoryAllocator(context.Background(), &plainTestMemory{guardTestMemory{reserve: guardReserve}})
	_, err = r.InstantiateModule(ctx, compiled, wazero.NewModuleConfig().WithName("b"))
	require.Error(t, err)
	// A reservation too small for index + offset.
	small := &guardTestMemory{reserve: guardReserve, notGuard: true}
	ctx = experimental.WithMemoryAllocator(context.Background(), small)
	_, err = r.InstantiateModule(ctx, compiled, wazero.NewModuleConfig().WithName("c"))
	require.Error(t, err)
	require.Contains(t, err.Error(), "reserves")
	require.Nil(t, small.mapping) // freed
}

func TestGuardedMemoryCheckedCodeIsSeparate(t *testing.T) {
	// The same bytes compiled with and without guarded memory in one cache
	// directory get two entries; the checked code runs on any memory.
	dir := t.TempDir()
	cache, err := wazero.NewCompilationCacheWithDir(dir)
	require.NoError(t, err)
	bin := guardTestModule()
	for round := 0; round < 2; round++ {
		for _, guarded := range []bool{false, true} {
			ctx := context.Background()
			if guarded {
				ctx = experimental.WithGuardedMemory(ctx)
			}
			r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().WithCompilationCache(cache).
				WithCoreFeatures(api.CoreFeaturesV2|experimental.CoreFeaturesThreads))
			compiled, err := r.CompileModule(ctx, bin)
			require.NoError(t, err)
			mod, err := r.InstantiateModule(context.Background(), compiled, wazero.NewModuleConfig())
			if guarded {
				require.Error(t, err)
			} else {
				require.NoError(t, err)
				_, err = mod.ExportedFunction("load32").Call(ctx, page)
				require.True(t, errors.Is(err, wasmruntime.ErrRuntimeOutOfBoundsMemoryAccess))
			}
			f := newGuardFixture(t, r, compiled, 0)
			f.guarded = guarded
			before := sigguard.Faults()
			f.traps("load32", page)
			require.Equal(t, guarded, sigguard.Faults() > before)
			f.traps("load_off", 1)
			require.NoError(t, r.Close(ctx))
		}
	}
	entries, err := filepathGlob(dir)
	require.NoError(t, err)
	require.Equal(t, 2, entries)
}

func TestGuardedMemoryGoFaultsStillPanic(t *testing.T) {
	r, compiled := guardedRuntime(t)
	f := newGuardFixture(t, r, compiled, 0) // installs the handler
	f.traps("load32", page)

	// A nil dereference in Go is still Go's panic.
	func() {
		defer func() {
			r := recover()
			require.NotNil(t, r)
			require.Contains(t, fmt.Sprint(r), "nil pointer dereference")
		}()
		var p *int
		_ = *p
	}()
	// A Go access to the guarded reservation itself is not a Wasm trap:
	// the PC is not compiled Wasm code, so Go handles it (with
	// SetPanicOnFault, as a panic).
	func() {
		defer debugSetPanicOnFault(debugSetPanicOnFault(true))
		defer func() {
			r := recover()
			require.NotNil(t, r)
			require.Contains(t, fmt.Sprint(r), "invalid memory address")
		}()
		p := unsafe.Add(unsafe.Pointer(unsafe.SliceData(f.mem.mapping)), 5*page)
		guardSink = *(*byte)(p)
	}()
	// And the guest still traps normally afterwards.
	f.traps("store", page, 1)
}

func TestGuardedMemoryHandlerStaysInstalled(t *testing.T) {
	r, compiled := guardedRuntime(t)
	f := newGuardFixture(t, r, compiled, 0)
	f.traps("load32", page)
	// os/signal, new threads: none of it makes Go reinstall its handler.
	c := make(chan osSignal, 1)
	signal.Notify(c, syscall.SIGSEGV, syscall.SIGBUS)
	signal.Reset(syscall.SIGSEGV, syscall.SIGBUS)
	signal.Ignore(syscall.SIGBUS)
	signal.Reset()
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread() // the thread exits with the goroutine: a new M next time
		}()
	}
	wg.Wait()
	runtime.GC()
	f.traps("load32", page)
	f.traps("store_off", 0, 1)
}

func TestGuardedMemoryConcurrentFaults(t *testing.T) {
	r, compiled := guardedRuntime(t)
	const goroutines, rounds = 16, 200
	fixtures := make([]*guardFixture, goroutines)
	for i := range fixtures {
		fixtures[i] = newGuardFixture(t, r, compiled, 0)
	}
	errs := make(chan error, goroutines)
	var wg sync.WaitGroup
	for i := range fixtures {
		wg.Add(1)
		go func(g int, f *guardFixture) {
			defer wg.Done()
			for n := 0; n < rounds; n++ {
				v := uint64(g*rounds + n)
				if _, err := f.call("store", 8, v); err != nil {
					errs <- err
					return
				}
				if _, err := f.call("load32", page+uint64(n)); !errors.Is(err, wasmruntime.ErrRuntimeOutOfBoundsMemoryAccess) {
					errs <- fmt.Errorf("goroutine %d: load32 past the end: %v", g, err)
					return
				}
				if _, err := f.call("store_off", uint64(n), v); !errors.Is(err, wasmruntime.ErrRuntimeOutOfBoundsMemoryAccess) {
					errs <- fmt.Errorf("goroutine %d: store_off: %v", g, err)
					return
				}
				res, err := f.call("load32", 8)
				if err != nil || res[0] != v&0xffffffff {
					errs <- fmt.Errorf("goroutine %d: load32(8) = %v, %v; want %d", g, res, err, v)
					return
				}
				if n%50 == 0 {
					runtime.Gosched()
				}
			}
		}(i, fixtures[i])
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// BenchmarkGuardedCall measures a call of a tiny exported function with and
// without guarded memory: the guarded call registers its stack with the
// fault handler on entry and clears it on return.
func BenchmarkGuardedCall(b *testing.B) {
	for _, guarded := range []bool{false, true} {
		b.Run(fmt.Sprintf("guarded=%v", guarded), func(b *testing.B) {
			ctx := context.Background()
			if guarded {
				ctx = experimental.WithGuardedMemory(ctx)
			}
			r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().
				WithCoreFeatures(api.CoreFeaturesV2|experimental.CoreFeaturesThreads))
			defer r.Close(ctx)
			compiled, err := r.CompileModule(ctx, guardTestModule())
			if err != nil {
				b.Fatal(err)
			}
			mem := &guardTestMemory{reserve: guardReserve}
			ictx := experimental.WithMemoryAllocator(context.Background(), mem)
			mod, err := r.InstantiateModule(ictx, compiled, wazero.NewModuleConfig())
			if err != nil {
				b.Fatal(err)
			}
			fn := mod.ExportedFunction("load32")
			stack := []uint64{8}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				stack[0] = 8
				if err := fn.CallWithStack(ictx, stack); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestGuardedMemorySIGBUS: a guest access to a page of its memory that is
// mapped from a file but lies past the file's end raises SIGBUS, not
// SIGSEGV. The handler treats it the same way (the access is stopped
// either way): the call traps and the host carries on.
func TestGuardedMemorySIGBUS(t *testing.T) {
	r, compiled := guardedRuntime(t)
	f := newGuardFixture(t, r, compiled, 0)
	file, err := os.CreateTemp(t.TempDir(), "short")
	require.NoError(t, err)
	defer file.Close()
	require.NoError(t, file.Truncate(4096)) // one host page of the 64 KiB
	base := uintptr(unsafe.Pointer(unsafe.SliceData(f.mem.mapping)))
	_, _, errno := syscall.Syscall6(syscall.SYS_MMAP, base, page, syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_SHARED|syscall.MAP_FIXED, file.Fd(), 0)
	require.Zero(t, errno)
	f.ok("store", 8, 5)
	require.Equal(t, uint64(5), f.ok("load32", 8))
	before := sigguard.Faults()
	_, err = f.call("load32", 8192) // in bounds for Wasm, past the file's end
	require.True(t, errors.Is(err, wasmruntime.ErrRuntimeOutOfBoundsMemoryAccess), fmt.Sprint(err))
	require.True(t, sigguard.Faults() > before)
	require.Equal(t, uint64(5), f.ok("load32", 8))
}
