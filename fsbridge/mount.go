package fsbridge

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
	"time"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	wsys "github.com/tetratelabs/wazero/sys"
)

// mountOps is what every kind of mount implements. Names are clean and
// relative to the mount ("." is the mount itself); the router has already
// checked the mount allows the kind of operation (writes on a writable
// mount only) and that paths of a two-path operation are on the same mount.
type mountOps interface {
	open(rel string, oflag experimentalsys.Oflag, perm fs.FileMode) (experimentalsys.File, error)
	stat(rel string, follow bool) (wsys.Stat_t, error)
	mkdir(rel string, perm fs.FileMode) error
	chmod(rel string, perm fs.FileMode) error
	rename(from, to string) error
	rmdir(rel string) error
	unlink(rel string) error
	link(from, to string) error
	symlink(target, link string) error
	readlink(rel string) (string, error)
	utimens(rel string, atim, mtim int64) error
	// list lists a folder of the guest's view (for Artifacts and tests).
	list(rel string) ([]experimentalsys.Dirent, error)
	close() error
}

// mount is one guest mount point.
type mount struct {
	s     *Sandbox
	kind  mountKind
	guest string // absolute guest path, e.g. "/data"
	host  string // real host folder (ro, rw, output; cow: the lower one)
	// hostAsGiven is the host folder as the policy wrote it, made
	// absolute but with its links left alone (CopyToSandbox accepts
	// paths under either form).
	hostAsGiven string
	// writableVirtual: a virtual mount the operator opened for uploads.
	writableVirtual bool
	ops             mountOps
}

func (m *mount) writable() bool {
	if m.kind == kindVirtual {
		return m.writableVirtual
	}
	return m.kind.writable()
}

// gpath is the guest path of rel.
func (m *mount) gpath(rel string) string {
	if rel == "." || rel == "" {
		return m.guest
	}
	return m.guest + "/" + rel
}

// hostErr turns backend errors that are policy matters into denials: a
// path that leads out of the mount through a symbolic link, and special
// files.
func (m *mount) hostErr(op, rel string, err error) error {
	if err == nil {
		return nil
	}
	var de *denyErr
	if errors.As(err, &de) {
		return err
	}
	switch {
	case isEscape(err):
		return deny(op, m.gpath(rel),
			fmt.Sprintf("leads outside its mount (%s) through a symbolic link (the sandbox follows links only inside their mount)", m.guest),
			experimentalsys.EACCES, "EACCES")
	case errors.Is(err, errSpecial):
		return deny(op, m.gpath(rel), "is not a regular file or folder (devices, pipes and sockets are not available)",
			experimentalsys.EACCES, "EACCES")
	}
	return err
}

// osFlags converts wazero open flags for a backend. O_APPEND is left out:
// regFile emulates it.
func osFlags(oflag experimentalsys.Oflag) int {
	var flag int
	switch oflag & (experimentalsys.O_RDONLY | experimentalsys.O_RDWR | experimentalsys.O_WRONLY) {
	case experimentalsys.O_RDWR:
		flag = os.O_RDWR
	case experimentalsys.O_WRONLY:
		flag = os.O_WRONLY
	default:
		flag = os.O_RDONLY
	}
	if oflag&experimentalsys.O_CREAT != 0 {
		flag |= os.O_CREATE
	}
	if oflag&experimentalsys.O_EXCL != 0 {
		flag |= os.O_EXCL
	}
	if oflag&experimentalsys.O_TRUNC != 0 {
		flag |= os.O_TRUNC
	}
	return flag
}

func accessOf(oflag experimentalsys.Oflag) (read, write bool) {
	switch oflag & (experimentalsys.O_RDONLY | experimentalsys.O_RDWR | experimentalsys.O_WRONLY) {
	case experimentalsys.O_RDWR:
		return true, true
	case experimentalsys.O_WRONLY:
		return false, true
	}
	return true, false
}

// isWriteOpen reports whether an open changes or may change the file.
func isWriteOpen(oflag experimentalsys.Oflag) bool {
	_, w := accessOf(oflag)
	return w || oflag&(experimentalsys.O_CREAT|experimentalsys.O_TRUNC|experimentalsys.O_APPEND) != 0
}

// plainMount is a mount over one backend: read-only and read-write host
// folders, /output and /tmp.
type plainMount struct {
	m  *mount
	be backend
}

func (p *plainMount) open(rel string, oflag experimentalsys.Oflag, perm fs.FileMode) (experimentalsys.File, error) {
	return openIn(p.m, p.be, rel, oflag, perm, nil)
}

