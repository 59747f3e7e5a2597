package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/packages"
)

// binary is the pybox binary built once for these tests, CGO disabled as it
// ships.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "pybox-cli-test")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "pybox")
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	// Compile the runtime once (a no-op on a warm cache), so that no test
	// pays for it or sees a first run's compile message.
	setup := exec.Command(binary, "setup", "-q")
	if out, err := setup.CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type cliResult struct {
	stdout, stderr string
	code           int
}

func pybox(t *testing.T, stdin string, args ...string) cliResult {
	t.Helper()
	return pyboxEnv(t, nil, stdin, args...)
}

// pyboxEnv runs the binary with extra environment variables.
func pyboxEnv(t *testing.T, env []string, stdin string, args ...string) cliResult {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run pybox: %v", err)
	}
	return cliResult{out.String(), errb.String(), code}
}

func TestCLIRun(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "hello.py")
	if err := os.WriteFile(script, []byte("import sys\nprint('args', sys.argv[1:])\nprint(input())\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	failing := filepath.Join(dir, "fail.py")
	if err := os.WriteFile(failing, []byte("def f():\n    raise ValueError('nope')\nf()\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		stdin     string
		args      []string
		code      int
		stdout    string
		stderrHas []string
	}{
		{"version", "", []string{"run", "-c", "import sys, json; print(json.dumps(sys.version_info[:2]))"}, 0, "[3, 11]\n", nil},
		{"exit code", "", []string{"run", "-c", "import sys; sys.exit(3)"}, 3, "", nil},
		{"script with args and stdin", "typed\n", []string{"run", script, "x", "y"}, 0, "args ['x', 'y']\ntyped\n", nil},
		{"code from stdin", "print(6 * 7)\n", []string{"run", "-"}, 0, "42\n", nil},
		{"traceback names the script", "", []string{"run", failing}, 1, "", []string{"Traceback (most recent call last):", `fail.py", line 3, in <module>`, "raise ValueError('nope')", "ValueError: nope"}},
		{"timeout", "", []string{"run", "--timeout", "300ms", "-c", "print('partial', flush=True)\nwhile True: pass"}, 124, "partial\n", []string{"KeyboardInterrupt", "pybox: timed out after 300ms"}},
		{"memory", "", []string{"run", "--memory", "64MiB", "-c", "x = bytearray(200 * 1024 * 1024)"}, 1, "", []string{"MemoryError", "memory limit of 64 MiB", "--memory"}},
		{"output limit", "", []string{"run", "--output-limit", "1KiB", "-c", "print('x' * 5000)"}, 0, "", nil},
		{"bad size", "", []string{"run", "--memory", "lots", "-c", "pass"}, 2, "", []string{`invalid size "lots"`}},
		{"nothing to run", "", []string{"run"}, 2, "", []string{"nothing to run"}},
		{"missing script", "", []string{"run", filepath.Join(dir, "nope.py")}, 2, "", []string{"read script", "nope.py"}},
		{"unknown command", "", []string{"frobnicate"}, 2, "", []string{`unknown command "frobnicate"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := pybox(t, tc.stdin, tc.args...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, tc.code, r.stdout, r.stderr)
			}
			if tc.stdout != "" && r.stdout != tc.stdout {
				t.Errorf("stdout = %q, want %q", r.stdout, tc.stdout)
			}
			for _, s := range tc.stderrHas {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
				}
			}
		})
	}
}

func TestCLIOutputLimitMarker(t *testing.T) {
	r := pybox(t, "", "run", "--output-limit", "1KiB", "-c", "print('x' * 5000)")
	if len(r.stdout) > 1024+200 || !strings.Contains(r.stdout, "output limit of 1024 bytes reached") {
		t.Fatalf("stdout (%d bytes) not capped with a marker: %q", len(r.stdout), r.stdout)
	}
}

func TestParseByteSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		err  bool
	}{
		{"256MiB", 256 << 20, false},
		{"1GiB", 1 << 30, false},
		{"1.5GiB", 3 << 29, false},
		{"512M", 512 << 20, false},
		{"500MB", 500_000_000, false},
		{"4096", 4096, false},
		{"64 KiB", 64 << 10, false},
		{"lots", 0, true},
		{"-5MiB", 0, true},
	}
	for _, tc := range tests {
		got, err := fsbridge.ParseByteSize(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("ParseByteSize(%q) = %d, %v; want %d, err=%v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestCLIRepl(t *testing.T) {
	in := "x = 6\nx * 7\nfor i in range(2):\n    print('loop', i)\n\n1/0\nx + 1\n:reset\n'x' in globals()\n"
	r := pybox(t, in, "repl")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"42\n", "loop 0\nloop 1\n", "7\n", "False\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "ZeroDivisionError") || !strings.Contains(r.stderr, "fresh interpreter") {
		t.Errorf("stderr: %s", r.stderr)
	}
}

func TestReplContinues(t *testing.T) {
	for line, want := range map[string]bool{
		"x = 1": false, "def f():": true, "print((1,": true, "x = [1, 2]": false,
		`s = """abc`: true, "@decorator": true, "a = 1 + \\": true, "d = {'a': 1}": false,
	} {
		if got := continues(line); got != want {
			t.Errorf("continues(%q) = %v, want %v", line, got, want)
		}
	}
}

// Flag mistakes get one clear line that says what to write, exit status 2,
// no Go panic and no wall of flags; nothing runs.
func TestCLIFlagMistakes(t *testing.T) {
	out := t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"run", "--memory", "256", "-c", "print(1)"}, "256 is too small: the interpreter needs at least 32MiB"},
		{[]string{"run", "--memory", "1MiB", "-c", "print(1)"}, "1MiB is too small"},
		{[]string{"run", "--memory", "5000GiB", "-c", "print(1)"}, "at most 4GiB"},
		{[]string{"run", "--timeout", "2", "-c", "print(1)"}, `"2" has no unit: write 2s`},
		{[]string{"run", "--timeout", "-1s", "-c", "print(1)"}, "-1s is negative"},
		{[]string{"serve", "--max-timeout", "10", "--addr", "127.0.0.1:0"}, `"10" has no unit: write 10s`},
		{[]string{"agent", "--memory", "16MiB", "task"}, "16MiB is too small"},
		{[]string{"run", "--mount", out + ":/x:bogus", "-c", "1"}, `unknown mount mode "bogus" (want HOST:GUEST:MODE`},
		{[]string{"run", "--mount", out + ":/output:ro", "-c", "1"}, "/output is the sandbox's output folder and is always writable; choose its host folder with --output"},
		{[]string{"repl", "-c", "print(1)"}, "pybox repl: it takes no code or script"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := pybox(t, "", tc.args...)
			if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
				t.Fatalf("exit %d, stderr:\n%s\nwant %q", r.code, r.stderr, tc.want)
			}
			if strings.Contains(r.stderr, "goroutine") || strings.Count(r.stderr, "(want") > 1 || strings.Contains(r.stderr, "-output-limit") {
				t.Errorf("noisy error:\n%s", r.stderr)
			}
		})
	}
	// --mount DIR:/output:rw means --output DIR.
	r := pybox(t, "", "run", "-q", "--mount", out+":/output:rw", "-c", "open('/output/a.txt', 'w').write('x')")
	if b, err := os.ReadFile(filepath.Join(out, "a.txt")); r.code != 0 || err != nil || string(b) != "x" {
		t.Fatalf("--mount DIR:/output:rw: exit %d %s; file %q %v", r.code, r.stderr, b, err)
	}
	// pybox help run is pybox run -h.
	if r := pybox(t, "", "help", "run"); r.code != 0 || !strings.Contains(r.stderr+r.stdout, "Usage: pybox run") {
		t.Errorf("help run: %d %s", r.code, r.stderr)
	}
}

// pybox tools prints static schemas: it compiles and extracts nothing (the
// cache folder stays empty), and --strict gives strict-mode schemas.
func TestCLIToolsStartsNothing(t *testing.T) {
	cache := t.TempDir()
	r := pyboxEnv(t, []string{"PYBOX_CACHE_DIR=" + cache}, "", "tools", "--format", "openai", "--strict", "--tool-prefix", "pybox_")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var fns []struct {
		Function struct {
			Name   string `json:"name"`
			Strict bool   `json:"strict"`
		} `json:"function"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &fns); err != nil || len(fns) != 7 {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	for _, f := range fns {
		if !f.Function.Strict || !strings.HasPrefix(f.Function.Name, "pybox_") {
			t.Errorf("tool %+v", f.Function)
		}
	}
	if ents, _ := os.ReadDir(cache); len(ents) != 0 {
		t.Errorf("pybox tools wrote to the cache: %v", ents)
	}
}

// pybox run saves the figures left open to --output as figure-N.png, and
// lists them; --no-figures does not.
func TestCLIRunFigures(t *testing.T) {
	b, err := packages.Default()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range b.Manifest.Sources {
		found = found || strings.EqualFold(s.Name, "matplotlib")
	}
	if !found {
		t.Skip("the runtime bundle's manifest lists no matplotlib: nothing to test (set PYBOX_BUNDLE to a bundle with it)")
	}
	const code = "import matplotlib.pyplot as plt\nplt.figure(figsize=(2, 2), dpi=40)\nplt.plot([1, 2])"
	out := t.TempDir()
	r := pybox(t, "", "run", "--output", out, "-c", code)
	if r.code != 0 || !strings.Contains(r.stderr, "output /output/figure-1.png (") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, "figure-1.png"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(data)); err != nil {
		t.Fatalf("figure-1.png: %v", err)
	}
	off := t.TempDir()
	r = pybox(t, "", "run", "--no-figures", "--output", off, "-c", code)
	if ents, _ := os.ReadDir(off); r.code != 0 || len(ents) != 0 {
		t.Fatalf("--no-figures: exit %d, /output %v\n%s", r.code, ents, r.stderr)
	}
}
