package runtime_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/runtime"
)

// snapCacheDir returns a new cache folder for persisted snapshots whose
// compilation cache is the shared one (a link to it), so that engines
// using it load the compiled interpreter instead of compiling it.
func snapCacheDir(t *testing.T) string {
	t.Helper()
	shared, err := runtime.DefaultCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(shared, "wazero"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(shared, "wazero"), filepath.Join(dir, "wazero")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// persistEngine starts an engine that keeps its snapshot in cacheDir, with
// "json" preloaded (so the snapshot is not one the CLI uses).
func persistEngine(t *testing.T, cacheDir string) *runtime.Engine {
	t.Helper()
	e, err := runtime.NewEngine(context.Background(), runtime.Config{
		CacheDir: cacheDir, PersistSnapshot: true, Preload: []string{"json", "random"},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(context.Background()) })
	return e
}

// runOK runs code on e and returns its stdout, failing unless it succeeded.
func runOK(t *testing.T, e *runtime.Engine, req runtime.Request) string {
	t.Helper()
	res, err := e.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != runtime.StatusOK {
		t.Fatalf("%s: %s\n%s", res.Status, res.Message, res.Stderr)
	}
	return string(res.Stdout)
}

// snapCode prints what tells interpreters apart: random draws (which must
// differ in every run), the str hash seed (fixed by the boot that wrote the
// snapshot) and whether json was preloaded.
const snapCode = `import sys, random, os
print(random.getrandbits(64), os.urandom(8).hex(), hash("pybox"), "json" in sys.modules)`

// The first engine boots and writes its snapshot into the cache folder; the
// next (as a later process would) maps it instead of booting. Runs from it
// draw their own random numbers, share the str hash seed of the boot that
// wrote it, and see the preloads.
func TestPersistedSnapshotReused(t *testing.T) {
	dir := snapCacheDir(t)
	first := persistEngine(t, dir)
	path, ok := first.SnapshotFile()
	if !ok || !strings.HasPrefix(path, filepath.Join(dir, "snapshots")+string(filepath.Separator)) {
		t.Fatalf("SnapshotFile: %q %v", path, ok)
	}
	out1 := runOK(t, first, runtime.Request{Code: snapCode})
	si := first.Snapshot()
	if !si.Taken || si.Loaded || si.File != path {
		t.Fatalf("first engine's snapshot: %+v", si)
	}
	st1, err := os.Stat(path)
	if err != nil {
		t.Fatalf("the snapshot was not written: %v", err)
	}
	if st1.Size() != 64<<10+si.Size {
		t.Fatalf("snapshot file is %d bytes, want header and %d bytes of image", st1.Size(), si.Size)
	}

	second := persistEngine(t, dir)
	out2 := runOK(t, second, runtime.Request{Code: snapCode})
	out3 := runOK(t, second, runtime.Request{Code: snapCode})
	si2 := second.Snapshot()
	if !si2.Taken || !si2.Loaded || si2.File != path || si2.Size != si.Size || si2.Resident != si.Resident || si2.Boot != si.Boot {
		t.Fatalf("second engine's snapshot: %+v (first: %+v)", si2, si)
	}
	st2, err := os.Stat(path)
	if err != nil || !os.SameFile(st1, st2) || !st2.ModTime().Equal(st1.ModTime()) {
		t.Fatalf("the snapshot was rewritten: %v", err)
	}
	seen := map[string]bool{}
	for i, out := range []string{out1, out2, out3} {
		f := strings.Fields(out)
		if len(f) != 4 || f[3] != "True" {
			t.Fatalf("run %d: %q", i, out)
		}
		for _, r := range f[:2] {
			if seen[r] {
				t.Fatalf("run %d repeats random value %s: %q %q %q", i, r, out1, out2, out3)
			}
			seen[r] = true
		}
		if h := strings.Fields(out1)[2]; f[2] != h {
			t.Fatalf("run %d has hash seed %s, the snapshot's boot %s", i, f[2], h)
		}
	}
}

// A damaged, truncated or foreign file where the snapshot should be is not
// used: the engine boots, runs correctly, and replaces the file with a good
// one, which the next engine loads.
func TestPersistedSnapshotDamaged(t *testing.T) {
	dir := snapCacheDir(t)
	e := persistEngine(t, dir)
	runOK(t, e, runtime.Request{Code: "pass"})
	path, _ := e.SnapshotFile()
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// A snapshot of another configuration (no preloads) in another folder.
	otherDir := snapCacheDir(t)
	other, err := runtime.NewEngine(context.Background(), runtime.Config{CacheDir: otherDir, PersistSnapshot: true})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close(context.Background())
	runOK(t, other, runtime.Request{Code: "pass"})
	otherPath, _ := other.SnapshotFile()
	foreign, err := os.ReadFile(otherPath)
	if err != nil {
		t.Fatal(err)
	}
	if otherPath == path {
		t.Fatal("two configurations share a snapshot file")
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"header only", good[:100]},
		{"truncated image", good[:len(good)-wasmPageSize]},
		{"longer", append(bytes.Clone(good), make([]byte, wasmPageSize)...)},
		{"magic", flip(good, 0)},
		{"format", flip(good, 15)},
		{"key", flip(good, 30)},
		{"image size", flip(good, 52)},
		{"header checksum", flip(good, 104)},
		{"another configuration's", foreign},
		{"not a snapshot", bytes.Repeat([]byte("pybox "), 20000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			e := persistEngine(t, dir)
			if out := runOK(t, e, runtime.Request{Code: snapCode}); !strings.HasSuffix(out, " True\n") {
				t.Fatalf("run: %q", out)
			}
			if si := e.Snapshot(); !si.Taken || si.Loaded {
				t.Fatalf("snapshot: %+v", si)
			}
			again := persistEngine(t, dir)
			runOK(t, again, runtime.Request{Code: snapCode})
			if si := again.Snapshot(); !si.Taken || !si.Loaded {
				t.Fatalf("the file was not replaced by a usable one: %+v", si)
			}
		})
	}
}

// wasmPageSize is WebAssembly's page size: snapshot images are a multiple.
const wasmPageSize = 64 << 10

// flip returns a copy of b with the byte at i changed.
func flip(b []byte, i int) []byte {
	b = bytes.Clone(b)
	b[i] ^= 0x5a
	return b
}

// The snapshot holds no mount: runs after it see their own filesystem,
// whatever the run that wrote the snapshot had mounted.
func TestPersistedSnapshotMounts(t *testing.T) {
	dir := snapCacheDir(t)
	mount := func(files map[string]string, guest string) *fsbridge.Sandbox {
		host := t.TempDir()
		for name, data := range files {
			if err := os.WriteFile(filepath.Join(host, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		sb, err := fsbridge.New(fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadOnlyMount(host, guest)}, TempDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { sb.Close() })
		return sb
	}
	ls := `import os
print(sorted(d for d in os.listdir("/") if d in ("a", "b")), [open(os.path.join(r, f)).read() for r, _, fs in sorted(os.walk("/")) if r in ("/a", "/b") for f in sorted(fs)])`
	first := persistEngine(t, dir)
	if out := runOK(t, first, runtime.Request{Code: ls, FS: mount(map[string]string{"x.txt": "from a"}, "/a").FS()}); out != "['a'] ['from a']\n" {
		t.Fatalf("first run: %q", out)
	}
	second := persistEngine(t, dir)
	if out := runOK(t, second, runtime.Request{Code: ls, FS: mount(map[string]string{"y.txt": "from b"}, "/b").FS()}); out != "['b'] ['from b']\n" {
		t.Fatalf("run from the persisted snapshot: %q", out)
	}
	if out := runOK(t, second, runtime.Request{Code: ls}); out != "[] []\n" {
		t.Fatalf("run without a filesystem: %q", out)
	}
	if si := second.Snapshot(); !si.Loaded {
		t.Fatalf("snapshot not loaded: %+v", si)
	}

}

// A memory limit below a persisted snapshot's size (numpy preloaded, as
// the CLI's) boots an interpreter without the preloads instead of failing,
// and the limit holds; above it, the interpreter is restored and the limit
// holds too.
func TestPersistedSnapshotMemoryLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("imports numpy")
	}
	needBundled(t, "numpy")
	dir := snapCacheDir(t)
	start := func() *runtime.Engine {
		e, err := runtime.NewEngine(context.Background(), runtime.Config{CacheDir: dir, PersistSnapshot: true, Preload: []string{"numpy"}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close(context.Background()) })
		return e
	}
	runOK(t, start(), runtime.Request{Code: "pass"})
	e := start()
	runOK(t, e, runtime.Request{Code: "pass"})
	si := e.Snapshot()
	if !si.Loaded {
		t.Fatalf("snapshot not loaded: %+v", si)
	}
	memoryError := func(res *runtime.Result, err error) bool {
		return err == nil && res.Status == runtime.StatusError && res.Exception != nil && res.Exception.Type == "MemoryError" && res.MemoryLimitHit
	}
	// Below the snapshot: booted, without numpy, and the limit holds.
	small := runtime.Limits{Memory: si.Size - 4<<20}
	if out := runOK(t, e, runtime.Request{Code: `import sys; print("numpy" in sys.modules)`, Limits: small}); out != "False\n" {
		t.Fatalf("run under a limit below the snapshot (%d bytes): %q", si.Size, out)
	}
	if res, err := e.Run(context.Background(), runtime.Request{Code: "b = bytearray(64 << 20)", Limits: small}); !memoryError(res, err) {
		t.Fatalf("allocation past a small limit: %v %+v", err, res)
	}
	// Above it: restored, and the limit holds.
	limit := runtime.Limits{Memory: si.Size + 8<<20}
	if out := runOK(t, e, runtime.Request{Code: `import sys; b = bytearray(1 << 20); print("numpy" in sys.modules)`, Limits: limit}); out != "True\n" {
		t.Fatalf("run under a limit above the snapshot: %q", out)
	}
	if res, err := e.Run(context.Background(), runtime.Request{Code: "b = bytearray(16 << 20)", Limits: limit}); !memoryError(res, err) {
		t.Fatalf("allocation past the limit: %v %+v", err, res)
	}
}

// Engines that start at once on an empty cache folder all boot and write
// the snapshot; each renames a whole file into place, so what is left is
// one good snapshot that the next engine loads.
func TestPersistedSnapshotConcurrentFirstRuns(t *testing.T) {
	dir := snapCacheDir(t)
	const n = 4
	engines := make([]*runtime.Engine, n)
	for i := range engines {
		engines[i] = persistEngine(t, dir)
	}
	outs := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i, e := range engines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := e.Run(context.Background(), runtime.Request{Code: snapCode})
			if err == nil && res.Status != runtime.StatusOK {
				err = &runError{res}
			}
			errs[i] = err
			if res != nil {
				outs[i] = string(res.Stdout)
			}
		}()
	}
	wg.Wait()
	for i := range engines {
		if errs[i] != nil || !strings.HasSuffix(outs[i], " True\n") {
			t.Fatalf("engine %d: %v %q", i, errs[i], outs[i])
		}
	}
	ents, err := os.ReadDir(filepath.Join(dir, "snapshots"))
	if err != nil || len(ents) != 1 {
		t.Fatalf("snapshot folder: %v %v (want one file, no temporary files)", ents, err)
	}
	e := persistEngine(t, dir)
	runOK(t, e, runtime.Request{Code: snapCode})
	if si := e.Snapshot(); !si.Loaded {
		t.Fatalf("the snapshot left by concurrent first runs is not usable: %+v", si)
	}
}

