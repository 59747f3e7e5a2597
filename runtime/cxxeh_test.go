package runtime

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// cxxehWasm is C++ compiled with WebAssembly exceptions in the standard
// (exnref) encoding against the exception-enabled libc++ of
// scripts/build-libcxx.sh: source and build command in testdata/cxxeh/.
//
//go:embed testdata/cxxeh/eh_test.wasm
var cxxehWasm []byte

// cxxehMemoryPages bounds the test module's memory (64 MiB), so that a big
// allocation fails and operator new throws std::bad_alloc.
const cxxehMemoryPages = 1024

// cxxehModule compiles eh_test.wasm with the engine's features.
func cxxehModule(t testing.TB) (wazero.Runtime, wazero.CompiledModule) {
	t.Helper()
	return cxxehCompile(t, context.Background())
}

// cxxehCompiles are the ways the exception tests compile eh_test.wasm:
// whole, and each function when first called (wazero fork patch 0040, as
// a first run on an empty cache compiles python.wasm), where supported.
var cxxehCompiles = []struct {
	name string
	ctx  context.Context
}{
	{"whole", context.Background()},
	{"lazy", experimental.WithLazyCompilation(context.Background())},
}

// cxxehCompile compiles eh_test.wasm with ctx and the engine's features.
func cxxehCompile(t testing.TB, ctx context.Context) (wazero.Runtime, wazero.CompiledModule) {
	t.Helper()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().
		WithCoreFeatures(guestFeatures).WithMemoryLimitPages(cxxehMemoryPages))
	t.Cleanup(func() { rt.Close(ctx) })
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	cm, err := rt.CompileModule(ctx, cxxehWasm)
	if err != nil {
		t.Fatalf("compile eh_test.wasm: %v", err)
	}
	return rt, cm
}

// cxxehInstance instantiates a fresh copy of the module (running its
// _initialize) and reports its initial stack pointer.
func cxxehInstance(t testing.TB, rt wazero.Runtime, cm wazero.CompiledModule) (api.Module, uint64) {
	t.Helper()
	ctx := context.Background()
	mod, err := rt.InstantiateModule(ctx, cm,
		wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize"))
	if err != nil {
		t.Fatalf("instantiate eh_test.wasm: %v", err)
	}
	t.Cleanup(func() { mod.Close(ctx) })
	sp := mod.ExportedGlobal("__stack_pointer")
	if sp == nil {
		t.Fatal("eh_test.wasm does not export __stack_pointer")
	}
	return mod, sp.Get()
}

// cxxehCall calls an exported function with int32 arguments.
func cxxehCall(mod api.Module, name string, args ...int32) (int32, error) {
	fn := mod.ExportedFunction(name)
	if fn == nil {
		return 0, fmt.Errorf("eh_test.wasm has no export %s", name)
	}
	params := make([]uint64, len(args))
	for i, a := range args {
		params[i] = api.EncodeI32(a)
	}
	res, err := fn.Call(context.Background(), params...)
	if err != nil {
		return 0, err
	}
	return api.DecodeI32(res[0]), nil
}

// cxxehMessage reads the C string the module left in its message buffer.
func cxxehMessage(t *testing.T, mod api.Module) string {
	t.Helper()
	ptr, err := cxxehCall(mod, "eh_message")
	if err != nil {
		t.Fatal(err)
	}
	n, err := cxxehCall(mod, "eh_message_len")
	if err != nil {
		t.Fatal(err)
	}
	b, ok := mod.Memory().Read(uint32(ptr), uint32(n))
	if !ok {
		t.Fatalf("message at %d+%d is outside memory", ptr, n)
	}
	return string(b)
}

// tryTableLocalsProbe is, in the text format:
//
//	(module
//	  (type (func (result i32))) (type (func))
//	  (tag $e (type 1))
//	  (func (export "f") (result i32) (local $flag i32)
//	    (local.set $flag (i32.const 1))
//	    (block
//	      (try_table (catch_all 0)
//	        (local.set $flag (i32.const 0))
//	        (call $thrower)))
//	    (local.get $flag))
//	  (func $thrower (throw $e)))
//
// f must return 0: a handler sees locals as they were at the throw.
var tryTableLocalsProbe = []byte{
	0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
	0x01, 0x08, 0x02, 0x60, 0x00, 0x01, 0x7f, 0x60, 0x00, 0x00, // types
	0x03, 0x03, 0x02, 0x00, 0x01, // functions
	0x0d, 0x03, 0x01, 0x00, 0x01, // tag
	0x07, 0x05, 0x01, 0x01, 'f', 0x00, 0x00, // export
	0x0a, 0x20, 0x02, // code
	0x19, 0x01, 0x01, 0x7f,
	0x41, 0x01, 0x21, 0x00,
	0x02, 0x40,
	0x1f, 0x40, 0x01, 0x02, 0x00,
	0x41, 0x00, 0x21, 0x00,
	0x10, 0x01,
	0x0b, 0x0b,
	0x20, 0x00, 0x0b,
	0x04, 0x00, 0x08, 0x00, 0x0b,
}

// tryTableLocalsResult runs the probe with the given engine configuration.
func tryTableLocalsResult(t testing.TB, rc wazero.RuntimeConfig) int32 {
	t.Helper()
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, rc.WithCoreFeatures(guestFeatures))
	defer rt.Close(ctx)
	mod, err := rt.Instantiate(ctx, tryTableLocalsProbe)
	if err != nil {
		t.Fatalf("instantiate the try_table probe: %v", err)
	}
	res, err := mod.ExportedFunction("f").Call(ctx)
	if err != nil {
		t.Fatalf("try_table probe: %v", err)
	}
	return api.DecodeI32(res[0])
}

