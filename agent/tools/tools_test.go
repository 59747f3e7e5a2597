package tools_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pybox-dev/pybox/agent/tools"
	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/packages"
	"github.com/pybox-dev/pybox/runtime"
)

var engine *runtime.Engine

func TestMain(m *testing.M) {
	ctx := context.Background()
	var err error
	engine, err = runtime.NewEngine(ctx, runtime.Config{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "NewEngine:", err)
		os.Exit(1)
	}
	code := m.Run()
	engine.Close(ctx)
	os.Exit(code)
}

// newBox returns a Box with a read-only /data mount holding data.csv.
func newBox(t *testing.T, mod func(*tools.Config)) (*tools.Box, string) {
	t.Helper()
	data := t.TempDir()
	if err := os.WriteFile(filepath.Join(data, "data.csv"), []byte("a,b\n1,2\n3,4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := tools.Config{
		Engine: engine,
		Policy: fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadOnlyMount(data, "/data")}, TempDir: t.TempDir()},
		Limits: runtime.Limits{Timeout: 20 * time.Second},
	}
	if mod != nil {
		mod(&cfg)
	}
	b, err := tools.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b, data
}

func call(t *testing.T, b *tools.Box, name, args string) *tools.Result {
	t.Helper()
	r, err := b.Call(context.Background(), name, json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s(%s): %v", name, args, err)
	}
	return r
}

