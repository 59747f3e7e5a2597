package fsbridge_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// os.utime(path) with no times, Path.touch() and futimens through a
// descriptor set "now" on every kind of mount (python.wasm's own utimensat
// set the epoch; the runner passes the time), and the host file says so.
func TestUtimeNowOnEveryMount(t *testing.T) {
	w := newWorld(t)
	sb := newSandbox(t, w.policy())
	out := pyOK(t, sb, `
import os, pathlib, time
for p in ('/work/u.txt', '/src/u.txt', '/tmp/u.txt', '/output/u.txt'):
    open(p, 'w').close()
    checks = []
    for how in ('utime', 'touch', 'fd', 'nofollow'):
        os.utime(p, (1, 1))
        if how == 'utime':
            os.utime(p)
        elif how == 'touch':
            pathlib.Path(p).touch()
        elif how == 'fd':
            fd = os.open(p, os.O_RDONLY)
            os.utime(fd)
            os.close(fd)
        else:
            os.utime(p, None, follow_symlinks=False)
        checks.append(abs(time.time() - os.stat(p).st_mtime) < 60)
    print(p, checks)
os.utime('/work/u.txt', (1, 1))
os.utime('/work/u.txt')
`)
	for _, p := range []string{"/work/u.txt", "/src/u.txt", "/tmp/u.txt", "/output/u.txt"} {
		if !strings.Contains(out, p+" [True, True, True, True]") {
			t.Errorf("%s: times not now:\n%s", p, out)
		}
	}
	st, err := os.Stat(filepath.Join(w.work, "u.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(st.ModTime()); d < -time.Minute || d > time.Minute {
		t.Errorf("host file's mtime after os.utime(path): %v (%v ago)", st.ModTime(), d)
	}
}