// The probe: a catch handler must see locals as they were at the throw.
// wazero v1.12.0's compiler gave it the values they had when the try_table
// was entered (wazero issue 2503; the interpreter was right). clang keeps
// C++ cleanup state in locals written inside try_table bodies (e.g. "the
// exception object is constructed", so the cleanup must not free it), so
// with that bug some exceptions were freed while they were thrown. pybox
// runs a fork of wazero with the upstream fix (third_party/wazero); this
// fails if go.mod ever points back at a wazero without it.
func TestWazeroTryTableLocals(t *testing.T) {
	for _, tc := range []struct {
		engine string
		rc     wazero.RuntimeConfig
	}{
		{"interpreter", wazero.NewRuntimeConfigInterpreter()},
		{"compiler", wazero.NewRuntimeConfigCompiler()},
	} {
		if got := tryTableLocalsResult(t, tc.rc); got != 0 {
			t.Errorf("%s: handler saw flag=%d, want 0 (1: locals as of try_table entry, wazero issue 2503)", tc.engine, got)
		}
	}
}

// C++ exceptions thrown and caught inside the module: each case runs in a
// fresh instance; the result, the message and the number of C frames the
// exception crossed are checked, and the stack pointer must be back at its
// initial value (the handler restored it).
func TestCxxExceptionsCaught(t *testing.T) {
	forEachCxxehCompile(t, func(t *testing.T, rt wazero.Runtime, cm wazero.CompiledModule) {
		tests := []struct {
			name     string
			fn       string
			args     []int32
			want     int32
			wantMsg  string
			cFrames  int32 // C frames (eh_cshim.c) an exception went through
			whatItIs string
		}{
			{"throw_catch", "eh_throw_catch", nil, 0, "", 0, "int thrown two frames down, caught by value"},
			{"catch_all", "eh_catch_all", nil, 0, "", 0, "catch (...) after non-matching handlers"},
			{"raii", "eh_raii", nil, 123, "", 0, "destructors run innermost first during unwinding"},
			{"what", "eh_what", []int32{42}, 0, "bad value 42", 0, "std::runtime_error::what() after the unwind"},
			{"nested", "eh_nested", nil, 0, "", 0, "a handler throws, an outer try catches"},
			{"rethrow", "eh_rethrow", nil, 0, "", 0, "throw; and std::rethrow_exception"},
			{"library", "eh_library", []int32{256 << 20}, 0, "", 0, "libc++ throws out_of_range and bad_alloc"},
			{"wrapper_ok", "eh_wrapped_sqrt", []int32{49}, 7, "", 0, "no exception: the C frame returns"},
			{"wrapper_domain", "eh_wrapped_sqrt", []int32{-4}, -1, "negative input -4", 1, "exception through a C frame to an error code"},
			{"wrapper_other", "eh_wrapped_sqrt", []int32{2000000}, -2, "custom", 1, "other std::exception through a C frame"},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				mod, sp0 := cxxehInstance(t, rt, cm)
				got, err := cxxehCall(mod, tc.fn, tc.args...)
				if err != nil {
					t.Fatalf("%s (%s): %v", tc.fn, tc.whatItIs, err)
				}
				if got != tc.want {
					t.Errorf("%s (%s) = %d, want %d", tc.fn, tc.whatItIs, got, tc.want)
				}
				if msg := cxxehMessage(t, mod); msg != tc.wantMsg {
					t.Errorf("%s message = %q, want %q", tc.fn, msg, tc.wantMsg)
				}
				if n, err := cxxehCall(mod, "eh_c_frames_unwound"); err != nil || n != tc.cFrames {
					t.Errorf("C frames unwound = %d (err %v), want %d", n, err, tc.cFrames)
				}
				if sp := mod.ExportedGlobal("__stack_pointer").Get(); sp != sp0 {
					t.Errorf("stack pointer %#x after the call, want %#x", sp, sp0)
				}
			})
		}
	})
}

