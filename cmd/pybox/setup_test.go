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
	env := []string{"PYBOX_CACHE_DIR=" + t.TempDir()}
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
		got, _ := filepath.Glob(filepath.Join(c.dir, "bundle-*", "index"))
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
