package packages

import (
	"archive/tar"
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/pybox-dev/pybox/assets"
)

// TestExtractedBundleMatchesDecoded checks that the on-disk bundle serves
// exactly the files, sizes and contents of the in-memory decode.
func TestExtractedBundleMatchesDecoded(t *testing.T) {
	mem, err := Decode(bytes.NewReader(assets.Runtime))
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	for round := 0; round < 2; round++ { // extract, then reopen
		disk, err := loadCached(cache, assets.Runtime, assets.RuntimeSHA256)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if disk.ID != mem.ID || !bytes.Equal(disk.Manifest.Raw, mem.Manifest.Raw) {
			t.Fatalf("round %d: ID or manifest differ", round)
		}
		if disk.Files.Len() != mem.Files.Len() || disk.Files.Size() != mem.Files.Size() {
			t.Fatalf("round %d: %d entries/%d bytes on disk, %d/%d in memory", round,
				disk.Files.Len(), disk.Files.Size(), mem.Files.Len(), mem.Files.Size())
		}
		n := 0
		err = fs.WalkDir(mem.Files, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			want, _ := mem.Files.ReadFile(p)
			got, err := fs.ReadFile(disk.Files, p) // through Open, as the guest reads
			if err != nil {
				return err
			}
			if !bytes.Equal(got, want) {
				t.Errorf("round %d: %s differs", round, p)
			}
			st, err := fs.Stat(disk.Files, p)
			if err != nil || st.Size() != int64(len(want)) || st.Mode() != mustStat(t, mem.Files, p).Mode() {
				t.Errorf("round %d: %s: stat %v %v", round, p, st, err)
			}
			n++
			return nil
		})
		if err != nil || n < 1000 {
			t.Fatalf("round %d: walked %d files: %v", round, n, err)
		}
	}
}

func mustStat(t *testing.T, fsys fs.FS, p string) fs.FileInfo {
	st, err := fs.Stat(fsys, p)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestExtractedBundleRepairsAndRaces: a damaged extracted bundle (its index
// deleted) is not used and not deleted; processes extracting at once all end
// up with a working bundle, installed under the next name.
func TestExtractedBundleRepairsAndRaces(t *testing.T) {
	cache := t.TempDir()
	if _, err := loadCached(cache, assets.Runtime, assets.RuntimeSHA256); err != nil {
		t.Fatal(err)
	}
	dirs, _ := filepath.Glob(filepath.Join(cache, "bundle-*"))
	if len(dirs) != 1 {
		t.Fatalf("want one extracted bundle, have %v", dirs)
	}
	dir := dirs[0]
	if err := os.Remove(filepath.Join(dir, extractedIndex)); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := loadCached(cache, assets.Runtime, assets.RuntimeSHA256)
			if err == nil {
				_, err = b.Files.ReadFile("lib/python3.11/os.pyc")
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("loader %d: %v", i, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir+".1", extractedIndex)); err != nil {
		t.Errorf("no working bundle installed beside the damaged one: %v", err)
	}
	left, _ := filepath.Glob(filepath.Join(cache, ".bundle-tmp-*"))
	if len(left) != 0 {
		t.Errorf("temporary folders left behind: %v", left)
	}
}

// BenchmarkOpenExtracted measures what every process pays to load the
// extracted bundle: its index into a tree, the manifest, python.wasm mapped.
func BenchmarkOpenExtracted(b *testing.B) {
	dir := b.TempDir()
	if _, err := loadCached(dir, assets.Runtime, assets.RuntimeSHA256); err != nil {
		b.Fatal(err)
	}
	ext := filepath.Join(dir, "bundle-"+assets.RuntimeSHA256[:24])
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
		if err := extractBundle(dir, assets.Runtime); err != nil {
			b.Fatal(err)
		}
	}
}

// TestExtractBundleRefuses: a bundle whose entries would land outside the
// folder, or are links, or clash, is refused with an error naming the
// entry, and nothing is written outside the folder.
func TestExtractBundleRefuses(t *testing.T) {
	type entry struct {
		name     string
		typeflag byte
		body     string
	}
	file := func(name string) entry { return entry{name, tar.TypeReg, "x"} }
	tests := []struct {
		name    string
		entries []entry
		want    string
	}{
		{"parent", []entry{file("../escaped")}, "invalid path"},
		{"parent inside", []entry{file("lib/../../escaped")}, "invalid path"},
		{"absolute", []entry{file("/escaped")}, "invalid path"},
		{"symlink", []entry{{"lib/link", tar.TypeSymlink, ""}}, "unsupported entry type"},
		{"twice", []entry{file("lib/a.py"), file("lib/a.py")}, "extract lib/a.py"},
		{"file then folder", []entry{file("lib"), file("lib/a.py")}, "extract lib"}, // the file or the folder, whichever is second
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
			err = extractBundle(dir, buf.Bytes())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got error %v, want one containing %q", err, tt.want)
			}
			left, _ := filepath.Glob(filepath.Join(top, "*"))
			if len(left) != 1 {
				t.Errorf("written outside the bundle folder: %v", left)
			}
			if _, err := os.Stat(filepath.Join(dir, extractedIndex)); err == nil {
				t.Errorf("an index was written for a refused bundle")
			}
		})
	}
}