// openIn opens rel in be for mount m. created, if not nil, is called when
// the open made a new file.
func openIn(m *mount, be backend, rel string, oflag experimentalsys.Oflag, perm fs.FileMode, created func()) (experimentalsys.File, error) {
	op := "read"
	if isWriteOpen(oflag) {
		op = "write"
	}
	li, lerr := be.lstat(rel)
	if lerr == nil && li.Mode()&fs.ModeSymlink != 0 && oflag&experimentalsys.O_NOFOLLOW != 0 {
		return nil, syscall.ELOOP
	}
	fi, err := be.stat(rel)
	if err != nil && lerr == nil {
		// A link that cannot be followed: dangling, or leading out.
		if isEscape(err) {
			return nil, m.hostErr(op, rel, err)
		}
	}
	if err == nil && oflag&experimentalsys.O_CREAT != 0 && oflag&experimentalsys.O_EXCL != 0 {
		// EEXIST before EISDIR, as Linux: tempfile retries on
		// FileExistsError when its random name is taken, by a folder too.
		return nil, syscall.EEXIST
	}
	if err == nil && fi.IsDir() {
		if isWriteOpen(oflag) {
			return nil, syscall.EISDIR
		}
		return openDir(m, be, rel)
	}
	if err == nil && oflag&experimentalsys.O_DIRECTORY != 0 {
		return nil, syscall.ENOTDIR
	}
	isNew := err != nil && oflag&experimentalsys.O_CREAT != 0
	if isNew {
		if err := m.s.admitCreate(m.gpath(rel)); err != nil {
			return nil, err
		}
	}
	release, err := m.s.acquireOpen(m.gpath(rel))
	if err != nil {
		return nil, err
	}
	if perm == 0 {
		perm = 0o644
	}
	hf, err := be.open(rel, osFlags(oflag), perm.Perm())
	if err != nil {
		release()
		return nil, m.hostErr(op, rel, err)
	}
	// os.Root follows a final link even with O_NOFOLLOW: make sure the
	// file opened is the one lstat saw, not one a link swapped in led to.
	if oflag&experimentalsys.O_NOFOLLOW != 0 && lerr == nil && !sameFileOpened(li, hf) {
		hf.Close()
		release()
		return nil, syscall.ELOOP
	}
	if isNew {
		m.s.chargeCreate()
		if created != nil {
			created()
		}
	}
	r, w := accessOf(oflag)
	f := &regFile{
		s: m.s, m: m, guest: m.gpath(rel), f: hf,
		read: r, write: w, append: oflag&experimentalsys.O_APPEND != 0, nonblock: oflag&experimentalsys.O_NONBLOCK != 0,
		limited: true,
		statT:   func(fi fs.FileInfo) wsys.Stat_t { return be.statT(rel, fi) },
		chtimes: func(a, mt time.Time) error { return be.chtimes(rel, a, mt) },
		release: release,
	}
	if m.kind == kindRO {
		f.chtimes = nil
	}
	if m.kind == kindOutput {
		f.onWrite = func() { f.run().markOutput(rel) }
	}
	return f, nil
}

func openDir(m *mount, be backend, rel string) (experimentalsys.File, error) {
	release, err := m.s.acquireOpen(m.gpath(rel))
	if err != nil {
		return nil, err
	}
	d := &dirFile{
		list: func() ([]experimentalsys.Dirent, error) {
			infos, err := be.readDir(rel)
			if err != nil {
				return nil, m.hostErr("read", rel, err)
			}
			return direntsOf(be, rel, infos), nil
		},
		stat: func() (wsys.Stat_t, error) {
			fi, err := be.stat(rel)
			if err != nil {
				return wsys.Stat_t{}, err
			}
			return be.statT(rel, fi), nil
		},
		release: release,
	}
	if m.kind != kindRO {
		d.chtimes = func(a, mt time.Time) error { return be.chtimes(rel, a, mt) }
	}
	return d, nil
}

func (p *plainMount) stat(rel string, follow bool) (wsys.Stat_t, error) {
	var fi fs.FileInfo
	var err error
	if follow {
		fi, err = p.be.stat(rel)
	} else {
		fi, err = p.be.lstat(rel)
	}
	if err != nil {
		return wsys.Stat_t{}, p.m.hostErr("stat", rel, err)
	}
	return p.be.statT(rel, fi), nil
}

func (p *plainMount) mkdir(rel string, perm fs.FileMode) error {
	if _, err := p.be.lstat(rel); err == nil {
		return syscall.EEXIST
	}
	if err := p.m.s.admitCreate(p.m.gpath(rel)); err != nil {
		return err
	}
	if perm == 0 {
		perm = 0o755
	}
	if err := p.be.mkdir(rel, perm.Perm()); err != nil {
		return p.m.hostErr("mkdir", rel, err)
	}
	p.m.s.chargeCreate()
	return nil
}

func (p *plainMount) chmod(rel string, perm fs.FileMode) error {
	// Permission bits only: a set-user-ID or set-group-ID bit on a file the
	// guest wrote would be a hazard for host programs and users.
	return p.m.hostErr("chmod", rel, p.be.chmod(rel, perm&fs.ModePerm))
}

