package fsbridge

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
	"syscall"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	wsys "github.com/tetratelabs/wazero/sys"
)

// sandboxFS is the guest's root filesystem: it routes every path to its
// mount and applies the policy. wazero hands it paths relative to "/",
// already cleaned (path.Clean) and checked not to start with "..", possibly
// with a trailing slash; a folder fd's paths arrive joined to the folder's
// own path. sandboxFS cleans and checks them again anyway.
type sandboxFS struct {
	experimentalsys.UnimplementedFS
	s *Sandbox
	r *runRec // the run whose refusals and writes this view records
}

var _ experimentalsys.FS = (*sandboxFS)(nil)

// resolve turns a path from wazero into the absolute guest path and its
// mount (nil if none). dirOnly is set for a trailing slash.
func (r *runRec) resolve(p string) (g string, dirOnly bool, m *mount, rel string, err error) {
	dirOnly = strings.HasSuffix(p, "/") && strings.Trim(p, "/") != ""
	if strings.ContainsRune(p, 0) {
		return "", false, nil, "", syscall.EINVAL
	}
	c := path.Clean(strings.TrimPrefix(p, "/"))
	if c == "" {
		c = "."
	}
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", false, nil, "", deny("access", p, "escapes the root folder", experimentalsys.EPERM, "EPERM")
	}
	g = guestAbs(c)
	m, rel = r.mountFor(g)
	r.noteRecent(g)
	return g, dirOnly, m, rel, nil
}

// noteRecent remembers g as the path of the latest operation (see
// Sandbox.Explain).
func (r *runRec) noteRecent(g string) {
	s := r
	s.recentMu.Lock()
	copy(s.recent[1:], s.recent[:len(s.recent)-1])
	s.recent[0] = g
	s.recentMu.Unlock()
}

// recentOp finds the operation a guest's question about p was about when
// p is not the path that operation used: a name relative to a folder
// descriptor (os.open(name, dir_fd=fd)) reaches the guest's exception bare,
// and the guest joins it to its working folder, while the operation was on
// the name below the descriptor's folder. It returns the newest recent
// path that ends with p's last element, unless p itself comes first.
func (r *runRec) recentOp(p string) (string, bool) {
	s := r
	base := path.Base(p)
	s.recentMu.Lock()
	defer s.recentMu.Unlock()
	for _, r := range s.recent {
		switch {
		case r == "":
			return "", false
		case r == p:
			return "", false
		case r != "/" && path.Base(r) == base:
			return r, true
		}
	}
	return "", false
}

// mountPointErr refuses removing, moving or replacing the folder a mount
// is attached to: it is where the operator put the mount, not the guest's
// to change (on the host it would remove or move the operator's folder).
func mountPointErr(op string, m *mount, from, to string) error {
	what := "removed"
	if op == "rename" {
		what = "moved, renamed or replaced"
	}
	reason := fmt.Sprintf("%s is a mount point and cannot be %s (change what is inside it instead)", m.guest, what)
	if to == "" {
		return deny(op, from, reason[len(m.guest)+1:], experimentalsys.EPERM, "EBUSY")
	}
	return deny2(op, from, to, "is not possible: "+reason, experimentalsys.EPERM, "EBUSY")
}

func (s *Sandbox) outside(op, g string) error {
	if op == "read" || op == "stat" {
		// Nothing exists outside the mounts, so looking there finds
		// nothing: ENOENT (FileNotFoundError), which code that probes for
		// optional files (config lookups, zoneinfo) expects, with the
		// reason in the message. It says the same whatever the host has.
		return deny(op, g, fmt.Sprintf("is outside readable mounts (%s): nothing exists there in the sandbox", strings.Join(s.guestPaths(nil), ", ")), experimentalsys.ENOENT, "ENOENT")
	}
	w := s.guestPaths(func(m *mount) bool { return m.writable() })
	return deny(op, g, fmt.Sprintf("is outside writable mounts (%s)", strings.Join(w, ", ")), experimentalsys.EACCES, "EACCES")
}

func readOnlyErr(op string, m *mount, g string) error {
	what := "a read-only mount"
	if m.kind == kindVirtual {
		what = "a read-only virtual mount"
	}
	return deny(op, g, fmt.Sprintf("is on %s (%s)", what, m.guest), experimentalsys.EROFS, "EROFS")
}

func (s *Sandbox) synthStat(g string) wsys.Stat_t {
	return wsys.Stat_t{Dev: hash64("dev:synthetic"), Ino: hash64("synthetic:" + g), Mode: fs.ModeDir | 0o555, Nlink: 2}
}

