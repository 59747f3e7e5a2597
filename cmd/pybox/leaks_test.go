package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pybox run script.py shows the guest a guest path for its script, never
// the host path: in sys.argv[0], __file__ and tracebacks (which still show
// the source lines). A script inside a mounted folder gets its guest path
// there, so that it can open itself and its neighbours.
func TestCLIScriptNameIsAGuestPath(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "leak.py")
	src := "import sys, os\nprint('argv0', sys.argv[0])\nprint('file', __file__)\nprint('readable', os.path.exists(__file__))\ndef f():\n    raise ValueError('boom')\nf()\n"
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		args  []string
		guest string
		read  string
	}{
		{"outside every mount", []string{"run", script}, "/leak.py", "False"},
		{"relative path", []string{"run", filepath.Join(dir, ".", "sub", "..", "leak.py")}, "/leak.py", "False"},
		{"inside a mount", []string{"run", "--mount", dir + ":/work:ro", script}, "/work/leak.py", "True"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := pybox(t, "", tc.args...)
			if r.code != 1 {
				t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
			}
			want := "argv0 " + tc.guest + "\nfile " + tc.guest + "\nreadable " + tc.read + "\n"
			if r.stdout != want {
				t.Errorf("stdout = %q, want %q", r.stdout, want)
			}
			for _, s := range []string{`File "` + tc.guest + `", line 7, in <module>`, `File "` + tc.guest + `", line 6, in f`, "raise ValueError('boom')", "ValueError: boom"} {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("traceback lacks %q:\n%s", s, r.stderr)
				}
			}
			if strings.Contains(r.stdout+r.stderr, dir) {
				t.Errorf("the host path %s is visible:\nstdout: %s\nstderr: %s", dir, r.stdout, r.stderr)
			}
		})
	}
}

// A SyntaxError in a script shows the error and nothing else: Python's
// look for the source of a script the guest cannot open is not reported as
// a refusal (it was noise under the traceback).
func TestCLISyntaxErrorWithoutRefusalNoise(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "bad.py")
	if err := os.WriteFile(script, []byte("x = 1\nif x\n    print(2)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := pybox(t, "", "run", "-q", script)
	if r.code != 1 || !strings.Contains(r.stderr, "SyntaxError: expected ':'") || !strings.Contains(r.stderr, `File "/bad.py", line 2`) {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	if strings.Contains(r.stderr, "refused") {
		t.Errorf("refusal noise:\n%s", r.stderr)
	}
}

// getpass reads the password from stdin without a refusal line: it tries
// /dev/tty first, which the sandbox does not have (a missing device, not
// a refused write; it printed "pybox: refused: write denied: /dev/tty").
func TestCLIGetpassWithoutRefusalNoise(t *testing.T) {
	r := pybox(t, "hunter2\n", "run", "-c", "import getpass; print('got', getpass.getpass('pw: '))")
	if r.code != 0 || !strings.Contains(r.stdout, "got hunter2") {
		t.Fatalf("exit %d, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stderr, "refused") {
		t.Errorf("refusal noise:\n%s", r.stderr)
	}
}
