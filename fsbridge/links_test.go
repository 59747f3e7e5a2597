package fsbridge_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/pybox-dev/pybox/fsbridge"
)

// treeList lists dir for failure messages: one line per entry, links with
// their text.
func treeList(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		line := rel + " " + d.Type().String()
		if d.Type()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			line += " -> " + target
		}
		lines = append(lines, line)
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\n"
}

// hostLinks walks dir on the host without following links and returns every
// symbolic link in it (path relative to dir -> link text).
func hostLinks(t *testing.T, dir string) map[string]string {
	t.Helper()
	links := map[string]string{}
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			links[filepath.ToSlash(rel)] = target
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk %s: %v", dir, err)
	}
	return links
}

// noLinkLeadsOut proves from the host side what a host program following
// links in dir would reach: it walks dir, and for every entry follows all
// links (os.Stat, filepath.EvalSymlinks); whatever resolves must be inside
// dir. Links listed in allowed (relative path -> text) are the operator's
// own and are skipped; any other link must be one of operatorLinks, at the
// same path with the same text (the guest adds, moves and copies none).
func noLinkLeadsOut(t *testing.T, dir string, operatorLinks, allowed map[string]string) {
	t.Helper()
	for _, p := range linkProblems(t, dir, operatorLinks, allowed) {
		t.Error(p)
	}
}

// linkProblems is noLinkLeadsOut's check, returning what it found wrong.
func linkProblems(t *testing.T, dir string, operatorLinks, allowed map[string]string) []string {
	t.Helper()
	var problems []string
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	for rel, text := range hostLinks(t, dir) {
		if want, ok := operatorLinks[rel]; !ok || want != text {
			problems = append(problems, fmt.Sprintf("host folder %s has a link the operator did not put there: %s -> %s\n%s", dir, rel, text, treeList(t, dir)))
		}
	}
	err = filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if _, ok := allowed[filepath.ToSlash(rel)]; ok {
			return nil
		}
		if _, err := os.Stat(p); err != nil {
			return nil // dangling: reaches nothing
		}
		r, err := filepath.EvalSymlinks(p)
		if err != nil {
			return nil
		}
		if r != real && !strings.HasPrefix(r, real+string(filepath.Separator)) {
			problems = append(problems, fmt.Sprintf("host path %s resolves outside %s, to %s", p, dir, r))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk %s: %v", dir, err)
	}
	return problems
}

// TestLinkProblemsDetects makes sure the host-side check can fail: a link
// out, a link through a link, and a link the operator did not place are
// each reported.
func TestLinkProblemsDetects(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "rw")
	write(t, filepath.Join(base, "secret.txt"), "s")
	write(t, filepath.Join(dir, "d", "f"), "f")
	must(t, os.Symlink("../secret.txt", filepath.Join(dir, "out")))
	must(t, os.Symlink("..", filepath.Join(dir, "d", "up")))
	must(t, os.Symlink("up/../secret.txt", filepath.Join(dir, "d", "via")))
	ops := map[string]string{"out": "../secret.txt", "d/up": ".."}
	got := strings.Join(linkProblems(t, dir, ops, nil), "\n")
	for _, want := range []string{"/rw/out resolves outside", "/rw/d/via resolves outside", "did not put there: d/via -> up/../secret.txt"} {
		if !strings.Contains(got, want) {
			t.Errorf("linkProblems missed %q; got:\n%s", want, got)
		}
	}
	if strings.Contains(got, "/d/f resolves") || strings.Contains(got, "/d/up resolves") {
		t.Errorf("linkProblems flagged a path inside:\n%s", got)
	}
}

// linkWorld is a fresh set of host folders for one case: rw (read-write at
// /rw), out (/output), cow (copy-on-write at /cow, changes in upper), and
// next to them secret.txt, which no host path under rw, out or upper may
// lead to.
type linkWorld struct {
	base, rw, out, cow, upper string
	// links are the operator's links (folder name "rw", "out", "cow" ->
	// relative path -> text), made by setup.
	links map[string]map[string]string
}

