/* pybox: WASI has no syscall(); OpenBLAS's wasm paths do not call it. */
