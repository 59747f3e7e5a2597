package runtime

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"
)

// addWasm is a module exporting add(i32, i32) i32; badWasm is the same with
// an invalid body (i32.add with one operand).
var (
	addWasm = []byte{0, 'a', 's', 'm', 1, 0, 0, 0,
		1, 7, 1, 0x60, 2, 0x7f, 0x7f, 1, 0x7f, // type (i32, i32) -> i32
		3, 2, 1, 0, // one function of that type
		7, 7, 1, 3, 'a', 'd', 'd', 0, 0, // export "add"
		10, 9, 1, 7, 0, 0x20, 0, 0x20, 1, 0x6a, 0x0b} // local.get 0, local.get 1, i32.add
	badWasm = []byte{0, 'a', 's', 'm', 1, 0, 0, 0,
		1, 7, 1, 0x60, 2, 0x7f, 0x7f, 1, 0x7f,
		3, 2, 1, 0,
		7, 7, 1, 3, 'a', 'd', 'd', 0, 0,
		10, 7, 1, 5, 0, 0x20, 0, 0x6a, 0x0b} // local.get 0, i32.add: one operand short
)

// compileAndAdd compiles wasm with the compilation cache in dir and calls
// add(1, 2).
func compileAndAdd(t *testing.T, dir string, wasm []byte) (uint64, error) {
	t.Helper()
	ctx := context.Background()
	cache, err := wazero.NewCompilationCacheWithDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close(ctx)
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().WithCompilationCache(cache))
	defer rt.Close(ctx)
	compiled, err := rt.CompileModule(ctx, wasm)
	if err != nil {
		return 0, err
	}
	mod, err := rt.InstantiateModule(ctx, compiled, wazero.NewModuleConfig())
	if err != nil {
		t.Fatal(err)
	}
	res, err := mod.ExportedFunction("add").Call(ctx, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	return res[0], nil
}

// manyFuncsWasm is addWasm plus n empty functions: a cache entry whose
// table of function offsets spans many read buffers.
func manyFuncsWasm(n int) []byte {
	leb := func(v int) []byte {
		var b []byte
		for {
			c := byte(v & 0x7f)
			v >>= 7
			if v != 0 {
				b = append(b, c|0x80)
				continue
			}
			return append(b, c)
		}
	}
	section := func(id byte, body []byte) []byte {
		return append(append([]byte{id}, leb(len(body))...), body...)
	}
	types := []byte{2, 0x60, 2, 0x7f, 0x7f, 1, 0x7f, 0x60, 0, 0}
	funcs := append(leb(n+1), 0)
	code := append(leb(n+1), 7, 0, 0x20, 0, 0x20, 1, 0x6a, 0x0b)
	for i := 0; i < n; i++ {
		funcs = append(funcs, 1)
		code = append(code, 2, 0, 0x0b)
	}
	out := []byte{0, 'a', 's', 'm', 1, 0, 0, 0}
	out = append(out, section(1, types)...)
	out = append(out, section(3, funcs)...)
	out = append(out, section(7, []byte{1, 3, 'a', 'd', 'd', 0, 0})...)
	return append(out, section(10, code)...)
}

// A module with 20,000 functions is loaded from its cache entry, not
// compiled again: the entry is read whole through a buffer (patch 0004),
// so the reads of its offsets table must not come up short.
func TestCompilationCacheHitWithManyFunctions(t *testing.T) {
	dir := t.TempDir()
	wasm := manyFuncsWasm(20000)
	if got, err := compileAndAdd(t, dir, wasm); err != nil || got != 3 {
		t.Fatalf("cold: %d, %v", got, err)
	}
	entries := cacheFiles(t, dir)
	if len(entries) != 1 {
		t.Fatalf("cache entries: %v", entries)
	}
	before, err := os.Stat(entries[0])
	if err != nil {
		t.Fatal(err)
	}
	if got, err := compileAndAdd(t, dir, wasm); err != nil || got != 3 {
		t.Fatalf("cached: %d, %v", got, err)
	}
	after, err := os.Stat(entries[0])
	if err != nil || !os.SameFile(before, after) {
		t.Fatalf("the cache entry was written again (a miss): %v", err)
	}
}

// cacheFiles lists the entries of the compilation cache in dir.
func cacheFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	return files
}

// The fork's cache path (patch 0004): a cached module is loaded without
// re-validating its function bodies, which only the hash of the very bytes
// that were validated and compiled can reach; an invalid module is still
// refused with a cache; a corrupt or truncated entry is dropped and the
// module compiled again instead of failing every start.
func TestCompilationCacheLoadsAndRecovers(t *testing.T) {
	dir := t.TempDir()
	for _, step := range []string{"cold", "cached"} {
		if got, err := compileAndAdd(t, dir, addWasm); err != nil || got != 3 {
			t.Fatalf("%s: add(1, 2) = %d, %v", step, got, err)
		}
	}
	entries := cacheFiles(t, dir)
	if len(entries) != 1 {
		t.Fatalf("cache entries: %v", entries)
	}
	if _, err := compileAndAdd(t, dir, badWasm); err == nil || !strings.Contains(err.Error(), "invalid function") {
		t.Fatalf("an invalid module compiled with a cache: %v", err)
	}

	full, err := os.ReadFile(entries[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		bytes []byte
	}{
		{"truncated", full[:len(full)/2]},
		{"flipped code byte", append(append([]byte{}, full[:len(full)-8]...), full[len(full)-8]^0xff, 0, 0, 0, 0, 0, 0, 0)},
		{"empty", nil},
	} {
		if err := os.WriteFile(entries[0], c.bytes, 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := compileAndAdd(t, dir, addWasm); err != nil || got != 3 {
			t.Fatalf("%s entry: add(1, 2) = %d, %v", c.name, got, err)
		}
		again, err := os.ReadFile(entries[0])
		if err != nil || len(again) != len(full) {
			t.Fatalf("%s entry: not written again (%d bytes, %v)", c.name, len(again), err)
		}
	}
}
