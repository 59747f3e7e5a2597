package wazevo_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/internal/engine/wazevo"
	"github.com/tetratelabs/wazero/internal/platform"
	"github.com/tetratelabs/wazero/internal/testing/require"
	"github.com/tetratelabs/wazero/internal/wasm"
)

// cacheHitModule returns a module exporting "f" () -> i32 whose body is
// `<op> 42`: valid with op i32.const (0x41), invalid (type mismatch) with
// op i64.const (0x42). Both binaries have the same layout.
func cacheHitModule(op byte) []byte {
	return []byte{
		0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
		0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f, // type: () -> i32
		0x03, 0x02, 0x01, 0x00, // function: type 0
		0x07, 0x05, 0x01, 0x01, 'f', 0x00, 0x00, // export "f" = func 0
		0x0a, 0x06, 0x01, 0x04, 0x00, op, 42, 0x0b, // code
	}
}

// cacheEntryPath is where a compilation cache in dir keeps the entry of bin
// (compiled without listeners or ensureTermination); entryDir is the
// directory the cache writes its entries to.
func cacheEntryPath(entryDir string, bin []byte) string {
	var m wasm.Module
	m.AssignModuleID(bin, nil, false)
	key := wazevo.FileCacheKey(&m)
	return filepath.Join(entryDir, hex.EncodeToString(key[:]))
}

// compileAndCall compiles bin in a fresh runtime using the cache in dir,
// instantiates it and returns what "f" returns.
func compileAndCall(t *testing.T, dir string, bin []byte) (uint64, error) {
	ctx := context.Background()
	cc, err := wazero.NewCompilationCacheWithDir(dir)
	require.NoError(t, err)
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().WithCompilationCache(cc))
	defer r.Close(ctx)
	compiled, err := r.CompileModule(ctx, bin)
	if err != nil {
		return 0, err
	}
	mod, err := r.InstantiateModule(ctx, compiled, wazero.NewModuleConfig())
	require.NoError(t, err)
	res, err := mod.ExportedFunction("f").Call(ctx)
	require.NoError(t, err)
	return res[0], nil
}

// warmCache compiles the valid module into a new cache and returns the cache
// directory and the path of the entry written.
func warmCache(t *testing.T) (dir, entry string) {
	dir = t.TempDir()
	v, err := compileAndCall(t, dir, cacheHitModule(0x41))
	require.NoError(t, err)
	require.Equal(t, uint64(42), v)
	var entries []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			entries = append(entries, p)
		}
		return err
	}))
	require.Equal(t, 1, len(entries))
	require.Equal(t, cacheEntryPath(filepath.Dir(entries[0]), cacheHitModule(0x41)), entries[0])
	return dir, entries[0]
}

// TestCacheHitSkipsFunctionValidation shows that a module whose compiled code
// is in the cache is not re-validated: the entry of a valid module copied to
// the key of an invalid one (which a cache never holds by itself) makes the
// invalid module compile and run the cached code, while without the entry it
// fails validation.
func TestCacheHitSkipsFunctionValidation(t *testing.T) {
	if !platform.CompilerSupported() {
		t.Skip()
	}
	invalid := cacheHitModule(0x42)
	_, err := compileAndCall(t, t.TempDir(), invalid)
	require.Error(t, err) // control: the module is invalid

	dir, entry := warmCache(t)
	// The valid module hits the cache and runs.
	v, err := compileAndCall(t, dir, cacheHitModule(0x41))
	require.NoError(t, err)
	require.Equal(t, uint64(42), v)

	data, err := os.ReadFile(entry)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(cacheEntryPath(filepath.Dir(entry), invalid), data, 0o600))
	v, err = compileAndCall(t, dir, invalid)
	require.NoError(t, err)
	require.Equal(t, uint64(42), v)
}

// TestCacheCorruptEntryRecompiles shows that an entry that cannot be read
// back is removed and the module compiled and cached afresh.
func TestCacheCorruptEntryRecompiles(t *testing.T) {
	if !platform.CompilerSupported() {
		t.Skip()
	}
	for _, tc := range []struct {
		name    string
		corrupt func([]byte) []byte
	}{
		{"empty", func([]byte) []byte { return nil }},
		{"truncated header", func(b []byte) []byte { return b[:5] }},
		{"truncated offsets", func(b []byte) []byte { return b[:len(b)/8] }},
		{"truncated code", func(b []byte) []byte { return b[:len(b)/2] }},
		{"bad magic", func(b []byte) []byte { b[0] ^= 0xff; return b }},
		{"code checksum", func(b []byte) []byte { b[len(b)-20] ^= 0xff; return b }},
		{"missing tail", func(b []byte) []byte { return b[:len(b)-1] }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, entry := warmCache(t)
			good, err := os.ReadFile(entry)
			require.NoError(t, err)
			bad := tc.corrupt(bytes.Clone(good))
			require.NoError(t, os.WriteFile(entry, bad, 0o600))

			v, err := compileAndCall(t, dir, cacheHitModule(0x41))
			require.NoError(t, err)
			require.Equal(t, uint64(42), v)
			rewritten, err := os.ReadFile(entry)
			require.NoError(t, err)
			require.Equal(t, good, rewritten)
		})
	}
}

// cacheHitStub is cacheHitModule's structure with a body that only ends
// (invalid for "f", which must return an i32).
func cacheHitStub() []byte {
	m := cacheHitModule(0x41)
	return append(m[:len(m)-8:len(m)-8], 0x0a, 0x04, 0x01, 0x02, 0x00, 0x0b)
}

