package adhoc

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/internal/platform"
	"github.com/tetratelabs/wazero/internal/testing/require"
	"github.com/tetratelabs/wazero/internal/wasm"
)

// TestParallelCompilationIsDeterministic (pybox patch 0014): a module of
// many functions, some with a try_table, compiles to the same cache entry
// with 1, 2, 4 and 8 workers, and the entry's code runs. try_table IDs are
// baked into the code; before the patch workers took them in the order
// they happened to lower the functions, so the entry changed from one
// compile to the next (here the functions with a long prefix before their
// try_table alternate with short ones to make that order vary).
func TestParallelCompilationIsDeterministic(t *testing.T) {
	if !platform.CompilerSupported() {
		t.Skip()
	}
	const numFuncs = 600
	bin := buildMixedModule(numFuncs)
	features := api.CoreFeaturesV2 | experimental.CoreFeaturesExceptionHandling

	var want map[string][]byte
	for _, workers := range []int{1, 2, 4, 8} {
		dir := t.TempDir()
		cache, err := wazero.NewCompilationCacheWithDir(dir)
		require.NoError(t, err)
		ctx := experimental.WithCompilationWorkers(context.Background(), workers)
		r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().
			WithCoreFeatures(features).WithCompilationCache(cache))
		_, err = r.CompileModule(ctx, bin)
		require.NoError(t, err)
		require.NoError(t, r.Close(ctx))

		entries := readTree(t, dir)
		require.Equal(t, 1, len(entries), "cache entries with %d workers", workers)
		if want == nil {
			want = entries
		} else {
			for name, b := range want {
				got, ok := entries[name]
				require.True(t, ok, "workers=%d: entry %s missing", workers, name)
				require.True(t, string(got) == string(b), "workers=%d: entry %s differs from 1 worker's", workers, name)
			}
		}

		// The cached code runs (loaded, not compiled again).
		r = wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().
			WithCoreFeatures(features).WithCompilationCache(cache))
		mod, err := r.InstantiateWithConfig(ctx, bin, wazero.NewModuleConfig().WithStartFunctions())
		require.NoError(t, err)
		for i := 0; i < numFuncs; i += 7 {
			res, err := mod.ExportedFunction(fmt.Sprintf("f%d", i)).Call(ctx)
			require.NoError(t, err, "f%d", i)
			require.Equal(t, uint64(i), res[0], "f%d", i)
		}
		require.NoError(t, r.Close(ctx))
		require.NoError(t, cache.Close(ctx))
	}
}

// buildMixedModule returns a module of n exported functions () -> i32 where
// fN returns N. Every third one catches a throw in a try_table after a
// prefix of arithmetic (long and short ones alternating); the others are
// arithmetic of sizes that do not grow with the index.
func buildMixedModule(n int) []byte {
	m := &wasm.Module{
		TypeSection: []wasm.FunctionType{{Results: []wasm.ValueType{wasm.ValueTypeI32}}, {}},
		TagSection:  []wasm.Tag{{Type: 1}},
	}
	arith := func(body []byte, k int) []byte {
		for j := 0; j < k; j++ {
			body = append(body, wasm.OpcodeI32Const)
			body = appendSleb128(body, int32(j))
			body = append(body, wasm.OpcodeI32Const)
			body = appendSleb128(body, int32(k))
			body = append(body, wasm.OpcodeI32Add, wasm.OpcodeDrop)
		}
		return body
	}
	for i := 0; i < n; i++ {
		m.FunctionSection = append(m.FunctionSection, 0)
		m.ExportSection = append(m.ExportSection, wasm.Export{Type: wasm.ExternTypeFunc, Name: fmt.Sprintf("f%d", i), Index: wasm.Index(i)})
		var body []byte
		if i%3 == 0 {
			prefix := 2
			if i%2 == 0 {
				prefix = 3000
			}
			body = arith(body, prefix)
			body = append(body,
				wasm.OpcodeBlock, 0x40,
				wasm.OpcodeTryTable, 0x40, 1, wasm.CatchKindCatchAll, 0,
				wasm.OpcodeThrow, 0,
				wasm.OpcodeEnd,
				wasm.OpcodeI32Const, 0x7f,
				wasm.OpcodeReturn,
				wasm.OpcodeEnd)
		} else {
			body = arith(body, (i*37)%200)
		}
		body = append(body, wasm.OpcodeI32Const)
		body = appendSleb128(body, int32(i))
		body = append(body, wasm.OpcodeEnd)
		m.CodeSection = append(m.CodeSection, wasm.Code{Body: body})
	}
	return encodeModule(m)
}

// readTree returns the contents of the files under dir by relative path.
func readTree(t *testing.T, dir string) map[string][]byte {
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		files[rel] = b
		return nil
	})
	require.NoError(t, err)
	return files
}
