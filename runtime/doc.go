// Package runtime runs Python code in CPython compiled to WebAssembly (WASI),
// inside this process, with wazero.
//
// An Engine compiles the interpreter once (seconds cold, ~100 ms from the
// on-disk compilation cache) and then runs code in fresh, isolated
// interpreter instances from any number of goroutines:
//
//	eng, _ := runtime.NewEngine(ctx, runtime.Config{})
//	res, _ := eng.Run(ctx, runtime.Request{Code: "print(1)"})
//
// Results separate what the Python code did (Result.Status: ok, exit, error,
// timeout, canceled, crashed) from pybox failing to run it (Run's error).
//
// What this package owns: instantiating interpreters, their memory limit,
// stdout/stderr streaming and capture, wall-clock limits and interrupts, and
// the guest side of the host protocol (guest/runner.py). What it must never
// do: decide which host files the guest may touch — the guest sees only the
// read-only runtime bundle here; filesystem policy belongs to fsbridge.
//
// See docs/RATIONALE.md for why interrupts, yields and memory limits work
// the way they do.
package runtime
