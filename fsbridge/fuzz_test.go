package fsbridge_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

	"github.com/pybox-dev/pybox/fsbridge"
)

// FuzzPathsNeverEscape throws arbitrary guest paths at the sandbox's
// filesystem: opening for reading, stat, and opening for writing. Whatever
// the path, nothing outside the mounts may be read (a secret next to the
// mounted folder, reachable by "..", an absolute host path or a host
// symlink), and nothing may be written on the read-only or copy-on-write
// host folders. The seed corpus runs in every `go test`.
func FuzzPathsNeverEscape(f *testing.F) {
	for _, seed := range []string{
		"data/a.txt", "/data/a.txt", "data/../secret.txt", "/data/../../secret.txt",
		"data/link", "data/link/x", "data/dirlink/secret.txt", "cow/b.txt", "cow/../secret.txt",
		"work/new.txt", "../secret.txt", "/", ".", "", "data//a.txt", "data/./a.txt",
		"data/a.txt/..", "tmp/x", "output/y", "dev/null", "network/x", "\x00", "data/\xff",
		strings.Repeat("../", 40) + "secret.txt", "data/" + strings.Repeat("a/", 300),
	} {
		f.Add(seed)
	}
	base := f.TempDir()
	must := func(err error) {
		if err != nil {
			f.Fatal(err)
		}
	}
	for _, d := range []string{"data", "cow", "work"} {
		must(os.Mkdir(filepath.Join(base, d), 0o755))
	}
	must(os.WriteFile(filepath.Join(base, "secret.txt"), []byte("SECRET"), 0o644))
	must(os.WriteFile(filepath.Join(base, "data", "a.txt"), []byte("inside"), 0o644))
	must(os.WriteFile(filepath.Join(base, "cow", "b.txt"), []byte("lower"), 0o644))
	must(os.Symlink("../secret.txt", filepath.Join(base, "data", "link")))
	must(os.Symlink(base, filepath.Join(base, "data", "dirlink")))
	sb, err := fsbridge.New(fsbridge.Policy{
		Mounts: []fsbridge.Mount{
			fsbridge.ReadOnlyMount(filepath.Join(base, "data"), "/data"),
			fsbridge.CopyOnWriteMount(filepath.Join(base, "cow"), "/cow", filepath.Join(base, "upper")),
			fsbridge.ReadWriteMount(filepath.Join(base, "work"), "/work"),
		},
		TempDir: base,
	})
	must(err)
	f.Cleanup(func() { sb.Close() })
	fsys := sb.FS()

	f.Fuzz(func(t *testing.T, p string) {
		// Guest paths arrive without the leading slash.
		p = strings.TrimPrefix(p, "/")
		if file, errno := fsys.OpenFile(p, experimentalsys.O_RDONLY, 0); errno == 0 {
			buf := make([]byte, 64)
			n, _ := file.Read(buf)
			file.Close()
			if strings.Contains(string(buf[:n]), "SECRET") {
				t.Fatalf("read %q escaped the mounts", p)
			}
		}
		if st, errno := fsys.Stat(p); errno == 0 && st.Size == int64(len("SECRET")) && st.Mode&fs.ModeType == 0 {
			if file, e := fsys.OpenFile(p, experimentalsys.O_RDONLY, 0); e == 0 {
				buf := make([]byte, 16)
				n, _ := file.Read(buf)
				file.Close()
				if string(buf[:n]) == "SECRET" {
					t.Fatalf("stat+open %q reached the secret", p)
				}
			}
		}
		if file, errno := fsys.OpenFile(p, experimentalsys.O_WRONLY|experimentalsys.O_CREAT|experimentalsys.O_TRUNC, 0o644); errno == 0 {
			file.Write([]byte("fuzz"))
			file.Close()
		}
		// The read-only and copy-on-write host folders are unchanged.
		if b, err := os.ReadFile(filepath.Join(base, "data", "a.txt")); err != nil || string(b) != "inside" {
			t.Fatalf("after %q: read-only host file changed: %q %v", p, b, err)
		}
		if b, err := os.ReadFile(filepath.Join(base, "cow", "b.txt")); err != nil || string(b) != "lower" {
			t.Fatalf("after %q: copy-on-write lower file changed: %q %v", p, b, err)
		}
		if b, err := os.ReadFile(filepath.Join(base, "secret.txt")); err != nil || string(b) != "SECRET" {
			t.Fatalf("after %q: file outside the mounts changed: %q %v", p, b, err)
		}
		ents, _ := os.ReadDir(filepath.Join(base, "data"))
		if len(ents) != 3 {
			t.Fatalf("after %q: read-only host folder has %d entries", p, len(ents))
		}
	})
}