func (s *Sandbox) synthDir(g string) experimentalsys.File {
	return &dirFile{
		list: func() ([]experimentalsys.Dirent, error) {
			var out []experimentalsys.Dirent
			for _, n := range s.synth[g] {
				p := path.Join(g, n)
				if d, ok := devices[p]; ok {
					out = append(out, experimentalsys.Dirent{Name: n, Ino: d.stat.Ino, Type: d.stat.Mode.Type()})
					continue
				}
				out = append(out, experimentalsys.Dirent{Name: n, Ino: hash64("synthetic:" + p), Type: fs.ModeDir})
			}
			return out, nil
		},
		stat: func() (wsys.Stat_t, error) { return s.synthStat(g), nil },
	}
}

// quietProbes are files CPython looks for at startup next to its
// executable ("/"): their absence is normal, not a denial worth reporting.
var quietProbes = map[string]bool{"/pyvenv.cfg": true, "/pybuilddir.txt": true}

// OpenFile implements experimentalsys.FS.
func (f *sandboxFS) OpenFile(p string, flag experimentalsys.Oflag, perm fs.FileMode) (experimentalsys.File, experimentalsys.Errno) {
	s := f.r
	g, dirOnly, m, rel, err := s.resolve(p)
	if err != nil {
		return nil, s.fail(err)
	}
	if dirOnly {
		if flag&experimentalsys.O_CREAT != 0 {
			// As Linux: a name with a trailing slash names a folder,
			// which open cannot create (open('new/', 'w') made a file
			// named "new").
			return nil, experimentalsys.EISDIR
		}
		flag |= experimentalsys.O_DIRECTORY
	}
	write := isWriteOpen(flag)
	op := "read"
	if write {
		op = "write"
	}
	if m == nil {
		if d, ok := devices[g]; ok {
			if dirOnly {
				return nil, experimentalsys.ENOTDIR
			}
			release, err := s.acquireOpen(g)
			if err != nil {
				return nil, s.fail(err)
			}
			return &devFile{dev: d, release: release}, 0
		}
		if s.isSynth(g) {
			if write {
				return nil, experimentalsys.EISDIR
			}
			// Open folders count against the open-files limit like
			// everything else. wazero panics if its own (lazy) open of
			// the root fails with anything but ENOENT, so a refused open
			// of "/" says ENOENT; the denial still explains it.
			release, err := s.acquireOpen(g)
			if err != nil {
				errno := s.fail(err)
				if g == "/" {
					errno = experimentalsys.ENOENT
				}
				return nil, errno
			}
			d := s.synthDir(g).(*dirFile)
			d.release = release
			return d, 0
		}
		if !write && (quietProbes[g] || pseudoFile(g)) {
			return nil, experimentalsys.ENOENT
		}
		if absentDevice(g, flag) {
			return nil, experimentalsys.ENOENT
		}
		return nil, s.fail(s.outside(op, g))
	}
	if write && !m.writable() {
		return nil, s.fail(readOnlyErr(op, m, g))
	}
	// Marked before the open, which may create the file: a run listing its
	// artifacts meanwhile must never find the file without its writer's
	// mark (it would take the file for its own). A failed open leaves a
	// mark that names no file, which is harmless.
	if m.kind == kindOutput && write {
		f.r.markOutput(rel)
	}
	file, err := m.ops.open(rel, flag, perm)
	if err != nil {
		return nil, s.fail(err)
	}
	if rf, ok := file.(*regFile); ok {
		rf.r = f.r
	}
	return file, 0
}

func (f *sandboxFS) stat(p string, follow bool) (wsys.Stat_t, experimentalsys.Errno) {
	s := f.r
	g, dirOnly, m, rel, err := s.resolve(p)
	if err != nil {
		return wsys.Stat_t{}, s.fail(err)
	}
	if d, ok := devices[g]; ok && m == nil {
		if dirOnly {
			return wsys.Stat_t{}, experimentalsys.ENOTDIR
		}
		return d.stat, 0
	}
	if m == nil {
		if s.isSynth(g) {
			return s.synthStat(g), 0
		}
		// Not a denial: looking is harmless, and the import system and
		// os.path.exists look at many paths.
		return wsys.Stat_t{}, experimentalsys.ENOENT
	}
	st, err := m.ops.stat(rel, follow || dirOnly)
	if err != nil {
		return wsys.Stat_t{}, s.fail(err)
	}
	if dirOnly && !st.Mode.IsDir() {
		return wsys.Stat_t{}, experimentalsys.ENOTDIR
	}
	return st, 0
}

// Stat implements experimentalsys.FS.
func (f *sandboxFS) Stat(p string) (wsys.Stat_t, experimentalsys.Errno) { return f.stat(p, true) }

