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

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
)

// CopyToSandbox copies a host file or folder into the sandbox, as the
// copy_to_sandbox tool does, and returns the guest path it wrote.
//
// src is a host path. After its symbolic links are resolved it must be
// inside the host folder of one of the Sandbox's mounts (any mode: reading
// is what every mount allows), and it is read through that mount, so links
// inside it that lead out are refused as they would be for the guest.
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
	abs, err := filepath.Abs(src)
	if err != nil {
		return "", fmt.Errorf("copy_to_sandbox: source %s: %w", src, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("copy_to_sandbox: source %s: %w", src, err)
	}
	var from *mount
	var hosts []string
	for _, m := range s.mounts {
		if m.host == "" {
			continue
		}
		hosts = append(hosts, m.host)
		if from == nil && within(real, m.host) {
			from = m
		}
	}
	if from == nil {
		return "", &Denial{Op: "copy", Path: src, Errno: "EACCES",
			Reason:  fmt.Sprintf("is outside the readable host folders (%s)", strings.Join(hosts, ", ")),
			Message: fmt.Sprintf("copy denied: %s is outside the readable host folders (%s)", src, strings.Join(hosts, ", "))}
	}
	relHost, err := filepath.Rel(from.host, real)
	if err != nil {
		return "", err
	}
	srcRel := filepath.ToSlash(relHost)
	be := s.hostBackend(from)

	fi, err := be.stat(srcRel)
	if err != nil {
		return "", s.copyErr(from, srcRel, err)
	}
	g := guestAbs(dst)
	fsys := &sandboxFS{s: s}
	if strings.HasSuffix(dst, "/") {
		g = path.Join(g, path.Base(filepath.ToSlash(real)))
	} else if st, errno := fsys.Stat(g); errno == 0 && st.Mode.IsDir() {
		g = path.Join(g, path.Base(filepath.ToSlash(real)))
	}
	if fi.IsDir() {
		return g, s.copyDir(fsys, be, from, srcRel, g)
	}
	return g, s.copyFile(fsys, be, from, srcRel, g, fi.Mode().Perm())
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
	return fmt.Errorf("copy_to_sandbox: %s: %w", m.gpath(rel), err)
}

// guestErr turns an errno from the sandbox FS into an error, with the
// denial's message if one was recorded.
func (s *Sandbox) guestErr(op, g string, errno experimentalsys.Errno) error {
	if d, ok := s.denials.take(g); ok {
		s.denials.add(d) // keep it in the log; take only consumed it for Explain
		return &d
	}
	return fmt.Errorf("copy_to_sandbox: %s %s: %w", op, g, errno)
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
			return fmt.Errorf("copy_to_sandbox: read %s: %w", from.gpath(srcRel), rerr)
		}
	}
	if errno := out.Close(); errno != 0 {
		return s.guestErr("close", g, errno)
	}
	return nil
}
