package packages

import (
	"archive/tar"
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/pybox-dev/pybox/assets"
)

// decodedBundle is the embedded bundle decoded into memory, once.
var decodedBundle = sync.OnceValues(func() (*Bundle, error) {
	return Decode(bytes.NewReader(assets.Runtime))
})

func decoded(t testing.TB) *Bundle {
	t.Helper()
	b, err := decodedBundle()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// extractedDir is the folder loadCached installs the embedded bundle into.
func extractedDir(cache string) string {
	return filepath.Join(cache, "bundle-"+assets.RuntimeSHA256[:24])
}

// smallBundle returns a small compressed bundle (a fake python.wasm, a
// manifest, a few files and folders, an empty folder) and the folder
// loadCached installs it into under cache, for tests that extract it
// many times.
func smallBundle(t testing.TB) (compressed []byte, dir func(cache string) string) {
	t.Helper()
	var buf bytes.Buffer
	zw, err := zstd.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	tw := tar.NewWriter(zw)
	wasm := bytes.Repeat([]byte("\x00asm\x01\x00\x00\x00"), 40000)
	for _, e := range []struct {
		name string
		body []byte
	}{
		{"./", nil}, {"./lib/", nil}, {"./lib/python3.11/", nil},
		{"./lib/python3.11/os.pyc", bytes.Repeat([]byte("os"), 3000)},
		{"./lib/python3.11/lib-dynload/", nil},
		{"./lib/python3.11/json/", nil},
		{"./lib/python3.11/json/__init__.pyc", []byte("json")},
		{"./lib/python3.11/json/empty.pyc", []byte{}},
		{"./manifest.json", []byte(`{"format": 1, "python": "3.11"}`)},
		{"./python.wasm", wasm},
	} {
		h := &tar.Header{Name: e.name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(e.body))}
		if strings.HasSuffix(e.name, "/") {
			h.Typeflag, h.Mode = tar.TypeDir, 0o755
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(e.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(buf.Bytes())
	return buf.Bytes(), func(cache string) string {
		return filepath.Join(cache, "bundle-"+hex.EncodeToString(sum[:])[:24])
	}
}

// sameAsDecoded checks that b serves exactly the files, sizes, modes and
// contents of the in-memory decode, through Open as the guest reads and
// through ReadFile, and the same python.wasm, ID and manifest.
func sameAsDecoded(t *testing.T, b *Bundle) {
	t.Helper()
	mem := decoded(t)
	if b.ID != mem.ID || !bytes.Equal(b.Manifest.Raw, mem.Manifest.Raw) || !bytes.Equal(b.Wasm, mem.Wasm) {
		t.Fatalf("ID, manifest or python.wasm differ")
	}
	if b.Files.Len() != mem.Files.Len() || b.Files.Size() != mem.Files.Size() {
		t.Fatalf("%d entries/%d bytes, %d/%d in memory", b.Files.Len(), b.Files.Size(), mem.Files.Len(), mem.Files.Size())
	}
	n := 0
	err := fs.WalkDir(mem.Files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		want := mustStat(t, mem.Files, p)
		got := mustStat(t, b.Files, p)
		if got.Name() != want.Name() || got.Size() != want.Size() || got.Mode() != want.Mode() || !got.ModTime().Equal(want.ModTime()) {
			t.Errorf("%s: stat %v %v %v, want %v %v %v", p, got.Size(), got.Mode(), got.ModTime(), want.Size(), want.Mode(), want.ModTime())
		}
		if d.IsDir() {
			gotEntries, err1 := fs.ReadDir(b.Files, p)
			wantEntries, err2 := fs.ReadDir(mem.Files, p)
			if err1 != nil || err2 != nil || len(gotEntries) != len(wantEntries) {
				t.Errorf("%s: readdir: %d entries (%v), want %d (%v)", p, len(gotEntries), err1, len(wantEntries), err2)
				return nil
			}
			for i := range gotEntries {
				if gotEntries[i].Name() != wantEntries[i].Name() || gotEntries[i].Type() != wantEntries[i].Type() {
					t.Errorf("%s: readdir entry %d: %s, want %s", p, i, gotEntries[i].Name(), wantEntries[i].Name())
				}
			}
			return nil
		}
		data, _ := mem.Files.ReadFile(p)
		opened, err := fs.ReadFile(b.Files, p) // through Open
		if err != nil {
			return err
		}
		if !bytes.Equal(opened, data) {
			t.Errorf("%s differs", p)
		}
		if read, err := b.Files.ReadFile(p); err != nil || !bytes.Equal(read, data) {
			t.Errorf("%s differs read with ReadFile (%v)", p, err)
		}
		n++
		return nil
	})
	if err != nil || n < 1000 {
		t.Fatalf("walked %d files: %v", n, err)
	}
	// Reads at an offset and seeks, as the guest's pread and lseek do.
	const p = "lib/python3.11/os.pyc"
	want, _ := mem.Files.ReadFile(p)
	f, err := b.Files.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 100)
	if n, err := f.(io.ReaderAt).ReadAt(buf, 1000); err != nil || n != 100 || !bytes.Equal(buf, want[1000:1100]) {
		t.Errorf("ReadAt: %d %v", n, err)
	}
	if off, err := f.(io.Seeker).Seek(-10, io.SeekEnd); err != nil || off != int64(len(want))-10 {
		t.Errorf("Seek: %d %v", off, err)
	}
	if rest, err := io.ReadAll(f); err != nil || !bytes.Equal(rest, want[len(want)-10:]) {
		t.Errorf("read after Seek: %q %v", rest, err)
	}
}

func mustStat(t *testing.T, fsys fs.FS, p string) fs.FileInfo {
	t.Helper()
	st, err := fs.Stat(fsys, p)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestExtractedBundleMatchesDecoded: the bundle extracted into the cache
// folder, mapped or read, serves exactly what the in-memory decode does,
// and python.wasm starts at a packAlign boundary of the pack.
func TestExtractedBundleMatchesDecoded(t *testing.T) {
	cache := t.TempDir()
	for round := range 2 { // extract, then reopen
		b, err := loadCached(cache, assets.Runtime, assets.RuntimeSHA256)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if b.Checksum != assets.RuntimeSHA256 {
			t.Errorf("round %d: checksum %q", round, b.Checksum)
		}
		sameAsDecoded(t, b)
	}
	pack := filepath.Join(extractedDir(cache), packName)
	t.Run("read", func(t *testing.T) { // as where files are not mapped (mapfile_other.go)
		b, err := openPackFile(pack, false)
		if err != nil {
			t.Fatal(err)
		}
		sameAsDecoded(t, b)
	})
	index := packIndex(t, pack)
	i := strings.Index(index, " python.wasm\n")
	line := index[strings.LastIndexByte(index[:i], '\n')+1 : i]
	if fields := strings.Fields(line); len(fields) != 4 {
		t.Fatalf("python.wasm's index line %q", line)
	} else if off, err := strconv.ParseInt(fields[3], 10, 64); err != nil || off%packAlign != 0 {
		t.Errorf("python.wasm at offset %s of the pack, not a multiple of %d", fields[3], packAlign)
	}
}

// packIndex returns the index text of the pack file at name.
func packIndex(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	tr := data[len(data)-packTrailerSize:]
	off := binary.LittleEndian.Uint64(tr)
	return string(data[off : len(data)-packTrailerSize])
}

// TestExtractedBundleDamaged: a pack that is damaged (cut short, its
// trailer or index changed, an offset out of range, gone) is not used and
// not deleted; the bundle is extracted again under the next name.
func TestExtractedBundleDamaged(t *testing.T) {
	compressed, extractedDir := smallBundle(t)
	template := t.TempDir()
	if _, err := loadCached(template, compressed, ""); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(filepath.Join(extractedDir(template), packName))
	if err != nil {
		t.Fatal(err)
	}
	// withIndex returns the pack with its index replaced by edit(index,
	// where the index starts), and a trailer that matches.
	withIndex := func(edit func(string, uint64) string) []byte {
		tr := good[len(good)-packTrailerSize:]
		off := binary.LittleEndian.Uint64(tr)
		index := edit(string(good[off:len(good)-packTrailerSize]), off)
		out := append(append([]byte(nil), good[:off]...), index...)
		var trailer [packTrailerSize]byte
		binary.LittleEndian.PutUint64(trailer[0:], off)
		binary.LittleEndian.PutUint64(trailer[8:], uint64(len(index)))
		binary.LittleEndian.PutUint32(trailer[16:], crc32.Checksum([]byte(index), packCRC))
		copy(trailer[24:], packMagic)
		return append(out, trailer[:]...)
	}
	flip := func(at int) []byte {
		b := bytes.Clone(good)
		b[at] ^= 0x20
		return b
	}
	tests := []struct {
		name string
		pack []byte // nil: no pack
		want string
	}{
		{"empty", []byte{}, "damaged pack"},
		{"cut short", good[:len(good)-1], "damaged pack"},
		{"cut in half", good[:len(good)/2], "damaged pack"},
		{"trailer", flip(len(good) - 1), "no trailer"},
		{"index", flip(len(good) - packTrailerSize - 10), "checksum"},
		{"offset", withIndex(func(s string, indexOff uint64) string { // a file's bytes in the index
			return strings.Replace(s, " lib/python3.11/os.pyc\n", fmt.Sprintf(" lib/python3.11/os.pyc\nf 444 10 %d lib/x.pyc\n", indexOff-5), 1)
		}), "damaged pack: line"},
		{"path", withIndex(func(s string, _ uint64) string {
			return strings.Replace(s, "\nd lib\n", "\nd lib\nd ../x\n", 1)
		}), "damaged pack: line"},
		{"no pack", nil, "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cache := t.TempDir()
			dir := extractedDir(cache)
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if tt.pack != nil {
				if err := os.WriteFile(filepath.Join(dir, packName), tt.pack, 0o444); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := openExtracted(dir); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("opening the damaged folder: got error %v, want one containing %q", err, tt.want)
			}
			b, err := loadCached(cache, compressed, "")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := b.Files.ReadFile("lib/python3.11/os.pyc"); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(dir+".1", packName)); err != nil {
				t.Errorf("no bundle installed beside the damaged one: %v", err)
			}
			if tt.pack != nil {
				if now, err := os.ReadFile(filepath.Join(dir, packName)); err != nil || !bytes.Equal(now, tt.pack) {
					t.Errorf("the damaged pack was changed or removed: %v", err)
				}
			}
			left, _ := filepath.Glob(filepath.Join(cache, ".bundle-tmp-*"))
			if len(left) != 0 {
				t.Errorf("temporary folders left behind: %v", left)
			}
		})
	}
}