func TestToolCalls(t *testing.T) {
	b, _ := newBox(t, nil)
	tests := []struct {
		name    string
		tool    string
		args    string
		isError bool
		want    []string // substrings of Result.Text()
	}{
		{"print and value", "execute_python", `{"code": "print('hi')\n6*7"}`, false, []string{"status: ok", "--- stdout ---\nhi", "--- value ---\n42"}},
		{"exception", "execute_python", `{"code": "def f():\n    return 1/0\nf()"}`, true, []string{"status: error: ZeroDivisionError: division by zero", "line 2, in f", "return 1/0"}},
		{"exit code", "execute_python", `{"code": "import sys; sys.exit(3)"}`, true, []string{"exited with code 3"}},
		{"timeout keeps output", "execute_python", `{"code": "print('before', flush=True)\nwhile True: pass", "timeout_s": 0.5}`, true, []string{"status: timeout", "before", "KeyboardInterrupt"}},
		{"denial reported", "execute_python", `{"code": "open('/data/x', 'w')"}`, true, []string{"OSError", "read-only mount", "--- refused by the sandbox ---\nwrite denied: /data/x"}},
		{"double-encoded arguments", "execute_python", `"{\"code\": \"print(5)\"}"`, false, []string{"--- stdout ---\n5"}},
		{"invalid json", "execute_python", `{"code": "print(1)"`, true, []string{"not a valid JSON object", `"code"`}},
		{"wrong type", "execute_python", `{"code": 5}`, true, []string{`field "code" must be a string, not a JSON number`}},
		{"missing code", "execute_python", `{}`, true, []string{`"code" is missing or empty`}},
		{"bad session id", "execute_python", `{"code": "1", "session_id": "../x"}`, true, []string{"session_id", "not valid"}},
		{"bad timeout", "execute_python", `{"code": "1", "timeout_s": -1}`, true, []string{"timeout_s must be a positive"}},
		{"timeout above max", "execute_python", `{"code": "1", "timeout_s": 100000}`, false, []string{"above the limit"}},
		{"unknown tool", "rm_rf", `{}`, true, []string{`no tool named "rm_rf"`, "execute_python"}},

		{"ls root", "ls", `{}`, false, []string{"data/", "help/", "output/", "tmp/"}},
		{"ls mount", "ls", `{"path": "/data"}`, false, []string{"data.csv  12 bytes"}},
		{"ls help", "ls", `{"path": "help"}`, false, []string{"files.md", "packages.md"}},
		{"ls missing", "ls", `{"path": "/nope"}`, true, []string{"/nope"}},
		{"ls a file", "ls", `{"path": "/data/data.csv"}`, false, []string{"is a file"}},

		{"read numbered", "read_file", `{"path": "/data/data.csv"}`, false, []string{"     1\ta,b\n     2\t1,2\n     3\t3,4\n", "(lines 1-3 of 3, end of file)"}},
		{"read window", "read_file", `{"path": "/data/data.csv", "offset": 2, "limit": 1}`, false, []string{"     2\t1,2\n(lines 2-2 of 3; call read_file with offset=3 for more)"}},
		{"read past end", "read_file", `{"path": "/data/data.csv", "offset": 9}`, true, []string{"has 3 lines"}},
		{"read bad offset", "read_file", `{"path": "/data/data.csv", "offset": -1}`, true, []string{"1-based"}},
		{"strict zero offset and limit", "read_file", `{"path": "/data/data.csv", "offset": 0, "limit": 0}`, false, []string{"(lines 1-3 of 3, end of file)"}},
		{"strict nulls", "read_file", `{"path": "/data/data.csv", "offset": null, "limit": null}`, false, []string{"(lines 1-3 of 3, end of file)"}},
		{"strict zero timeout", "execute_python", `{"code": "print(3)", "session_id": null, "timeout_s": 0}`, false, []string{"--- stdout ---\n3"}},
		{"unknown argument", "execute_python", `{"code": "print(1)", "timeout": 5}`, true, []string{`execute_python: unknown argument "timeout"`, "code, session_id, timeout_s"}},
		{"unknown arguments", "read_file", `{"path": "/data/data.csv", "lines": 5, "from": 1}`, true, []string{`unknown arguments "from", "lines"`}},
		{"read missing", "read_file", `{"path": "/data/none.csv"}`, true, []string{"/data/none.csv does not exist"}},
		{"read outside", "read_file", `{"path": "/etc/passwd"}`, true, []string{"/etc/passwd", "outside"}},
		{"read folder", "read_file", `{"path": "/data"}`, true, []string{"is a folder"}},
		{"read help", "read_file", `{"path": "/help/limits.md", "limit": 1}`, false, []string{"# What the sandbox refuses"}},

		{"write nested", "write_file", `{"path": "/tmp/a/b/notes.md", "content": "x\ny\n"}`, false, []string{"wrote /tmp/a/b/notes.md (4 bytes)"}},
		{"write read-only", "write_file", `{"path": "/data/new.csv", "content": "x"}`, true, []string{"/data/new.csv", "read-only"}},
		{"write outside", "write_file", `{"path": "/etc/x", "content": "x"}`, true, []string{"/etc/x", "outside writable mounts"}},
		{"write missing content", "write_file", `{"path": "/tmp/x"}`, true, []string{`"content" are required`}},

		{"help index", "help", `{}`, false, []string{"# pybox", "`files`"}},
		{"help packages", "help", `{"topic": "packages"}`, false, []string{"| numpy |", "| pillow |"}},
		{"help unknown", "help", `{"topic": "cooking"}`, true, []string{`no topic "cooking"`, "files"}},

		{"describe text", "describe", `{"path": "/data/data.csv"}`, false, []string{"is not an image", "3 lines"}},
		{"describe missing", "describe", `{"path": "/output/none.png"}`, true, []string{"does not exist"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := call(t, b, tc.tool, tc.args)
			text := r.Text()
			if r.IsError != tc.isError {
				t.Errorf("IsError = %v, want %v; text:\n%s", r.IsError, tc.isError, text)
			}
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("result lacks %q; text:\n%s", w, text)
				}
			}
		})
	}
}

func TestWrittenFileVisibleToCode(t *testing.T) {
	b, _ := newBox(t, nil)
	call(t, b, "write_file", `{"path": "/tmp/script.py", "content": "x = 21\nprint(x * 2)\n"}`)
	r := call(t, b, "execute_python", `{"code": "exec(open('/tmp/script.py').read())"}`)
	if !strings.Contains(r.Text(), "--- stdout ---\n42") {
		t.Fatalf("script written by write_file did not run:\n%s", r.Text())
	}
}