// Many throws: every exception object is freed (the memory stops growing
// after the first round), and the instance stays usable.
func TestCxxExceptionsNoLeak(t *testing.T) {
	forEachCxxehCompile(t, func(t *testing.T, rt wazero.Runtime, cm wazero.CompiledModule) {
		mod, sp0 := cxxehInstance(t, rt, cm)
		const n = 2000
		var sizes []uint32
		for round := 0; round < 3; round++ {
			got, err := cxxehCall(mod, "eh_loop", n)
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
			if got != n {
				t.Fatalf("round %d: caught %d of %d", round, got, n)
			}
			sizes = append(sizes, mod.Memory().Size())
		}
		if sizes[2] != sizes[0] {
			t.Errorf("memory grew from %d to %d bytes over %d more throws", sizes[0], sizes[2], 2*n)
		}
		if sp := mod.ExportedGlobal("__stack_pointer").Get(); sp != sp0 {
			t.Errorf("stack pointer %#x after the loops, want %#x", sp, sp0)
		}
		if got, err := cxxehCall(mod, "eh_raii"); err != nil || got != 123 {
			t.Errorf("eh_raii after the loops = %d, %v; want 123", got, err)
		}
	})
}

// An exception that nothing catches ends the call with an error, never a
// return value: one that leaves the module is wazero's "uncaught exception"
// (and leaves the stack pointer where the throw was, so the instance must
// be discarded; the host's stack-pointer check sees it); one that reaches a
// noexcept function calls std::terminate, which aborts (a trap).
func TestCxxExceptionsUncaught(t *testing.T) {
	forEachCxxehCompile(t, func(t *testing.T, rt wazero.Runtime, cm wazero.CompiledModule) {
		tests := []struct {
			name       string
			fn         string
			wantErr    string
			spMoved    bool
			wantReason string // how the runtime explains it (trapReason)
		}{
			{"leaves_module", "eh_uncaught", "uncaught exception", true, "a C++ exception was not caught; "},
			// The noexcept function's handler restores the stack pointer before
			// it calls std::terminate.
			{"noexcept_terminate", "eh_terminate", "unreachable", false, "the interpreter aborted; "},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				mod, sp0 := cxxehInstance(t, rt, cm)
				got, err := cxxehCall(mod, tc.fn)
				if err == nil {
					t.Fatalf("%s returned %d, want an error containing %q", tc.fn, got, tc.wantErr)
				}
				if !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("%s: error %q, want it to contain %q", tc.fn, err, tc.wantErr)
				}
				if sp := mod.ExportedGlobal("__stack_pointer").Get(); (sp != sp0) != tc.spMoved {
					t.Errorf("stack pointer %#x after the failed call (initial %#x), want moved=%v", sp, sp0, tc.spMoved)
				}
				if got := trapReason(err); !strings.HasPrefix(got, tc.wantReason) {
					t.Errorf("trapReason = %q, want it to start with %q", got, tc.wantReason)
				}
			})
		}
	})
}

// BenchmarkCxxThrowCatch measures one throw of a std::runtime_error (with a
// std::string message) from a called function to its caller's handler,
// including a destructor on the way.
func BenchmarkCxxThrowCatch(b *testing.B) {
	rt, cm := cxxehModule(b)
	mod, _ := cxxehInstance(b, rt, cm)
	b.ResetTimer()
	if _, err := cxxehCall(mod, "eh_loop", int32(b.N)); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkCxxTryTableEnter measures a call through a function with a
// destructor (a landing pad: one try_table entered) against the same call
// without one, in code that never throws.
func BenchmarkCxxTryTableEnter(b *testing.B) {
	for _, bc := range []struct {
		name    string
		cleanup int32
	}{{"no_cleanup", 0}, {"cleanup", 1}} {
		b.Run(bc.name, func(b *testing.B) {
			rt, cm := cxxehModule(b)
			mod, _ := cxxehInstance(b, rt, cm)
			b.ResetTimer()
			if _, err := cxxehCall(mod, "eh_enter_loop", int32(b.N), bc.cleanup); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// forEachCxxehCompile runs f as a subtest for each way the test module is
// compiled (cxxehCompiles: whole, and lazily where supported).
func forEachCxxehCompile(t *testing.T, f func(t *testing.T, rt wazero.Runtime, cm wazero.CompiledModule)) {
	for _, c := range cxxehCompiles {
		t.Run(c.name, func(t *testing.T) {
			rt, cm := cxxehCompile(t, c.ctx)
			f(t, rt, cm)
		})
	}
}