// TestExtractedBundleRaces: goroutines that all extract into one empty
// cache folder, then all install at once, all get a working bundle, the
// one installed first; one folder is installed, nothing is left behind.
func TestExtractedBundleRaces(t *testing.T) {
	compressed, extractedDir := smallBundle(t)
	cache := t.TempDir()
	var wg, extracted sync.WaitGroup
	errs := make([]error, 8)
	extracted.Add(len(errs))
	testHookExtracted = func() { extracted.Done(); extracted.Wait() }
	defer func() { testHookExtracted = nil }()
	for i := range errs {
		wg.Go(func() {
			b, err := loadCached(cache, compressed, "")
			if err == nil {
				_, err = b.Files.ReadFile("lib/python3.11/os.pyc")
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("loader %d: %v", i, err)
		}
	}
	checkOneInstalled(t, extractedDir(cache))
}

// checkOneInstalled checks that dir's cache folder holds only dir, an
// extracted bundle with a pack: no second one, no temporary folder.
func checkOneInstalled(t *testing.T, dir string) {
	t.Helper()
	all, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), "*bundle-*"))
	if len(all) != 1 || all[0] != dir {
		t.Errorf("want only %s, have %v", dir, all)
	}
	if _, err := os.Stat(filepath.Join(dir, packName)); err != nil {
		t.Errorf("no pack installed: %v", err)
	}
}

