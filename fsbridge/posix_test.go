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
