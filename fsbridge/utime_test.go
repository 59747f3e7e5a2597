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

// Access and modification times set by os.utime are kept apart on every
// mount, /tmp included (its in-memory tree kept one time for both), through
// a path and through a descriptor, and survive a rename; a time left out
// (UTIME_OMIT) stays as it was.
func TestAccessTimeKeptApartOnEveryMount(t *testing.T) {
	w := newWorld(t)
	sb := newSandbox(t, w.policy())
	out := pyOK(t, sb, `
import os
for p in ('/work/a.txt', '/src/a.txt', '/tmp/a.txt', '/output/a.txt'):
    open(p, 'w').write('a')
    got = []
    os.utime(p, (1000, 2000))
    got.append(os.stat(p).st_atime)
    fd = os.open(p, os.O_WRONLY)
    os.write(fd, b'x')
    os.utime(fd, (5, 6))
    os.close(fd)
    got.append((os.stat(p).st_atime, os.stat(p).st_mtime))
    os.rename(p, p + '.2')
    got.append((os.stat(p + '.2').st_atime, os.stat(p + '.2').st_mtime))
    os.utime(p + '.2', ns=(7_000_000_000, 8_000_000_000))
    got.append(os.stat(p + '.2').st_atime_ns)
    print(p, got)
`)
	for _, p := range []string{"/work/a.txt", "/src/a.txt", "/tmp/a.txt", "/output/a.txt"} {
		if want := p + " [1000.0, (5.0, 6.0), (5.0, 6.0), 7000000000]"; !strings.Contains(out, want) {
			t.Errorf("want %q in:\n%s", want, out)
		}
	}
}
