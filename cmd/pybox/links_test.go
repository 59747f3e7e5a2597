package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCLIHostLinks runs issue 17's reproductions through `pybox run`
// exactly as reported, with /output and a copy-on-write variant: the guest's
// symlink is refused with its reason, and a walk of the host folders
// following every link finds no link and nothing outside them.
func TestCLIHostLinks(t *testing.T) {
	tests := []struct {
		name      string
		mount     string // mode of the mount at /rw
		code      string
		code1     bool // exit code 1 expected (uncaught refusal)
		stderrHas []string
	}{
		{
			name:  "repro 1",
			mount: "rw",
			code:  `import os; os.makedirs("/rw/p/a"); os.symlink("../../secret.txt","/rw/p/a/l"); os.rename("/rw/p/a","/rw/pa")`,
			code1: true,
			stderrHas: []string{
				"PermissionError: [Errno 63] symlink denied: /rw/p/a/l -> ../../secret.txt is not possible: /rw is a host folder, and symbolic links cannot be created in host folders",
				"copy the file or folder instead",
			},
		},
		{
			name:  "repro 2",
			mount: "rw",
			code: `import os
d="/rw/q/"+"/".join("d%d"%i for i in range(30)); os.makedirs(d)
os.symlink("/".join([".."]*30), d+"/up"); os.symlink("../"*32+"etc/passwd", d+"/up/passwd")`,
			code1:     true,
			stderrHas: []string{"symlink denied: /rw/q/d0/", "/d29/up -> ../../"},
		},
		{
			name:      "cow",
			mount:     "cow",
			code:      `import os; os.makedirs("/rw/p/a"); os.symlink("../../secret.txt","/rw/p/a/l")`,
			code1:     true,
			stderrHas: []string{"symlink denied: /rw/p/a/l -> ../../secret.txt is not possible: /rw is a host folder"},
		},
		{
			name:      "output",
			mount:     "rw",
			code:      `import os; os.makedirs("/output/p/a"); os.symlink("../../../secret.txt","/output/p/a/l")`,
			code1:     true,
			stderrHas: []string{"symlink denied: /output/p/a/l -> ../../../secret.txt is not possible: /output is a host folder"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			demo := t.TempDir()
			rw, out, upper := filepath.Join(demo, "rw"), filepath.Join(demo, "out"), filepath.Join(demo, "upper")
			for _, d := range []string{rw, out} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(demo, "secret.txt"), []byte("TOPSECRET\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			spec := rw + ":/rw:" + tc.mount
			if tc.mount == "cow" {
				spec += "=" + upper
			}
			r := pybox(t, "", "run", "--mount", spec, "--output", out, "-c", tc.code)
			if want := map[bool]int{true: 1, false: 0}[tc.code1]; r.code != want {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, want, r.stdout, r.stderr)
			}
			for _, s := range tc.stderrHas {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
				}
			}
			if strings.Contains(r.stderr, "outside every mount") || strings.Contains(r.stderr, demo) {
				t.Errorf("stderr explains the wrong path or shows a host path:\n%s", r.stderr)
			}
			// The checks: `cat` of the planted paths.
			for _, p := range []string{"rw/pa/l", "rw/q/passwd", "rw/p/a/l", "out/p/a/l"} {
				if b, err := os.ReadFile(filepath.Join(demo, p)); err == nil {
					t.Errorf("host %s reads %q", p, b)
				}
			}
			for _, dir := range []string{rw, out, upper} {
				hostWalkNoLinks(t, dir)
			}
		})
	}
}

// hostWalkNoLinks walks dir on the host (if it exists): it holds no
// symbolic link, and every path in it, followed, stays inside it.
func hostWalkNoLinks(t *testing.T, dir string) {
	t.Helper()
	real, err := filepath.EvalSymlinks(dir)
	if os.IsNotExist(err) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			t.Errorf("walk %s: %v", p, err)
			return nil
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			t.Errorf("host folder has a link: %s -> %s", p, target)
		}
		if _, err := os.Stat(p); err == nil {
			if r, err := filepath.EvalSymlinks(p); err == nil && r != real && !strings.HasPrefix(r, real+string(filepath.Separator)) {
				t.Errorf("%s resolves outside %s: %s", p, dir, r)
			}
		}
		return nil
	})
}
