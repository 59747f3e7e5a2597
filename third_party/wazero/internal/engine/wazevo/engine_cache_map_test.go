package wazevo

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/tetratelabs/wazero/internal/engine/wazevo/wazevoapi"
	"github.com/tetratelabs/wazero/internal/filecache"
	"github.com/tetratelabs/wazero/internal/platform"
	"github.com/tetratelabs/wazero/internal/testing/require"
	"github.com/tetratelabs/wazero/internal/wasm"
)

// mappingOf returns the line of /proc/self/maps whose range holds addr.
func mappingOf(t *testing.T, addr uintptr) string {
	maps, err := os.ReadFile("/proc/self/maps")
	require.NoError(t, err)
	for _, line := range strings.Split(string(maps), "\n") {
		rng, _, _ := strings.Cut(line, " ")
		lo, hi, ok := strings.Cut(rng, "-")
		if !ok {
			continue
		}
		l, err1 := strconv.ParseUint(lo, 16, 64)
		h, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 == nil && err2 == nil && uint64(addr) >= l && uint64(addr) < h {
			return line
		}
	}
	t.Fatalf("no mapping holds %#x", addr)
	return ""
}

// writeEntry writes the cache entry of cm to a new file and returns its path.
func writeEntry(t *testing.T, cm *compiledModule) (string, []byte) {
	entry, err := io.ReadAll(serializeCompiledModule(testVersion, cm))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "entry")
	require.NoError(t, os.WriteFile(path, entry, 0o600))
	return path, entry
}

// deserializeFile deserializes the entry at path, read as the file cache
// gives it (an *os.File).
func deserializeFile(t *testing.T, path string) (*compiledModule, bool, error) {
	f, err := os.Open(path)
	require.NoError(t, err)
	return deserializeCompiledModule(testVersion, f)
}

// TestDeserializeCompiledModuleMapsFile reads an entry from a file, as the
// file cache gives it: the code comes back intact and, on Linux, is the
// entry's file mapped at its aligned offset rather than a copy. (pybox patch
// 0005.)
func TestDeserializeCompiledModuleMapsFile(t *testing.T) {
	code := make([]byte, 3*os.Getpagesize()+100)
	for i := range code {
		code[i] = byte(i*7 + i>>8)
	}
	in := &compiledModule{
		executables:     &executables{executable: code},
		functionOffsets: []int{0, 16, os.Getpagesize()},
	}
	path, entry := writeEntry(t, in)
	codeAt := bytes.Index(entry, code)
	require.True(t, codeAt > 0)
	require.Equal(t, 0, codeAt%cacheCodeAlign)

	cm, stale, err := deserializeFile(t, path)
	require.NoError(t, err)
	require.False(t, stale)
	defer func() { require.NoError(t, platform.MunmapCodeSegment(cm.executable)) }()
	require.Equal(t, code, cm.executable)
	require.Equal(t, in.functionOffsets, cm.functionOffsets)

	addr := uintptr(unsafe.Pointer(&cm.executable[0]))
	require.Equal(t, uintptr(0), addr%uintptr(os.Getpagesize()))
	if runtime.GOOS != "linux" {
		return // the code was copied (MapCodeSegmentFile is Linux only)
	}
	file, err := os.Open(path)
	require.NoError(t, err)
	probe, err := platform.MapCodeSegmentFile(file, int64(codeAt), len(code))
	file.Close()
	if err != nil {
		// A noexec mount (e.g. TMPDIR): the code was copied, as checked.
		t.Skipf("%s cannot be mapped executable here: %v", path, err)
	}
	require.NoError(t, platform.MunmapCodeSegment(probe))
	m := mappingOf(t, addr)
	// Read-only, executable, private, and the entry's file at the code's
	// offset: "start-end r-xp offset dev inode path".
	f := strings.Fields(m)
	require.Equal(t, 6, len(f), m)
	require.Equal(t, "r-xp", f[1], m)
	off, err := strconv.ParseUint(f[2], 16, 64)
	require.NoError(t, err)
	require.Equal(t, uint64(codeAt), off, m)
	require.Equal(t, path, f[5], m)
}

// TestDeserializeCompiledModuleDamagedFile: damage to an entry read from a
// file fails deserialization, mapped or not, without running or touching
// the damaged code. (pybox patch 0005.)
func TestDeserializeCompiledModuleDamagedFile(t *testing.T) {
	code := bytes.Repeat([]byte{0xc3, 0x90, 0x90, 0x90}, 2048) // 8192 bytes
	in := &compiledModule{
		executables:     &executables{executable: code},
		functionOffsets: []int{0},
	}
	_, good := writeEntry(t, in)
	codeAt := bytes.Index(good, code)
	lenAt := len(magic) + 1 + len(testVersion) + 4 + 8 // the code length (8 bytes, little-endian)
	require.Equal(t, uint64(len(code)), binary.LittleEndian.Uint64(good[lenAt:]))
	for _, tc := range []struct {
		name   string
		damage func([]byte) []byte
		expErr string
	}{
		{"in padding", func(b []byte) []byte { return b[:codeAt-1] }, "compilationcache: error reading executable (len=8192): "},
		{"in code", func(b []byte) []byte { return b[:codeAt+4097] }, "compilationcache: error reading executable (len=8192): "},
		{"before checksum", func(b []byte) []byte { return b[:codeAt+len(code)] }, "compilationcache: could not read checksum: EOF"},
		{"code byte", func(b []byte) []byte { b[codeAt+len(code)-1] ^= 1; return b }, "compilationcache: checksum mismatch"},
		{"code length beyond the file", func(b []byte) []byte { b[lenAt+1] ^= 1; return b }, "compilationcache: error reading executable (len=8448): "},
		{"huge code length", func(b []byte) []byte { b[lenAt+7] ^= 0x80; return b }, "compilationcache: invalid executable length: 9223372036854784000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := tc.damage(bytes.Clone(good))
			path := filepath.Join(t.TempDir(), "entry")
			require.NoError(t, os.WriteFile(path, bad, 0o600))
			cm, _, err := deserializeFile(t, path)
			require.Error(t, err)
			require.Nil(t, cm)
			require.Contains(t, err.Error(), tc.expErr)
		})
	}
}