// linkFuzzPaths are the guest paths FuzzLinkOps picks from: folders and
// names in the read-write mount, /output and a copy-on-write mount, the
// operator's links, and some that are not allowed at all.
var linkFuzzPaths = []string{
	"rw", "rw/a", "rw/a/b", "rw/a/b/l", "rw/a/c", "rw/a/c/f.txt", "rw/x", "rw/x/y", "rw/x/y/z", "rw/l",
	"out", "out/x", "out/x/y", "out/l", "cow", "cow/a", "cow/a/l", "cow/x", "cow/x/y", "cow/f.txt",
	"tmp/x", "rw/../secret.txt", "etc/passwd", "rw/x/y/z/w",
}

// linkFuzzTargets are link texts FuzzLinkOps tries.
var linkFuzzTargets = []string{
	"..", "../..", "../../..", "../secret.txt", "../../secret.txt", "/etc/passwd", "f.txt", "a/b",
	"l/../..", strings.Repeat("../", 12) + "etc/passwd", ".", "x/y/../../..",
}

// FuzzLinkOps drives sequences of guest operations that make, move and
// remove links and folders (mkdir, symlink, rename, link, unlink, rmdir,
// create) through the sandbox's filesystem against real host folders that
// hold links the operator placed, then checks from the host side, following
// every link, that nothing under the read-write folder, /output's folder or
// the copy-on-write upper folder leads outside it, that every link there is
// one of the operator's at its place with its text, and that the
// copy-on-write lower folder and the file outside are untouched. Each op is
// three bytes: operation, first path, second path or link text. The seed
// corpus (the reproductions among them) runs in every `go test`.
func FuzzLinkOps(f *testing.F) {
	op := func(code, a, b int) []byte { return []byte{byte(code), byte(a), byte(b)} }
	seq := func(ops ...[]byte) []byte {
		var out []byte
		for _, o := range ops {
			out = append(out, o...)
		}
		return out
	}
	const (
		opMkdir = iota
		opSymlink
		opRename
		opLink
		opUnlink
		opRmdir
		opCreate
		nOps
	)
	idx := func(p string) int {
		for i, q := range linkFuzzPaths {
			if q == p {
				return i
			}
		}
		panic(p)
	}
	f.Add(seq(
		// Issue repro 1: link inside, then move its folder up.
		op(opMkdir, idx("rw/x"), 0), op(opMkdir, idx("rw/x/y"), 0),
		op(opSymlink, idx("rw/x/y/z"), 4), op(opRename, idx("rw/x/y"), idx("rw/l")),
	))
	f.Add(seq(
		// Link through a link.
		op(opMkdir, idx("rw/x"), 0), op(opSymlink, idx("rw/x/y"), 0),
		op(opSymlink, idx("rw/x/y/z"), 9),
	))
	f.Add(seq(
		// The operator's link and its folders, moved.
		op(opRename, idx("rw/a/b/l"), idx("rw/l")), op(opRename, idx("rw/a/b"), idx("rw/x")),
		op(opRename, idx("rw/a"), idx("rw/x")), op(opLink, idx("rw/a/b/l"), idx("rw/l")),
		op(opRename, idx("cow/a"), idx("cow/x")), op(opRename, idx("cow/a/l"), idx("cow/x")),
	))
	f.Add(seq(
		op(opMkdir, idx("out/x"), 0), op(opSymlink, idx("out/x/y"), 3), op(opRename, idx("out/x"), idx("out/l")),
		op(opLink, idx("rw/../secret.txt"), idx("rw/l")), op(opLink, idx("cow/f.txt"), idx("cow/x")),
		op(opCreate, idx("cow/a/l"), 0), op(opSymlink, idx("cow/x"), 0),
	))
	f.Add(seq(
		op(opUnlink, idx("rw/a/b/l"), 0), op(opRename, idx("rw/a/b"), idx("rw/l")),
		op(opMkdir, idx("rw/x"), 0), op(opRename, idx("rw/a"), idx("rw/x/y")),
	))
	f.Add([]byte{})

	f.Fuzz(func(t *testing.T, prog []byte) {
		if len(prog) > 3*64 {
			prog = prog[:3*64]
		}
		base := t.TempDir()
		rw, out, cow, upper := filepath.Join(base, "rw"), filepath.Join(base, "out"), filepath.Join(base, "cow"), filepath.Join(base, "upper")
		write(t, filepath.Join(base, "secret.txt"), "SECRET")
		write(t, filepath.Join(rw, "a", "c", "f.txt"), "f")
		write(t, filepath.Join(cow, "f.txt"), "lower")
		must(t, os.MkdirAll(filepath.Join(rw, "a", "b"), 0o755))
		must(t, os.MkdirAll(filepath.Join(cow, "a"), 0o755))
		must(t, os.MkdirAll(out, 0o755))
		// The operator's links, which stay inside where they are.
		must(t, os.Symlink("../c", filepath.Join(rw, "a", "b", "l")))
		must(t, os.Symlink("../f.txt", filepath.Join(cow, "a", "l")))
		cowSum, secretSum := treeSum(t, cow), treeSum(t, filepath.Join(base, "secret.txt"))
		sb, err := fsbridge.New(fsbridge.Policy{
			Mounts: []fsbridge.Mount{
				fsbridge.ReadWriteMount(rw, "/rw"),
				fsbridge.CopyOnWriteMount(cow, "/cow", upper),
			},
			Output: out,
		})
		must(t, err)
		defer sb.Close()
		fsys := sb.FS()
		for i := 0; i+2 < len(prog); i += 3 {
			a := linkFuzzPaths[int(prog[i+1])%len(linkFuzzPaths)]
			b := linkFuzzPaths[int(prog[i+2])%len(linkFuzzPaths)]
			switch int(prog[i]) % nOps {
			case opMkdir:
				fsys.Mkdir(a, 0o755)
			case opSymlink:
				fsys.Symlink(linkFuzzTargets[int(prog[i+2])%len(linkFuzzTargets)], a)
			case opRename:
				fsys.Rename(a, b)
			case opLink:
				fsys.Link(a, b)
			case opUnlink:
				fsys.Unlink(a)
			case opRmdir:
				fsys.Rmdir(a)
			case opCreate:
				if file, errno := fsys.OpenFile(a, experimentalsys.O_WRONLY|experimentalsys.O_CREAT, 0o644); errno == 0 {
					file.Write([]byte("w"))
					file.Close()
				}
			}
		}
		ops := map[string]map[string]string{"rw": {"a/b/l": "../c"}}
		for name, dir := range map[string]string{"rw": rw, "out": out, "upper": upper} {
			if _, err := os.Stat(dir); err != nil {
				continue
			}
			for _, p := range linkProblems(t, dir, ops[name], nil) {
				t.Errorf("after %v: %s", prog, p)
			}
		}
		if treeSum(t, cow) != cowSum {
			t.Errorf("after %v: the copy-on-write host folder changed", prog)
		}
		if treeSum(t, filepath.Join(base, "secret.txt")) != secretSum {
			t.Errorf("after %v: the file outside the mounts changed", prog)
		}
	})
}
