/* C++ exceptions in a build without an unwinder.
 *
 * Debian's libc++abi for wasm32 is built without exception support, and
 * wazero only runs the standard (exnref) WebAssembly EH encoding. numpy's
 * few C++ files that use try/catch/throw (fft/_pocketfft_umath.cpp,
 * pocketfft_hdronly.h, _core/src/multiarray/unique.cpp) are compiled with
 * clang's -fignore-exceptions: try/catch/throw compile, no landing pads are
 * emitted. A throw can then only end the program: it happens on internal
 * errors and allocation failures (where libc++ itself, built with
 * -fno-exceptions, aborts as well). The message names the exception type. */
#include <stdio.h>
#include <stdlib.h>

struct type_info_layout { const void *vtable; const char *name; };

void *__cxa_allocate_exception(size_t size) {
    void *p = malloc(size ? size : 1);
    if (p == NULL) abort();
    return p;
}

void __cxa_free_exception(void *p) { free(p); }

_Noreturn void __cxa_throw(void *obj, void *tinfo, void (*dest)(void *)) {
    const struct type_info_layout *ti = tinfo;
    fprintf(stderr, "fatal: C++ exception of type %s thrown in a build without "
            "C++ exception support; aborting\n", ti && ti->name ? ti->name : "?");
    abort();
}
