package fsbridge_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Hard links on /tmp behave as on a POSIX filesystem: both names show the
// same content, inode, mode and times; a write through one is read through
// the other; removing one keeps the file under the other; linking a folder,
// onto an existing name or into a missing folder fails as natively; renaming
// one name onto another of the same file does nothing. (/tmp refused every
// link before: "/tmp does not support links".)
func TestHardLinksOnTmp(t *testing.T) {
	w := newWorld(t)
	sb := newSandbox(t, w.policy())
	out := pyOK(t, sb, `
import os, errno, time
d = '/tmp/hl'
os.mkdir(d)
with open(d + '/a', 'w') as f:
    f.write('one')
os.link(d + '/a', d + '/b')
a, b = os.stat(d + '/a'), os.stat(d + '/b')
print('same inode', a.st_ino == b.st_ino, 'nlink', a.st_nlink, b.st_nlink, 'samefile', os.path.samefile(d + '/a', d + '/b'))
with open(d + '/b', 'a') as f:
    f.write(' two')
print('read through a:', open(d + '/a').read())
print('mtimes equal', os.stat(d + '/a').st_mtime_ns == os.stat(d + '/b').st_mtime_ns)
os.chmod(d + '/a', 0o600)
print('mode through b', oct(os.stat(d + '/b').st_mode & 0o777))
os.utime(d + '/b', (100, 200))
print('times through a', os.stat(d + '/a').st_atime, os.stat(d + '/a').st_mtime)
os.rename(d + '/a', d + '/b')
print('rename onto own link keeps both', sorted(os.listdir(d)))
os.remove(d + '/a')
print('after removing a:', sorted(os.listdir(d)), open(d + '/b').read(), os.stat(d + '/b').st_nlink)
open('/work/host.txt', 'w').write('host')
for name, src, dst in [('to host', d + '/b', '/work/x'), ('from host', '/work/host.txt', d + '/x'), ('from data', '/data/a.csv', d + '/y'), ('folder', d, d + '/dl'), ('exists', d + '/b', d + '/b'), ('missing parent', d + '/b', d + '/no/x'), ('missing source', d + '/zz', d + '/y')]:
    try:
        os.link(src, dst)
        print(name, 'linked')
    except OSError as e:
        print(name, errno.errorcode[e.errno])
fd = os.open(d + '/b', os.O_RDONLY)
os.link(d + '/b', d + '/c')
os.remove(d + '/b')
os.remove(d + '/c')
print('open after last name removed:', os.read(fd, 3))
os.close(fd)
print('left', os.listdir(d))
`)
	// Links across mounts are refused: nothing appears on the host.
	if _, err := os.Lstat(filepath.Join(w.work, "x")); !os.IsNotExist(err) {
		t.Errorf("a link from /tmp left /work/x on the host: %v", err)
	}
	for _, want := range []string{
		"same inode True nlink 2 2 samefile True",
		"read through a: one two",
		"mtimes equal True",
		"mode through b 0o600",
		"times through a 100.0 200.0",
		"rename onto own link keeps both ['a', 'b']",
		"after removing a: ['b'] one two 1",
		"to host EPERM",
		"from host EPERM",
		"from data EPERM",
		"folder EPERM",
		"exists EEXIST",
		"missing parent ENOENT",
		"missing source ENOENT",
		"open after last name removed: b'one'",
		"left []",
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

// Linked names share their content: what /tmp holds (capped by
// Limits.WriteBytes across runs) counts it once, and the space comes back
// only when the last name is gone. Each step is a run of its own, so the
// per-run write count does not come into it.
func TestHardLinksOnTmpCountContentOnce(t *testing.T) {
	w := newWorld(t)
	p := w.policy()
	p.Limits.WriteBytes = 1 << 20
	sb := newSandbox(t, p)
	steps := []struct{ code, want string }{
		{"import os\nopen('/tmp/big', 'wb').write(b'x' * 400_000)\nfor i in range(5): os.link('/tmp/big', '/tmp/l%d' % i)\nprint('linked')", "linked"},
		// Six names of 400 kB: counted once, another 400 kB fits.
		{"open('/tmp/second', 'wb').write(b'y' * 400_000)\nprint('second written')", "second written"},
		// One name left: the content is still held.
		{"import os\nos.remove('/tmp/big')\nfor i in range(4): os.remove('/tmp/l%d' % i)\n" +
			"try:\n    open('/tmp/third', 'wb').write(b'z' * 400_000)\n    print('third written')\n" +
			"except OSError:\n    print('third refused')", "third refused"},
		{"import os\nos.remove('/tmp/l4')\nopen('/tmp/third', 'wb').write(b'z' * 400_000)\nprint('third written')", "third written"},
	}
	for i, st := range steps {
		out := pyOK(t, sb, st.code)
		if !strings.Contains(out, st.want+"\n") {
			t.Fatalf("step %d: want %q, got:\n%s", i, st.want, out)
		}
	}
}