func TestSessionsKeepStateFreshRunsDoNot(t *testing.T) {
	b, _ := newBox(t, nil)
	r := call(t, b, "execute_python", `{"code": "counter = 41", "session_id": "s1"}`)
	if !strings.Contains(r.Text(), `session "s1" is new in this workspace`) {
		t.Errorf("a new session is not announced:\n%s", r.Text())
	}
	r = call(t, b, "execute_python", `{"code": "counter + 1", "session_id": "s1"}`)
	if strings.Contains(r.Text(), "is new in this workspace") {
		t.Errorf("a known session is announced as new:\n%s", r.Text())
	}
	if er := r.Structured.(*tools.ExecResult); er.Value != "42" || er.SessionID != "s1" {
		t.Fatalf("session lost its state: %+v", er)
	}
	r = call(t, b, "execute_python", `{"code": "counter", "session_id": "s2"}`)
	if !strings.Contains(r.Text(), "NameError") {
		t.Fatalf("session s2 sees s1's variable:\n%s", r.Text())
	}
	r = call(t, b, "execute_python", `{"code": "counter"}`)
	if !strings.Contains(r.Text(), "NameError") {
		t.Fatalf("fresh run sees a session's variable:\n%s", r.Text())
	}
	// An interrupted call keeps the session's state.
	r = call(t, b, "execute_python", `{"code": "while True: pass", "session_id": "s1", "timeout_s": 0.3}`)
	if er := r.Structured.(*tools.ExecResult); er.Status != "timeout" {
		t.Fatalf("status %q, want timeout", er.Status)
	}
	r = call(t, b, "execute_python", `{"code": "counter", "session_id": "s1"}`)
	if er := r.Structured.(*tools.ExecResult); er.Value != "41" {
		t.Fatalf("state lost after an interrupt: %+v", er)
	}
}

func TestImageArtifactAndDescribe(t *testing.T) {
	b, _ := newBox(t, nil)
	r := call(t, b, "execute_python", `{"code": "from PIL import Image, ImageDraw\nimg = Image.new('RGB', (120, 40), 'white')\nImageDraw.Draw(img).text((5, 10), '10.0.0.1', fill='black')\nimg.save('/output/ip.png')\nopen('/output/notes.txt', 'w').write('hello')"}`)
	if r.IsError {
		t.Fatalf("run failed:\n%s", r.Text())
	}
	imgs := r.Images()
	if len(imgs) != 1 || imgs[0].Path != "/output/ip.png" || imgs[0].MIME != "image/png" {
		t.Fatalf("want one PNG image content, got %+v\n%s", imgs, r.Text())
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(imgs[0].Data))
	if err != nil || cfg.Width != 120 || cfg.Height != 40 {
		t.Fatalf("image content is not the 120x40 PNG: %v %+v", err, cfg)
	}
	var sawFile bool
	for _, c := range r.Content {
		if c.Type == tools.ContentFile && c.Path == "/output/notes.txt" && c.Size == 5 {
			sawFile = true
		}
	}
	if !sawFile {
		t.Errorf("notes.txt not reported as a file content: %+v", r.Content)
	}
	if er := r.Structured.(*tools.ExecResult); len(er.Files) != 2 {
		t.Errorf("structured files = %+v, want 2", er.Files)
	}

	r = call(t, b, "describe", `{"path": "/output/ip.png", "question": "is the address readable?"}`)
	if r.IsError || len(r.Images()) != 1 || !strings.Contains(r.Text(), "120x40 pixels") || !strings.Contains(r.Text(), "is the address readable?") {
		t.Fatalf("describe: %s", r.Text())
	}
	// Only this run's files are reported by the next run.
	r = call(t, b, "execute_python", `{"code": "1"}`)
	if er := r.Structured.(*tools.ExecResult); len(er.Files) != 0 || len(r.Content) != 1 {
		t.Fatalf("second run reports earlier files: %+v", er.Files)
	}
}

