package expctxkeys

// ModuleDigest is a context.Context Value key. Its associated value is a
// [32]byte that CompileModule uses in place of the SHA-256 of the module's
// bytes to identify the module. (pybox patch 0011.)
type ModuleDigest struct{}

// CachedModuleOnly is a context.Context Value key. With any value,
// CompileModule loads the module's compiled code from the cache and never
// compiles. (pybox patch 0011.)
type CachedModuleOnly struct{}

// SkipCachedCodeChecksum is a context.Context Value key. With any value,
// code that a compilation cache hit maps from the cache's file is not
// checksummed. (pybox patch 0011.)
type SkipCachedCodeChecksum struct{}
