package fsbridge_test

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/pybox-dev/pybox/fsbridge"
)

// prelude defines t(label, fn): it runs fn and prints "label OK <repr>" or
// "label <ExceptionType> <ERRNO name>", one line per check, which the Go
// side matches.
const prelude = `
import os, errno, shutil
def t(label, fn):
    try:
        r = fn()
        print(label, 'OK', repr(r)[:80])
    except OSError as e:
        print(label, type(e).__name__, errno.errorcode.get(e.errno, e.errno), '|', e)
def read(p):
    with open(p) as f:
        return f.read()
def put(p, s, mode='w'):
    with open(p, mode) as f:
        return f.write(s)
`

// treeSum is a sha256 over a walk of dir: paths, modes, link targets and
// file contents. Any change below dir changes it.
func treeSum(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		line := rel + " " + fi.Mode().String() + " " + fi.ModTime().UTC().String()
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			line += " -> " + target
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			s := sha256.Sum256(b)
			line += " " + hex.EncodeToString(s[:])
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatalf("walk %s: %v", dir, err)
	}
	sort.Strings(lines)
	for _, l := range lines {
		h.Write([]byte(l + "\n"))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// checkLines matches "label rest" lines of out against want (label ->
// prefix of rest).
func checkLines(t *testing.T, out string, want map[string]string) {
	t.Helper()
	got := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		label, rest, _ := strings.Cut(l, " ")
		got[label] = rest
	}
	for label, prefix := range want {
		g, ok := got[label]
		if !ok {
			t.Errorf("%s: no output line; stdout:\n%s", label, out)
			continue
		}
		if !strings.HasPrefix(g, prefix) {
			t.Errorf("%s: got %q, want prefix %q", label, g, prefix)
		}
	}
}

// hasDenial checks that a recorded denial's message contains every part.
func hasDenial(t *testing.T, ds []fsbridge.Denial, parts ...string) {
	t.Helper()
	for _, d := range ds {
		ok := true
		for _, p := range parts {
			if !strings.Contains(d.Message, p) {
				ok = false
				break
			}
		}
		if ok {
			return
		}
	}
	var msgs []string
	for _, d := range ds {
		msgs = append(msgs, d.Message)
	}
	t.Errorf("no denial with %q among:\n  %s", parts, strings.Join(msgs, "\n  "))
}