// childCacheEnv, set, makes TestExtractedBundleProcesses a child process:
// it extracts the bundle for the cache folder it names, says so, waits for
// its standard input to close, then installs it (or takes the one
// installed by then).
const childCacheEnv = "PYBOX_TEST_EXTRACT_CHILD"

// childBundleEnv names the compressed bundle the child loads.
const childBundleEnv = "PYBOX_TEST_EXTRACT_BUNDLE"

// TestExtractedBundleProcesses: processes that all extract into one empty
// cache folder, then all install at once, all get the same working bundle;
// one folder is installed, nothing is left behind.
func TestExtractedBundleProcesses(t *testing.T) {
	if cache := os.Getenv(childCacheEnv); cache != "" {
		testHookExtracted = func() {
			fmt.Println("extracted")
			io.Copy(io.Discard, os.Stdin)
		}
		compressed, err := os.ReadFile(os.Getenv(childBundleEnv))
		if err != nil {
			t.Fatal(err)
		}
		b, err := loadCached(cache, compressed, "")
		if err != nil {
			t.Fatal(err)
		}
		data, err := b.Files.ReadFile("lib/python3.11/os.pyc")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("loaded %s %d %d\n", b.ID, b.Files.Len(), len(data))
		return
	}
	compressed, extractedDir := smallBundle(t)
	bundle := filepath.Join(t.TempDir(), "bundle.tar.zst")
	if err := os.WriteFile(bundle, compressed, 0o644); err != nil {
		t.Fatal(err)
	}
	mem, err := Decode(bytes.NewReader(compressed))
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	const n = 6
	var install []io.Closer
	var outs []*bufio.Reader
	var cmds []*exec.Cmd
	for range n {
		cmd := exec.Command(os.Args[0], "-test.run=^TestExtractedBundleProcesses$", "-test.count=1")
		cmd.Env = append(os.Environ(), childCacheEnv+"="+cache, childBundleEnv+"="+bundle)
		cmd.Stderr = os.Stderr
		w, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		r, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Wait()
		defer w.Close()
		install, outs, cmds = append(install, w), append(outs, bufio.NewReader(r)), append(cmds, cmd)
	}
	for i, r := range outs {
		if line, err := r.ReadString('\n'); line != "extracted\n" {
			t.Fatalf("process %d: %q %v", i, line, err)
		}
	}
	for _, w := range install {
		w.Close()
	}
	want := fmt.Sprintf("loaded %s %d 6000\n", mem.ID, mem.Files.Len())
	for i, cmd := range cmds {
		out, _ := io.ReadAll(outs[i])
		if err := cmd.Wait(); err != nil || !strings.Contains(string(out), want) {
			t.Errorf("process %d: %v\n%s", i, err, out)
		}
	}
	checkOneInstalled(t, extractedDir(cache))
}

