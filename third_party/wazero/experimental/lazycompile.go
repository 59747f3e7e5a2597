package experimental

import (
	"context"

	"github.com/tetratelabs/wazero/internal/expctxkeys"
)

// WithLazyCompilation returns a context that makes Runtime.CompileModule, on
// a miss of the compilation cache, compile no function of the module up
// front: each is compiled the first time it is called, by the goroutine that
// calls it. Such a compiled module is never written to the compilation cache
// (it is never whole); a program that wants the cache filled compiles the
// module again without this context, e.g. in another process. A cache hit
// loads the whole compiled module as usual.
//
// Function bodies are validated when first called too (pybox patch 0041):
// a body that does not validate fails the call that reaches it, with the
// error CompileModule would have returned, not CompileModule itself.
//
// Only the optimizing compiler on linux/amd64 implements it, and only for
// modules compiled without function listeners and without DWARF source
// information; elsewhere the context changes nothing. (pybox patch 0040.)
func WithLazyCompilation(ctx context.Context) context.Context {
	return context.WithValue(ctx, expctxkeys.LazyCompilationKey{}, true)
}