func newLinkWorld(t *testing.T, links map[string]map[string]string) *linkWorld {
	t.Helper()
	base := t.TempDir()
	w := &linkWorld{base: base, rw: filepath.Join(base, "rw"), out: filepath.Join(base, "out"),
		cow: filepath.Join(base, "cow"), upper: filepath.Join(base, "upper"), links: links}
	write(t, filepath.Join(base, "secret.txt"), "TOPSECRET\n")
	write(t, filepath.Join(w.rw, "a", "c", "f.txt"), "rw file\n")
	write(t, filepath.Join(w.rw, "a", "b", "g.txt"), "g\n")
	write(t, filepath.Join(w.cow, "a", "c", "f.txt"), "cow file\n")
	write(t, filepath.Join(w.cow, "a", "b", "g.txt"), "g\n")
	write(t, filepath.Join(w.cow, "f.txt"), "lower f\n")
	must(t, os.MkdirAll(w.out, 0o755))
	for dir, ls := range links {
		for rel, text := range ls {
			p := filepath.Join(base, dir, filepath.FromSlash(rel))
			must(t, os.MkdirAll(filepath.Dir(p), 0o755))
			must(t, os.Symlink(text, p))
		}
	}
	return w
}

func (w *linkWorld) policy() fsbridge.Policy {
	return fsbridge.Policy{
		Mounts: []fsbridge.Mount{
			fsbridge.ReadWriteMount(w.rw, "/rw"),
			fsbridge.CopyOnWriteMount(w.cow, "/cow", w.upper),
		},
		Output: w.out,
	}
}

