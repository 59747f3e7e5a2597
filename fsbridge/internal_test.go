package fsbridge

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// The read-only backend refuses every change by type, whatever a mount
// asks of it.
func TestReadOnlyBackendRefusesChanges(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	rb, err := openRootBackend(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer rb.close()
	var be backend = readOnlyBackend{rb}
	calls := map[string]error{
		"mkdir":   be.mkdir("d", 0o755),
		"remove":  be.remove("f"),
		"rename":  be.rename("f", "g"),
		"chmod":   be.chmod("f", 0o777),
		"chtimes": be.chtimes("f", time.Unix(0, 0), time.Unix(0, 0)),
		"symlink": be.symlink("f", "l"),
		"link":    be.link("f", "h"),
	}
	for _, flag := range []int{os.O_WRONLY, os.O_RDWR, os.O_RDONLY | os.O_CREATE, os.O_RDONLY | os.O_TRUNC, os.O_RDONLY | os.O_APPEND} {
		_, err := be.open("f", flag, 0o644)
		calls[fmt.Sprintf("open %#o", flag)] = err
	}
	for name, err := range calls {
		if !errors.Is(err, syscall.EROFS) {
			t.Errorf("%s: %v, want EROFS", name, err)
		}
	}
	if f, err := be.open("f", os.O_RDONLY, 0); err != nil {
		t.Errorf("read: %v", err)
	} else {
		f.Close()
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("folder changed: %v", ents)
	}
}

func TestLinkTarget(t *testing.T) {
	tests := []struct {
		mount, link, target, want string
		ok                        bool
	}{
		{"/work", "l", "notes.txt", "notes.txt", true},
		{"/work", "l", "/work/notes.txt", "notes.txt", true},
		{"/work", "a/b/l", "/work/x", "../../x", true},
		{"/work", "a/l", "../x", "../x", true},
		{"/work", "a/l", "../../x", "", false},
		{"/work", "l", "/etc/passwd", "", false},
		{"/work", "l", "/work", ".", true},
		{"/work", "l", "/workshop/x", "", false},
		{"/work", "l", "", "", false},
		{"/work", "l", "a\x00b", "", false},
	}
	for _, tt := range tests {
		got, ok := linkTarget(tt.mount, tt.link, tt.target)
		if got != tt.want || ok != tt.ok {
			t.Errorf("linkTarget(%q, %q, %q) = %q, %v; want %q, %v", tt.mount, tt.link, tt.target, got, ok, tt.want, tt.ok)
		}
	}
}

func TestErrnoFor(t *testing.T) {
	for name, want := range map[string]string{"EXDEV": "operation not permitted", "EFBIG": "input/output error", "EROFS": "read-only file system", "ENOENT": "no such file or directory"} {
		if got := ErrnoFor(name).Error(); got != want {
			t.Errorf("ErrnoFor(%s) = %s, want %s", name, got, want)
		}
	}
}

// TestSameFileOpened: the check that an O_NOFOLLOW open or an artifact read
// got the file lstat saw, not one a link swapped in between led to.
func TestSameFileOpened(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a", "b"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	be, err := openRootBackend(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer be.close()
	fa, err := be.lstat("a")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"a": true, "b": false} {
		f, err := be.open(name, os.O_RDONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := sameFileOpened(fa, f); got != want {
			t.Errorf("sameFileOpened(lstat a, open %s) = %v, want %v", name, got, want)
		}
		f.Close()
	}
	// A link in place of the file: openNoFollow refuses it, and a path
	// through a link to a folder.
	if err := os.Symlink("a", filepath.Join(dir, "l")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "d", "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("d", filepath.Join(dir, "dl")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"l", "dl/f"} {
		if f, _, err := openNoFollow(be, name); !errors.Is(err, errLinkInOutput) {
			if f != nil {
				f.Close()
			}
			t.Errorf("openNoFollow(%s) = %v, want errLinkInOutput", name, err)
		}
	}
	if f, _, err := openNoFollow(be, "d/f"); err != nil {
		t.Errorf("openNoFollow(d/f) = %v", err)
	} else {
		f.Close()
	}
}