func TestDescribeRefusesHugeImage(t *testing.T) {
	b, _ := newBox(t, func(c *tools.Config) { c.ImageLimit = 1000 })
	r := call(t, b, "execute_python", `{"code": "import os\nfrom PIL import Image\nImage.frombytes('RGB', (200, 200), os.urandom(120000)).save('/output/noise.png')"}`)
	if len(r.Images()) != 0 {
		t.Fatalf("image above ImageLimit was inlined")
	}
	r = call(t, b, "describe", `{"path": "/output/noise.png"}`)
	if !r.IsError || !strings.Contains(r.Text(), "too big to show") {
		t.Fatalf("describe of a huge image: %s", r.Text())
	}
}

func TestReadFileCutsLongLinesAndRefusesBinary(t *testing.T) {
	b, _ := newBox(t, nil)
	call(t, b, "execute_python", `{"code": "open('/tmp/long.txt', 'w').write('x' * 5000 + '\\nshort\\n')\nopen('/tmp/bin.dat', 'wb').write(bytes(range(256)))"}`)
	r := call(t, b, "read_file", `{"path": "/tmp/long.txt"}`)
	if !strings.Contains(r.Text(), "[line cut: 3000 more characters]") || !strings.Contains(r.Text(), "     2\tshort") {
		t.Fatalf("long line: %.300s", r.Text())
	}
	r = call(t, b, "read_file", `{"path": "/tmp/bin.dat"}`)
	if !r.IsError || !strings.Contains(r.Text(), "binary") {
		t.Fatalf("binary file: %s", r.Text())
	}
}

func TestCopyToSandbox(t *testing.T) {
	b, data := newBox(t, nil)
	// Paths are the guest's: from the read-only /data to the writable /tmp.
	r := call(t, b, "copy_to_sandbox", `{"source": "/data/data.csv", "destination": "/tmp/"}`)
	if r.IsError || !strings.Contains(r.Text(), "copied /data/data.csv to /tmp/data.csv") {
		t.Fatalf("copy: %s", r.Text())
	}
	// A folder, into a named destination.
	r = call(t, b, "copy_to_sandbox", `{"source": "/data", "destination": "/output/copy"}`)
	if r.IsError || !strings.Contains(r.Text(), "/output/copy") {
		t.Fatalf("folder copy: %s", r.Text())
	}
	r = call(t, b, "copy_to_sandbox", `{"source": "/tmp/data.csv", "destination": "/data/x.csv"}`)
	if !r.IsError || !strings.Contains(r.Text(), "/data/x.csv") || !strings.Contains(r.Text(), "read-only") {
		t.Fatalf("copy onto a read-only mount: %s", r.Text())
	}
	if strings.Contains(r.Text(), data) {
		t.Fatalf("a host path reached the model: %s", r.Text())
	}
	r = call(t, b, "execute_python", `{"code": "open('/tmp/data.csv').read().count('\\n')"}`)
	if er := r.Structured.(*tools.ExecResult); er.Value != "3" {
		t.Fatalf("copied file not readable: %s", r.Text())
	}
	secret := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(secret, []byte("s"), 0o600)
	r = call(t, b, "copy_to_sandbox", fmt.Sprintf(`{"source": %q, "destination": "/tmp/"}`, secret))
	if !r.IsError {
		t.Fatalf("copied a host file outside every mount: %s", r.Text())
	}
}

func TestOpenAISchemas(t *testing.T) {
	b, _ := newBox(t, nil)
	names := map[string]bool{}
	for _, tl := range b.Tools() {
		f := tl.OpenAI()
		out, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		var back struct {
			Type     string `json:"type"`
			Function struct {
				Name       string `json:"name"`
				Parameters struct {
					Type       string                     `json:"type"`
					Properties map[string]json.RawMessage `json:"properties"`
				} `json:"parameters"`
			} `json:"function"`
		}
		if err := json.Unmarshal(out, &back); err != nil || back.Type != "function" || back.Function.Parameters.Type != "object" {
			t.Errorf("%s: bad OpenAI function: %s (%v)", tl.Name, out, err)
		}
		names[back.Function.Name] = true
	}
	for _, want := range []string{"execute_python", "copy_to_sandbox", "ls", "read_file", "write_file", "describe", "help"} {
		if !names[want] {
			t.Errorf("tool %s missing", want)
		}
	}
}

