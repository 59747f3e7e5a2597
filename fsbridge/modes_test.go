package fsbridge_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// os.stat reports the permission bits of the host file (WASI's file status
// has none), os.chmod sets them on writable mounts (permission bits only:
// never set-user-ID on a host file) and is refused on read-only ones with
// the reason, and os.access answers from both; the host files agree.
func TestPermissionBitsOnEveryMount(t *testing.T) {
	w := newWorld(t)
	sb := newSandbox(t, w.policy())
	out := pyOK(t, sb, `
import errno, os, pathlib, shutil, stat
def m(p, follow=True):
    return oct(stat.S_IMODE(os.stat(p, follow_symlinks=follow).st_mode))
print('data', m('/data/a.csv'), os.access('/data/a.csv', os.R_OK), os.access('/data/a.csv', os.W_OK))
print('src', m('/src/main.py'), os.access('/src/main.py', os.X_OK), os.access('/src/keep.txt', os.X_OK))
print('dir', m('/data'), stat.S_ISDIR(os.stat('/data').st_mode), m('/usr/local/lib'))
print('link', stat.S_ISLNK(os.lstat('/data/in_link').st_mode), m('/data/in_link'))
for p in ('/work/m.txt', '/tmp/m.txt', '/output/m.txt', '/src/keep.txt'):
    if not os.path.exists(p):
        open(p, 'w').close()
    os.chmod(p, 0o640)
    a = m(p)
    os.chmod(p, 0o4755)
    pathlib.Path(p).chmod(0o750)
    print(p, a, m(p), os.access(p, os.X_OK), os.access(p, os.W_OK))
for p in ('/data/a.csv', os.path.dirname(os.__file__)):
    try:
        os.chmod(p, 0o600)
    except OSError as e:
        print('refused', p, e.errno == errno.EROFS or e.errno == errno.EACCES, str(e))
try:
    os.chmod('/etc/passwd', 0o600)
except OSError as e:
    print('outside', type(e).__name__)
os.chmod('/work/m.txt', 0o4755)
shutil.copy('/src/main.py', '/work/main.py')
print('copy', m('/work/main.py'))
# copytree passes os.DirEntry objects, whose stat() has no permission bits,
# to copystat: the copies must keep the modes, not become 0o000.
shutil.copytree('/src', '/work/tree')
shutil.copytree('/src', '/tmp/tree')
print('copytree', m('/work/tree/main.py'), m('/work/tree/keep.txt'), m('/tmp/tree/main.py'))
`)
	for _, want := range []string{
		"data 0o644 True False",
		"src 0o751 True False",
		"dir 0o755 True 0o755",
		"link True 0o644",
		"/work/m.txt 0o640 0o750 True True",
		"/tmp/m.txt 0o640 0o750 True True",
		"/output/m.txt 0o640 0o750 True True",
		"/src/keep.txt 0o640 0o750 True True",
		"refused /data/a.csv True ",
		"read-only mount (/data)",
		"refused /usr/local/lib/python3.11 True ",
		"outside FileNotFoundError",
		"copy 0o751",
		"copytree 0o751 0o750 0o751",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("guest output lacks %q:\n%s", want, out)
		}
	}
	for _, c := range []struct {
		path string
		want fs.FileMode
	}{
		{filepath.Join(w.work, "m.txt"), 0o755}, // 0o4755 asked: no set-user-ID on the host
		{filepath.Join(w.out, "m.txt"), 0o750},
		{filepath.Join(w.work, "main.py"), 0o751},
		{filepath.Join(w.work, "tree", "main.py"), 0o751}, // copytree: copystat got a DirEntry
		{filepath.Join(w.work, "tree", "keep.txt"), 0o750},
		{filepath.Join(w.data, "a.csv"), 0o644},  // read-only: unchanged
		{filepath.Join(w.src, "main.py"), 0o751}, // copy-on-write: the host file is untouched
	} {
		st, err := os.Stat(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode() != c.want {
			t.Errorf("host %s: mode %v, want %v", c.path, st.Mode(), c.want)
		}
	}
}

// Files and folders the guest creates in /tmp get the modes umask 022
// gives on Linux (they were 0o600 and 0o700, WASI's fixed request; host
// folders follow the host's umask, see TestCreatedModesFollowUmask), and an
// explicit mode (mkstemp's 0o600, mkdtemp's 0o700) is kept on every
// writable mount.
func TestGuestModesOfNewFiles(t *testing.T) {
	w := newWorld(t)
	sb := newSandbox(t, w.policy())
	out := pyOK(t, sb, `
import os, stat, tempfile
def m(p):
    return oct(stat.S_IMODE(os.stat(p).st_mode))
open('/tmp/plain.txt', 'w').close()
os.mkdir('/tmp/plain_dir')
print('tmp', m('/tmp/plain.txt'), m('/tmp/plain_dir'))
for base in ('/work', '/src', '/tmp', '/output'):
    fd, private = tempfile.mkstemp(dir=base)
    os.close(fd)
    print(base, m(private), m(tempfile.mkdtemp(dir=base)))
`)
	for _, want := range []string{"tmp 0o644 0o755\n", "/work 0o600 0o700\n", "/src 0o600 0o700\n", "/tmp 0o600 0o700\n", "/output 0o600 0o700\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in:\n%s", want, out)
		}
	}
}