// writeFolderLayout writes b into dir as pybox extracted bundles before
// the pack: files under files/, an index beside them.
func writeFolderLayout(t *testing.T, dir string, b *Bundle) {
	t.Helper()
	files := filepath.Join(dir, extractedFiles)
	var index strings.Builder
	index.WriteString(indexHeader + "\n")
	write := func(name string, data []byte, mode fs.FileMode) {
		p := filepath.Join(files, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o444); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&index, "f %o %d %s\n", mode.Perm(), len(data), name)
	}
	err := fs.WalkDir(b.Files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == "." {
			return err
		}
		if d.IsDir() {
			fmt.Fprintf(&index, "d %s\n", p)
			return os.MkdirAll(filepath.Join(files, filepath.FromSlash(p)), 0o755)
		}
		data, err := b.Files.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		write(p, data, info.Mode())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	write("manifest.json", b.Manifest.Raw, 0o644)
	write("python.wasm", b.Wasm, 0o644)
	fmt.Fprintf(&index, "id %s\n", b.ID)
	if err := os.WriteFile(filepath.Join(dir, extractedIndex), []byte(index.String()), 0o444); err != nil {
		t.Fatal(err)
	}
}

// TestFolderLayoutStillRead: a bundle extracted by a pybox from before the
// pack (files under files/) is used as it is, not extracted again.
func TestFolderLayoutStillRead(t *testing.T) {
	cache := t.TempDir()
	dir := extractedDir(cache)
	writeFolderLayout(t, dir, decoded(t))
	b, err := loadCached(cache, assets.Runtime, assets.RuntimeSHA256)
	if err != nil {
		t.Fatal(err)
	}
	sameAsDecoded(t, b)
	all, _ := filepath.Glob(filepath.Join(cache, "*"))
	if len(all) != 1 {
		t.Errorf("extracted again beside a bundle of the older layout: %v", all)
	}
	if _, err := os.Stat(filepath.Join(dir, packName)); err == nil {
		t.Errorf("a pack was written into a folder of the older layout")
	}
}

