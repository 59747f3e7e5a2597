# The WebAssembly exception tag that C++ exceptions are thrown with.
#
# Code compiled by clang-22 with -fwasm-exceptions refers to the tag
# `__cpp_exception` (one i32 parameter: the _Unwind_Exception pointer) and
# expects the runtime to define it; libunwind's Unwind-wasm.c throws it with
# __builtin_wasm_throw(0, ...). LLVM 19's libunwind, which we build, does not
# define it (later libunwind releases do), so this object does.
.globl __cpp_exception
.tagtype __cpp_exception i32
__cpp_exception:
