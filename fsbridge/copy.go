package fsbridge

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
)

// CopyToSandbox copies a host file or folder into the sandbox, as the
// copy_to_sandbox tool does, and returns the guest path it wrote.
//
// src is a host path. It must lie inside the host folder of one of the
// Sandbox's mounts (any mode: reading is what every mount allows), as
// written, without following links on the way there; the rest of it is
// read through that mount, so links inside it that lead out are refused
// as they would be for the guest.
//
// A src outside every mount is refused with the same message whether or
// not it exists, and no message names a host folder: the caller (a model)
// learns nothing about the host beyond what the mounts show the guest.
//
// dst is a guest path on a writable mount (a read-write or copy-on-write
// mount, /output or /tmp). If dst is an existing folder or ends with "/",
// the copy goes inside it under src's name, like cp. The copy is written
// through the same checks and limits as the guest's own writes; a refusal
// is returned as a *Denial (and recorded in Denials).
//
// No symbolic link is created: inside a copied folder, a link to a file is
// copied as the file's content and a link to a folder is skipped.
func (s *Sandbox) CopyToSandbox(src, dst string) (string, error) {
	from, srcRel, ok := s.hostSource(src)
	if !ok {
		reason := "is not inside a host folder mounted in the sandbox (none is mounted)"
		if ms := s.guestPaths(func(m *mount) bool { return m.host != "" && s.hostBackend(m) != nil }); len(ms) > 0 {
			reason = fmt.Sprintf("is not inside a host folder mounted in the sandbox (mounted at %s)", strings.Join(ms, ", "))
		}
		d := &Denial{Op: "copy", Path: src, Errno: "EACCES", Reason: reason}
		d.Message = "copy denied: " + src + " " + d.Reason
		d.Time = time.Now()
		s.denials.add(*d)
		return "", d
	}
	be := s.hostBackend(from)

	fi, err := be.stat(srcRel)
	if err != nil {
		return "", s.copyErr(from, srcRel, err)
	}
	g := guestAbs(dst)
	fsys := &sandboxFS{s: s, r: s.runRec}
	name := path.Base(from.gpath(srcRel))
	if strings.HasSuffix(dst, "/") {
		g = path.Join(g, name)
	} else if st, errno := fsys.Stat(g); errno == 0 && st.Mode.IsDir() {
		g = path.Join(g, name)
	}
	if fi.IsDir() {
		return g, s.copyDir(fsys, be, from, srcRel, g)
	}
	return g, s.copyFile(fsys, be, from, srcRel, g, fi.Mode().Perm())
}

// GuestPath returns the guest path at which the guest sees the host path
// hostPath, if hostPath lies inside the host folder of one of the mounts
// (judged by the path's text, as CopyToSandbox does; nothing on the host is
// touched). pybox run uses it to show a script under the name the guest
// can open, never its host path.
func (s *Sandbox) GuestPath(hostPath string) (string, bool) {
	m, rel, ok := s.hostSource(hostPath)
	if !ok {
		return "", false
	}
	return m.gpath(rel), true
}

// hostSource finds the mount whose host folder holds the host path src,
// and src's name inside it. Only the path's text is looked at (the host
// folder as configured, or its real path): nothing on the host is touched,
// so the answer cannot reveal whether a path outside the mounts exists.
func (s *Sandbox) hostSource(src string) (*mount, string, bool) {
	if src == "" || strings.ContainsRune(src, 0) {
		return nil, "", false
	}
	abs, err := filepath.Abs(src)
	if err != nil {
		return nil, "", false
	}
	for _, m := range s.mounts {
		if m.host == "" || s.hostBackend(m) == nil {
			continue
		}
		for _, h := range []string{m.host, m.hostAsGiven} {
			if h == "" || !within(abs, h) {
				continue
			}
			rel, err := filepath.Rel(h, abs)
			if err != nil {
				continue
			}
			return m, filepath.ToSlash(rel), true
		}
	}
	return nil, "", false
}

// hostBackend is the backend reading a mount's host folder (a cow mount's
// lower folder, not its merged view).
func (s *Sandbox) hostBackend(m *mount) backend {
	switch o := m.ops.(type) {
	case *plainMount:
		return o.be
	case *cowMount:
		return o.lower
	}
	return nil
}

func (s *Sandbox) copyErr(m *mount, rel string, err error) error {
	err = m.hostErr("copy", rel, err)
	var de *denyErr
	if errors.As(err, &de) {
		d := de.d
		return &d
	}
	return fmt.Errorf("copy failed: %s: %s", m.gpath(rel), plainReason(err))
}

// plainReason is the system's reason inside err without the path it names:
// files opened through os.Root carry their host path in their errors.
func plainReason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	var en experimentalsys.Errno
	if errors.As(err, &en) {
		return en.Error()
	}
	var se syscall.Errno
	if errors.As(err, &se) {
		return se.Error()
	}
	return "I/O error"
}

// guestErr turns an errno from the sandbox FS into an error, with the
// denial's message if one was recorded.
func (s *Sandbox) guestErr(op, g string, errno experimentalsys.Errno) error {
	if d, ok := s.denials.take(g); ok {
		s.denials.add(d) // keep it in the log; take only consumed it for Explain
		return &d
	}
	return fmt.Errorf("copy failed: %s %s: %w", op, g, errno)
}

func (s *Sandbox) copyDir(fsys *sandboxFS, be backend, from *mount, srcRel, g string) error {
	if errno := fsys.Mkdir(g, 0o755); errno != 0 && errno != experimentalsys.EEXIST {
		return s.guestErr("mkdir", g, errno)
	}
	infos, err := be.readDir(srcRel)
	if err != nil {
		return s.copyErr(from, srcRel, err)
	}
	for _, fi := range infos {
		child := joinRel(srcRel, fi.Name())
		cg := path.Join(g, fi.Name())
		if fi.Mode()&fs.ModeSymlink != 0 {
			// A link is never copied as a link (links.go): a link to a file
			// inside the mount is copied as that file's content; links that
			// lead out are refused; links to folders are skipped (they may
			// form cycles, and what they point to is in the mount anyway).
			if fi, err = be.stat(child); err != nil {
				return s.copyErr(from, child, err)
			}
			if fi.IsDir() {
				continue
			}
		}
		switch {
		case fi.IsDir():
			err = s.copyDir(fsys, be, from, child, cg)
		case fi.Mode().IsRegular():
			err = s.copyFile(fsys, be, from, child, cg, fi.Mode().Perm())
		default:
			continue // devices, pipes: not copied
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (s *Sandbox) copyFile(fsys *sandboxFS, be backend, from *mount, srcRel, g string, perm fs.FileMode) error {
	in, err := be.open(srcRel, os.O_RDONLY, 0)
	if err != nil {
		return s.copyErr(from, srcRel, err)
	}
	defer in.Close()
	out, errno := fsys.OpenFile(g, experimentalsys.O_WRONLY|experimentalsys.O_CREAT|experimentalsys.O_TRUNC, perm|0o200)
	if errno != 0 {
		return s.guestErr("create", g, errno)
	}
	buf := make([]byte, 256<<10)
	for {
		n, rerr := in.Read(buf)
		if n > 0 {
			if _, errno := out.Write(buf[:n]); errno != 0 {
				out.Close()
				return s.guestErr("write", g, errno)
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			out.Close()
			return fmt.Errorf("copy failed: read %s: %s", from.gpath(srcRel), plainReason(rerr))
		}
	}
	if errno := out.Close(); errno != 0 {
		return s.guestErr("close", g, errno)
	}
	return nil
}

// CopyInSandbox copies a file or folder from one guest path to another, as
// the copy_to_sandbox tool does: src is any path the guest may read (a
// read-only mount, /network, /tmp...), dst a path it may write (/output,
// /tmp, a read-write or copy-on-write mount). Both are read and written
// through the guest's own view, with the same checks, limits and refusal
// messages as the guest's code gets, so nothing about the host is used or
// shown. If dst is an existing folder or ends with "/", the copy goes
// inside it under src's name, like cp. It returns the guest path written.
//
// No symbolic link is copied as a link: a link to a file is copied as the
// file's content; a link to a folder, or one the guest may not follow, is
// skipped.
func (s *Sandbox) CopyInSandbox(src, dst string) (string, error) {
	fsys := &sandboxFS{s: s, r: s.runRec}
	from := guestAbs(src)
	st, errno := fsys.Stat(from)
	if errno != 0 {
		return "", s.copyGuestErr("read", from, errno)
	}
	g := guestAbs(dst)
	if strings.HasSuffix(dst, "/") {
		g = path.Join(g, path.Base(from))
	} else if dt, errno := fsys.Stat(g); errno == 0 && dt.Mode.IsDir() {
		g = path.Join(g, path.Base(from))
	}
	if g == from || strings.HasPrefix(g, from+"/") {
		return "", fmt.Errorf("copy refused: %s cannot be copied into itself (%s)", from, g)
	}
	if st.Mode.IsDir() {
		return g, s.copyGuestDir(fsys, from, g)
	}
	return g, s.copyGuestFile(fsys, from, g, st.Mode.Perm())
}

// copyGuestErr is guestErr for both ends of CopyInSandbox: a recorded
// refusal's message, else the operation, guest path and errno.
func (s *Sandbox) copyGuestErr(op, g string, errno experimentalsys.Errno) error {
	if d, ok := s.denials.take(g); ok {
		s.denials.add(d)
		return &d
	}
	return fmt.Errorf("copy failed: %s %s: %w", op, g, errno)
}

func (s *Sandbox) copyGuestDir(fsys *sandboxFS, from, g string) error {
	if errno := fsys.Mkdir(g, 0o755); errno != 0 && errno != experimentalsys.EEXIST {
		return s.copyGuestErr("mkdir", g, errno)
	}
	d, errno := fsys.OpenFile(from, experimentalsys.O_RDONLY|experimentalsys.O_DIRECTORY, 0)
	if errno != 0 {
		return s.copyGuestErr("list", from, errno)
	}
	ents, errno := d.Readdir(-1)
	d.Close()
	if errno != 0 {
		return s.copyGuestErr("list", from, errno)
	}
	for _, e := range ents {
		if e.Name == "." || e.Name == ".." {
			continue
		}
		child, cg := path.Join(from, e.Name), path.Join(g, e.Name)
		st, errno := fsys.Lstat(child)
		if errno != 0 {
			return s.copyGuestErr("read", child, errno)
		}
		if st.Mode&fs.ModeSymlink != 0 {
			// A link the guest may not follow (it leads out of its
			// mount) is left out, as the guest's own copy would fail on
			// it; the refusal is in Denials.
			if st, errno = fsys.Stat(child); errno != 0 || st.Mode.IsDir() {
				continue // a folder link may form cycles; its content is reachable anyway
			}
		}
		var err error
		switch {
		case st.Mode.IsDir():
			err = s.copyGuestDir(fsys, child, cg)
		case st.Mode.IsRegular():
			err = s.copyGuestFile(fsys, child, cg, st.Mode.Perm())
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (s *Sandbox) copyGuestFile(fsys *sandboxFS, from, g string, perm fs.FileMode) error {
	in, errno := fsys.OpenFile(from, experimentalsys.O_RDONLY, 0)
	if errno != 0 {
		return s.copyGuestErr("read", from, errno)
	}
	defer in.Close()
	out, errno := fsys.OpenFile(g, experimentalsys.O_WRONLY|experimentalsys.O_CREAT|experimentalsys.O_TRUNC, perm|0o200)
	if errno != 0 {
		return s.copyGuestErr("create", g, errno)
	}
	buf := make([]byte, 256<<10)
	for {
		n, errno := in.Read(buf)
		if errno != 0 {
			out.Close()
			return s.copyGuestErr("read", from, errno)
		}
		if n == 0 {
			break
		}
		for b := buf[:n]; len(b) > 0; {
			w, errno := out.Write(b)
			if errno != 0 {
				out.Close()
				return s.copyGuestErr("write", g, errno)
			}
			b = b[w:]
		}
	}
	if errno := out.Close(); errno != 0 {
		return s.copyGuestErr("close", g, errno)
	}
	return nil
}
