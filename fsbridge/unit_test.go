package fsbridge_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

	"github.com/pybox-dev/pybox/fsbridge"
)

func TestParseMountSpec(t *testing.T) {
	tests := []struct {
		spec    string
		want    fsbridge.Mount
		wantErr string
	}{
		{spec: "/srv/data:/data:ro", want: fsbridge.Mount{Host: "/srv/data", Guest: "/data", Mode: fsbridge.ReadOnly}},
		{spec: "/srv/data:/data", want: fsbridge.Mount{Host: "/srv/data", Guest: "/data", Mode: fsbridge.ReadOnly}},
		{spec: "./work:/work:rw", want: fsbridge.Mount{Host: "./work", Guest: "/work", Mode: fsbridge.ReadWrite}},
		{spec: "/p:/src:cow", want: fsbridge.Mount{Host: "/p", Guest: "/src", Mode: fsbridge.CopyOnWrite}},
		{spec: "/p:/src:cow=/var/up", want: fsbridge.Mount{Host: "/p", Guest: "/src", Mode: fsbridge.CopyOnWrite, Upper: "/var/up"}},
		{spec: "/p:/src:COW", want: fsbridge.Mount{Host: "/p", Guest: "/src", Mode: fsbridge.CopyOnWrite}},
		{spec: "/p", wantErr: "missing GUEST"},
		{spec: "/p:src:ro", wantErr: "absolute"},
		{spec: "/p:/src:wx", wantErr: "unknown mount mode"},
		{spec: ":/src:ro", wantErr: "empty HOST"},
		{spec: "/p:/src:rw=/up", wantErr: "only cow"},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			got, err := fsbridge.ParseMountSpec(tt.spec)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tt.want)
			}
			if again, err := fsbridge.ParseMountSpec(got.String()); err != nil || again != got {
				t.Errorf("String round trip: %q -> %+v, %v", got.String(), again, err)
			}
		})
	}
}