// compileAndCallCtx is compileAndCall with ctx passed to CompileModule.
func compileAndCallCtx(t *testing.T, ctx context.Context, dir string, bin []byte) (uint64, error) {
	cc, err := wazero.NewCompilationCacheWithDir(dir)
	require.NoError(t, err)
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().WithCompilationCache(cc))
	defer r.Close(ctx)
	compiled, err := r.CompileModule(ctx, bin)
	if err != nil {
		return 0, err
	}
	mod, err := r.InstantiateModule(ctx, compiled, wazero.NewModuleConfig())
	require.NoError(t, err)
	res, err := mod.ExportedFunction("f").Call(ctx)
	require.NoError(t, err)
	return res[0], nil
}

// cacheFiles lists the files of a compilation cache folder.
func cacheFiles(t *testing.T, dir string) (files []string) {
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	}))
	return files
}

// TestModuleDigestCachedOnly shows that a module compiled under a digest
// (experimental.WithModuleDigest) is found again by the digest alone: its
// structure with stub bodies loads and runs the cached code when compiling
// is forbidden (WithCachedModuleOnly), which otherwise fails with
// ErrModuleNotCached and writes nothing; and that a digest and the module's
// own bytes key different entries. (pybox patch 0011.)
func TestModuleDigestCachedOnly(t *testing.T) {
	if !platform.CompilerSupported() {
		t.Skip()
	}
	bg := context.Background()
	digest := [32]byte{1, 2, 3}
	withDigest := experimental.WithModuleDigest(bg, digest)
	cachedOnly := experimental.WithCachedModuleOnly(withDigest)

	// Nothing cached: no compile, no entry.
	dir := t.TempDir()
	_, err := compileAndCallCtx(t, cachedOnly, dir, cacheHitModule(0x41))
	require.ErrorIs(t, err, experimental.ErrModuleNotCached)
	require.Equal(t, 0, len(cacheFiles(t, dir)))
	// Without a cache there is nothing to load from.
	r := wazero.NewRuntimeWithConfig(bg, wazero.NewRuntimeConfigCompiler())
	_, err = r.CompileModule(cachedOnly, cacheHitModule(0x41))
	require.ErrorIs(t, err, experimental.ErrModuleNotCached)
	require.NoError(t, r.Close(bg))

	// The stub is invalid on its own, so it cannot be compiled.
	_, err = compileAndCallCtx(t, withDigest, t.TempDir(), cacheHitStub())
	require.Error(t, err)

	// Compiled under the digest: one entry, not the bytes' own.
	v, err := compileAndCallCtx(t, withDigest, dir, cacheHitModule(0x41))
	require.NoError(t, err)
	require.Equal(t, uint64(42), v)
	files := cacheFiles(t, dir)
	require.Equal(t, 1, len(files))
	require.NotEqual(t, cacheEntryPath(filepath.Dir(files[0]), cacheHitModule(0x41)), files[0])

	// The stub loads the digest's code and runs it.
	v, err = compileAndCallCtx(t, cachedOnly, dir, cacheHitStub())
	require.NoError(t, err)
	require.Equal(t, uint64(42), v)

	// Another digest is not cached.
	other := experimental.WithCachedModuleOnly(experimental.WithModuleDigest(bg, [32]byte{9}))
	_, err = compileAndCallCtx(t, other, dir, cacheHitStub())
	require.ErrorIs(t, err, experimental.ErrModuleNotCached)

	// The module's own bytes are another entry.
	_, err = compileAndCallCtx(t, experimental.WithCachedModuleOnly(bg), dir, cacheHitModule(0x41))
	require.ErrorIs(t, err, experimental.ErrModuleNotCached)
	v, err = compileAndCall(t, dir, cacheHitModule(0x41))
	require.NoError(t, err)
	require.Equal(t, uint64(42), v)
	require.Equal(t, 2, len(cacheFiles(t, dir)))
}

// TestElementSegmentsInstantiated checks the evaluation of element segments
// without the general constant-expression evaluator (pybox patch 0011): a
// table filled at an i32.const offset with ref.func entries calls the right
// function through call_indirect, compiled and loaded from the cache.
func TestElementSegmentsInstantiated(t *testing.T) {
	if !platform.CompilerSupported() {
		t.Skip()
	}
	bin := []byte{
		0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
		0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f, // type: () -> i32
		0x03, 0x04, 0x03, 0x00, 0x00, 0x00, // three functions of it
		0x04, 0x04, 0x01, 0x70, 0x00, 0x03, // a funcref table of 3
		0x07, 0x05, 0x01, 0x01, 'f', 0x00, 0x02, // export "f" = func 2
		0x09, 0x08, 0x01, 0x00, 0x41, 0x01, 0x0b, 0x02, 0x00, 0x01, // table[1:3] = func 0, func 1
		0x0a, 0x13, 0x03,
		0x04, 0x00, 0x41, 0x07, 0x0b, // func 0: 7
		0x04, 0x00, 0x41, 0x09, 0x0b, // func 1: 9
		0x07, 0x00, 0x41, 0x02, 0x11, 0x00, 0x00, 0x0b, // func 2: call_indirect table[2]
	}
	dir := t.TempDir()
	for i := 0; i < 2; i++ { // compiled, then loaded
		v, err := compileAndCall(t, dir, bin)
		require.NoError(t, err)
		require.Equal(t, uint64(9), v)
	}
}