func (p *plainMount) rename(from, to string) error {
	if from == "." || to == "." {
		return syscall.EBUSY
	}
	if p.m.kind != kindTmp && from != to {
		l, err := findLink(p.be, from)
		if err != nil {
			return p.m.hostErr("rename", from, err)
		}
		if l != "" {
			return linkMoveErr(p.m, "rename", from, to, l)
		}
	}
	if err := p.be.rename(from, to); err != nil {
		return p.m.hostErr("rename", from, err)
	}
	return nil
}

func (p *plainMount) rmdir(rel string) error {
	if rel == "." {
		return syscall.EBUSY
	}
	fi, err := p.be.lstat(rel)
	if err != nil {
		return p.m.hostErr("delete", rel, err)
	}
	if !fi.IsDir() {
		return syscall.ENOTDIR
	}
	return p.m.hostErr("delete", rel, p.be.remove(rel))
}

func (p *plainMount) unlink(rel string) error {
	if rel == "." {
		return syscall.EISDIR
	}
	fi, err := p.be.lstat(rel)
	if err != nil {
		return p.m.hostErr("delete", rel, err)
	}
	if fi.IsDir() {
		return syscall.EISDIR
	}
	return p.m.hostErr("delete", rel, p.be.remove(rel))
}

func (p *plainMount) link(from, to string) error {
	// A hard link of a symbolic link is a copy of the link (linkat does
	// not follow it).
	if fi, err := p.be.lstat(from); err == nil && isLink(fi) {
		return linkMoveErr(p.m, "link", from, to, from)
	}
	if _, err := p.be.lstat(to); err == nil {
		return syscall.EEXIST
	}
	if err := p.m.s.admitCreate(p.m.gpath(to)); err != nil {
		return err
	}
	if err := p.be.link(from, to); err != nil {
		return p.m.hostErr("link", from, err)
	}
	p.m.s.chargeCreate()
	return nil
}

// symlink is refused: /tmp (in memory) has no links, and the guest never
// creates a link in a host folder (see links.go).
func (p *plainMount) symlink(target, link string) error {
	if p.m.kind == kindTmp {
		return deny2("symlink", p.m.gpath(link), target, "is not possible: /tmp does not support symbolic links; "+hostLinkAdvice, experimentalsys.ENOTSUP, "ENOTSUP")
	}
	return symlinkInHostFolder(p.m, link, target)
}

// linkTarget checks a symbolic link target for a link at linkRel in the
// mount at mountGuest, and returns it in the relative form stored on the
// host. ok is false if the target, resolved from the link's folder, is
// outside the mount.
func linkTarget(mountGuest, linkRel, target string) (string, bool) {
	if target == "" || strings.ContainsRune(target, 0) {
		return "", false
	}
	dir := path.Dir(path.Join(mountGuest, linkRel))
	abs := target
	if !path.IsAbs(target) {
		abs = path.Join(dir, target)
	}
	abs = path.Clean(abs)
	if !guestWithin(abs, mountGuest) {
		return "", false
	}
	rel, err := relPath(dir, abs)
	if err != nil {
		return "", false
	}
	return rel, true
}

// relPath is filepath.Rel for slash paths.
func relPath(base, target string) (string, error) {
	b := strings.Split(strings.TrimPrefix(base, "/"), "/")
	t := strings.Split(strings.TrimPrefix(target, "/"), "/")
	if base == "/" {
		b = nil
	}
	if target == "/" {
		t = nil
	}
	i := 0
	for i < len(b) && i < len(t) && b[i] == t[i] {
		i++
	}
	var parts []string
	for range b[i:] {
		parts = append(parts, "..")
	}
	parts = append(parts, t[i:]...)
	if len(parts) == 0 {
		return ".", nil
	}
	return strings.Join(parts, "/"), nil
}

// readlink returns a link's target only if it stays inside the mount: a
// host-side link's text could reveal host paths.
func (p *plainMount) readlink(rel string) (string, error) {
	t, err := p.be.readlink(rel)
	if err != nil {
		return "", p.m.hostErr("readlink", rel, err)
	}
	if _, ok := linkTarget(p.m.guest, rel, t); !ok || path.IsAbs(t) {
		return "", deny("readlink", p.m.gpath(rel), fmt.Sprintf("is a symbolic link that points outside its mount (%s)", p.m.guest), experimentalsys.EACCES, "EACCES")
	}
	return t, nil
}

func (p *plainMount) utimens(rel string, atim, mtim int64) error {
	return p.m.hostErr("write", rel, p.be.chtimes(rel, nanoTime(atim), nanoTime(mtim)))
}

func (p *plainMount) list(rel string) ([]experimentalsys.Dirent, error) {
	infos, err := p.be.readDir(rel)
	if err != nil {
		return nil, p.m.hostErr("read", rel, err)
	}
	return direntsOf(p.be, rel, infos), nil
}

func (p *plainMount) close() error { return p.be.close() }
