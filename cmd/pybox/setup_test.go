//go:build linux

package main

import (
	"bufio"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
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
