package runtime_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/runtime"
)

// The runner's mmap copies the file (WASI cannot map memory) and writes a
// shared map's changes back: after every job of a session, so a host
// program reading the file between calls sees them, and never silently
// drops them when it cannot (testdata/mmap_basics.py covers the module's
// behaviour against native CPython).
func TestMmapWriteBackInSession(t *testing.T) {
	work := t.TempDir()
	sb, err := fsbridge.New(fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadWriteMount(work, "/work")}})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	if err := os.WriteFile(filepath.Join(work, "a.bin"), []byte("aaaaaaaa"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := engine.NewSession(context.Background(), runtime.SessionConfig{Memory: 256 << 20, FS: sb.FS()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	host := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(work, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	// Changed, neither flushed nor closed: on the host when the call returns.
	res := sexec(t, s, "import mmap\nwith open('/work/a.bin', 'r+b') as f:\n    m = mmap.mmap(f.fileno(), 0)\nm[:3] = b'xyz'", runtime.Limits{})
	if res.Status != runtime.StatusOK {
		t.Fatalf("map: %s %s", res.Status, res.Stderr)
	}
	if got := host("a.bin"); got != "xyzaaaaa" {
		t.Fatalf("after the first call the host reads %q, want %q", got, "xyzaaaaa")
	}
	// And again after a later call: the map stays live across calls.
	sexec(t, s, "m[7] = ord('!')", runtime.Limits{})
	if got := host("a.bin"); got != "xyzaaaa!" {
		t.Fatalf("after the second call the host reads %q, want %q", got, "xyzaaaa!")
	}

	// Made from a bare descriptor that is then closed: the runner cannot
	// reopen the file, so flush() says so instead of dropping the change,
	// and the end of the call says it once on stderr.
	res = sexec(t, s, `import os
fd = os.open('/work/a.bin', os.O_RDWR)
m2 = mmap.mmap(fd, 0)
os.close(fd)
m2[0] = ord('Q')
try:
    m2.flush()
except OSError as e:
    print('flush', e.errno == __import__('errno').EBADF, 'flush() the map before closing the file' in str(e))
`, runtime.Limits{})
	if got := string(res.Stdout); got != "flush True True\n" {
		t.Fatalf("flush through a closed descriptor printed %q (stderr %s)", got, res.Stderr)
	}
	if !strings.Contains(string(res.Stderr), "mmap: changes not written back to the file") {
		t.Fatalf("the call's stderr does not say the change was not written back: %q", res.Stderr)
	}
	res = sexec(t, s, "m2[1] = ord('R')", runtime.Limits{})
	if strings.Contains(string(res.Stderr), "mmap:") {
		t.Fatalf("the warning is repeated on a later call: %q", res.Stderr)
	}
	if got := host("a.bin"); got != "xyzaaaa!" {
		t.Fatalf("the host file changed through a closed descriptor: %q", got)
	}
}
