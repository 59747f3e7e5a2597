package fsbridge

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	wsys "github.com/tetratelabs/wazero/sys"
)

// MountFS returns the filesystem of the Sandbox's mount at guest, with
// paths relative to the mount, for a runtime that mounts it on its own at
// that guest path (wazero hands a mount's filesystem paths relative to the
// mount point). Every call goes through the same checks as Sandbox.FS, so
// the mount follows no link out of its host folder and refusals name full
// guest paths.
//
// The runtime uses it for the user's packages (/pybox/user-site), which
// every interpreter of an engine shares whatever the job's filesystem.
func (s *Sandbox) MountFS(guest string) (experimentalsys.FS, error) {
	g, err := cleanGuest(guest)
	if err != nil {
		return nil, err
	}
	for _, m := range s.mounts {
		if m.guest == g {
			return &subFS{fs: &sandboxFS{s: s, r: s.runRec}, prefix: g}, nil
		}
	}
	return nil, fmt.Errorf("no mount at %s", g)
}

// subFS is a sandboxFS seen from one of its mounts.
type subFS struct {
	experimentalsys.UnimplementedFS
	fs     *sandboxFS
	prefix string
}

var _ experimentalsys.FS = (*subFS)(nil)

// full turns a mount-relative path into the sandbox path; a trailing slash
// is kept (it means "must be a folder").
func (f *subFS) full(p string) string {
	q := path.Join(f.prefix, p)
	if strings.HasSuffix(p, "/") {
		q += "/"
	}
	return q
}

// OpenFile implements experimentalsys.FS.
func (f *subFS) OpenFile(p string, flag experimentalsys.Oflag, perm fs.FileMode) (experimentalsys.File, experimentalsys.Errno) {
	return f.fs.OpenFile(f.full(p), flag, perm)
}

// Lstat implements experimentalsys.FS.
func (f *subFS) Lstat(p string) (wsys.Stat_t, experimentalsys.Errno) { return f.fs.Lstat(f.full(p)) }

// Stat implements experimentalsys.FS.
func (f *subFS) Stat(p string) (wsys.Stat_t, experimentalsys.Errno) { return f.fs.Stat(f.full(p)) }

// Mkdir implements experimentalsys.FS.
func (f *subFS) Mkdir(p string, perm fs.FileMode) experimentalsys.Errno {
	return f.fs.Mkdir(f.full(p), perm)
}

// Chmod implements experimentalsys.FS.
func (f *subFS) Chmod(p string, perm fs.FileMode) experimentalsys.Errno {
	return f.fs.Chmod(f.full(p), perm)
}

// Rename implements experimentalsys.FS.
func (f *subFS) Rename(from, to string) experimentalsys.Errno {
	return f.fs.Rename(f.full(from), f.full(to))
}

// Rmdir implements experimentalsys.FS.
func (f *subFS) Rmdir(p string) experimentalsys.Errno { return f.fs.Rmdir(f.full(p)) }

// Unlink implements experimentalsys.FS.
func (f *subFS) Unlink(p string) experimentalsys.Errno { return f.fs.Unlink(f.full(p)) }

// Link implements experimentalsys.FS.
func (f *subFS) Link(oldPath, newPath string) experimentalsys.Errno {
	return f.fs.Link(f.full(oldPath), f.full(newPath))
}

// Symlink implements experimentalsys.FS; oldPath is the link's text, not a
// path to map.
func (f *subFS) Symlink(oldPath, linkName string) experimentalsys.Errno {
	return f.fs.Symlink(oldPath, f.full(linkName))
}

// Readlink implements experimentalsys.FS.
func (f *subFS) Readlink(p string) (string, experimentalsys.Errno) { return f.fs.Readlink(f.full(p)) }

// Utimens implements experimentalsys.FS.
func (f *subFS) Utimens(p string, atim, mtim int64) experimentalsys.Errno {
	return f.fs.Utimens(f.full(p), atim, mtim)
}