type runError struct{ res *runtime.Result }

func (e *runError) Error() string {
	return string(e.res.Status) + ": " + e.res.Message + "\n" + string(e.res.Stderr)
}

// A snapshot whose boot had a preload fail is kept in memory only: the next
// process boots again and logs the failure again, instead of loading a
// snapshot that lacks the module without a word.
func TestPersistedSnapshotNotKeptAfterPreloadError(t *testing.T) {
	dir := snapCacheDir(t)
	for i := 0; i < 2; i++ {
		e, err := runtime.NewEngine(context.Background(), runtime.Config{
			CacheDir: dir, PersistSnapshot: true, Preload: []string{"json", "no_such_module_y"},
		})
		if err != nil {
			t.Fatal(err)
		}
		if out := runOK(t, e, runtime.Request{Code: "import sys; print('json' in sys.modules)"}); out != "True\n" {
			t.Errorf("engine %d: %q", i, out)
		}
		si := e.Snapshot()
		if !si.Taken || si.Loaded || si.File != "" {
			t.Errorf("engine %d: snapshot %+v, want one taken in memory only", i, si)
		}
		if _, ok := e.PreloadErrors()["no_such_module_y"]; !ok {
			t.Errorf("engine %d: PreloadErrors = %v", i, e.PreloadErrors())
		}
		e.Close(context.Background())
	}
	if names, _ := os.ReadDir(filepath.Join(dir, "snapshots")); len(names) != 0 {
		t.Errorf("snapshots kept: %v", names)
	}
}

