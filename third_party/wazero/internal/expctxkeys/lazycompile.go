package expctxkeys

// LazyCompilationKey is a context.Context Value key (pybox patch 0040). Its
// presence, with any non-nil value, asks CompileModule to compile each
// function of a module when it is first called. See
// experimental.WithLazyCompilation.
type LazyCompilationKey struct{}
