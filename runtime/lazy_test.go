package runtime_test

import (
	"context"
	"io/fs"
	"path/filepath"
	"testing"
	"time"

	"github.com/pybox-dev/pybox/runtime"
)

// An engine started with LazyCompile on an empty cache folder compiles
// python.wasm's functions as they are first called (wazero fork patches
// 0040-0041), gives the results of the shared engine (whole compiled code
// from the cache), exceptions, tracebacks, deep recursion, a timeout and
// C++ exceptions (libjpeg's setjmp through Pillow) included, and leaves the
// cache as it was: nothing written, not marked compiled.
func TestLazyCompileOnEmptyCache(t *testing.T) {
	if !runtime.LazyCompileSupported() {
		t.Skip("lazy compilation is implemented on linux/amd64 only")
	}
	ctx := context.Background()
	dir := t.TempDir()
	lazy, err := runtime.NewEngine(ctx, runtime.Config{CacheDir: dir, LazyCompile: true})
	if err != nil {
		t.Fatal(err)
	}
	defer lazy.Close(ctx)
	if !lazy.CompiledLazily() {
		t.Fatal("the engine compiled python.wasm whole on an empty cache folder")
	}

	for _, tc := range []struct {
		name, code string
		timeout    time.Duration
	}{
		{"print", "print(6 * 7)", 0},
		{"numpy", "import numpy as np\nprint(np.arange(12).reshape(3, 4).sum(axis=0), np.linalg.inv(np.eye(2) * 2))", 0},
		{"exception", "import json\nprint(json.dumps({'a': 1}))\n{}['missing']", 0},
		{"recursion", "import sys\nsys.setrecursionlimit(5000)\ndef f(n): return 0 if n == 0 else 1 + f(n - 1)\nprint(f(4000))\ndef g(): return g()\ng()", 0},
		{"sqlite_zlib", "import sqlite3, zlib\nprint(sqlite3.connect(':memory:').execute('select 6*7').fetchone(), len(zlib.compress(b'x' * 1000)))", 0},
		{"jpeg", "import io\nfrom PIL import Image\nb = io.BytesIO()\nImage.new('RGB', (8, 8), 'red').save(b, 'JPEG')\ntry:\n    Image.open(io.BytesIO(b.getvalue()[:200])).load()\nexcept OSError as e:\n    print('truncated:', e)", 0},
		{"timeout", "print('start', flush=True)\nwhile True: pass", time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := func() runtime.Request {
				return runtime.Request{Code: tc.code, Limits: runtime.Limits{Timeout: tc.timeout, Memory: 256 << 20}}
			}
			want, err := engine.Run(ctx, req())
			if err != nil {
				t.Fatal(err)
			}
			got, err := lazy.Run(ctx, req())
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != want.Status || got.ExitCode != want.ExitCode || string(got.Stdout) != string(want.Stdout) || string(got.Stderr) != string(want.Stderr) {
				t.Errorf("lazily compiled: %s %d %q %q\nwhole: %s %d %q %q",
					got.Status, got.ExitCode, got.Stdout, got.Stderr, want.Status, want.ExitCode, want.Stdout, want.Stderr)
			}
		})
	}

	if done, err := runtime.Compiled(dir, lazy.Bundle()); err != nil || done {
		t.Errorf("the cache folder is marked compiled after a lazy compile: %v, %v", done, err)
	}
	// The cache's folders exist (wazero makes them), with no entry.
	filepath.WalkDir(filepath.Join(dir, "wazero"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			t.Errorf("the lazy engine wrote %s into the compilation cache", path)
		}
		return nil
	})
}