// TestAdversarial runs hostile guest code against one sandbox, then proves
// with checksums that only the writable host folders changed.
func TestAdversarial(t *testing.T) {
	w := newWorld(t)
	// A file next to the mounts, and the sandbox's neighbours: none may
	// change.
	write(t, filepath.Join(w.base, "neighbour.txt"), "do not touch\n")
	frozen := map[string]string{}
	for _, d := range []string{w.data, w.src, w.secret} {
		frozen[d] = treeSum(t, d)
	}
	frozenNeighbour := treeSum(t, filepath.Join(w.base, "neighbour.txt"))
	sb := newSandbox(t, w.policy())

	cases := []struct {
		name    string
		code    string
		want    map[string]string
		denials [][]string // each: parts of one expected denial message
		explain map[string]string
		check   func(t *testing.T)
	}{
		{
			name: "dotdot traversal",
			code: `
t('abs', lambda: read('/data/../../etc/passwd'))
t('secret', lambda: read('/data/../secret/secret.txt'))
t('rel', lambda: read('../../secret/secret.txt'))
os.chdir('/data/sub')
t('chdir', lambda: read('../../../secret/secret.txt'))
t('deep', lambda: read('/work/../../../../../../etc/shadow'))
t('write', lambda: put('/work/../../../neighbour.txt', 'x'))
`,
			want: map[string]string{
				"abs": "PermissionError", "secret": "FileNotFoundError ENOENT", "rel": "PermissionError",
				"chdir": "PermissionError", "deep": "PermissionError", "write": "PermissionError",
			},
			explain: map[string]string{
				"/data/../../etc/passwd":     "is outside",
				"/data/../secret/secret.txt": "/secret/secret.txt is outside readable mounts",
			},
		},
		{
			name: "absolute paths outside mounts",
			code: `
t('passwd', lambda: read('/etc/passwd'))
t('hosts', lambda: put('/etc/hosts', '1.2.3.4 evil'))
t('mkdir', lambda: os.mkdir('/evil'))
t('listdir', lambda: os.listdir('/etc'))
t('exists', lambda: os.path.exists('/etc/passwd'))
t('remove', lambda: os.remove('/etc/passwd'))
t('rootfile', lambda: put('/x.txt', 'x'))
t('usr', lambda: put('/usr/x.txt', 'x'))
t('bundle', lambda: put('/usr/local/lib/x.py', 'x'))
`,
			want: map[string]string{
				"passwd": "FileNotFoundError ENOENT", "hosts": "PermissionError EACCES",
				"mkdir": "PermissionError EACCES", "listdir": "FileNotFoundError ENOENT",
				"exists": "OK False", "remove": "PermissionError EACCES", "rootfile": "PermissionError EACCES",
				"usr": "PermissionError", "bundle": "",
			},
			denials: [][]string{
				{"read denied: /etc/passwd is outside readable mounts (/data, /work, /src, /output, /tmp)"},
				{"write denied: /etc/hosts is outside writable mounts (/work, /src, /output, /tmp)"},
				{"mkdir denied: /evil is outside writable mounts"},
				{"delete denied: /etc/passwd is outside writable mounts"},
			},
			explain: map[string]string{"/etc/hosts": "write denied: /etc/hosts is outside writable mounts (/work, /src, /output, /tmp)"},
		},
		{
			// The guest never makes a link in a host folder, whatever its
			// target (links.go); /tmp has none. Each refusal names the link,
			// the target as given and the reason, for the guest too.
			name: "guest symlinks",
			code: `
t('abs', lambda: os.symlink('/etc/passwd', '/work/x'))
t('absread', lambda: read('/work/x'))
t('rel', lambda: os.symlink('../../secret/secret.txt', '/work/y'))
t('data', lambda: os.symlink('/data/a.csv', '/work/d'))
t('ro', lambda: os.symlink('a.csv', '/data/l'))
t('src', lambda: os.symlink('main.py', '/src/l'))
t('tmp', lambda: os.symlink('x', '/tmp/l'))
t('inside', lambda: os.symlink('notes.txt', '/work/z'))
t('absinside', lambda: os.symlink('/work/notes.txt', '/work/abs'))
t('output', lambda: os.symlink('../work/notes.txt', '/output/l'))
t('pathlib', lambda: __import__('pathlib').Path('/work/p').symlink_to('notes.txt'))
os.makedirs('/work/sub', exist_ok=True)
os.chdir('/work/sub')
t('cwd', lambda: os.symlink('../notes.txt', 'up'))
os.chdir('/')
t('exists', lambda: [n for n in ('x', 'y', 'd', 'z', 'abs', 'p', 'sub/up') if os.path.lexists('/work/' + n)])
`,
			want: map[string]string{
				"abs": "PermissionError EPERM", "absread": "FileNotFoundError",
				"rel": "PermissionError EPERM", "data": "PermissionError EPERM",
				"ro": "OSError EROFS", "src": "PermissionError EPERM", "tmp": "OSError ENOTSUP",
				"inside": "PermissionError EPERM", "absinside": "PermissionError EPERM",
				"output": "PermissionError EPERM", "pathlib": "PermissionError EPERM",
				"cwd": "PermissionError EPERM", "exists": "OK []",
			},
			denials: [][]string{
				{"symlink denied: /work/x -> /etc/passwd is not possible: /work is a host folder, and symbolic links cannot be created in host folders"},
				{"symlink denied: /work/y -> ../../secret/secret.txt is not possible: /work is a host folder"},
				{"symlink denied: /output/l -> ../work/notes.txt is not possible: /output is a host folder"},
				{"symlink denied: /src/l -> main.py is not possible: /src is a host folder"},
				{"symlink denied: /data/l -> a.csv is not possible: /data/l is on a read-only mount (/data)"},
				{"symlink denied: /tmp/l -> x is not possible: /tmp does not support symbolic links"},
				{"symlink denied: /work/sub/up -> ../notes.txt is not possible"},
			},
			// The exception names the link and the real reason, not the
			// target resolved against the working folder.
			explain: map[string]string{
				"/work/y":      "[Errno 63] symlink denied: /work/y -> ../../secret/secret.txt is not possible: /work is a host folder",
				"/data/l":      "symlink denied: /data/l -> a.csv is not possible: /data/l is on a read-only mount (/data)",
				"/src/l":       "symlink denied: /src/l -> main.py is not possible: /src is a host folder",
				"/work/sub/up": "symlink denied: /work/sub/up -> ../notes.txt is not possible: /work is a host folder",
			},
			check: func(t *testing.T) {
				if strings.Contains(treeList(t, w.work)+treeList(t, w.out)+treeList(t, w.upper), "->") {
					t.Errorf("a symbolic link appeared in a host folder:\n%s%s%s", treeList(t, w.work), treeList(t, w.out), treeList(t, w.upper))
				}
			},
		},
		{
			name: "hard links",
			code: `
t('cross', lambda: os.link('/data/a.csv', '/work/h'))
t('outside', lambda: os.link('/etc/passwd', '/work/h'))
t('inside', lambda: os.link('/work/notes.txt', '/work/h2'))
t('insideread', lambda: read('/work/h2'))
t('cow', lambda: os.link('/src/main.py', '/src/h'))
`,
			want: map[string]string{
				"cross": "PermissionError EPERM", "outside": "PermissionError EACCES",
				"inside": "OK", "insideread": "OK 'work notes\\n'", "cow": "PermissionError EPERM",
			},
			denials: [][]string{
				{"link denied: /data/a.csv -> /work/h crosses mounts (/data to /work)"},
				{"link denied: /etc/passwd -> /work/h is not possible: /etc/passwd is outside every mount"},
				{"link denied: /src/main.py -> /src/h is not possible in a copy-on-write mount (/src)"},
			},
		},
		{
			name: "host symlinks inside a mount pointing out",
			code: `
t('abs', lambda: read('/data/abs_out'))
t('rel', lambda: read('/data/rel_out'))
t('dirlist', lambda: os.listdir('/data/dir_out'))
t('dirfile', lambda: read('/data/dir_out/secret.txt'))
t('stat', lambda: os.stat('/data/rel_out').st_size)
t('lstat', lambda: os.path.islink('/data/rel_out'))
t('readlink', lambda: os.readlink('/data/abs_out'))
t('inlink', lambda: read('/data/in_link')[:3])
`,
			want: map[string]string{
				"abs": "PermissionError EACCES", "rel": "PermissionError EACCES",
				"dirlist": "PermissionError EACCES", "dirfile": "PermissionError EACCES",
				"stat": "PermissionError EACCES", "lstat": "OK True",
				"readlink": "PermissionError EACCES", "inlink": "OK 'x,y'",
			},
			denials: [][]string{
				{"read denied: /data/abs_out leads outside its mount (/data) through a symbolic link"},
				{"readlink denied: /data/abs_out is a symbolic link that points outside its mount (/data)"},
			},
		},
		{
			name: "rename out of and across mounts",
			code: `
put('/work/move.txt', 'm')
t('out', lambda: os.rename('/work/move.txt', '/etc/move.txt'))
t('across', lambda: os.rename('/work/move.txt', '/output/move.txt'))
t('fromro', lambda: os.rename('/data/a.csv', '/work/a.csv'))
t('into', lambda: os.rename('/etc/passwd', '/work/passwd'))
t('tocow', lambda: os.rename('/work/move.txt', '/src/move.txt'))
t('shutil', lambda: shutil.move('/work/move.txt', '/output/moved.txt'))
t('gone', lambda: os.path.exists('/work/move.txt'))
t('arrived', lambda: read('/output/moved.txt'))
t('shutilro', lambda: shutil.move('/data/a.csv', '/work/a.csv'))
t('stillthere', lambda: os.path.exists('/data/a.csv'))
`,
			want: map[string]string{
				"out": "PermissionError EACCES", "across": "PermissionError EPERM",
				"fromro": "OSError EROFS", "into": "PermissionError EACCES", "tocow": "PermissionError EPERM",
				"shutil": "OK", "gone": "OK False", "arrived": "OK 'm'",
				"shutilro": "OSError EROFS", "stillthere": "OK True",
			},
			denials: [][]string{
				{"rename denied: /work/move.txt -> /etc/move.txt is not possible: /etc/move.txt is outside writable mounts"},
				{"rename denied: /work/move.txt -> /output/move.txt crosses mounts (/work to /output)"},
				{"rename denied: /data/a.csv -> /work/a.csv is not possible: /data/a.csv is on a read-only mount (/data)"},
				{"delete denied: /data/a.csv is on a read-only mount (/data)"},
			},
			explain: map[string]string{"/output/move.txt": "crosses mounts"},
		},
		{
			name: "writes through a read-only mount",
			code: `
t('open', lambda: put('/data/a.csv', 'x'))
t('append', lambda: put('/data/a.csv', 'x', 'a'))
t('create', lambda: put('/data/new.csv', 'x'))
t('remove', lambda: os.remove('/data/a.csv'))
t('rmdir', lambda: os.rmdir('/data/sub'))
t('mkdir', lambda: os.mkdir('/data/d'))
# chmod is refused like any write (the runner's os.chmod asks the host;
# the checksums at the end prove the host mode did not change).
t('chmod', lambda: os.chmod('/data/a.csv', 0o777))
t('utime', lambda: os.utime('/data/a.csv', (0, 0)))
t('rmtree', lambda: shutil.rmtree('/data'))
t('read', lambda: read('/data/a.csv')[:3])
`,
			want: map[string]string{
				"open": "OSError EROFS", "append": "OSError EROFS", "create": "OSError EROFS",
				"remove": "OSError EROFS", "rmdir": "OSError EROFS", "mkdir": "OSError EROFS",
				"chmod": "OSError EROFS", "utime": "OSError EROFS", "rmtree": "OSError EROFS", "read": "OK 'x,y'",
			},
			denials: [][]string{
				{"write denied: /data/a.csv is on a read-only mount (/data)"},
				{"chmod denied: /data/a.csv is on a read-only mount (/data)"},
				{"delete denied: /data/a.csv is on a read-only mount (/data)"},
				{"mkdir denied: /data/d is on a read-only mount (/data)"},
			},
			explain: map[string]string{"/data/sub": "delete denied: /data/sub is on a read-only mount (/data)"},
		},
		{
			name: "copy-on-write",
			code: `
t('del', lambda: os.remove('/src/keep.txt'))
t('delgone', lambda: os.path.exists('/src/keep.txt'))
t('dellist', lambda: 'keep.txt' in os.listdir('/src'))
t('delread', lambda: read('/src/keep.txt'))
t('edit', lambda: put('/src/main.py', 'print(2)\n'))
t('editread', lambda: read('/src/main.py'))
t('append', lambda: put('/src/pkg/mod.py', 'Y = 2\n', 'a'))
t('appendread', lambda: read('/src/pkg/mod.py'))
t('mv', lambda: os.rename('/src/pkg', '/src/pkg2'))
t('mvlist', lambda: sorted(os.listdir('/src')))
t('mvread', lambda: read('/src/pkg2/mod.py'))
t('chmod', lambda: os.chmod('/src/pkg2/mod.py', 0o600))
t('new', lambda: put('/src/new.txt', 'new'))
t('recreate', lambda: put('/src/keep.txt', 'again'))
t('recreated', lambda: read('/src/keep.txt'))
t('rmtree', lambda: shutil.rmtree('/src/pkg2'))
t('rmtreegone', lambda: os.path.exists('/src/pkg2'))
t('mkdirback', lambda: os.mkdir('/src/pkg'))
t('opaque', lambda: os.listdir('/src/pkg'))
t('meta', lambda: read('/src/.pybox-cow.json'))
`,
			want: map[string]string{
				"del": "OK", "delgone": "OK False", "dellist": "OK False", "delread": "FileNotFoundError",
				"edit": "OK", "editread": "OK 'print(2)\\n'",
				"append": "OK", "appendread": "OK 'X = 1\\nY = 2\\n'",
				"mv": "OK", "mvlist": "OK ['main.py', 'pkg2']", "mvread": "OK 'X = 1\\nY = 2\\n'",
				"chmod": "OK", "new": "OK", "recreate": "OK", "recreated": "OK 'again'",
				"rmtree": "OK", "rmtreegone": "OK False", "mkdirback": "OK", "opaque": "OK []",
				"meta": "FileNotFoundError",
			},
			check: func(t *testing.T) {
				// The guest's view lives in the upper folder.
				b, err := os.ReadFile(filepath.Join(w.upper, "main.py"))
				if err != nil || string(b) != "print(2)\n" {
					t.Errorf("upper main.py = %q, %v", b, err)
				}
				if fi, err := os.Stat(filepath.Join(w.upper, "main.py")); err != nil || fi.Mode().Perm() != 0o751 {
					t.Errorf("upper main.py mode = %v, %v; want 0751 (copied up)", fi.Mode(), err)
				}
				if _, err := os.Stat(filepath.Join(w.upper, "new.txt")); err != nil {
					t.Errorf("upper new.txt: %v", err)
				}
				// The host's files are all still there.
				for _, f := range []string{"keep.txt", "main.py", "pkg/mod.py"} {
					if _, err := os.Stat(filepath.Join(w.src, f)); err != nil {
						t.Errorf("host %s: %v", f, err)
					}
				}
			},
		},
		{
			name: "special names and odd paths",
			code: `
t('emptyname', lambda: read(''))
t('root', lambda: os.rmdir('/data'))
t('renroot', lambda: os.rename('/work', '/work2'))
t('rootw', lambda: put('/', 'x'))
t('dev', lambda: read('/dev/null'))
t('devw', lambda: put('/dev/null', 'discarded'))
t('devzero', lambda: open('/dev/zero', 'rb').read(4))
t('devrand', lambda: len(open('/dev/urandom', 'rb').read(4096)))
t('devtty', lambda: os.open('/dev/tty', os.O_RDWR))
t('devnew', lambda: put('/dev/new', 'x'))
t('devmkdir', lambda: os.mkdir('/dev/sub'))
t('devrm', lambda: os.remove('/dev/null'))
t('proc', lambda: read('/proc/self/environ'))
t('trailing', lambda: read('/data/a.csv/'))
`,
			want: map[string]string{
				"emptyname": "IsADirectoryError", "root": "OSError EROFS",
				"renroot": "PermissionError", "rootw": "IsADirectoryError",
				"dev": "OK ''", "devw": "OK 9", "devzero": "OK b'\\x00\\x00\\x00\\x00'",
				"devrand": "OK 4096", "devtty": "FileNotFoundError ENOENT", "devnew": "PermissionError",
				"devmkdir": "PermissionError", "devrm": "PermissionError",
				"proc": "FileNotFoundError ENOENT", "trailing": "NotADirectoryError",
			},
			// A device the sandbox lacks is missing, as on a machine
			// without that node: ENOENT that says so, and no refusal
			// (getpass tries /dev/tty first; it printed one).
			explain: map[string]string{"/dev/tty": "no such device: /dev/tty (the sandbox's /dev has null, random, urandom, zero)"},
			check: func(t *testing.T) {
				for _, d := range sb.Denials() {
					if strings.Contains(d.Message, "/dev/tty") {
						t.Errorf("opening /dev/tty recorded a refusal: %s", d.Message)
					}
				}
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := py(t, sb, prelude+c.code)
			if res.Status != "ok" {
				t.Fatalf("status %s: %s\n%s\n%s", res.Status, res.Message, res.Stdout, res.Stderr)
			}
			checkLines(t, string(res.Stdout), c.want)
			ds := sb.Denials()
			for _, parts := range c.denials {
				hasDenial(t, ds, parts...)
			}
			// The guest asks Explain itself when an OSError is raised, so
			// the reason must be in the Python exception's message.
			for p, want := range c.explain {
				if !strings.Contains(string(res.Stdout), want) {
					t.Errorf("no exception message for %s contains %q", p, want)
				}
			}
			if c.check != nil {
				c.check(t)
			}
			if t.Failed() {
				t.Logf("stdout:\n%s", res.Stdout)
				for _, d := range ds {
					t.Logf("denial: %s", d.Message)
				}
			}
		})
	}

	for d, sum := range frozen {
		if got := treeSum(t, d); got != sum {
			t.Errorf("host folder %s changed", d)
		}
	}
	if treeSum(t, filepath.Join(w.base, "neighbour.txt")) != frozenNeighbour {
		t.Errorf("neighbour.txt changed")
	}
}