// A refusal the code handled itself is not listed in the text the model
// reads (it would suggest a problem that is not there), but stays in the
// structured result.
func TestHandledDenialIsNotNoise(t *testing.T) {
	b, _ := newBox(t, nil)
	r := call(t, b, "execute_python", `{"code": "try:\n    open('/data/x', 'w')\nexcept OSError:\n    print('handled')"}`)
	if r.IsError || !strings.Contains(r.Text(), "handled") || strings.Contains(r.Text(), "refused by the sandbox") {
		t.Fatalf("text:\n%s", r.Text())
	}
	if er, ok := r.Structured.(*tools.ExecResult); !ok || len(er.Denials) != 1 || !strings.Contains(er.Denials[0], "/data/x") {
		t.Fatalf("structured denials: %+v", r.Structured)
	}
}

// An empty folder lists as an empty array in the structured result (JSON
// clients got "entries": null).
func TestLsEmptyFolderIsEmptyArray(t *testing.T) {
	b, _ := newBox(t, nil)
	r := call(t, b, "ls", `{"path": "/output"}`)
	data, err := json.Marshal(r.Structured)
	if err != nil || !strings.Contains(string(data), `"entries":[]`) {
		t.Fatalf("structured %s %v", data, err)
	}
}

// needBundled skips the test unless the engine's bundle lists every named
// package in its manifest (pandas and matplotlib are not in every bundle).
func needBundled(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		found := false
		for _, s := range engine.Bundle().Manifest.Sources {
			found = found || strings.EqualFold(s.Name, n)
		}
		if !found {
			t.Skipf("the runtime bundle's manifest lists no %s: nothing to test (set PYBOX_BUNDLE to a bundle with it)", n)
		}
	}
}

// A matplotlib chart comes back as image content without being saved; the
// operator can turn that off.
func TestFiguresComeBackAsImages(t *testing.T) {
	needBundled(t, "matplotlib")
	const code = `{"code": "import matplotlib.pyplot as plt\nplt.figure(figsize=(3, 2), dpi=40)\nplt.bar(['a', 'b'], [3, 5])\nplt.title('counts')\nprint('drawn')"}`
	// Importing pyplot and saving this figure took 15-37 s under -race on a
	// loaded machine while every C++ landing pad copied the wasm stack (wazero
	// fork patch 0006 removed that); it now takes ~3 s at load 10, within the
	// default limit.
	b, _ := newBox(t, nil)
	r := call(t, b, "execute_python", code)
	imgs := r.Images()
	if r.IsError || len(imgs) != 1 || imgs[0].Path != "/output/figure-1.png" || imgs[0].MIME != "image/png" {
		t.Fatalf("want the figure as image content: %+v\n%s", imgs, r.Text())
	}
	if _, err := png.Decode(bytes.NewReader(imgs[0].Data)); err != nil {
		t.Fatalf("figure-1.png: %v", err)
	}
	if !strings.Contains(r.Text(), "/output/figure-1.png (image/png") {
		t.Errorf("figure not listed among the files:\n%s", r.Text())
	}
	// The next call's figure gets the next name.
	r = call(t, b, "execute_python", code)
	if imgs := r.Images(); len(imgs) != 1 || imgs[0].Path != "/output/figure-2.png" {
		t.Fatalf("second figure: %+v\n%s", imgs, r.Text())
	}

	off, _ := newBox(t, func(c *tools.Config) { c.NoFigures = true })
	r = call(t, off, "execute_python", code)
	if er := r.Structured.(*tools.ExecResult); r.IsError || len(r.Images()) != 0 || len(er.Files) != 0 {
		t.Fatalf("NoFigures: images %d, files %+v\n%s", len(r.Images()), er.Files, r.Text())
	}
}

