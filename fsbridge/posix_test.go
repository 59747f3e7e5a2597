package fsbridge_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Creating with a trailing slash and O_CREAT|O_EXCL on an existing folder
// fail as on Linux (IsADirectoryError; FileExistsError, which tempfile's
// retry loop relies on), on every kind of writable mount, and leave nothing
// behind on the host.
func TestOpenCreateErrorsAsLinux(t *testing.T) {
	w := newWorld(t)
	sb := newSandbox(t, w.policy())
	out := pyOK(t, sb, `
import os, tempfile
for base in ('/work', '/src', '/tmp', '/output'):
    os.makedirs(base + '/dd', exist_ok=True)
    open(base + '/ff', 'w').close()
    for name, fn in [('slash', lambda: open(base + '/missing_dir/', 'w')),
                     ('exclDir', lambda: os.open(base + '/dd', os.O_CREAT | os.O_EXCL | os.O_WRONLY)),
                     ('exclFile', lambda: os.open(base + '/ff', os.O_CREAT | os.O_EXCL | os.O_WRONLY)),
                     ('fileSlash', lambda: open(base + '/ff/'))]:
        try:
            fn()
            print(base, name, 'opened')
        except OSError as e:
            print(base, name, type(e).__name__)
    print(base, 'missing_dir', os.path.exists(base + '/missing_dir'), 'mkdtemp', os.path.isdir(tempfile.mkdtemp(dir=base)))
`)
	for _, base := range []string{"/work", "/src", "/tmp", "/output"} {
		for _, want := range []string{
			base + " slash IsADirectoryError", base + " exclDir FileExistsError",
			base + " exclFile FileExistsError", base + " fileSlash NotADirectoryError",
			base + " missing_dir False mkdtemp True",
		} {
			if !strings.Contains(out, want+"\n") {
				t.Errorf("want %q in:\n%s", want, out)
			}
		}
	}
	for _, dir := range []string{w.work, w.upper, w.out} {
		if _, err := os.Lstat(filepath.Join(dir, "missing_dir")); !os.IsNotExist(err) {
			t.Errorf("%s/missing_dir on the host: %v", dir, err)
		}
	}
}

// TestSetBlockingOnFiles: os.set_blocking / os.get_blocking (fcntl
// O_NONBLOCK) on a regular file work as on Linux on every kind of mount:
// the flag is kept and reported, reads and writes are unchanged. wazero
// refused it with ENOSYS (CPython's test_os BlockingTests, issue 14).
func TestSetBlockingOnFiles(t *testing.T) {
	w := newWorld(t)
	sb := newSandbox(t, w.policy())
	out := pyOK(t, sb, `
import os
for path, flags in (('/data/a.csv', os.O_RDONLY), ('/work/notes.txt', os.O_RDWR),
                    ('/src/keep.txt', os.O_RDWR), ('/tmp/t.txt', os.O_RDWR | os.O_CREAT),
                    ('/output/o.txt', os.O_RDWR | os.O_CREAT)):
    writable = path != '/data/a.csv'   # WASI's O_RDONLY is not 0
    fd = os.open(path, flags)
    try:
        steps = [os.get_blocking(fd)]
        os.set_blocking(fd, False)
        steps.append(os.get_blocking(fd))
        if writable:
            os.write(fd, b'nb')
            os.lseek(fd, 0, os.SEEK_SET)
        steps.append(os.read(fd, 2))
        os.set_blocking(fd, True)
        steps.append(os.get_blocking(fd))
    finally:
        os.close(fd)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    steps.append(os.get_blocking(fd))
    os.close(fd)
    print(path, *steps)
try:
    os.set_blocking(fd, False)
except OSError as e:
    print('closed', e.errno == __import__('errno').EBADF)
`)
	for _, want := range []string{
		"/data/a.csv True False b'x,' True False",
		"/work/notes.txt True False b'nb' True False",
		"/src/keep.txt True False b'nb' True False",
		"/tmp/t.txt True False b'nb' True False",
		"/output/o.txt True False b'nb' True False",
		"closed True",
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("want %q in:\n%s", want, out)
		}
	}
}