// TestHostLinksNeverLeadOut is issue 17, item 1: every way a guest could
// leave a link in a host folder that leads out of it on the host. Each case
// runs on fresh host folders with a real interpreter; afterwards the host
// side is walked, following every link, and the copy-on-write lower folder
// and the file outside the mounts are unchanged.
func TestHostLinksNeverLeadOut(t *testing.T) {
	cases := []struct {
		name    string
		links   map[string]map[string]string // operator's links, made before the run
		allowed map[string]map[string]string // operator links that lead out on purpose
		code    string
		want    map[string]string
		denials [][]string
		check   func(t *testing.T, w *linkWorld, sb *fsbridge.Sandbox, stdout string)
	}{
		{
			// The first reproduction: a link made inside, then its
			// folder moved up so that the text leads out on the host.
			name: "issue repro: link, then rename its folder",
			code: `
t('makedirs', lambda: os.makedirs('/rw/p/a'))
t('symlink', lambda: os.symlink('../../secret.txt', '/rw/p/a/l'))
t('rename', lambda: os.rename('/rw/p/a', '/rw/pa'))
t('read', lambda: read('/rw/pa/l'))
`,
			want:    map[string]string{"makedirs": "OK", "symlink": "PermissionError EPERM", "rename": "OK", "read": "FileNotFoundError"},
			denials: [][]string{{"symlink denied: /rw/p/a/l -> ../../secret.txt is not possible: /rw is a host folder, and symbolic links cannot be created in host folders"}},
			check: func(t *testing.T, w *linkWorld, _ *fsbridge.Sandbox, stdout string) {
				if b, err := os.ReadFile(filepath.Join(w.rw, "pa", "l")); err == nil {
					t.Errorf("host rw/pa/l reads %q", b)
				}
				if !strings.Contains(stdout, "[Errno 63] symlink denied: /rw/p/a/l -> ../../secret.txt is not possible") {
					t.Errorf("the exception does not explain the refused link:\n%s", stdout)
				}
				if strings.Contains(stdout, "outside every mount") {
					t.Errorf("the exception explains the target against the cwd:\n%s", stdout)
				}
			},
		},
		{
			// The second reproduction: links through links.
			name: "issue repro: link through a link",
			code: `
d = '/rw/q/' + '/'.join('d%d' % i for i in range(30))
t('makedirs', lambda: os.makedirs(d))
t('up', lambda: os.symlink('/'.join(['..'] * 30), d + '/up'))
t('passwd', lambda: os.symlink('../' * 32 + 'etc/passwd', d + '/up/passwd'))
t('read', lambda: read('/rw/q/passwd'))
`,
			want: map[string]string{"makedirs": "OK", "up": "PermissionError EPERM", "passwd": "PermissionError EPERM", "read": "FileNotFoundError"},
			check: func(t *testing.T, w *linkWorld, _ *fsbridge.Sandbox, _ string) {
				if _, err := os.Lstat(filepath.Join(w.rw, "q", "passwd")); err == nil {
					t.Errorf("host rw/q/passwd exists")
				}
			},
		},
		{
			// An operator's link that is safe where it is (../c is rw/a/c)
			// would lead out once moved up: it, and every folder holding
			// it, cannot be moved. Deleting it is fine, and then the folder
			// moves.
			name:  "rename of an operator's link or its folders",
			links: map[string]map[string]string{"rw": {"a/b/l": "../c", "a/b/deep/x/l2": "../../../c/f.txt"}},
			code: `
t('read', lambda: os.listdir('/rw/a/b/l'))
t('linkup', lambda: os.rename('/rw/a/b/l', '/rw/l'))
t('samedir', lambda: os.rename('/rw/a/b/l', '/rw/a/b/l2'))
t('dirup', lambda: os.rename('/rw/a/b', '/rw/b'))
t('top', lambda: os.rename('/rw/a', '/rw/z'))
t('deepdir', lambda: os.rename('/rw/a/b/deep', '/rw/deep'))
t('shutil', lambda: shutil.move('/rw/a/b', '/rw/b'))
t('copytree', lambda: shutil.copytree('/rw/a', '/rw/copy', symlinks=True))
t('hard', lambda: os.link('/rw/a/b/l', '/rw/hl'))
t('nolink', lambda: os.rename('/rw/a/c', '/rw/c2'))
t('back', lambda: os.rename('/rw/c2', '/rw/a/c'))
t('unlink', lambda: os.unlink('/rw/a/b/l'))
t('unlink2', lambda: os.unlink('/rw/a/b/deep/x/l2'))
t('nowmoves', lambda: os.rename('/rw/a/b', '/rw/b2'))
`,
			want: map[string]string{
				"read": "OK ['f.txt']", "linkup": "PermissionError EPERM", "samedir": "PermissionError EPERM",
				"dirup": "PermissionError EPERM", "top": "PermissionError EPERM", "deepdir": "PermissionError EPERM",
				"shutil": "Error", "copytree": "Error", "hard": "PermissionError EPERM",
				"nolink": "OK", "back": "OK", "unlink": "OK", "unlink2": "OK", "nowmoves": "OK",
			},
			denials: [][]string{
				{"rename denied: /rw/a/b/l -> /rw/l is not possible: /rw/a/b/l is a symbolic link, and symbolic links in host folders cannot be moved"},
				{"rename denied: /rw/a/b -> /rw/b is not possible: /rw/a/b contains a symbolic link (/rw/a/b/"},
				{"rename denied: /rw/a/b/deep -> /rw/deep is not possible: /rw/a/b/deep contains a symbolic link (/rw/a/b/deep/x/l2)"},
				{"link denied: /rw/a/b/l -> /rw/hl is not possible: /rw/a/b/l is a symbolic link, and symbolic links in host folders cannot be copied"},
			},
		},
		{
			// Copy-on-write: no link in the upper folder, a lower link is
			// copied up as the file it points to, folders holding a link
			// do not move, no hard links.
			name:  "copy-on-write",
			links: map[string]map[string]string{"cow": {"lf": "f.txt", "a/b/l": "../c"}},
			code: `
t('symlink', lambda: os.symlink('f.txt', '/cow/l'))
t('symlinkup', lambda: os.symlink('../secret.txt', '/cow/a/l'))
t('dir', lambda: os.rename('/cow/a', '/cow/a2'))
t('linkmv', lambda: os.rename('/cow/lf', '/cow/lf2'))
t('hard', lambda: os.link('/cow/f.txt', '/cow/h'))
t('hardlink', lambda: os.link('/cow/lf', '/cow/h'))
t('write', lambda: put('/cow/lf', 'through\n', 'a'))
t('readlf', lambda: read('/cow/lf'))
t('readf', lambda: read('/cow/f.txt'))
t('islink', lambda: os.path.islink('/cow/lf'))
t('nolink', lambda: os.rename('/cow/a/c', '/cow/c2'))
`,
			want: map[string]string{
				"symlink": "PermissionError EPERM", "symlinkup": "PermissionError EPERM",
				"dir": "PermissionError EPERM", "linkmv": "PermissionError EPERM",
				"hard": "PermissionError EPERM", "hardlink": "PermissionError EPERM",
				"write": "OK", "readlf": "OK 'lower f\\nthrough\\n'", "readf": "OK 'lower f\\n'",
				"islink": "OK False", "nolink": "OK",
			},
			denials: [][]string{
				{"symlink denied: /cow/l -> f.txt is not possible: /cow is a host folder"},
				{"rename denied: /cow/a -> /cow/a2 is not possible: /cow/a contains a symbolic link (/cow/a/b/l)"},
				{"rename denied: /cow/lf -> /cow/lf2 is not possible: /cow/lf is a symbolic link"},
				{"link denied: /cow/f.txt -> /cow/h is not possible in a copy-on-write mount (/cow)"},
			},
			check: func(t *testing.T, w *linkWorld, _ *fsbridge.Sandbox, _ string) {
				fi, err := os.Lstat(filepath.Join(w.upper, "lf"))
				if err != nil || !fi.Mode().IsRegular() {
					t.Errorf("upper/lf = %v, %v; want the regular file copied up", fi, err)
				}
			},
		},
		{
			// /output: no guest link; a link a host program put there is
			// neither listed as an artifact nor read.
			name: "output",
			links: map[string]map[string]string{"out": {
				"leak": "../secret.txt", "inlink": "real.txt", "dirlink": "sub", "sub/up": "..",
			}},
			allowed: map[string]map[string]string{"out": {"leak": "../secret.txt"}},
			code: `
t('symlink', lambda: os.symlink('../secret.txt', '/output/l'))
t('real', lambda: put('/output/real.txt', 'real\n'))
t('sub', lambda: put('/output/sub/x.txt', 'x\n'))
t('leak', lambda: read('/output/leak'))
t('touchleak', lambda: put('/output/leak', 'x'))
`,
			want: map[string]string{
				"symlink": "PermissionError EPERM", "real": "OK", "sub": "OK",
				"leak": "PermissionError EACCES", "touchleak": "PermissionError EACCES",
			},
			check: func(t *testing.T, w *linkWorld, sb *fsbridge.Sandbox, _ string) {
				arts, err := sb.Artifacts()
				if err != nil {
					t.Fatal(err)
				}
				var paths []string
				for _, a := range arts {
					paths = append(paths, a.Path)
				}
				if got := strings.Join(paths, " "); got != "/output/real.txt /output/sub/x.txt" {
					t.Errorf("artifacts = %s; want only the two real files", got)
				}
				if b, err := sb.ReadArtifact("/output/real.txt"); err != nil || string(b) != "real\n" {
					t.Errorf("ReadArtifact(real.txt) = %q, %v", b, err)
				}
				for _, p := range []string{"/output/leak", "/output/inlink", "/output/dirlink/x.txt", "/output/sub/up/real.txt", "/output/dirlink"} {
					b, err := sb.ReadArtifact(p)
					if err == nil {
						t.Errorf("ReadArtifact(%s) followed a link: %q", p, b)
						continue
					}
					var d *fsbridge.Denial
					if p != "/output/dirlink" && !errors.As(err, &d) {
						t.Errorf("ReadArtifact(%s) = %v; want a denial", p, err)
					}
				}
			},
		},
		{
			// Hard links name nothing outside the mount, never a symbolic
			// link, never a copy-on-write host file.
			name:    "hard links",
			links:   map[string]map[string]string{"rw": {"sl": "a/c/f.txt"}, "out": {"osl": "../rw"}},
			allowed: map[string]map[string]string{"out": {"osl": "../rw"}},
			code: `
t('outside', lambda: os.link('/rw/../secret.txt', '/rw/h1'))
t('etc', lambda: os.link('/etc/passwd', '/rw/h2'))
t('cross', lambda: os.link('/cow/f.txt', '/rw/h3'))
t('tocow', lambda: os.link('/rw/a/c/f.txt', '/cow/h4'))
t('symlink', lambda: os.link('/rw/sl', '/rw/h5'))
t('outlink', lambda: os.link('/output/osl', '/output/h6'))
t('through', lambda: os.link('/output/osl/a/c/f.txt', '/output/h7'))
t('inside', lambda: os.link('/rw/a/c/f.txt', '/rw/h8'))
t('insideread', lambda: read('/rw/h8'))
`,
			want: map[string]string{
				"outside": "PermissionError", "etc": "PermissionError EACCES", "cross": "PermissionError EPERM",
				"tocow": "PermissionError EPERM", "symlink": "PermissionError EPERM", "outlink": "PermissionError EPERM",
				"through": "PermissionError EACCES", "inside": "OK", "insideread": "OK 'rw file\\n'",
			},
			check: func(t *testing.T, w *linkWorld, _ *fsbridge.Sandbox, _ string) {
				// Nothing in rw, out or upper shares an inode with a file
				// outside them.
				outside := map[uint64]string{}
				for _, p := range []string{filepath.Join(w.base, "secret.txt"), filepath.Join(w.cow, "f.txt"), filepath.Join(w.cow, "a", "c", "f.txt")} {
					fi, err := os.Stat(p)
					must(t, err)
					outside[fi.Sys().(*syscall.Stat_t).Ino] = p
				}
				for _, dir := range []string{w.rw, w.out, w.upper} {
					filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
						if err == nil && fi.Mode().IsRegular() {
							if o, ok := outside[fi.Sys().(*syscall.Stat_t).Ino]; ok {
								t.Errorf("%s is a hard link of %s", p, o)
							}
						}
						return nil
					})
				}
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newLinkWorld(t, c.links)
			frozen := map[string]string{w.cow: treeSum(t, w.cow), "secret": treeSum(t, filepath.Join(w.base, "secret.txt"))}
			sb := newSandbox(t, w.policy())
			res := py(t, sb, prelude+c.code)
			if res.Status != "ok" {
				t.Fatalf("status %s: %s\n%s\n%s", res.Status, res.Message, res.Stdout, res.Stderr)
			}
			checkLines(t, string(res.Stdout), c.want)
			ds := sb.Denials()
			for _, parts := range c.denials {
				hasDenial(t, ds, parts...)
			}
			if c.check != nil {
				c.check(t, w, sb, string(res.Stdout))
			}
			if treeSum(t, w.cow) != frozen[w.cow] {
				t.Errorf("copy-on-write host folder changed")
			}
			if treeSum(t, filepath.Join(w.base, "secret.txt")) != frozen["secret"] {
				t.Errorf("secret.txt changed")
			}
			for name, dir := range map[string]string{"rw": w.rw, "out": w.out, "upper": w.upper} {
				noLinkLeadsOut(t, dir, c.links[name], c.allowed[name])
			}
			if t.Failed() {
				t.Logf("stdout:\n%s", res.Stdout)
			}
		})
	}
}

