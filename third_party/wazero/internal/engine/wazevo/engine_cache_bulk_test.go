package wazevo

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/tetratelabs/wazero/internal/engine/wazevo/wazevoapi"
	"github.com/tetratelabs/wazero/internal/testing/require"
)

// TestDeserializeCompiledModuleManyEntries reads back an entry with many
// functions and try_tables, from memory and from a file: the offsets and
// the try_table records (with no, one and several catch clauses) are as
// written, and reading them does not allocate per record (pybox patch
// 0047).
func TestDeserializeCompiledModuleManyEntries(t *testing.T) {
	const functions, tryTables = 20000, 5000
	cm := &compiledModule{executables: &executables{executable: make([]byte, 4096)}}
	for i := 0; i < functions; i++ {
		cm.functionOffsets = append(cm.functionOffsets, 16*i%4096)
	}
	for i := 0; i < tryTables; i++ {
		info := wazevoapi.TryTableInfo{NumLocals: i, ReuseLocals: i%3 == 0, CatchClauses: []wazevoapi.CatchClauseInstance{}}
		for j := 0; j < i%4; j++ {
			info.CatchClauses = append(info.CatchClauses, wazevoapi.CatchClauseInstance{Kind: byte(j), TagIndex: uint32(i + j)})
		}
		cm.tryTableInfo = append(cm.tryTableInfo, info)
	}
	entry, err := io.ReadAll(serializeCompiledModule(testVersion, cm))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "entry")
	require.NoError(t, os.WriteFile(path, entry, 0o600))

	check := func(t *testing.T, open func() io.ReadCloser) {
		got, stale, err := deserializeCompiledModule(testVersion, open())
		require.NoError(t, err)
		require.False(t, stale)
		require.Equal(t, cm.functionOffsets, got.functionOffsets)
		require.Equal(t, cm.tryTableInfo, got.tryTableInfos())
		require.Equal(t, &got.tryTableInfos()[7], got.tryTableInfoAt(7))
		require.Equal(t, cm.executable, got.executable)
		// An entry written from a module read from an entry is the same.
		again, stale, err := deserializeCompiledModule(testVersion, open())
		require.NoError(t, err)
		require.False(t, stale)
		rewritten, err := io.ReadAll(serializeCompiledModule(testVersion, again))
		require.NoError(t, err)
		require.Equal(t, entry, rewritten)
		executablesFinalizer(got.executables)
		executablesFinalizer(again.executables)

		allocs := testing.AllocsPerRun(3, func() {
			got, _, err := deserializeCompiledModule(testVersion, open())
			if err != nil {
				panic(err)
			}
			executablesFinalizer(got.executables)
		})
		require.True(t, allocs < tryTables/10, "%.0f allocations to read %d try_tables", allocs, tryTables)
	}
	t.Run("memory", func(t *testing.T) {
		check(t, func() io.ReadCloser { return nopCloser{bytesReader(entry)} })
	})
	t.Run("file", func(t *testing.T) {
		check(t, func() io.ReadCloser {
			f, err := os.Open(path)
			if err != nil {
				panic(err)
			}
			return f
		})
	})
}

type nopCloser struct{ io.Reader }

func (nopCloser) Close() error { return nil }

func bytesReader(b []byte) io.Reader {
	r := &sliceReader{b: b}
	return r
}

// sliceReader reads a byte slice (a reader that is not an *os.File).
type sliceReader struct{ b []byte }

func (r *sliceReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}
