package runtime

import (
	"io/fs"
	"sync"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/experimental/sysfs"
	wsys "github.com/tetratelabs/wazero/sys"

	"github.com/pybox-dev/pybox/packages"
)

// rootFS is what an instance has mounted at "/": it forwards every call to
// the filesystem of the job being run (Request.FS), or to an empty read-only
// directory when there is none. Instances are created before their job is
// known (warm pool, sessions), so the mount itself cannot be the job's.
//
// Policy lives entirely in the job's filesystem (package fsbridge); rootFS
// decides nothing.
type rootFS struct {
	mu  sync.RWMutex
	cur experimentalsys.FS
}

// emptyRoot is "/" for a run with no Request.FS: an empty directory in which
// every change is refused as read-only (rather than "not implemented").
var emptyRoot experimentalsys.FS = readOnlyFS{&sysfs.AdaptFS{FS: packages.NewTree(nil)}}

type readOnlyFS struct{ experimentalsys.FS }

func (f readOnlyFS) OpenFile(path string, flag experimentalsys.Oflag, perm fs.FileMode) (experimentalsys.File, experimentalsys.Errno) {
	if flag&(experimentalsys.O_WRONLY|experimentalsys.O_RDWR|experimentalsys.O_CREAT|experimentalsys.O_TRUNC|experimentalsys.O_APPEND) != 0 {
		return nil, experimentalsys.EROFS
	}
	return f.FS.OpenFile(path, flag, perm)
}
func (readOnlyFS) Mkdir(string, fs.FileMode) experimentalsys.Errno { return experimentalsys.EROFS }
func (readOnlyFS) Chmod(string, fs.FileMode) experimentalsys.Errno { return experimentalsys.EROFS }
func (readOnlyFS) Rename(string, string) experimentalsys.Errno     { return experimentalsys.EROFS }
func (readOnlyFS) Rmdir(string) experimentalsys.Errno              { return experimentalsys.EROFS }
func (readOnlyFS) Unlink(string) experimentalsys.Errno             { return experimentalsys.EROFS }
func (readOnlyFS) Link(string, string) experimentalsys.Errno       { return experimentalsys.EROFS }
func (readOnlyFS) Symlink(string, string) experimentalsys.Errno    { return experimentalsys.EROFS }
func (readOnlyFS) Utimens(string, int64, int64) experimentalsys.Errno {
	return experimentalsys.EROFS
}

func (r *rootFS) set(f experimentalsys.FS) {
	r.mu.Lock()
	r.cur = f
	r.mu.Unlock()
}

func (r *rootFS) fs() experimentalsys.FS {
	r.mu.RLock()
	f := r.cur
	r.mu.RUnlock()
	if f == nil {
		return emptyRoot
	}
	return f
}

func (r *rootFS) OpenFile(path string, flag experimentalsys.Oflag, perm fs.FileMode) (experimentalsys.File, experimentalsys.Errno) {
	return r.fs().OpenFile(path, flag, perm)
}
func (r *rootFS) Lstat(path string) (wsys.Stat_t, experimentalsys.Errno) { return r.fs().Lstat(path) }
func (r *rootFS) Stat(path string) (wsys.Stat_t, experimentalsys.Errno)  { return r.fs().Stat(path) }
func (r *rootFS) Mkdir(path string, perm fs.FileMode) experimentalsys.Errno {
	return r.fs().Mkdir(path, perm)
}
func (r *rootFS) Chmod(path string, perm fs.FileMode) experimentalsys.Errno {
	return r.fs().Chmod(path, perm)
}
func (r *rootFS) Rename(from, to string) experimentalsys.Errno { return r.fs().Rename(from, to) }
func (r *rootFS) Rmdir(path string) experimentalsys.Errno      { return r.fs().Rmdir(path) }
func (r *rootFS) Unlink(path string) experimentalsys.Errno     { return r.fs().Unlink(path) }
func (r *rootFS) Link(oldPath, newPath string) experimentalsys.Errno {
	return r.fs().Link(oldPath, newPath)
}
func (r *rootFS) Symlink(oldPath, linkName string) experimentalsys.Errno {
	return r.fs().Symlink(oldPath, linkName)
}
func (r *rootFS) Readlink(path string) (string, experimentalsys.Errno) { return r.fs().Readlink(path) }
func (r *rootFS) Utimens(path string, atim, mtim int64) experimentalsys.Errno {
	return r.fs().Utimens(path, atim, mtim)
}
