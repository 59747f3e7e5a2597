//go:build linux

package main

import (
	"bufio"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/pybox-dev/pybox/packages"
	"github.com/pybox-dev/pybox/runtime"
)

// The first run on an empty cache compiles in a detached process; killing
// the run mid-compile (as an impatient MCP client does) loses nothing: the
// compile finishes, the cache is ready, and the next run starts without
// compiling. It costs one cold compile of the runtime.
func TestFirstRunCompileSurvivesKill(t *testing.T) {
	// Orphans of this process (the detached compile, once the run that
	// started it is killed) become its children, so the test can wait for
	// the compile to end instead of polling for it.
	const prSetChildSubreaper = 36
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		t.Skipf("prctl(PR_SET_CHILD_SUBREAPER): %v", errno)
	}
	// The run waits for the compile (the path where the cache cannot be
	// compiled lazily; TestFirstRunCompilesAsItRuns has the other).
	env := []string{"PYBOX_CACHE_DIR=" + t.TempDir(), "PYBOX_LAZY_COMPILE=0"}
	run := exec.Command(binary, "run", "-c", "print(6*7)")
	run.Env = append(os.Environ(), env...)
	stderr, err := run.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	// On a non-terminal stderr the run says, in one line, what it does.
	line, err := bufio.NewReader(stderr).ReadString('\n')
	if err != nil {
		t.Fatalf("first line of the run's stderr: %q, %v", line, err)
	}
	m := regexp.MustCompile(`compiling the Python runtime .* process (\d+); .pybox setup. does this ahead of time`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("the first run did not say it compiles in another process: %q", line)
	}
	compiler, _ := strconv.Atoi(m[1])
	run.Process.Kill()
	run.Wait()

	var ws syscall.WaitStatus
	if pid, err := syscall.Wait4(compiler, &ws, syscall.WNOHANG, nil); err != nil || pid != 0 {
		t.Fatalf("the compile (process %d) was not running when its run was killed: wait4 %d, %v, status %v", compiler, pid, err, ws)
	}
	if _, err := syscall.Wait4(compiler, &ws, 0, nil); err != nil {
		t.Fatalf("wait for the compile: %v", err)
	}
	if !ws.Exited() || ws.ExitStatus() != 0 {
		t.Fatalf("the compile ended with status %v", ws)
	}

	if r := pyboxEnv(t, env, "", "setup"); r.code != 0 || !strings.Contains(r.stdout, "already compiled") {
		t.Errorf("pybox setup after the compile: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r := pyboxEnv(t, env, "", "run", "-c", "print(6*7)")
	if r.code != 0 || r.stdout != "42\n" || strings.Contains(r.stderr, "compiling") {
		t.Errorf("the next run: %d %q %q", r.code, r.stdout, r.stderr)
	}
}

// --cache-dir chooses the whole cache folder, like $PYBOX_CACHE_DIR: pybox
// setup --cache-dir D extracts the bundle into D too, so the first run with
// that folder has nothing left to do (it used to extract the bundle again,
// seconds on a busy machine). The compiled entry is linked in from the
// tests' warm cache, so this costs no compile.
func TestSetupCacheDirHoldsBundle(t *testing.T) {
	warm, err := runtime.DefaultCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	dir, other := t.TempDir(), t.TempDir()
	src := filepath.Join(warm, "wazero")
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		dst := filepath.Join(dir, "wazero", rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if os.Link(p, dst) == nil {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o600)
	})
	if err != nil {
		t.Fatalf("link the warm compile cache: %v", err)
	}
	// The flag wins over the environment, as for every other setting.
	r := pyboxEnv(t, []string{"PYBOX_CACHE_DIR=" + other}, "", "setup", "--cache-dir", dir)
	if r.code != 0 || !strings.Contains(r.stdout, "already compiled") {
		t.Fatalf("pybox setup --cache-dir (exit %d): want the warm entry found\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	for _, c := range []struct {
		dir  string
		want bool
	}{{dir, true}, {other, false}} {
		got, _ := filepath.Glob(filepath.Join(c.dir, "bundle-*", "pack"))
		if (len(got) > 0) != c.want {
			t.Errorf("extracted bundle in %s: %v, want present=%v", c.dir, got, c.want)
		}
	}
	r = pyboxEnv(t, []string{"PYBOX_CACHE_DIR=" + other}, "", "run", "--cache-dir", dir, "-c", "print(6*7)")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "42" {
		t.Fatalf("run --cache-dir (exit %d): %q %s", r.code, r.stdout, r.stderr)
	}
	if got, _ := filepath.Glob(filepath.Join(other, "*")); len(got) != 0 {
		t.Errorf("run --cache-dir %s wrote into $PYBOX_CACHE_DIR: %v", dir, got)
	}
}

// firstRunScript exercises more of the interpreter than print: imports of
// C extension modules, an exception caught in Python, sqlite3 and a
// traceback with exit status 1.
const firstRunScript = `import json, sqlite3, numpy
print(json.dumps({"a": [1, 2]}), int(numpy.arange(10).sum()))
try:
    int("x")
except ValueError as e:
    print("caught:", e)
db = sqlite3.connect(":memory:")
print(db.execute("select 6 * 7").fetchone())
raise KeyError("boom")
`

// On an empty cache the first run compiles python.wasm's functions as it
// calls them (wazero fork patch 0040) and gives the same output and status
// as a run from the cache; the whole compile, started in the background,
// fills the cache for the next run. It costs one cold compile.
func TestFirstRunCompilesAsItRuns(t *testing.T) {
	if !runtime.LazyCompileSupported() {
		t.Skip("the engine compiles lazily on linux/amd64 only")
	}
	// The background compile becomes this process's child once the run
	// that started it has ended, so the test can wait for it.
	const prSetChildSubreaper = 36
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		t.Skipf("prctl(PR_SET_CHILD_SUBREAPER): %v", errno)
	}
	env := []string{"PYBOX_CACHE_DIR=" + t.TempDir()}
	first := pyboxEnv(t, env, "", "run", "-c", firstRunScript)
	line, rest, _ := strings.Cut(first.stderr, "\n")
	m := regexp.MustCompile(`compiling the Python runtime as it runs .* process (\d+); .pybox setup. does this ahead of time`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("the first run did not say it compiles as it runs: %q", first.stderr)
	}
	compiler, _ := strconv.Atoi(m[1])
	var ws syscall.WaitStatus
	if _, err := syscall.Wait4(compiler, &ws, 0, nil); err != nil {
		t.Fatalf("wait for the background compile (process %d): %v", compiler, err)
	}
	if !ws.Exited() || ws.ExitStatus() != 0 {
		t.Fatalf("the background compile ended with status %v", ws)
	}
	b, err := packages.Default()
	if err != nil {
		t.Fatal(err)
	}
	if done, err := runtime.Compiled(strings.TrimPrefix(env[0], "PYBOX_CACHE_DIR="), b); err != nil || !done {
		t.Fatalf("the cache does not hold the compiled runtime after the background compile: %v, %v", done, err)
	}

	next := pyboxEnv(t, env, "", "run", "-c", firstRunScript)
	if strings.Contains(next.stderr, "compiling") {
		t.Errorf("the run after the background compile compiled: %q", next.stderr)
	}
	want := "{\"a\": [1, 2]} 45\ncaught: invalid literal for int() with base 10: 'x'\n(42,)\n"
	if first.stdout != want || next.stdout != want {
		t.Errorf("stdout: first run %q, next run %q, want %q", first.stdout, next.stdout, want)
	}
	if first.code != 1 || next.code != 1 {
		t.Errorf("exit status: first run %d, next run %d, want 1", first.code, next.code)
	}
	if rest != next.stderr || !strings.Contains(rest, "KeyError: 'boom'") {
		t.Errorf("stderr after the first line: first run %q, next run %q", rest, next.stderr)
	}
}