// TestCopyToSandboxCopiesNoLink: copying a folder with links (to a file, to
// a folder, a cycle) into host folders creates no link: a link to a file
// becomes the file's content, links to folders are skipped (the cycle
// ends), and nothing under the destinations leads out.
func TestCopyToSandboxCopiesNoLink(t *testing.T) {
	w := newLinkWorld(t, map[string]map[string]string{"rw": {
		"a/c/lf": "f.txt", "a/c/loop": "..", "a/c/self": ".", "a/c/dl": "../b",
	}})
	sb := newSandbox(t, w.policy())
	for _, dst := range []string{"/output/copy", "/cow/copy", "/tmp/copy"} {
		got, err := sb.CopyToSandbox(filepath.Join(w.rw, "a", "c"), dst)
		if err != nil || got != dst {
			t.Fatalf("CopyToSandbox to %s = %q, %v", dst, got, err)
		}
	}
	out := pyOK(t, sb, `
import os
for d in ('/output/copy', '/cow/copy', '/tmp/copy'):
    print(sorted(os.listdir(d)), os.path.islink(d + '/lf'), open(d + '/lf').read().strip())
`)
	want := strings.Repeat("['f.txt', 'lf'] False rw file\n", 3)
	if out != want {
		t.Errorf("guest sees\n%s\nwant\n%s", out, want)
	}
	for name, dir := range map[string]string{"out": w.out, "upper": w.upper} {
		if ls := hostLinks(t, dir); len(ls) != 0 {
			t.Errorf("%s has links after the copy: %v", name, ls)
		}
	}
	noLinkLeadsOut(t, w.rw, w.links["rw"], nil)
}

