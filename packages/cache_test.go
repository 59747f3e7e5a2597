package packages

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

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
