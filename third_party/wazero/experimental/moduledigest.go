package experimental

import (
	"context"
	"errors"

	"github.com/tetratelabs/wazero/internal/expctxkeys"
)

// WithModuleDigest returns a context that makes Runtime.CompileModule
// identify the module by digest instead of by the SHA-256 of the bytes it is
// given: in the compilation cache (the key of the module's entry) and among
// the modules the runtime has already compiled. A caller that already knows
// a large module's checksum (from a manifest, say) saves hashing the module
// on every start.
//
// # Notes
//
//   - The caller vouches that one digest always names one module: the
//     compiled code cached for a digest is run for any module compiled with
//     it. A good digest is a cryptographic hash of the module's bytes, mixed
//     with anything the caller changes in them before compiling.
//   - Digests do not collide with modules identified by their bytes: a
//     module compiled with and without a digest has two cache entries.
func WithModuleDigest(ctx context.Context, digest [32]byte) context.Context {
	return context.WithValue(ctx, expctxkeys.ModuleDigest{}, digest)
}

// WithCachedModuleOnly returns a context in which Runtime.CompileModule
// never compiles: it makes the module's compiled code available from the
// runtime's memory or its compilation cache, or fails with an error wrapping
// ErrModuleNotCached (also when the runtime has no cache, or its engine
// cannot load modules without compiling, as with function listeners).
//
// Nothing of the module's function bodies is validated or used then (see
// WithModuleDigest for what identifies the module), so with a digest the
// bytes given need only be the module's structure: its types, imports,
// functions' type indexes, tables, memories, globals, tags, exports, start
// function, element segments, data segments and custom sections, plus a
// code section with one (any valid) body per function. Instantiating a
// large module then needs none of its code, which is most of its bytes.
// Everything but the bodies must be exactly the module's, or the cached
// code runs against a different module.
func WithCachedModuleOnly(ctx context.Context) context.Context {
	return context.WithValue(ctx, expctxkeys.CachedModuleOnly{}, true)
}

// ErrModuleNotCached is the error Runtime.CompileModule wraps when
// WithCachedModuleOnly is set and the module's compiled code is not cached.
var ErrModuleNotCached = errors.New("compiled module not in the cache")

// WithoutCachedCodeChecksum returns a context in which Runtime.CompileModule,
// loading a module's compiled code from a compilation cache's file, does not
// read the code to verify its checksum where it maps the code from the file
// (on Linux; elsewhere the code is copied, and verified as it is read). The
// file's length is still checked, so a truncated entry is still dropped and
// compiled again; a damaged byte inside the code is not found.
//
// The checksum reads the whole machine code once per load (about 20 ms for
// 180 MB): most of what a process that loads a large module and runs it
// briefly spends. Skipping it trusts the file system for the code's
// integrity, as the operating system is trusted for the integrity of the
// executables it loads: entries are written whole (synced, then renamed
// into place), so a crash does not leave a damaged one behind, and the
// cache directory must be kept from outside changes anyway.
func WithoutCachedCodeChecksum(ctx context.Context) context.Context {
	return context.WithValue(ctx, expctxkeys.SkipCachedCodeChecksum{}, true)
}