// CopyInSandbox copies between guest paths with the guest's own checks: a
// folder with an in-mount link to a file (copied as content) and one to a
// folder (skipped), never into itself, never onto a read-only mount, and
// the host folders behind the source stay as they were.
func TestCopyInSandbox(t *testing.T) {
	w := newWorld(t)
	sb := newSandbox(t, w.policy())
	if err := sb.BeginRun(context.Background()); err != nil {
		t.Fatal(err)
	}
	g, err := sb.CopyInSandbox("/data", "/output/")
	if err != nil || g != "/output/data" {
		t.Fatalf("copy /data: %q %v", g, err)
	}
	for name, want := range map[string]string{"a.csv": "x,y\n1,2\n3,4\n", "sub/b.txt": "bee\n", "in_link": "x,y\n1,2\n3,4\n"} {
		p := filepath.Join(w.out, "data", filepath.FromSlash(name))
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() {
			t.Errorf("%s: %v %v (want a regular file)", name, fi, err)
			continue
		}
		if b, _ := os.ReadFile(p); string(b) != want {
			t.Errorf("%s = %q", name, b)
		}
	}
	for _, name := range []string{"abs_out", "rel_out", "dir_out"} {
		if _, err := os.Lstat(filepath.Join(w.out, "data", name)); err == nil {
			t.Errorf("%s, a link leading out of the mount, was copied", name)
		}
	}
	if _, err := sb.CopyInSandbox("/output/data", "/output/data/sub/"); err == nil || !strings.Contains(err.Error(), "into itself") {
		t.Errorf("copy into itself: %v", err)
	}
	if _, err := sb.CopyInSandbox("/output/data/a.csv", "/data/new.csv"); err == nil || !strings.Contains(err.Error(), "/data/new.csv") {
		t.Errorf("copy onto a read-only mount: %v", err)
	}
	if _, err := sb.CopyInSandbox("/etc/passwd", "/tmp/"); err == nil || !strings.Contains(err.Error(), "/etc/passwd") {
		t.Errorf("copy from outside the mounts: %v", err)
	}
}
