/* __cxa_thread_atexit for python.wasm (pybox): clang emits calls to it for
 * C++ `thread_local` objects with destructors (scipy's uarray). The bundle's
 * libc++abi is built without threads and does not define it; WASI has one
 * thread, whose end is the end of the program, so the destructor is
 * registered like a static object's. */
int __cxa_atexit(void (*func)(void *), void *arg, void *dso);

int __cxa_thread_atexit(void (*func)(void *), void *arg, void *dso)
{
	return __cxa_atexit(func, arg, dso);
}
