package fsbridge_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

	"github.com/pybox-dev/pybox/fsbridge"
)

// FuzzPathsNeverEscape throws arbitrary guest paths at the sandbox's
// filesystem: opening for reading, stat, and opening for writing. Whatever
// the path, nothing outside the mounts may be read (a secret next to the
// mounted folder, reachable by "..", an absolute host path or a host
// symlink), and nothing may be written on the read-only or copy-on-write
// host folders. The seed corpus runs in every `go test`.
func FuzzPathsNeverEscape(f *testing.F) {
	for _, seed := range []string{
		"data/a.txt", "/data/a.txt", "data/../secret.txt", "/data/../../secret.txt",
		"data/link", "data/link/x", "data/dirlink/secret.txt", "cow/b.txt", "cow/../secret.txt",
		"work/new.txt", "../secret.txt", "/", ".", "", "data//a.txt", "data/./a.txt",
		"data/a.txt/..", "tmp/x", "output/y", "dev/null", "network/x", "\x00", "data/\xff",
		strings.Repeat("../", 40) + "secret.txt", "data/" + strings.Repeat("a/", 300),
	} {
		f.Add(seed)
	}
	base := f.TempDir()
	must := func(err error) {
		if err != nil {
			f.Fatal(err)
		}
	}
	for _, d := range []string{"data", "cow", "work"} {
		must(os.Mkdir(filepath.Join(base, d), 0o755))
	}
	must(os.WriteFile(filepath.Join(base, "secret.txt"), []byte("SECRET"), 0o644))
	must(os.WriteFile(filepath.Join(base, "data", "a.txt"), []byte("inside"), 0o644))
	must(os.WriteFile(filepath.Join(base, "cow", "b.txt"), []byte("lower"), 0o644))
	must(os.Symlink("../secret.txt", filepath.Join(base, "data", "link")))
	must(os.Symlink(base, filepath.Join(base, "data", "dirlink")))
	sb, err := fsbridge.New(fsbridge.Policy{
		Mounts: []fsbridge.Mount{
			fsbridge.ReadOnlyMount(filepath.Join(base, "data"), "/data"),
			fsbridge.CopyOnWriteMount(filepath.Join(base, "cow"), "/cow", filepath.Join(base, "upper")),
			fsbridge.ReadWriteMount(filepath.Join(base, "work"), "/work"),
		},
		TempDir: base,
	})
	must(err)
	f.Cleanup(func() { sb.Close() })
	fsys := sb.FS()

	f.Fuzz(func(t *testing.T, p string) {
		// Guest paths arrive without the leading slash.
		p = strings.TrimPrefix(p, "/")
		if file, errno := fsys.OpenFile(p, experimentalsys.O_RDONLY, 0); errno == 0 {
			buf := make([]byte, 64)
			n, _ := file.Read(buf)
			file.Close()
			if strings.Contains(string(buf[:n]), "SECRET") {
				t.Fatalf("read %q escaped the mounts", p)
			}
		}
		if st, errno := fsys.Stat(p); errno == 0 && st.Size == int64(len("SECRET")) && st.Mode&fs.ModeType == 0 {
			if file, e := fsys.OpenFile(p, experimentalsys.O_RDONLY, 0); e == 0 {
				buf := make([]byte, 16)
				n, _ := file.Read(buf)
				file.Close()
				if string(buf[:n]) == "SECRET" {
					t.Fatalf("stat+open %q reached the secret", p)
				}
			}
		}
		if file, errno := fsys.OpenFile(p, experimentalsys.O_WRONLY|experimentalsys.O_CREAT|experimentalsys.O_TRUNC, 0o644); errno == 0 {
			file.Write([]byte("fuzz"))
			file.Close()
		}
		// The read-only and copy-on-write host folders are unchanged.
		if b, err := os.ReadFile(filepath.Join(base, "data", "a.txt")); err != nil || string(b) != "inside" {
			t.Fatalf("after %q: read-only host file changed: %q %v", p, b, err)
		}
		if b, err := os.ReadFile(filepath.Join(base, "cow", "b.txt")); err != nil || string(b) != "lower" {
			t.Fatalf("after %q: copy-on-write lower file changed: %q %v", p, b, err)
		}
		if b, err := os.ReadFile(filepath.Join(base, "secret.txt")); err != nil || string(b) != "SECRET" {
			t.Fatalf("after %q: file outside the mounts changed: %q %v", p, b, err)
		}
		ents, _ := os.ReadDir(filepath.Join(base, "data"))
		if len(ents) != 3 {
			t.Fatalf("after %q: read-only host folder has %d entries", p, len(ents))
		}
	})
}
