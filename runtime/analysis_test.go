package runtime_test

import (
	"bytes"
	"context"
	"image/png"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/packages"
	"github.com/pybox-dev/pybox/runtime"
)

// bundled reports whether the runtime bundle's manifest lists a source
// package of this name.
func bundled(b *packages.Bundle, name string) bool {
	return slices.ContainsFunc(b.Manifest.Sources, func(s packages.Source) bool {
		return strings.EqualFold(s.Name, name)
	})
}

// needBundled skips the test unless the runtime bundle has every package
// named (its manifest lists it): pandas and matplotlib are not in every
// bundle. PYBOX_BUNDLE points the tests at another bundle.
func needBundled(t testing.TB, names ...string) {
	t.Helper()
	for _, n := range names {
		if !bundled(engine.Bundle(), n) {
			t.Skipf("the runtime bundle's manifest lists no %s: nothing to test (set PYBOX_BUNDLE to a bundle with it)", n)
		}
	}
}

// A DataFrame or Series as the final expression comes back as a table: one
// line per row (never wrapped into blocks of columns), at most 60 rows (the
// first and last 10 of a longer one) and 20 columns, cells cut at 50
// characters, and the shape.
func TestDataFrameValue(t *testing.T) {
	needBundled(t, "pandas")
	const setup = "import pandas as pd\n"
	tests := []struct {
		name    string
		code    string
		want    []string // substrings of the value
		notWant []string
		lines   int // the value's line count, if not 0
	}{
		{"small", `pd.DataFrame({"a": [1, 2], "b": ["x", "y"]})`,
			[]string{"   a  b\n0  1  x\n1  2  y\n\n[2 rows x 2 columns]"}, nil, 5},
		{"long", `pd.DataFrame({"n": range(1000), "sq": [i * i for i in range(1000)]})`,
			[]string{"[1000 rows x 2 columns]", "\n0 ", "\n9 ", "\n990 ", "\n999 ", "998001", "..."},
			[]string{"\n10 ", "\n500 ", "\n989 "}, 1 + 20 + 1 + 2},
		{"sixty rows are shown whole", `pd.DataFrame({"n": range(60)})`,
			[]string{"\n59 ", "[60 rows x 1 columns]"}, []string{"..."}, 1 + 60 + 2},
		{"wide", `pd.DataFrame([[i * 100 + j for j in range(30)] for i in range(3)], columns=[f"c{j}" for j in range(30)])`,
			[]string{"c0", "c9", "...", "c20", "c29", "[3 rows x 30 columns]"}, []string{"c10 ", "c19 "}, 1 + 3 + 2},
		{"not wrapped to 80 characters", `pd.DataFrame({f"column_{j:02d}": [j * 1.5] for j in range(15)})`,
			[]string{"column_00", "column_14", "[1 rows x 15 columns]"}, []string{"\\\n"}, 1 + 1 + 2},
		{"long cells cut", `pd.DataFrame({"text": ["x" * 200]})`,
			[]string{strings.Repeat("x", 40), "...", "[1 rows x 1 columns]"}, []string{strings.Repeat("x", 60)}, 0},
		{"series", `pd.Series(range(100), name="n")`,
			[]string{"0      0\n", "\n9      9\n      ..\n90    90\n", "\n99    99\n", "Name: n, Length: 100, dtype: int64"}, []string{"\n50 "}, 20 + 1 + 1},
		{"other values keep repr", `pd.Index([1, 2])`, []string{"Index([1, 2], dtype='int64')"}, nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := run(t, runtime.Request{Code: setup + tc.code})
			if res.Status != runtime.StatusOK {
				t.Fatalf("status %s: %s\n%s", res.Status, res.Message, res.Stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(res.Value, w) {
					t.Errorf("value lacks %q:\n%s", w, res.Value)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(res.Value, w) {
					t.Errorf("value has %q:\n%s", w, res.Value)
				}
			}
			if n := strings.Count(res.Value, "\n") + 1; tc.lines != 0 && n != tc.lines {
				t.Errorf("value has %d lines, want %d:\n%s", n, tc.lines, res.Value)
			}
		})
	}

	// In a session the value is still the object itself for the next call.
	s, err := engine.NewSession(context.Background(), runtime.SessionConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, c := range []struct{ code, want string }{
		{setup + `pd.DataFrame({"a": [1]})`, "   a\n0  1\n\n[1 rows x 1 columns]"},
		{"type(_).__name__, _.shape", "('DataFrame', (1, 1))"},
	} {
		res, err := s.Exec(context.Background(), runtime.Request{Code: c.code})
		if err != nil || res.Value != c.want {
			t.Fatalf("%q: %v %q, want %q\n%s", c.code, err, res.Value, c.want, res.Stderr)
		}
	}
}

// siteNames lists the top-level names in the bundle's site-packages, as the
// missing-package message should list them.
func siteNames(t *testing.T, b *packages.Bundle) []string {
	t.Helper()
	ents, err := fs.ReadDir(b.Files, "lib/python3.11/site-packages")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() && !strings.Contains(n, ".") && !strings.HasPrefix(n, "_") {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// Importing a well-known package the bundle lacks says that nothing can be
// installed and lists what can be imported, read from the bundle; probing
// for it (importlib.util.find_spec, try/except ImportError) behaves as
// usual, and other missing modules get Python's own message. scipy,
// scikit-learn and statsmodels are in the bundle since issue 15: with such
// a bundle their imports must work, with an older one they get the message
// and its hint.
func TestMissingPackageMessage(t *testing.T) {
	b := engine.Bundle()
	names := siteNames(t, b)
	if !slices.Contains(names, "numpy") || !slices.Contains(names, "PIL") {
		t.Fatalf("site-packages of the bundle: %v", names)
	}
	tests := []struct {
		code, missing, dist string
	}{
		{"import scipy", "scipy", "scipy"},
		{"import sklearn.linear_model", "sklearn", "scikit-learn"},
		{"from statsmodels.api import OLS", "statsmodels", "statsmodels"},
		{"import torch as t", "torch", ""},
		{"import xgboost", "xgboost", ""},
	}
	for _, tc := range tests {
		t.Run(tc.missing, func(t *testing.T) {
			t.Parallel()
			res := run(t, runtime.Request{Code: "x = 1\n" + tc.code})
			if tc.dist != "" && bundled(b, tc.dist) {
				if res.Status != runtime.StatusOK {
					t.Fatalf("%s is bundled, but %q: status %s %s %+v", tc.dist, tc.code, res.Status, res.Message, res.Exception)
				}
				return
			}
			if res.Status != runtime.StatusError || res.Exception.Type != "ModuleNotFoundError" {
				t.Fatalf("status %s %+v", res.Status, res.Exception)
			}
			msg := res.Exception.Message
			if !strings.HasPrefix(msg, "No module named '"+tc.missing+"': "+tc.missing+" is not available in the pybox sandbox, and nothing can be installed") {
				t.Errorf("message: %s", msg)
			}
			for _, n := range names {
				if !strings.Contains(msg, " "+n+",") && !strings.Contains(msg, " "+n+".") {
					t.Errorf("message does not list %s: %s", n, msg)
				}
			}
			// What to use instead, for scipy and its kind (numpy is in
			// every bundle; pandas' part when it is there).
			if hint := map[string]string{"scipy": "Much of it is in numpy: np.linalg", "sklearn": "np.linalg.lstsq",
				"statsmodels": "np.linalg.lstsq"}[tc.missing]; hint != "" {
				if !strings.Contains(msg, hint) || strings.Contains(msg, "DataFrame.corr") != slices.Contains(names, "pandas") {
					t.Errorf("hint: %s", msg)
				}
			}
			tb := res.Exception.Traceback
			if !strings.Contains(tb, `File "<string>", line 2, in <module>`) || strings.Contains(tb, "pybox-runner") || strings.Contains(tb, "frozen") {
				t.Errorf("traceback:\n%s", tb)
			}
		})
	}

	res := run(t, runtime.Request{Code: `import importlib.util
print(importlib.util.find_spec("torch"), importlib.util.find_spec("xgboost"))
try:
    import torch.nn
except ImportError as e:
    print("fallback", type(e).__name__, e.name)
import not_a_real_package_xyz`})
	if got := string(res.Stdout); got != "None None\nfallback ModuleNotFoundError torch\n" {
		t.Errorf("stdout %q", got)
	}
	if res.Exception == nil || res.Exception.Message != "No module named 'not_a_real_package_xyz'" {
		t.Errorf("other missing module: %+v", res.Exception)
	}
}

// Engines that serve models preload numpy, pandas and matplotlib.pyplot,
// those the bundle has: in sys.modules, not in the user's namespace, and
// matplotlib on the Agg backend.
func TestPreloadAnalysis(t *testing.T) {
	b := engine.Bundle()
	want := []string{"numpy"}
	if bundled(b, "pandas") {
		want = append(want, "pandas")
	}
	if bundled(b, "matplotlib") {
		want = append(want, "matplotlib.pyplot")
	}
	if got := runtime.AnalysisPreload(b); !slices.Equal(got, want) {
		t.Fatalf("AnalysisPreload = %v, want %v (manifest)", got, want)
	}
	ctx := context.Background()
	e, err := runtime.NewEngine(ctx, runtime.Config{PreloadAnalysis: true, Preload: []string{"json", "numpy"}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	code := `import sys
print(sorted(m for m in ("json", "numpy", "pandas", "matplotlib.pyplot") if m in sys.modules))
print([n for n in ("np", "numpy", "pd", "pandas", "plt") if n in globals()])
if "matplotlib" in sys.modules:
    import matplotlib
    print(matplotlib.get_backend().lower())  # the bundle's matplotlibrc says "Agg"
`
	for i := 0; i < 2; i++ { // the first run takes the snapshot, the second starts from it
		res, err := e.Run(ctx, runtime.Request{Code: code})
		if err != nil || res.Status != runtime.StatusOK {
			t.Fatalf("run %d: %v %+v\n%s", i, err, res, res.Stderr)
		}
		wantOut := "['" + strings.Join(sortedCopy(append([]string{"json"}, want...)), "', '") + "']\n[]\n"
		if slices.Contains(want, "matplotlib.pyplot") {
			wantOut += "agg\n"
		}
		if string(res.Stdout) != wantOut {
			t.Errorf("run %d: stdout %q, want %q\nstderr: %s", i, res.Stdout, wantOut, res.Stderr)
		}
	}
	if !e.Snapshot().Taken {
		t.Errorf("no snapshot: %v", e.Snapshot().Err)
	}
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	sort.Strings(out)
	return out
}

// Figures come back by themselves: the pyplot figures open when the code
// ends, and those open at plt.show(), are saved as PNG files in the job's
// figure folder under names no file has, and closed. A figure that cannot be
// saved is reported on stderr, leaves no file, and the interpreter lives on.
// Without Request.Figures figures are left alone, and the runner never
// imports matplotlib itself.
func TestFigures(t *testing.T) {
	needBundled(t, "matplotlib")
	out := t.TempDir()
	users := []byte("the user's own figure-1.png")
	if err := os.WriteFile(filepath.Join(out, "figure-1.png"), users, 0o644); err != nil {
		t.Fatal(err)
	}
	sb, err := fsbridge.New(fsbridge.Policy{Output: out, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	// An engine without preloads: pyplot is imported only by user code.
	ctx := context.Background()
	e, err := runtime.NewEngine(ctx, runtime.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	s, err := e.NewSession(ctx, runtime.SessionConfig{FS: sb.FS()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	exec := func(code, figures string) *runtime.Result {
		t.Helper()
		res, err := s.Exec(ctx, runtime.Request{Code: code, Figures: figures})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	files := func() []string {
		ents, err := os.ReadDir(out)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		return names
	}
	decode := func(name string) (w, h int) {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return img.Bounds().Dx(), img.Bounds().Dy()
	}

	// Nothing imported pyplot: nothing happens, and the runner did not
	// import matplotlib.
	res := exec("import sys\n'matplotlib' in sys.modules", "/output")
	if res.Status != runtime.StatusOK || res.Value != "False" {
		t.Fatalf("runner imported matplotlib: %+v %s", res, res.Stderr)
	}

	res = exec(`import matplotlib.pyplot as plt
fig, ax = plt.subplots(figsize=(4, 3), dpi=50)
ax.plot([1, 3, 2])
plt.show()
print(plt.get_fignums())
plt.figure(figsize=(2, 2), dpi=50)
plt.bar(["a", "b"], [1, 2])
plt.figure(figsize=(3, 1), dpi=50)
plt.title("third")
`, "/output")
	if res.Status != runtime.StatusOK || string(res.Stdout) != "[]\n" {
		t.Fatalf("status %s stdout %q stderr %s", res.Status, res.Stdout, res.Stderr)
	}
	if got, want := files(), []string{"figure-1.png", "figure-2.png", "figure-3.png", "figure-4.png"}; !slices.Equal(got, want) {
		t.Fatalf("/output: %v, want %v", got, want)
	}
	if data, _ := os.ReadFile(filepath.Join(out, "figure-1.png")); !bytes.Equal(data, users) {
		t.Fatal("the user's figure-1.png was overwritten")
	}
	// The first (shown) is 4x3 inches at 50 dpi, trimmed to its content.
	if w, h := decode("figure-2.png"); w < 100 || w > 200 || h < 75 || h > 150 {
		t.Errorf("figure-2.png is %dx%d", w, h)
	}
	decode("figure-3.png")
	decode("figure-4.png")

	// Saved figures are closed; a failed run still gives its figures.
	res = exec("import matplotlib.pyplot as plt\nprint(plt.get_fignums())\nplt.plot([1, 2])\n1/0", "/output")
	if res.Status != runtime.StatusError || string(res.Stdout) != "[]\n" {
		t.Fatalf("status %s stdout %q", res.Status, res.Stdout)
	}
	decode("figure-5.png")

	// A figure too large to render: a clear message, no file, the other
	// figure saved, and the interpreter lives on.
	res = exec(`import matplotlib.pyplot as plt
plt.figure(figsize=(1000, 1000), dpi=100)
plt.plot([1, 2])
plt.figure(figsize=(2, 2), dpi=50)
plt.plot([2, 1])
"alive"`, "/output")
	if res.Status != runtime.StatusOK || res.Value != "'alive'" {
		t.Fatalf("huge figure: status %s value %q stderr %s", res.Status, res.Value, res.Stderr)
	}
	// Refused before matplotlib allocates its pixels (40 GB, which would
	// also wrap around wasm32's 32-bit size_t); no file is created.
	if se, want := string(res.Stderr), "pybox: figure 1 could not be saved: it is 100000x100000 pixels, more than the sandbox can render: make it smaller with figsize or dpi; it was closed\n"; !strings.Contains(se, want) {
		t.Errorf("stderr %q, want %q", se, want)
	}
	if got := files(); !slices.Contains(got, "figure-6.png") || slices.Contains(got, "figure-7.png") {
		t.Errorf("/output after the huge figure: %v", got)
	}
	// A figure matplotlib itself fails to save (here: an artist that
	// raises when drawn) is reported with the error, leaves no file, and
	// the figure after it is saved.
	res = exec(`import matplotlib.pyplot as plt
from matplotlib.artist import Artist
class Broken(Artist):
    def draw(self, renderer):
        raise RuntimeError("cannot draw this")
fig = plt.figure(figsize=(2, 2), dpi=50)
fig.add_artist(Broken())
plt.figure(figsize=(2, 2), dpi=50)
"alive"`, "/output")
	if res.Status != runtime.StatusOK || res.Value != "'alive'" {
		t.Fatalf("broken figure: status %s value %q stderr %s", res.Status, res.Value, res.Stderr)
	}
	if se, want := string(res.Stderr), "pybox: figure 1 could not be saved as /output/figure-7.png: RuntimeError: cannot draw this; it was closed\n"; !strings.Contains(se, want) {
		t.Errorf("stderr %q, want %q", se, want)
	}
	if got := files(); slices.Contains(got, "figure-7.png") || !slices.Contains(got, "figure-8.png") {
		t.Errorf("/output after the broken figure: %v", got)
	}
	res = exec("import matplotlib.pyplot as plt\nplt.get_fignums(), 6 * 7", "/output")
	if res.Status != runtime.StatusOK || res.Value != "([], 42)" {
		t.Fatalf("after the huge figure: %+v %s", res, res.Stderr)
	}

	// A figure the code saved into /output itself is not saved again (the
	// model would see it twice); one saved elsewhere is. Both are closed.
	res = exec(`import matplotlib.pyplot as plt
plt.figure(figsize=(2, 2), dpi=50)
plt.plot([1, 2])
plt.savefig("/output/chart.png")
plt.show()
plt.figure(figsize=(2, 2), dpi=50)
plt.savefig("/tmp/elsewhere.png")
print(plt.get_fignums())`, "/output")
	if res.Status != runtime.StatusOK || string(res.Stdout) != "[1]\n" {
		t.Fatalf("savefig: %s %q %s", res.Status, res.Stdout, res.Stderr)
	}
	if got := files(); !slices.Contains(got, "chart.png") || !slices.Contains(got, "figure-7.png") || slices.Contains(got, "figure-9.png") {
		t.Errorf("/output after savefig: %v", got)
	}
	res = exec("plt.get_fignums()", "/output")
	if res.Value != "[]" {
		t.Errorf("figures left open: %s", res.Value)
	}

	// Capture off: figures stay open and nothing is written.
	before := files()
	res = exec("import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.show()\nlen(plt.get_fignums())", "")
	if res.Status != runtime.StatusOK || res.Value != "1" {
		t.Fatalf("capture off: %+v %s", res, res.Stderr)
	}
	res = exec("len(plt.get_fignums())", "")
	if res.Value != "1" || !slices.Equal(files(), before) {
		t.Fatalf("capture off: value %q, /output %v", res.Value, files())
	}
}

// A preload that cannot be imported (a typo in an operator's --preload, a
// module that raises at import) leaves the interpreter without it, logs a
// warning naming the module and the exception once per engine, and is
// listed by PreloadErrors; the other preloads and the runs are unaffected.
// The guest cannot report one once set-up is over.
func TestPreloadErrorsReported(t *testing.T) {
	ctx := context.Background()
	var logBuf syncBuffer
	logger := slog.New(slog.NewTextHandler(&logBuf, nil))
	e, err := runtime.NewEngine(ctx, runtime.Config{
		WarmPool: 1,
		Logger:   logger,
		Preload:  []string{"json", "no_such_module_x", "json.nosuch"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	for i := 0; i < 3; i++ { // boot, then interpreters from the snapshot and the pool
		res, err := e.Run(ctx, runtime.Request{Code: "import sys; print('json' in sys.modules, 'no_such_module_x' in sys.modules)"})
		if err != nil || res.Status != runtime.StatusOK || string(res.Stdout) != "True False\n" {
			t.Fatalf("run %d: %v %+v\n%s", i, err, res, res.Stderr)
		}
	}
	got := e.PreloadErrors()
	want := map[string]string{
		"no_such_module_x": "ModuleNotFoundError: No module named 'no_such_module_x'",
		"json.nosuch":      "ModuleNotFoundError: No module named 'json.nosuch'",
	}
	if !maps.Equal(got, want) {
		t.Errorf("PreloadErrors = %q, want %q", got, want)
	}
	logged := logBuf.String()
	if n := strings.Count(logged, "module=no_such_module_x"); n != 1 {
		t.Errorf("warning for no_such_module_x logged %d times, want once:\n%s", n, logged)
	}
	if !strings.Contains(logged, "level=WARN") || !strings.Contains(logged, "No module named 'json.nosuch'") {
		t.Errorf("log lacks the warning with its reason:\n%s", logged)
	}

	// Guest code cannot forge one after set-up: the call ends its interpreter.
	res, err := e.Run(ctx, runtime.Request{Code: "import _pybox\n_pybox.call('preload_error', b'x\\0y')\nprint('after')"})
	if err == nil && res.Status == runtime.StatusOK {
		t.Errorf("a preload_error call from a job was accepted: %+v", res)
	}
	if _, ok := e.PreloadErrors()["x"]; ok {
		t.Errorf("a job's forged preload_error was recorded")
	}
}