// BenchmarkOpenExtracted measures what every process pays to load the
// extracted bundle: its index into a tree, the manifest, python.wasm mapped.
func BenchmarkOpenExtracted(b *testing.B) {
	dir := b.TempDir()
	if _, err := loadCached(dir, assets.Runtime, assets.RuntimeSHA256); err != nil {
		b.Fatal(err)
	}
	ext := extractedDir(dir)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := openExtracted(ext); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExtractBundle measures unpacking the embedded bundle into an
// empty folder, what a first run on an empty cache folder waits for.
func BenchmarkExtractBundle(b *testing.B) {
	base := b.TempDir()
	n := 0
	for b.Loop() {
		dir := filepath.Join(base, strconv.Itoa(n))
		n++
		if err := os.Mkdir(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := extractPack(dir, assets.Runtime); err != nil {
			b.Fatal(err)
		}
	}
}

// TestExtractBundleRefuses: a bundle whose entries would land outside the
// folder, or are links, or clash, is refused with an error naming the
// entry, nothing is written outside the folder, and nothing is installed.
func TestExtractBundleRefuses(t *testing.T) {
	type entry struct {
		name     string
		typeflag byte
		body     string
	}
	file := func(name string) entry { return entry{name, tar.TypeReg, "x"} }
	dir := func(name string) entry { return entry{name, tar.TypeDir, ""} }
	tests := []struct {
		name    string
		entries []entry
		want    string
	}{
		{"parent", []entry{file("../escaped")}, "invalid path"},
		{"parent inside", []entry{file("lib/../../escaped")}, "invalid path"},
		{"absolute", []entry{file("/escaped")}, "invalid path"},
		{"line break", []entry{file("lib/a\nf 444 1 0 b")}, "invalid path"},
		{"symlink", []entry{{"lib/link", tar.TypeSymlink, ""}}, "unsupported entry type"},
		{"twice", []entry{file("lib/a.py"), file("lib/a.py")}, "extract lib/a.py"},
		{"file then folder", []entry{file("lib"), file("lib/a.py")}, "extract lib/a.py: lib is a file"},
		{"folder then file", []entry{dir("lib"), file("lib")}, "extract lib: file already exists"},
		{"file then folder entry", []entry{file("lib"), dir("lib")}, "extract lib: file already exists"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			zw, err := zstd.NewWriter(&buf)
			if err != nil {
				t.Fatal(err)
			}
			tw := tar.NewWriter(zw)
			for _, e := range tt.entries {
				h := &tar.Header{Name: e.name, Typeflag: e.typeflag, Mode: 0o644, Size: int64(len(e.body)), Linkname: "/etc/passwd"}
				if e.typeflag != tar.TypeReg {
					h.Size = 0
				}
				if err := tw.WriteHeader(h); err != nil {
					t.Fatal(err)
				}
				if _, err := io.WriteString(tw, e.body); err != nil && e.typeflag == tar.TypeReg {
					t.Fatal(err)
				}
			}
			if err := tw.Close(); err != nil {
				t.Fatal(err)
			}
			if err := zw.Close(); err != nil {
				t.Fatal(err)
			}
			top := t.TempDir()
			dir := filepath.Join(top, "bundle")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			err = extractPack(dir, buf.Bytes())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got error %v, want one containing %q", err, tt.want)
			}
			left, _ := filepath.Glob(filepath.Join(top, "*"))
			if len(left) != 1 {
				t.Errorf("written outside the bundle folder: %v", left)
			}
			cache := t.TempDir()
			if _, err := loadCached(cache, buf.Bytes(), ""); err == nil {
				t.Errorf("loadCached accepted the bundle")
			}
			if left, _ := filepath.Glob(filepath.Join(cache, "*")); len(left) != 0 {
				t.Errorf("left in the cache folder: %v", left)
			}
		})
	}
}

// TestChunkWriterError: a write error of the writing goroutine stops the
// writes and comes back from Write/ReadFrom and Close.
func TestChunkWriterError(t *testing.T) {
	name := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(name, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name) // read-only: every write fails
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := newChunkWriter(f)
	chunk := make([]byte, packWriteBuffer)
	var werr error
	for range 2 * packWriteBuffers {
		if _, werr = w.Write(chunk); werr != nil {
			break
		}
	}
	if _, rerr := w.ReadFrom(bytes.NewReader(chunk)); werr == nil && rerr == nil {
		t.Errorf("writes and ReadFrom of %d buffers to a read-only file succeeded", 2*packWriteBuffers+1)
	}
	if err := w.Close(); err == nil {
		t.Errorf("Close: no error")
	}
}