// A DataFrame as the final expression is a table in the result's value.
func TestDataFrameValueInResult(t *testing.T) {
	needBundled(t, "pandas")
	b, _ := newBox(t, nil)
	r := call(t, b, "execute_python", `{"code": "import pandas as pd\npd.read_csv('/data/data.csv')"}`)
	if want := "--- value ---\n   a  b\n0  1  2\n1  3  4\n\n[2 rows x 2 columns]"; r.IsError || !strings.Contains(r.Text(), want) {
		t.Fatalf("want %q in:\n%s", want, r.Text())
	}
}

// execute_python's description and the packages manual list what the
// bundle installs, read from it (a bundle with pandas or matplotlib lists
// them without code changes); the images manual leads with matplotlib when
// the bundle has it.
func TestPackagesListedFromBundle(t *testing.T) {
	b, _ := newBox(t, nil)
	var desc string
	for _, tl := range b.Tools() {
		if tl.Name == "execute_python" {
			desc = tl.Description
		}
	}
	for _, d := range tools.Definitions(tools.Config{Bundle: engine.Bundle()}) {
		if d.Name == "execute_python" && d.Description != desc {
			t.Errorf("Definitions' description differs from the Box's:\n%s\n%s", d.Description, desc)
		}
	}
	// The list a server uses before the bundle is unpacked (pybox mcp on an
	// empty cache folder) gives the same description.
	pkgs, err := packages.DefaultPackages()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range tools.Definitions(tools.Config{Packages: pkgs}) {
		if d.Name == "execute_python" && d.Description != desc {
			t.Errorf("Definitions' description from packages.DefaultPackages differs from the Box's:\n%s\n%s", d.Description, desc)
		}
	}
	for _, d := range tools.Definitions(tools.Config{}) {
		if d.Name == "execute_python" && !strings.Contains(d.Description, "standard library: numpy, Pillow (PIL) and the other packages the help tool lists;") {
			t.Errorf("Definitions without a bundle:\n%s", d.Description)
		}
	}
	manual := call(t, b, "help", `{"topic": "packages"}`).Text()
	has := map[string]bool{}
	for _, p := range packages.BundlePackages(engine.Bundle()) {
		if p.Source == "stdlib" {
			continue
		}
		has[p.Name] = true
		if !strings.Contains(desc, " "+p.Name) {
			t.Errorf("execute_python's description does not list %s:\n%s", p.Name, desc)
		}
		if !strings.Contains(manual, "| "+p.Name+" | "+p.Version+" |") {
			t.Errorf("the packages manual does not list %s %s:\n%s", p.Name, p.Version, manual)
		}
	}
	if !has["numpy"] || !strings.Contains(desc, "standard library: numpy, ") || !strings.Contains(desc, "pillow (PIL)") {
		t.Errorf("description:\n%s", desc)
	}
	if has["pandas"] != strings.Contains(desc, "standard library: numpy, pandas, ") {
		t.Errorf("pandas installed %v, description:\n%s", has["pandas"], desc)
	}
	images := call(t, b, "help", `{"topic": "images"}`).Text()
	if has["matplotlib"] {
		if !strings.HasPrefix(images, "# Charts with matplotlib") || strings.Contains(images, "matplotlib is not") || !strings.Contains(desc, "figure-N.png") {
			t.Errorf("matplotlib is installed; images manual:\n%s\ndescription:\n%s", images, desc)
		}
	} else if !strings.Contains(images, "Pillow (`PIL`) and numpy are installed. matplotlib is not.") || strings.Contains(desc, "figure-N.png") {
		// The sentence the matplotlib manual replaces.
		t.Errorf("images manual:\n%s\ndescription:\n%s", images, desc)
	}
}
