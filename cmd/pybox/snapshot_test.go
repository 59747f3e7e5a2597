package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pybox-dev/pybox/runtime"
)

// snapshotCacheDir returns a new cache folder (for --cache-dir) whose
// compiled interpreter and extracted bundles are the shared ones (links to
// them), so that a run there starts with no snapshot but neither compiles
// nor extracts.
func snapshotCacheDir(t *testing.T) string {
	t.Helper()
	shared, err := runtime.DefaultCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ents, err := os.ReadDir(shared)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.Name() == "wazero" || strings.HasPrefix(e.Name(), "bundle-") {
			if err := os.Symlink(filepath.Join(shared, e.Name()), filepath.Join(dir, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// snapshotFile returns the one snapshot file in the cache folder dir.
func snapshotFile(t *testing.T, dir string) (string, os.FileInfo) {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(dir, "snapshots"))
	if err != nil || len(ents) != 1 {
		t.Fatalf("snapshot folder: %v %v (want one file and no temporary ones)", ents, err)
	}
	path := filepath.Join(dir, "snapshots", ents[0].Name())
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, st
}

// cliRandom prints values that must differ between runs, and whether numpy
// came preloaded.
const cliRandom = `import random, sys; print(random.getrandbits(64), "numpy" in sys.modules)`

// The first `pybox run` on a cache folder writes the booted interpreter's
// snapshot into it, with numpy imported; later runs start from it (the file
// stays the one written) and still draw their own random numbers.
func TestCLIRunPersistedSnapshot(t *testing.T) {
	dir := snapshotCacheDir(t)
	first := pybox(t, "", "run", "--cache-dir", dir, "-c", cliRandom)
	if first.code != 0 || !strings.HasSuffix(first.stdout, " True\n") {
		t.Fatalf("first run: %+v", first)
	}
	path, st1 := snapshotFile(t, dir)
	seen := map[string]bool{first.stdout: true}
	for i := 0; i < 2; i++ {
		r := pybox(t, "", "run", "--cache-dir", dir, "-c", cliRandom)
		if r.code != 0 || !strings.HasSuffix(r.stdout, " True\n") || seen[r.stdout] {
			t.Fatalf("run %d: %+v (earlier: %v)", i+2, r, seen)
		}
		seen[r.stdout] = true
	}
	if _, st2 := snapshotFile(t, dir); !os.SameFile(st1, st2) {
		t.Fatalf("%s was rewritten by a later run", path)
	}

	// A damaged file is replaced by the next run, which still works.
	if err := os.Truncate(path, st1.Size()/2); err != nil {
		t.Fatal(err)
	}
	if r := pybox(t, "", "run", "--cache-dir", dir, "-c", cliRandom); r.code != 0 || !strings.HasSuffix(r.stdout, " True\n") {
		t.Fatalf("run on a truncated snapshot: %+v", r)
	}
	_, st3 := snapshotFile(t, dir)
	if os.SameFile(st1, st3) || st3.Size() != st1.Size() {
		t.Fatalf("the truncated snapshot was not replaced (%d bytes, was %d)", st3.Size(), st1.Size())
	}
	if r := pybox(t, "", "run", "--cache-dir", dir, "-c", cliRandom); r.code != 0 {
		t.Fatalf("run after the replacement: %+v", r)
	}
	if _, st4 := snapshotFile(t, dir); !os.SameFile(st3, st4) {
		t.Fatal("the replacement snapshot was not used")
	}
}

// Runs from a snapshot see their own mounts and limits, not those of the
// run that wrote it.
func TestCLIRunSnapshotMountsAndLimits(t *testing.T) {
	dir := snapshotCacheDir(t)
	a, b := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(a, "a.txt"), []byte("in a"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(b, "b.txt"), []byte("in b"), 0o644); err != nil {
		t.Fatal(err)
	}
	code := `import os
print(os.path.exists("/data/a.txt"), os.path.exists("/other/b.txt"))
open("/other/new.txt", "w").write("x")`
	r := pybox(t, "", "run", "--cache-dir", dir, "--mount", a+":/data:ro", "-c", code)
	if r.code != 1 || r.stdout != "True False\n" {
		t.Fatalf("first run: %+v", r)
	}
	r = pybox(t, "", "run", "--cache-dir", dir, "--mount", b+":/other:rw", "-c", code)
	if r.code != 0 || r.stdout != "False True\n" {
		t.Fatalf("run with other mounts: %+v", r)
	}
	if data, err := os.ReadFile(filepath.Join(b, "new.txt")); err != nil || string(data) != "x" {
		t.Fatalf("write through the rw mount: %q %v", data, err)
	}
	r = pybox(t, "", "run", "--cache-dir", dir, "--mount", b+":/other:ro", "-c", code)
	if r.code != 1 || r.stdout != "False True\n" || !strings.Contains(r.stderr, "/other/new.txt") {
		t.Fatalf("run with the mount read-only: %+v", r)
	}
	// Below 256 MiB the snapshot has nothing preloaded, and the limit holds.
	for _, tc := range []struct {
		memory, preloaded string
	}{{"32MiB", "False"}, {"200MiB", "False"}, {"256MiB", "True"}} {
		code := `import sys; print("numpy" in sys.modules); b = bytearray(` + tc.memory[:len(tc.memory)-3] + ` << 20)`
		r = pybox(t, "", "run", "--cache-dir", dir, "--memory", tc.memory, "-c", code)
		if r.code != 1 || r.stdout != tc.preloaded+"\n" || !strings.Contains(r.stderr, "MemoryError") {
			t.Fatalf("run under %s: %+v", tc.memory, r)
		}
		// (With scipy, scikit-learn and statsmodels linked in, python.wasm's
		// static data leaves about 9 MiB free under 32 MiB; 12 MiB fitted
		// before.)
		r = pybox(t, "", "run", "--cache-dir", dir, "--memory", tc.memory, "-c", `b = bytearray(8 << 20); print(len(b))`)
		if r.code != 0 || r.stdout != "8388608\n" {
			t.Fatalf("8 MiB under %s: %+v", tc.memory, r)
		}
	}
}

// First runs started at once on an empty cache folder each boot and write
// the snapshot (each renames a whole file into place): all succeed, and one
// good snapshot is left, which the next run uses.
func TestCLIRunSnapshotConcurrentFirstRuns(t *testing.T) {
	dir := snapshotCacheDir(t)
	const n = 4
	cmds := make([]*exec.Cmd, n)
	outs := make([]*bytes.Buffer, n)
	for i := range cmds {
		cmds[i] = exec.Command(binary, "run", "--cache-dir", dir, "-c", cliRandom)
		outs[i] = &bytes.Buffer{}
		cmds[i].Stdout, cmds[i].Stderr = outs[i], outs[i]
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil || !strings.HasSuffix(outs[i].String(), " True\n") {
			t.Errorf("run %d: %v %q", i, err, outs[i])
		}
	}
	_, st1 := snapshotFile(t, dir)
	if r := pybox(t, "", "run", "--cache-dir", dir, "-c", cliRandom); r.code != 0 || !strings.HasSuffix(r.stdout, " True\n") {
		t.Fatalf("run after the first ones: %+v", r)
	}
	if _, st2 := snapshotFile(t, dir); !os.SameFile(st1, st2) {
		t.Fatal("the snapshot left by concurrent first runs was not used")
	}
}

// pybox setup writes the snapshots the first pybox run, and the first
// serve (mcp, agent) with its default preloads, then start from: each
// leaves the files as they are. With --snapshot=false it writes none, and
// the background compile of a first run (-background) only run's.
func TestSetupWritesSnapshots(t *testing.T) {
	off := snapshotCacheDir(t)
	if r := pybox(t, "", "setup", "-q", "--snapshot=false", "--cache-dir", off); r.code != 0 {
		t.Fatalf("setup --snapshot=false: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(off, "snapshots")); err == nil {
		t.Error("setup --snapshot=false wrote a snapshot")
	}
	bg := snapshotCacheDir(t)
	if r := pybox(t, "", "setup", "-q", "-background", "--cache-dir", bg); r.code != 0 {
		t.Fatalf("setup -background: %+v", r)
	}
	snapshotFile(t, bg) // exactly one

	dir := snapshotCacheDir(t)
	if r := pybox(t, "", "setup", "-q", "--cache-dir", dir); r.code != 0 || r.stdout != "" {
		t.Fatalf("setup: %+v", r)
	}
	files := func() map[string]os.FileInfo {
		ents, err := os.ReadDir(filepath.Join(dir, "snapshots"))
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]os.FileInfo{}
		for _, e := range ents {
			st, err := os.Stat(filepath.Join(dir, "snapshots", e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			m[e.Name()] = st
		}
		return m
	}
	before := files()
	if len(before) != 2 {
		t.Fatalf("setup wrote snapshots %v, want run's and serve's", before)
	}
	r := pybox(t, "", "run", "--cache-dir", dir, "-c", cliRandom)
	if r.code != 0 || !strings.HasSuffix(r.stdout, " True\n") {
		t.Fatalf("first run after setup: %+v", r)
	}
	s := startServe(t, "--cache-dir", dir, "--warm-pool", "1")
	if st, data := s.post(t, "/v1/execute", `{"code":"import sys; print('pandas' in sys.modules)"}`); st != 200 || !bytes.Contains(data, []byte(`"stdout":"True\n"`)) {
		t.Fatalf("execute: %d %s", st, data)
	}
	if c := s.stop(t, 30*time.Second); c != 0 {
		t.Fatalf("serve exit %d: %s", c, s.stderr)
	}
	after := files()
	if len(after) != len(before) {
		t.Fatalf("snapshots after a run and a server: %v, want setup's %v", after, before)
	}
	for name, st := range before {
		if !os.SameFile(st, after[name]) || !st.ModTime().Equal(after[name].ModTime()) {
			t.Errorf("snapshot %s was rewritten instead of started from", name)
		}
	}
}
