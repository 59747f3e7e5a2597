package fsbridge_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
)

// Copy-on-write operations the guest cannot reach through WASI (chmod) or
// that are easier to check directly.
func TestCopyOnWriteFS(t *testing.T) {
	w, _, fsys := fsWorld(t)
	must := func(what string, errno experimentalsys.Errno) {
		t.Helper()
		if errno != 0 {
			t.Fatalf("%s: %v", what, errno)
		}
	}
	// chmod copies up and changes only the upper copy.
	must("chmod", fsys.Chmod("src/keep.txt", 0o600))
	if fi, err := os.Stat(filepath.Join(w.upper, "keep.txt")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("upper keep.txt: %v %v", fi, err)
	}
	if fi, _ := os.Stat(filepath.Join(w.src, "keep.txt")); fi.Mode().Perm() != 0o644 {
		t.Errorf("host keep.txt mode changed to %v", fi.Mode())
	}
	// utimens likewise.
	when := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	must("utimens", fsys.Utimens("src/pkg/mod.py", when.UnixNano(), when.UnixNano()))
	if fi, err := os.Stat(filepath.Join(w.upper, "pkg", "mod.py")); err != nil || !fi.ModTime().Equal(when) {
		t.Errorf("upper mod.py: %v %v", fi, err)
	}
	st, errno := fsys.Stat("src/pkg/mod.py")
	if errno != 0 || st.Mtim != when.UnixNano() {
		t.Errorf("guest mtime %d, %v", st.Mtim, errno)
	}
	// A descriptor-level write, pread, truncate and sync on a copied-up file.
	f, errno := fsys.OpenFile("src/main.py", experimentalsys.O_RDWR, 0)
	must("open", errno)
	_, errno = f.Pwrite([]byte("PRINT"), 0)
	must("pwrite", errno)
	buf := make([]byte, 5)
	n, errno := f.Pread(buf, 0)
	if errno != 0 || string(buf[:n]) != "PRINT" {
		t.Errorf("pread = %q, %v", buf[:n], errno)
	}
	must("truncate", f.Truncate(3))
	must("sync", f.Sync())
	must("close", f.Close())
	if b, _ := os.ReadFile(filepath.Join(w.upper, "main.py")); string(b) != "PRI" {
		t.Errorf("upper main.py = %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(w.src, "main.py")); string(b) != "print('hello')\n" {
		t.Errorf("host main.py = %q", b)
	}
	// Rename over an existing lower file, then delete: both lower files
	// are hidden, the host keeps both.
	must("rename", fsys.Rename("src/keep.txt", "src/main.py"))
	must("unlink", fsys.Unlink("src/main.py"))
	d, errno := fsys.OpenFile("src", experimentalsys.O_RDONLY, 0)
	must("opendir", errno)
	ents, errno := d.Readdir(-1)
	must("readdir", errno)
	d.Close()
	var names []string
	for _, e := range ents {
		names = append(names, e.Name)
		if e.Ino == 0 {
			t.Errorf("%s: inode 0", e.Name)
		}
	}
	if len(names) != 1 || names[0] != "pkg" {
		t.Errorf("src lists %v, want [pkg]", names)
	}
	// Rewinding a folder reads it again.
	d, _ = fsys.OpenFile("src/pkg", experimentalsys.O_RDONLY, 0)
	first, _ := d.Readdir(-1)
	if _, errno := d.Seek(0, 0); errno != 0 {
		t.Errorf("rewind: %v", errno)
	}
	again, _ := d.Readdir(-1)
	d.Close()
	if len(first) != 1 || len(again) != 1 {
		t.Errorf("readdir %v then %v", first, again)
	}
	// Links are refused in copy-on-write mounts, readlink of nothing fails.
	if errno := fsys.Symlink("pkg", "src/l"); errno != experimentalsys.EPERM {
		t.Errorf("symlink: %v", errno)
	}
	if _, errno := fsys.Readlink("src/pkg"); errno == 0 {
		t.Errorf("readlink of a folder succeeded")
	}
	for _, f := range []string{"keep.txt", "main.py", "pkg/mod.py"} {
		if _, err := os.Stat(filepath.Join(w.src, f)); err != nil {
			t.Errorf("host %s: %v", f, err)
		}
	}
}

// Artifacts sees files changed by descriptor operations too.
func TestArtifactsTruncate(t *testing.T) {
	w, sb, fsys := fsWorld(t)
	write(t, filepath.Join(w.out, "old.txt"), "0123456789")
	sb.BeginRun(nil)
	if arts, _ := sb.Artifacts(); len(arts) != 0 {
		t.Fatalf("artifacts before anything: %+v", arts)
	}
	f, errno := fsys.OpenFile("output/old.txt", experimentalsys.O_WRONLY, 0)
	if errno != 0 {
		t.Fatal(errno)
	}
	f.Truncate(4)
	f.Close()
	arts, err := sb.Artifacts()
	if err != nil || len(arts) != 1 || arts[0].Size != 4 || arts[0].HostPath != filepath.Join(w.out, "old.txt") {
		t.Errorf("artifacts = %+v, %v", arts, err)
	}
}