// Lstat implements experimentalsys.FS.
func (f *sandboxFS) Lstat(p string) (wsys.Stat_t, experimentalsys.Errno) { return f.stat(p, false) }

// Writable reports whether the guest may modify what is at guest path p:
// it is in a writable mount (a read-write, copy-on-write, /tmp or /output
// mount, or a writable virtual folder). It records nothing. The runtime asks
// it to answer os.access(p, os.W_OK) as Linux does on a read-only mount.
func (f *sandboxFS) Writable(p string) bool {
	_, _, m, _, err := f.r.resolve(p)
	return err == nil && m != nil && m.writable()
}

// writeTarget resolves a path for a modifying operation.
func (f *sandboxFS) writeTarget(op, p string) (*mount, string, experimentalsys.Errno) {
	s := f.r
	g, _, m, rel, err := s.resolve(p)
	if err != nil {
		return nil, "", s.fail(err)
	}
	if m == nil {
		if s.isSynth(g) {
			if op == "mkdir" {
				return nil, "", experimentalsys.EEXIST
			}
			return nil, "", s.fail(deny(op, g, "is a folder that holds mounts and cannot be changed", experimentalsys.EROFS, "EROFS"))
		}
		return nil, "", s.fail(s.outside(op, g))
	}
	if !m.writable() {
		return nil, "", s.fail(readOnlyErr(op, m, g))
	}
	return m, rel, 0
}

// Mkdir implements experimentalsys.FS.
func (f *sandboxFS) Mkdir(p string, perm fs.FileMode) experimentalsys.Errno {
	m, rel, errno := f.writeTarget("mkdir", p)
	if errno != 0 {
		return errno
	}
	return f.r.fail(m.ops.mkdir(rel, perm))
}

// Chmod implements experimentalsys.FS.
func (f *sandboxFS) Chmod(p string, perm fs.FileMode) experimentalsys.Errno {
	m, rel, errno := f.writeTarget("chmod", p)
	if errno != 0 {
		return errno
	}
	return f.r.fail(m.ops.chmod(rel, perm))
}

// Rmdir implements experimentalsys.FS.
func (f *sandboxFS) Rmdir(p string) experimentalsys.Errno {
	m, rel, errno := f.writeTarget("delete", p)
	if errno != 0 {
		return errno
	}
	if rel == "." {
		return f.r.fail(mountPointErr("delete", m, m.guest, ""))
	}
	return f.r.fail(m.ops.rmdir(rel))
}

// Unlink implements experimentalsys.FS.
func (f *sandboxFS) Unlink(p string) experimentalsys.Errno {
	m, rel, errno := f.writeTarget("delete", p)
	if errno != 0 {
		return errno
	}
	return f.r.fail(m.ops.unlink(rel))
}

// Utimens implements experimentalsys.FS.
func (f *sandboxFS) Utimens(p string, atim, mtim int64) experimentalsys.Errno {
	m, rel, errno := f.writeTarget("write", p)
	if errno != 0 {
		return errno
	}
	return f.r.fail(m.ops.utimens(rel, atim, mtim))
}

// twoPaths resolves the paths of a rename or link, which must be on one
// writable mount.
func (f *sandboxFS) twoPaths(op, from, to string) (*mount, string, string, experimentalsys.Errno) {
	s := f.r
	gf, _, mf, rf, err := s.resolve(from)
	if err != nil {
		return nil, "", "", s.fail(err)
	}
	gt, _, mt, rt, err := s.resolve(to)
	if err != nil {
		return nil, "", "", s.fail(err)
	}
	w := strings.Join(s.guestPaths(func(m *mount) bool { return m.writable() }), ", ")
	switch {
	case mf == nil && op == "rename":
		return nil, "", "", s.fail(deny2(op, gf, gt, fmt.Sprintf("is not possible: %s is outside writable mounts (%s)", gf, w), experimentalsys.EACCES, "EACCES"))
	case mf == nil:
		if _, ok := s.synth[gf]; !ok {
			return nil, "", "", s.fail(deny2(op, gf, gt, fmt.Sprintf("is not possible: %s is outside every mount", gf), experimentalsys.EACCES, "EACCES"))
		}
		return nil, "", "", experimentalsys.EPERM
	case mt == nil:
		return nil, "", "", s.fail(deny2(op, gf, gt, fmt.Sprintf("is not possible: %s is outside writable mounts (%s)", gt, w), experimentalsys.EACCES, "EACCES"))
	case op == "rename" && !mf.writable():
		return nil, "", "", s.fail(deny2(op, gf, gt, fmt.Sprintf("is not possible: %s is on a read-only mount (%s)", gf, mf.guest), experimentalsys.EROFS, "EROFS"))
	case !mt.writable():
		return nil, "", "", s.fail(deny2(op, gf, gt, fmt.Sprintf("is not possible: %s is on a read-only mount (%s)", gt, mt.guest), experimentalsys.EROFS, "EROFS"))
	case mf != mt:
		hint := "copy the file, then delete the original"
		if op == "link" {
			hint = "copy the file instead"
		}
		return nil, "", "", s.fail(deny2(op, gf, gt, fmt.Sprintf("crosses mounts (%s to %s); %s", mf.guest, mt.guest, hint), experimentalsys.EPERM, "EXDEV"))
	}
	return mf, rf, rt, 0
}

