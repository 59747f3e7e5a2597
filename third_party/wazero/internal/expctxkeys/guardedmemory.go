package expctxkeys

// GuardedMemoryKey is a context.Context Value key (pybox patch 0012). Its
// presence, with any non-nil value, asks CompileModule for code that relies
// on guard regions instead of bounds checks. See experimental.WithGuardedMemory.
type GuardedMemoryKey struct{}