func TestPolicyValidate(t *testing.T) {
	base := t.TempDir()
	dir := func(name string) string {
		p := filepath.Join(base, name)
		must(t, os.MkdirAll(p, 0o755))
		return p
	}
	a, b, nested := dir("a"), dir("b"), dir("a/inner")
	file := filepath.Join(base, "file")
	write(t, file, "x")
	fetch := fsbridge.FetcherFunc(nil)
	tests := []struct {
		name    string
		p       fsbridge.Policy
		wantErr string
	}{
		{name: "zero", p: fsbridge.Policy{}},
		{name: "ok", p: fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadOnlyMount(a, "/a"), fsbridge.ReadWriteMount(b, "/b")}}},
		{name: "relative guest", p: fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadOnlyMount(a, "a")}}, wantErr: "must be absolute"},
		{name: "root", p: fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadOnlyMount(a, "/")}}, wantErr: "cannot be a mount"},
		{name: "bundle", p: fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadOnlyMount(a, "/usr/local/x")}}, wantErr: "reserved for the runtime bundle"},
		{name: "twice", p: fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadOnlyMount(a, "/a"), fsbridge.ReadOnlyMount(b, "/a/")}}, wantErr: "mounted twice"},
		{name: "nested guest", p: fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadOnlyMount(a, "/a"), fsbridge.ReadOnlyMount(b, "/a/b")}}, wantErr: "nested"},
		{name: "output clash", p: fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadOnlyMount(a, "/output")}}, wantErr: "twice"},
		{name: "tmp clash", p: fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadOnlyMount(a, "/tmp/x")}}, wantErr: "nested"},
		{name: "missing host", p: fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadOnlyMount(filepath.Join(base, "nope"), "/a")}}, wantErr: "no such file"},
		{name: "host is a file", p: fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadOnlyMount(file, "/a")}}, wantErr: "not a folder"},
		{name: "rw over ro", p: fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadOnlyMount(nested, "/in"), fsbridge.ReadWriteMount(a, "/a")}}, wantErr: "overlaps"},
		{name: "ro over rw", p: fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadOnlyMount(a, "/a"), fsbridge.ReadWriteMount(nested, "/in")}}, wantErr: "overlaps"},
		{name: "upper in lower", p: fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.CopyOnWriteMount(a, "/a", nested)}}, wantErr: "overlaps"},
		{name: "output in ro", p: fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadOnlyMount(a, "/a")}, Output: nested}, wantErr: "overlaps"},
		{name: "two ro may overlap", p: fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadOnlyMount(a, "/a"), fsbridge.ReadOnlyMount(nested, "/in")}}},
		{name: "virtual without fetcher", p: fsbridge.Policy{Virtual: []fsbridge.VirtualMount{{Guest: "/net"}}}, wantErr: "no Fetcher"},
		{name: "writable virtual needs Put", p: fsbridge.Policy{Virtual: []fsbridge.VirtualMount{{Guest: "/net", Fetcher: fetch, Writable: true}}}, wantErr: "Putter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.p.Validate()
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Validate = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

func TestHTTPFetcherURL(t *testing.T) {
	h := &fsbridge.HTTPFetcher{Routes: map[string]string{
		"current-ip":        "http://h/ip",
		"files/{path}":      "http://h/f/{path}?raw=1",
		"files/deep/{path}": "http://h/deep/{path}",
		"whois/{ip}":        "http://h/whois?ip={ip}",
		"geo/{ip}/{field}":  "http://h/geo/{ip}?f={field}",
		"geo/{ip}/city":     "http://h/city/{ip}",
		"q/{path}":          "http://h/search?q={path}",
	}}
	tests := []struct {
		name, want string
		ok         bool
	}{
		{"current-ip", "http://h/ip", true},
		{"current-ip/x", "", false},
		{"other", "", false},
		{"files/a.txt", "http://h/f/a.txt?raw=1", true},
		{"files/a b/c?d#e", "http://h/f/a%20b/c%3Fd%23e?raw=1", true},
		{"files/deep/x", "http://h/deep/x", true},
		{"files/", "", false},
		{"files/a/../b", "", false},
		{"files//a", "", false},
		{"whois/1.2.3.4", "http://h/whois?ip=1.2.3.4", true},
		{"whois/a&key=x#y", "http://h/whois?ip=a%26key%3Dx%23y", true}, // one query value: no parameter or fragment added
		{"whois/1.2.3.4/x", "", false},
		{"whois", "", false},
		{"whois/..", "", false},
		{"geo/9.9.9.9/asn", "http://h/geo/9.9.9.9?f=asn", true},
		{"geo/9.9.9.9/city", "http://h/city/9.9.9.9", true}, // more literal text wins
		{"q/a b/c&d", "http://h/search?q=a+b%2Fc%26d", true},
	}
	for _, tt := range tests {
		got, ok := h.URL(tt.name)
		if got != tt.want || ok != tt.ok {
			t.Errorf("URL(%q) = %q, %v; want %q, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

// Route mistakes are refused when the configuration is read, not left as
// routes that never match.
func TestCheckRoute(t *testing.T) {
	tests := []struct{ key, url, wantErr string }{
		{"current-ip", "http://h/ip", ""},
		{"whois/{ip}", "http://h/w?ip={ip}", ""},
		{"files/{path}", "http://h/{path}", ""},
		{"whois/{ip}", "http://h/w?ip={addr}", "uses {addr}, which the name does not define"},
		{"whois/x{ip}", "http://h/w", "must be a whole segment"},
		{"files/{path}/raw", "http://h/{path}", "must be the last segment"},
		{"a/{x}/{x}", "http://h/{x}", "used twice"},
		{"/abs", "http://h/", "relative path"},
	}
	for _, tc := range tests {
		err := fsbridge.CheckRoute(tc.key, tc.url)
		if (tc.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("CheckRoute(%q, %q) = %v, want %q", tc.key, tc.url, err, tc.wantErr)
		}
	}
	c, err := fsbridge.ParseConfig([]byte("[sandbox]\n[[sandbox.fetch]]\nguest = \"/network\"\n[sandbox.fetch.routes]\n\"whois/{ip}\" = \"http://h/?q={addr}\"\n"))
	if err == nil {
		_, err = c.Policy(t.TempDir())
	}
	if err == nil || !strings.Contains(err.Error(), "{addr}") {
		t.Errorf("ParseConfig with a bad route: %v", err)
	}
}

func TestDetectMIME(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	tests := []struct {
		name string
		head []byte
		want string
	}{
		{"ip.txt", []byte("1.2.3.4\n"), "text/plain; charset=utf-8"},
		{"chart.png", png, "image/png"},
		{"chart.txt", png, "image/png"},
		{"noext", png, "image/png"},
		{"data.csv", []byte("a,b\n"), "text/csv; charset=utf-8"},
		{"x.JSON", []byte("{}"), "application/json"},
		{"blob", []byte{0, 1, 2, 3}, "application/octet-stream"},
		{"page", []byte("<html><body>"), "text/html; charset=utf-8"},
		{"r.pdf", []byte("%PDF-1.7"), "application/pdf"},
	}
	for _, tt := range tests {
		if got := fsbridge.DetectMIME(tt.name, tt.head); got != tt.want {
			t.Errorf("DetectMIME(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestParseByteSize(t *testing.T) {
	tests := map[string]int64{"10": 10, "1KiB": 1024, "1 MiB": 1 << 20, "2GiB": 2 << 30, "5MB": 5e6, "3k": 3072}
	for in, want := range tests {
		if got, err := fsbridge.ParseByteSize(in); err != nil || got != want {
			t.Errorf("ParseByteSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "MiB", "1XB", "-"} {
		if _, err := fsbridge.ParseByteSize(bad); err == nil {
			t.Errorf("ParseByteSize(%q) succeeded", bad)
		}
	}
}

func TestLoadConfig(t *testing.T) {
	p, err := fsbridge.LoadConfig("testdata/sandbox.toml")
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs("testdata")
	want := []fsbridge.Mount{
		{Host: filepath.Join(abs, "host/data"), Guest: "/data", Mode: fsbridge.ReadOnly},
		{Host: filepath.Join(abs, "host/work"), Guest: "/work", Mode: fsbridge.ReadWrite},
		{Host: "/srv/project", Guest: "/src", Mode: fsbridge.CopyOnWrite, Upper: "/var/pybox/upper"},
		{Host: filepath.Join(abs, "host/more"), Guest: "/more", Mode: fsbridge.CopyOnWrite},
	}
	if len(p.Mounts) != len(want) {
		t.Fatalf("mounts = %+v", p.Mounts)
	}
	for i := range want {
		if p.Mounts[i] != want[i] {
			t.Errorf("mount %d = %+v, want %+v", i, p.Mounts[i], want[i])
		}
	}
	if p.Output != filepath.Join(abs, "host/out") {
		t.Errorf("output = %q", p.Output)
	}
	wantLimits := fsbridge.Limits{WriteBytes: 1 << 30, Files: 500, FileSize: 10 << 20, OpenFiles: 64}
	if p.Limits != wantLimits {
		t.Errorf("limits = %+v, want %+v", p.Limits, wantLimits)
	}
	if len(p.Virtual) != 1 || p.Virtual[0].Guest != "/network" {
		t.Fatalf("virtual = %+v", p.Virtual)
	}
	h := p.Virtual[0].Fetcher.(*fsbridge.HTTPFetcher)
	if u, ok := h.URL("current-ip"); !ok || u != "http://127.0.0.1:8080/ip" {
		t.Errorf("route = %q %v", u, ok)
	}
	if h.Timeout.String() != "5s" || h.MaxBytes != 10<<20 || h.Header.Get("Authorization") != "Bearer host-only" {
		t.Errorf("fetcher = %+v", h)
	}

	for _, bad := range []struct{ doc, want string }{
		{"[sandbox]\nmounts = [\"/a\"]", "missing GUEST"},
		{"[sandbox]\nmountz = []", "unknown key"},
		{"[sandbox.limits]\nfile_size = \"lots\"", "bad size"},
		{"[[sandbox.mount]]\nhost = \"/a\"\nguest = \"/a\"\nmode = \"rwx\"", "unknown mount mode"},
		{"[[sandbox.fetch]]\nguest = \"/n\"", "routes is empty"},
	} {
		c, err := fsbridge.ParseConfig([]byte(bad.doc))
		if err == nil {
			_, err = c.Policy("")
		}
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: err = %v, want %q", bad.doc, err, bad.want)
		}
	}
	// Other sections belong to other packages.
	if _, err := fsbridge.ParseConfig([]byte("[agent]\nmodel = \"x\"\n[sandbox]\noutput = \"o\"")); err != nil {
		t.Errorf("other sections: %v", err)
	}
}

// fsWorld is a sandbox used through its sys.FS directly, without the
// interpreter.
func fsWorld(t *testing.T) (*world, *fsbridge.Sandbox, experimentalsys.FS) {
	w := newWorld(t)
	sb := newSandbox(t, w.policy())
	return w, sb, sb.FS()
}

func TestFSErrnos(t *testing.T) {
	_, sb, fsys := fsWorld(t)
	const (
		rd = experimentalsys.O_RDONLY
		wr = experimentalsys.O_WRONLY | experimentalsys.O_CREAT | experimentalsys.O_TRUNC
	)
	open := func(p string, fl experimentalsys.Oflag) experimentalsys.Errno {
		f, errno := fsys.OpenFile(p, fl, 0o644)
		if errno == 0 {
			f.Close()
		}
		return errno
	}
	tests := []struct {
		name   string
		errno  experimentalsys.Errno
		denial string // prefix of the recorded message; empty: none
		do     func() experimentalsys.Errno
	}{
		{"read outside", experimentalsys.ENOENT, "read denied: /etc/passwd is outside readable mounts (/data, /work, /src, /output, /tmp): nothing exists there in the sandbox", func() experimentalsys.Errno { return open("etc/passwd", rd) }},
		{"write outside", experimentalsys.EACCES, "write denied: /etc/hosts is outside writable mounts (/work, /src, /output, /tmp)", func() experimentalsys.Errno { return open("etc/hosts", wr) }},
		{"stat outside is quiet", experimentalsys.ENOENT, "", func() experimentalsys.Errno { _, e := fsys.Stat("etc/passwd"); return e }},
		{"escape", experimentalsys.EPERM, "access denied: ../etc escapes the root folder", func() experimentalsys.Errno { return open("../etc", rd) }},
		{"write ro", experimentalsys.EROFS, "write denied: /data/a.csv is on a read-only mount (/data)", func() experimentalsys.Errno { return open("data/a.csv", wr) }},
		{"unlink ro", experimentalsys.EROFS, "delete denied: /data/a.csv", func() experimentalsys.Errno { return fsys.Unlink("data/a.csv") }},
		{"mkdir root", experimentalsys.EEXIST, "", func() experimentalsys.Errno { return fsys.Mkdir(".", 0o755) }},
		{"mkdir synthetic", experimentalsys.EEXIST, "", func() experimentalsys.Errno { return fsys.Mkdir("usr", 0o755) }},
		{"rmdir synthetic", experimentalsys.EROFS, "delete denied: /usr is a folder that holds mounts", func() experimentalsys.Errno { return fsys.Rmdir("usr") }},
		{"rename across", experimentalsys.EPERM, "rename denied: /work/notes.txt -> /output/n crosses mounts", func() experimentalsys.Errno { return fsys.Rename("work/notes.txt", "output/n") }},
		{"rename out", experimentalsys.EACCES, "rename denied: /work/notes.txt -> /n", func() experimentalsys.Errno { return fsys.Rename("work/notes.txt", "n") }},
		{"symlink out", experimentalsys.EPERM, "symlink denied: /work/l -> ../data/a.csv is not possible: /work is a host folder, and symbolic links cannot be created in host folders", func() experimentalsys.Errno { return fsys.Symlink("../data/a.csv", "work/l") }},
		{"symlink in", experimentalsys.EPERM, "symlink denied: /work/l2 -> notes.txt is not possible: /work is a host folder", func() experimentalsys.Errno { return fsys.Symlink("notes.txt", "work/l2") }},
		{"symlink output", experimentalsys.EPERM, "symlink denied: /output/l -> x is not possible: /output is a host folder", func() experimentalsys.Errno { return fsys.Symlink("x", "output/l") }},
		{"symlink cow", experimentalsys.EPERM, "symlink denied: /src/l -> main.py is not possible: /src is a host folder", func() experimentalsys.Errno { return fsys.Symlink("main.py", "src/l") }},
		{"symlink ro", experimentalsys.EROFS, "symlink denied: /data/l -> a.csv is not possible: /data/l is on a read-only mount (/data)", func() experimentalsys.Errno { return fsys.Symlink("a.csv", "data/l") }},
		{"link across", experimentalsys.EPERM, "link denied: /data/a.csv -> /work/h crosses mounts", func() experimentalsys.Errno { return fsys.Link("data/a.csv", "work/h") }},
		{"host link out", experimentalsys.EACCES, "read denied: /data/rel_out leads outside its mount", func() experimentalsys.Errno { return open("data/rel_out", rd) }},
		{"host link dir out", experimentalsys.EACCES, "read denied: /data/dir_out/secret.txt leads outside", func() experimentalsys.Errno { return open("data/dir_out/secret.txt", rd) }},
		{"nofollow", experimentalsys.ELOOP, "", func() experimentalsys.Errno { return open("data/in_link", rd|experimentalsys.O_NOFOLLOW) }},
		{"trailing slash on file", experimentalsys.ENOTDIR, "", func() experimentalsys.Errno { return open("data/a.csv/", rd) }},
		{"write dir", experimentalsys.EISDIR, "", func() experimentalsys.Errno { return open("work", experimentalsys.O_WRONLY) }},
		{"unlink dir", experimentalsys.EISDIR, "", func() experimentalsys.Errno { return fsys.Unlink("src/pkg") }},
		{"rmdir non-empty cow", experimentalsys.ENOTEMPTY, "", func() experimentalsys.Errno { return fsys.Rmdir("src/pkg") }},
		{"cow meta hidden", experimentalsys.ENOENT, "", func() experimentalsys.Errno { return open("src/.pybox-cow.json", rd) }},
		{"cow meta write", experimentalsys.EACCES, "write denied: /src/.pybox-cow.json is reserved", func() experimentalsys.Errno { return open("src/.pybox-cow.json", wr) }},
		{"tmp symlink", experimentalsys.ENOTSUP, "symlink denied: /tmp/l -> x", func() experimentalsys.Errno { return fsys.Symlink("x", "tmp/l") }},
		{"tmp no parent", experimentalsys.ENOENT, "", func() experimentalsys.Errno { return open("tmp/no/such", wr) }},
		{"tmp rmdir non-empty", experimentalsys.ENOTEMPTY, "", func() experimentalsys.Errno {
			fsys.Mkdir("tmp/d", 0o755)
			open("tmp/d/f", wr)
			return fsys.Rmdir("tmp/d")
		}},
		{"tmp excl", experimentalsys.EEXIST, "", func() experimentalsys.Errno { return open("tmp/d/f", wr|experimentalsys.O_EXCL) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := sb.BeginRun(nil); err != nil {
				t.Fatal(err)
			}
			if errno := tt.do(); errno != tt.errno {
				t.Errorf("errno = %v, want %v", errno, tt.errno)
			}
			ds := sb.Denials()
			switch {
			case tt.denial == "" && len(ds) > 0:
				t.Errorf("unexpected denial %q", ds[0].Message)
			case tt.denial != "" && (len(ds) != 1 || !strings.HasPrefix(ds[0].Message, tt.denial)):
				t.Errorf("denials = %+v, want one starting %q", ds, tt.denial)
			}
		})
	}
}

func TestExplainConsumes(t *testing.T) {
	_, sb, fsys := fsWorld(t)
	fsys.Unlink("data/a.csv")
	msg, ok := sb.Explain("/data/a.csv")
	if !ok || msg != "delete denied: /data/a.csv is on a read-only mount (/data)" {
		t.Fatalf("Explain = %q, %v", msg, ok)
	}
	if msg, ok := sb.Explain("/data/a.csv"); ok {
		t.Errorf("second Explain = %q: not consumed", msg)
	}
	// A later denial for the same path replaces an earlier one.
	fsys.Unlink("data/a.csv")
	fsys.OpenFile("data/a.csv", experimentalsys.O_WRONLY, 0)
	if msg, _ := sb.Explain("data/a.csv"); !strings.HasPrefix(msg, "write denied") {
		t.Errorf("Explain = %q, want the latest (write)", msg)
	}
	// Ordinary errors have no explanation.
	fsys.Stat("data/nope")
	if msg, ok := sb.Explain("/data/nope"); ok {
		t.Errorf("Explain(missing file) = %q", msg)
	}
	// Paths outside every mount always have one.
	if msg, ok := sb.Explain("/data/../../etc/passwd"); !ok || !strings.Contains(msg, "/etc/passwd is outside every mount") {
		t.Errorf("Explain(escape) = %q, %v", msg, ok)
	}
	// Both paths of a rename explain it.
	fsys.Rename("work/notes.txt", "output/n")
	if msg, ok := sb.Explain("/output/n"); !ok || !strings.Contains(msg, "crosses mounts") {
		t.Errorf("Explain(rename target) = %q, %v", msg, ok)
	}
	if _, ok := sb.Explain("/work/notes.txt"); ok {
		t.Errorf("rename denial explained twice")
	}
	// Denials() keeps everything Explain consumed.
	if n := len(sb.Denials()); n != 4 {
		t.Errorf("len(Denials) = %d, want 4", n)
	}
}

func TestCopyToSandbox(t *testing.T) {
	w := newWorld(t)
	sb := newSandbox(t, w.policy())
	var d *fsbridge.Denial
	tests := []struct {
		name, src, dst, want, wantErr string
	}{
		{name: "file into work", src: filepath.Join(w.data, "a.csv"), dst: "/work/a.csv", want: "/work/a.csv"},
		{name: "file into folder", src: filepath.Join(w.data, "a.csv"), dst: "/output/", want: "/output/a.csv"},
		{name: "file into existing folder", src: filepath.Join(w.data, "sub", "b.txt"), dst: "/work", want: "/work/b.txt"},
		{name: "folder", src: filepath.Join(w.src, "pkg"), dst: "/tmp/pkg", want: "/tmp/pkg"},
		{name: "into cow", src: filepath.Join(w.data, "a.csv"), dst: "/src/a.csv", want: "/src/a.csv"},
		{name: "outside policy", src: filepath.Join(w.secret, "secret.txt"), dst: "/work/s.txt", wantErr: "copy denied: " + filepath.Join(w.secret, "secret.txt") + " is not inside a host folder mounted in the sandbox (mounted at /data, /work, /src, /output)"},
		{name: "via link out", src: filepath.Join(w.data, "abs_out"), dst: "/work/s.txt", wantErr: "copy denied: /data/abs_out leads outside its mount (/data) through a symbolic link"},
		{name: "to read-only", src: filepath.Join(w.data, "a.csv"), dst: "/data/copy.csv", wantErr: "write denied: /data/copy.csv is on a read-only mount (/data)"},
		{name: "to outside", src: filepath.Join(w.data, "a.csv"), dst: "/etc/a.csv", wantErr: "write denied: /etc/a.csv is outside writable mounts"},
		{name: "missing", src: filepath.Join(w.data, "nope"), dst: "/work/", wantErr: "copy failed: /data/nope: no such file or directory"},
		{name: "folder with link out", src: w.data, dst: "/work/data", wantErr: "leads outside its mount (/data)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := sb.CopyToSandbox(tt.src, tt.dst)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	if _, err := sb.CopyToSandbox(filepath.Join(w.secret, "secret.txt"), "/work/"); !errors.As(err, &d) || d.Op != "copy" {
		t.Errorf("refusal is %T %v, want a *Denial", err, err)
	}
	out := pyOK(t, sb, `
print(open('/work/a.csv').read() == open('/data/a.csv').read())
print(open('/tmp/pkg/mod.py').read().strip())
print(open('/output/a.csv').read()[:3])
`)
	if out != "True\nX = 1\nx,y\n" {
		t.Errorf("guest sees %q", out)
	}
	if _, err := os.Stat(filepath.Join(w.src, "a.csv")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("copy into the cow mount reached the host: %v", err)
	}
}

func TestCopyOnWritePersists(t *testing.T) {
	w := newWorld(t)
	sb := newSandbox(t, w.policy())
	pyOK(t, sb, `
import os
os.remove('/src/keep.txt')
open('/src/main.py', 'a').write('# changed\n')
`)
	sb.Close()
	// A new sandbox on the same upper folder sees the same view.
	sb2 := newSandbox(t, w.policy())
	out := pyOK(t, sb2, `
import os
print(sorted(os.listdir('/src')))
print(open('/src/main.py').read().count('changed'))
`)
	if out != "['main.py', 'pkg']\n1\n" {
		t.Errorf("second sandbox sees %q", out)
	}
	if b, _ := os.ReadFile(filepath.Join(w.src, "main.py")); strings.Contains(string(b), "changed") {
		t.Errorf("host file changed")
	}
}

// TestHammer uses one sandbox's FS from many goroutines at once (run with
// -race): the policy state (limits, denials, whiteouts) is shared.
func TestHammer(t *testing.T) {
	_, sb, fsys := fsWorld(t)
	sb.BeginRun(nil)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				name := filepath.ToSlash(filepath.Join("tmp", "g", string(rune('a'+g))))
				fsys.Mkdir("tmp/g", 0o755)
				if f, errno := fsys.OpenFile(name, experimentalsys.O_WRONLY|experimentalsys.O_CREAT|experimentalsys.O_APPEND, 0o644); errno == 0 {
					f.Write([]byte("x"))
					f.Close()
				}
				fsys.OpenFile("etc/passwd", experimentalsys.O_RDONLY, 0)
				if f, errno := fsys.OpenFile("src/main.py", experimentalsys.O_RDWR, 0); errno == 0 {
					f.Pwrite([]byte("#"), 0)
					f.Close()
				}
				fsys.Unlink("src/keep.txt")
				fsys.Stat("src/keep.txt")
				if f, errno := fsys.OpenFile("src", experimentalsys.O_RDONLY, 0); errno == 0 {
					f.Readdir(-1)
					f.Close()
				}
				sb.Explain("/etc/passwd")
				sb.Denials()
			}
		}(g)
	}
	wg.Wait()
	st, errno := fsys.Stat("tmp/g/a")
	if errno != 0 || st.Size != 50 {
		t.Errorf("tmp/g/a: size %d, errno %v; want 50", st.Size, errno)
	}
}

// TestReadPastEndIsEOF: reading at or past the end of a file is 0 bytes, not
// an error, on every kind of writable mount (the in-memory /tmp used to say
// EIO: Pillow probes formats by reading at offset 2048 of small files).
func TestReadPastEndIsEOF(t *testing.T) {
	sb, err := fsbridge.New(fsbridge.Policy{TempDir: t.TempDir(),
		Mounts: []fsbridge.Mount{fsbridge.ReadWriteMount(t.TempDir(), "/work")}})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	for _, p := range []string{"/tmp/a", "/output/a", "/work/a"} {
		f, errno := sb.FS().OpenFile(p, experimentalsys.O_RDWR|experimentalsys.O_CREAT, 0o644)
		if errno != 0 {
			t.Fatalf("%s: create: %v", p, errno)
		}
		if _, errno := f.Write([]byte("abc")); errno != 0 {
			t.Fatalf("%s: write: %v", p, errno)
		}
		buf := make([]byte, 8)
		for _, off := range []int64{3, 100, 4096} {
			if n, errno := f.Pread(buf, off); n != 0 || errno != 0 {
				t.Errorf("%s: pread at %d = %d, %v; want 0, no error", p, off, n, errno)
			}
		}
		if _, errno := f.Seek(100, 0); errno != 0 {
			t.Fatalf("%s: seek: %v", p, errno)
		}
		if n, errno := f.Read(buf); n != 0 || errno != 0 {
			t.Errorf("%s: read past end = %d, %v; want 0, no error", p, n, errno)
		}
		f.Close()
	}
}
