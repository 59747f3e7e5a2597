/* setjmp.h for wasm32-wasi builds that lower setjmp/longjmp to WebAssembly
 * exception handling (clang -mllvm -wasm-enable-sjlj). wasi-libc 2022 ships
 * no setjmp.h; the runtime helpers live in wasm_sjlj_rt.c. */
#ifndef _PYBOX_SETJMP_H
#define _PYBOX_SETJMP_H
#ifdef __cplusplus
extern "C" {
#endif
typedef struct __jmp_buf_tag { unsigned long long __jb[8]; } jmp_buf[1];
typedef jmp_buf sigjmp_buf;
int setjmp(jmp_buf) __attribute__((__returns_twice__));
_Noreturn void longjmp(jmp_buf, int);
#define _setjmp setjmp
#define _longjmp longjmp
#ifdef __cplusplus
}
#endif
#endif