// TestCacheEntryLayoutStale: the engine writes entries under its version
// plus cacheEntryLayout, and an entry under its version alone (the layout
// before patch 0005, which the same fork wrote) is stale: deleted, not
// loaded. (pybox patch 0005.)
func TestCacheEntryLayoutStale(t *testing.T) {
	dir := t.TempDir()
	e := NewEngine(context.Background(), 0, filecache.New(dir)).(*engine)
	m := &wasm.Module{ID: sha256.Sum256([]byte("layout"))}
	cm := &compiledModule{executables: &executables{executable: []byte{1, 2, 3, 4}}, functionOffsets: []int{0}}
	require.NoError(t, e.addCompiledModuleToCache(m, cm))
	key := fileCacheKey(m)
	path := filepath.Join(dir, hex.EncodeToString(key[:]))
	entry, err := os.ReadFile(path)
	require.NoError(t, err)
	version := e.wazeroVersion + cacheEntryLayout
	require.Equal(t, version, string(entry[len(magic)+1:len(magic)+1+int(entry[len(magic)])]))

	got, hit, err := e.getCompiledModuleFromCache(m, true)
	require.NoError(t, err)
	require.True(t, hit)
	require.Equal(t, cm.executable, got.executable)
	require.NoError(t, platform.MunmapCodeSegment(got.executable))

	old, err := io.ReadAll(serializeCompiledModule(e.wazeroVersion, cm))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, old, 0o600))
	_, hit, err = e.getCompiledModuleFromCache(m, true)
	require.NoError(t, err)
	require.False(t, hit)
	_, err = os.Stat(path)
	require.True(t, os.IsNotExist(err), "stale entry not deleted: %v", err)
}

// TestDeserializeCompiledModuleUnverified: without the checksum pass
// (expctxkeys.SkipCachedCodeChecksum), mapped code is not read, yet the
// entry's rest (checksum, source map, try-table info) is read from after the
// code and a file too short for its code still fails. A damaged code byte
// then loads: that is the trust the option takes. (pybox patch 0011.)
func TestDeserializeCompiledModuleUnverified(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("code is mapped from the file on Linux only")
	}
	code := bytes.Repeat([]byte{0xc3, 0x90, 0x90, 0x90}, 2048) // 8192 bytes
	in := &compiledModule{
		executables:     &executables{executable: code},
		functionOffsets: []int{0, 4},
		tryTableInfo:    []wazevoapi.TryTableInfo{{NumLocals: 3, ReuseLocals: true, CatchClauses: []wazevoapi.CatchClauseInstance{{Kind: 1, TagIndex: 7}}}},
	}
	path, good := writeEntry(t, in)
	codeAt := bytes.Index(good, code)
	open := func(path string) (*compiledModule, error) {
		f, err := os.Open(path)
		require.NoError(t, err)
		cm, stale, err := deserializeCompiledModuleVerify(testVersion, f, false)
		require.False(t, stale)
		return cm, err
	}
	cm, err := open(path)
	if err != nil && strings.Contains(err.Error(), "mmapping") {
		t.Skipf("cannot map executable code here: %v", err)
	}
	require.NoError(t, err)
	require.Equal(t, code, cm.executable)
	require.Equal(t, in.functionOffsets, cm.functionOffsets)
	require.Equal(t, in.tryTableInfo, cm.tryTableInfos())
	if !strings.Contains(mappingOf(t, uintptr(unsafe.Pointer(&cm.executable[0]))), path) {
		t.Skip("the code was copied (a noexec folder), and so verified")
	}
	require.NoError(t, platform.MunmapCodeSegment(cm.executable))

	for _, n := range []int{codeAt + 4097, codeAt + len(code) + 3} {
		short := filepath.Join(t.TempDir(), "entry")
		require.NoError(t, os.WriteFile(short, good[:n], 0o600))
		_, err := open(short)
		require.Error(t, err, "cut at %d", n)
	}

	damaged := bytes.Clone(good)
	damaged[codeAt+len(code)-1] ^= 1
	require.NoError(t, os.WriteFile(path, damaged, 0o600))
	cm, err = open(path)
	require.NoError(t, err)
	require.Equal(t, damaged[codeAt:codeAt+len(code)], cm.executable)
	require.NoError(t, platform.MunmapCodeSegment(cm.executable))
}