// Rename implements experimentalsys.FS.
func (f *sandboxFS) Rename(from, to string) experimentalsys.Errno {
	m, rf, rt, errno := f.twoPaths("rename", from, to)
	if errno != 0 {
		return errno
	}
	if rf == "." || rt == "." {
		return f.r.fail(mountPointErr("rename", m, m.gpath(rf), m.gpath(rt)))
	}
	if m.kind == kindOutput {
		f.r.markOutput(rt) // before the name appears (see OpenFile)
	}
	if err := m.ops.rename(rf, rt); err != nil {
		return f.r.fail(err)
	}
	return 0
}

// Link implements experimentalsys.FS (hard links).
func (f *sandboxFS) Link(oldPath, newPath string) experimentalsys.Errno {
	m, ro, rn, errno := f.twoPaths("link", oldPath, newPath)
	if errno != 0 {
		return errno
	}
	if m.kind == kindOutput {
		f.r.markOutput(rn) // a new name in /output is this run's (see OpenFile)
	}
	return f.r.fail(m.ops.link(ro, rn))
}

// Symlink implements experimentalsys.FS. oldPath is the link's text (the
// target) as the guest gave it; only linkName is a path to resolve.
func (f *sandboxFS) Symlink(oldPath, linkName string) experimentalsys.Errno {
	s := f.r
	g, _, m, rel, err := s.resolve(linkName)
	if err != nil {
		return s.fail(err)
	}
	if m == nil {
		w := strings.Join(s.guestPaths(func(m *mount) bool { return m.writable() }), ", ")
		return s.fail(deny2("symlink", g, oldPath, fmt.Sprintf("is not possible: %s is outside writable mounts (%s)", g, w), experimentalsys.EACCES, "EACCES"))
	}
	if !m.writable() {
		return s.fail(deny2("symlink", g, oldPath, fmt.Sprintf("is not possible: %s is on a read-only mount (%s)", g, m.guest), experimentalsys.EROFS, "EROFS"))
	}
	return s.fail(m.ops.symlink(oldPath, rel))
}

// Readlink implements experimentalsys.FS.
func (f *sandboxFS) Readlink(p string) (string, experimentalsys.Errno) {
	s := f.r
	g, _, m, rel, err := s.resolve(p)
	if err != nil {
		return "", s.fail(err)
	}
	if m == nil {
		if s.isSynth(g) {
			return "", experimentalsys.EINVAL
		}
		return "", experimentalsys.ENOENT
	}
	t, err := m.ops.readlink(rel)
	if err != nil {
		return "", s.fail(err)
	}
	return t, 0
}

// RecordDenial implements runtime.DenialRecorder: the runtime refuses
// writes into the Python installation (/usr/local) itself, and lists them
// with the Sandbox's own refusals (Denials). The runtime explains them
// itself: they are listed, not kept for Explain.
func (f *sandboxFS) RecordDenial(op, guestPath, message, errno string) {
	f.r.denials.record(Denial{Op: op, Path: guestPath, Message: message, Errno: errno,
		Reason: strings.TrimPrefix(message, op+" denied: "+guestPath+" ")}, false)
}

// Explain says why the most recent operation on guestPath was refused; see
// Sandbox.Explain. The runtime finds it on Request.FS by interface and uses
// it to put the reason into the guest's exception message.
func (f *sandboxFS) Explain(guestPath string) (string, bool) { return f.r.explain(guestPath) }

// ExplainUnnamed implements runtime.UnnamedExplainer.
func (f *sandboxFS) ExplainUnnamed() (string, bool) { return f.r.explainUnnamed() }

// pseudoFile reports whether g names a pseudo-file such as "<string>" or
// "<stdin>": CPython tries to open the "file" of code compiled from a string
// to show the line of a SyntaxError. Such a read is a quiet ENOENT, not a
// denial worth reporting.
func pseudoFile(g string) bool {
	base := path.Base(g)
	return len(base) > 2 && strings.HasPrefix(base, "<") && strings.HasSuffix(base, ">")
}
