/* Runtime helpers for LLVM's WebAssembly setjmp/longjmp lowering
 * (-mllvm -wasm-enable-sjlj, LLVM >= 19 ABI). wasi-libc 2022 lacks them.
 * Same contract as wasi-libc's later libc-top-half/musl/src/setjmp/wasm32/rt.c. */
#include <stddef.h>
#include <stdint.h>

struct jmp_buf_impl {
    void *func_invocation_id;
    uint32_t label;
    struct arg { void *env; int val; } arg;
};
_Static_assert(sizeof(struct jmp_buf_impl) <= 64, "jmp_buf too small");

void __wasm_setjmp(void *env, uint32_t label, void *func_invocation_id) {
    struct jmp_buf_impl *jb = env;
    if (label == 0 || func_invocation_id == NULL) __builtin_trap();
    jb->func_invocation_id = func_invocation_id;
    jb->label = label;
}

uint32_t __wasm_setjmp_test(void *env, void *func_invocation_id) {
    struct jmp_buf_impl *jb = env;
    if (jb->label == 0 || func_invocation_id == NULL) __builtin_trap();
    return jb->func_invocation_id == func_invocation_id ? jb->label : 0;
}

void __wasm_longjmp(void *env, int val) {
    struct jmp_buf_impl *jb = env;
    if (val == 0) val = 1;
    jb->arg.env = env;
    jb->arg.val = val;
    __builtin_wasm_throw(1, &jb->arg); /* tag 1 = __c_longjmp */
}

/* For objects that call longjmp without calling setjmp (and so were compiled
 * without the lowering, e.g. FreeType's ft_validator_error): the lowering
 * turns longjmp into __wasm_longjmp in the files it processes. */
_Noreturn void longjmp(void *env, int val) {
    __wasm_longjmp(env, val);
    __builtin_unreachable();
}
