package fsbridge_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/runtime"
)

// engine is shared by the package's tests: compiling python.wasm is the
// slow step.
var engine *runtime.Engine

func TestMain(m *testing.M) {
	ctx := context.Background()
	var err error
	engine, err = runtime.NewEngine(ctx, runtime.Config{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "NewEngine:", err)
		os.Exit(1)
	}
	code := m.Run()
	engine.Close(ctx)
	os.Exit(code)
}

// py runs code in the sandbox (one run: BeginRun, then Run).
func py(t *testing.T, sb *fsbridge.Sandbox, code string) *runtime.Result {
	t.Helper()
	ctx := context.Background()
	if err := sb.BeginRun(ctx); err != nil {
		t.Fatalf("BeginRun: %v", err)
	}
	res, err := engine.Run(ctx, runtime.Request{Code: code, FS: sb.FS()})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

// pyOK runs code and fails the test unless it ran to the end.
func pyOK(t *testing.T, sb *fsbridge.Sandbox, code string) string {
	t.Helper()
	res := py(t, sb, code)
	if res.Status != runtime.StatusOK {
		t.Fatalf("status %s: %s\nstdout:\n%s\nstderr:\n%s", res.Status, res.Message, res.Stdout, res.Stderr)
	}
	return string(res.Stdout)
}

// world is a set of host folders for a sandbox, with files in them.
type world struct {
	base, data, work, src, upper, out, secret string
}

func write(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func newWorld(t *testing.T) *world {
	t.Helper()
	base := t.TempDir()
	w := &world{
		base:   base,
		data:   filepath.Join(base, "data"),
		work:   filepath.Join(base, "work"),
		src:    filepath.Join(base, "src"),
		upper:  filepath.Join(base, "upper"),
		out:    filepath.Join(base, "out"),
		secret: filepath.Join(base, "secret"),
	}
	write(t, filepath.Join(w.data, "a.csv"), "x,y\n1,2\n3,4\n")
	write(t, filepath.Join(w.data, "sub", "b.txt"), "bee\n")
	write(t, filepath.Join(w.secret, "secret.txt"), "TOP SECRET\n")
	must(t, os.Symlink(filepath.Join(w.secret, "secret.txt"), filepath.Join(w.data, "abs_out")))
	must(t, os.Symlink("../secret/secret.txt", filepath.Join(w.data, "rel_out")))
	must(t, os.Symlink("../secret", filepath.Join(w.data, "dir_out")))
	must(t, os.Symlink("a.csv", filepath.Join(w.data, "in_link")))
	write(t, filepath.Join(w.work, "notes.txt"), "work notes\n")
	write(t, filepath.Join(w.src, "main.py"), "print('hello')\n")
	write(t, filepath.Join(w.src, "keep.txt"), "keep me\n")
	write(t, filepath.Join(w.src, "pkg", "mod.py"), "X = 1\n")
	must(t, os.Chmod(filepath.Join(w.src, "main.py"), 0o751))
	must(t, os.MkdirAll(w.out, 0o755))
	// Whatever the test does, the read-only and copy-on-write host
	// folders, and the folder outside every mount, must not change.
	frozen := map[string]string{}
	for _, d := range []string{w.data, w.src, w.secret} {
		frozen[d] = treeSum(t, d)
	}
	t.Cleanup(func() {
		for d, sum := range frozen {
			if treeSum(t, d) != sum {
				t.Errorf("host folder %s changed", d)
			}
		}
	})
	return w
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func (w *world) policy() fsbridge.Policy {
	return fsbridge.Policy{
		Mounts: []fsbridge.Mount{
			fsbridge.ReadOnlyMount(w.data, "/data"),
			fsbridge.ReadWriteMount(w.work, "/work"),
			fsbridge.CopyOnWriteMount(w.src, "/src", w.upper),
		},
		Output: w.out,
	}
}

func newSandbox(t *testing.T, p fsbridge.Policy) *fsbridge.Sandbox {
	t.Helper()
	sb, err := fsbridge.New(p)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { sb.Close() })
	return sb
}

func TestSmoke(t *testing.T) {
	w := newWorld(t)
	sb := newSandbox(t, w.policy())
	out := pyOK(t, sb, `
import os
print(sorted(os.listdir('/')))
print(open('/data/a.csv').read().splitlines()[1])
print(sorted(os.listdir('/data')))
with open('/work/new.txt', 'w') as f:
    f.write('new')
with open('/tmp/t.txt', 'w') as f:
    f.write('tmp')
print(open('/tmp/t.txt').read())
with open('/output/o.txt', 'w') as f:
    f.write('out')
print(os.path.exists('/etc/passwd'))
`)
	want := "['data', 'dev', 'output', 'src', 'tmp', 'usr', 'work']\n1,2\n['a.csv', 'abs_out', 'dir_out', 'in_link', 'rel_out', 'sub']\ntmp\nFalse\n"
	if out != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", out, want)
	}
}

// Every run's interpreter starts from the engine's snapshot; its files live
// in its own sandbox: what one sandbox's run leaves in /tmp (or /output) is
// not visible to a run in another sandbox.
func TestTmpIsolatedBetweenSandboxes(t *testing.T) {
	a, err := fsbridge.New(fsbridge.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := fsbridge.New(fsbridge.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	pyOK(t, a, "open('/tmp/secret.txt', 'w').write('a')\nopen('/output/o.txt', 'w').write('a')")
	if out := pyOK(t, b, "import os\nprint(os.listdir('/tmp'), os.listdir('/output'))"); out != "[] []\n" {
		t.Fatalf("another sandbox's files are visible: %s", out)
	}
}

// Files and folders the guest creates in host folders get the usual modes
// (0666 and 0777 less the umask), not WASI's fixed 0600/0700 that left
// /output files unreadable to anyone else on the host.
func TestCreatedModesFollowUmask(t *testing.T) {
	w := newWorld(t)
	sb := newSandbox(t, w.policy())
	pyOK(t, sb, `import os
for d in ('/work', '/output'):
    open(d + '/made.txt', 'w').write('x')
    os.mkdir(d + '/made.d')`)
	// The process umask, read without changing it (Linux).
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status to read the umask from")
	}
	var umask uint32
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "Umask:"); ok {
			u, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32)
			if err != nil {
				t.Fatal(err)
			}
			umask = uint32(u)
		}
	}
	for _, dir := range []string{w.work, w.out} {
		for name, want := range map[string]fs.FileMode{"made.txt": 0o666 &^ fs.FileMode(umask), "made.d": 0o777 &^ fs.FileMode(umask)} {
			st, err := os.Stat(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode().Perm() != want {
				t.Errorf("%s/%s: mode %v, want %v", dir, name, st.Mode().Perm(), want)
			}
		}
	}
}