// A preload may come from the user's packages: after a package is added
// (the folder changes), the next engine boots again rather than start from
// a snapshot holding the old module.
func TestPersistedSnapshotFollowsUserPackages(t *testing.T) {
	dir := snapCacheDir(t)
	user := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(user, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	engine := func() *runtime.Engine {
		e, err := runtime.NewEngine(context.Background(), runtime.Config{
			CacheDir: dir, PersistSnapshot: true, UserPackages: user, Preload: []string{"usermod"},
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close(context.Background()) })
		return e
	}
	write("usermod.py", "VALUE = 1\n")
	first := engine()
	if out := runOK(t, first, runtime.Request{Code: "import sys, usermod; print(usermod.VALUE, 'usermod' in sys.modules)"}); out != "1 True\n" {
		t.Fatalf("first engine: %q", out)
	}
	// What `pybox packages add` does: new files in the folder.
	write("usermod.py", "VALUE = 2\n")
	write("othermod.py", "")
	later := time.Now().Add(2 * time.Second)
	if err := os.Chtimes(user, later, later); err != nil {
		t.Fatal(err)
	}
	second := engine()
	if out := runOK(t, second, runtime.Request{Code: "import usermod; print(usermod.VALUE)"}); out != "2\n" {
		t.Fatalf("second engine after the packages changed: %q (a stale snapshot)", out)
	}
	if si := second.Snapshot(); si.Loaded {
		t.Errorf("second engine loaded the first one's snapshot: %+v", si)
	}
}
