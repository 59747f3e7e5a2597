package main

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeWheel builds a wheel file from name → content.
func writeWheel(t *testing.T, path string, files map[string]string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for name, body := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func TestCLIPackagesAdd(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PYBOX_PACKAGES_DIR=" + filepath.Join(dir, "site")}
	pure := filepath.Join(dir, "hello_pkg-1.2.3-py3-none-any.whl")
	writeWheel(t, pure, map[string]string{
		"hello_pkg/__init__.py":                 "GREETING = 'hello from a wheel'\n",
		"hello_pkg-1.2.3.dist-info/METADATA":    "Metadata-Version: 2.1\nName: hello-pkg\nVersion: 1.2.3\nLicense: MIT\n\nbody\n",
		"hello_pkg-1.2.3.dist-info/WHEEL":       "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
		"hello_pkg-1.2.3.data/scripts/hello.sh": "#!/bin/sh\n",
	})
	native := filepath.Join(dir, "fast-1.0-cp311-cp311-linux_x86_64.whl")
	writeWheel(t, native, map[string]string{"fast/__init__.py": ""})
	sneaky := filepath.Join(dir, "sneaky-1.0-py3-none-any.whl")
	writeWheel(t, sneaky, map[string]string{"sneaky/_speed.cpython-311-x86_64-linux-gnu.so": "\x7fELF"})
	escape := filepath.Join(dir, "escape-1.0-py3-none-any.whl")
	writeWheel(t, escape, map[string]string{"../../evil.py": "x"})

	r := pyboxEnv(t, env, "", "packages", "add", pure)
	if r.code != 0 || !strings.Contains(r.stdout, "added hello-pkg 1.2.3") {
		t.Fatalf("add: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "site", "hello_pkg", "__pycache__")); err != nil {
		t.Errorf("not compiled to bytecode: %v", err)
	}
	r = pyboxEnv(t, env, "", "run", "-c", "import hello_pkg; print(hello_pkg.GREETING)")
	if r.code != 0 || r.stdout != "hello from a wheel\n" {
		t.Fatalf("import: exit %d %q %s", r.code, r.stdout, r.stderr)
	}
	r = pyboxEnv(t, env, "", "packages")
	for _, want := range []string{"numpy", "pillow", "hello-pkg", "1.2.3", "user"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("list lacks %q:\n%s", want, r.stdout)
		}
	}
	for _, tc := range []struct{ wheel, want string }{
		{native, "can only add wheels tagged py3-none-any"},
		{sneaky, "contains compiled code (sneaky/_speed.cpython-311-x86_64-linux-gnu.so)"},
		{escape, "unsafe path"},
	} {
		r = pyboxEnv(t, env, "", "packages", "add", tc.wheel)
		if r.code == 0 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%s: exit %d, stderr %s", filepath.Base(tc.wheel), r.code, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "evil.py")); err == nil {
		t.Fatal("a wheel wrote outside the packages folder")
	}
	// A wheel of a package the bundle already has is added, with a warning
	// that the bundled copy is the one that imports.
	dup := filepath.Join(dir, "tabulate-99.0-py3-none-any.whl")
	writeWheel(t, dup, map[string]string{
		"tabulate/__init__.py":             "__version__ = '99.0'\n",
		"tabulate-99.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: tabulate\nVersion: 99.0\n\n",
		"tabulate-99.0.dist-info/WHEEL":    "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
	})
	r = pyboxEnv(t, env, "", "packages", "add", dup)
	if r.code != 0 || !strings.Contains(r.stderr, "warning: tabulate") || !strings.Contains(r.stderr, "not the 99.0 just added") {
		t.Errorf("adding a bundled package: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// The added package is read-only inside the sandbox.
	r = pyboxEnv(t, env, "", "run", "-c", "import hello_pkg, os\nopen(os.path.join(os.path.dirname(hello_pkg.__file__), 'x'), 'w')")
	if r.code == 0 {
		t.Fatalf("the guest could write into the packages folder")
	}
}
