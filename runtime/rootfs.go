package runtime

import (
	"io/fs"
	"path"
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

// bundleGuest is where the runtime bundle (the Python installation) is
// mounted in every interpreter.
const bundleGuest = "/usr/local"

// bundleFS is the runtime bundle as the guest sees it at /usr/local: read
// as usual; every change is refused with EROFS, and the refusal is
// remembered so that the guest's exception can say what happened (wazero's
// own adapter answers ENOENT or ENOSYS, which explain nothing), and handed
// to the job's filesystem if it keeps a list of refusals (DenialRecorder).
// The job's filesystem never sees these paths otherwise.
type bundleFS struct {
	experimentalsys.FS         // the bundle, read-only
	root               *rootFS // the job's filesystem, for DenialRecorder

	mu      sync.Mutex
	refused []bundleRefusal // recent refusals, oldest first
}

type bundleRefusal struct{ path, message string }

// DenialRecorder is implemented by a Request.FS that keeps the list of
// what the guest was refused (fsbridge's does). The runtime refuses some
// operations itself, writes into the Python installation at /usr/local,
// and records them there too, so that the caller's list is complete.
type DenialRecorder interface {
	RecordDenial(op, guestPath, message, errno string)
}

// maxBundleRefusals bounds what bundleFS remembers: the guest asks about a
// refusal right after it.
const maxBundleRefusals = 8

func (b *bundleFS) refuse(op string, paths ...string) experimentalsys.Errno {
	for i, p := range paths {
		g := path.Join(bundleGuest, p)
		msg := op + " denied: " + g + " is part of the Python installation (" + bundleGuest +
			"), which is read-only; write under /tmp or /output instead"
		b.mu.Lock()
		b.refused = append(b.refused, bundleRefusal{g, msg})
		if len(b.refused) > maxBundleRefusals {
			b.refused = b.refused[1:]
		}
		b.mu.Unlock()
		if i == 0 && b.root != nil {
			if r, ok := b.root.fs().(DenialRecorder); ok {
				r.RecordDenial(op, g, msg, "EROFS")
			}
		}
	}
	return experimentalsys.EROFS
}

// explain returns why a change to guestPath was refused, if it was.
func (b *bundleFS) explain(guestPath string) (string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := len(b.refused) - 1; i >= 0; i-- {
		if r := b.refused[i]; r.path == guestPath {
			b.refused = append(b.refused[:i], b.refused[i+1:]...)
			return r.message, true
		}
	}
	return "", false
}

func (b *bundleFS) OpenFile(p string, flag experimentalsys.Oflag, perm fs.FileMode) (experimentalsys.File, experimentalsys.Errno) {
	if flag&(experimentalsys.O_WRONLY|experimentalsys.O_RDWR|experimentalsys.O_CREAT|experimentalsys.O_TRUNC|experimentalsys.O_APPEND) != 0 {
		return nil, b.refuse("write", p)
	}
	return b.FS.OpenFile(p, flag, perm)
}
func (b *bundleFS) Mkdir(p string, _ fs.FileMode) experimentalsys.Errno { return b.refuse("mkdir", p) }
func (b *bundleFS) Chmod(p string, _ fs.FileMode) experimentalsys.Errno { return b.refuse("chmod", p) }
func (b *bundleFS) Rename(from, to string) experimentalsys.Errno {
	return b.refuse("rename", from, to)
}
func (b *bundleFS) Rmdir(p string) experimentalsys.Errno  { return b.refuse("delete", p) }
func (b *bundleFS) Unlink(p string) experimentalsys.Errno { return b.refuse("delete", p) }
func (b *bundleFS) Link(from, to string) experimentalsys.Errno {
	return b.refuse("link", to, from)
}
func (b *bundleFS) Symlink(_, link string) experimentalsys.Errno { return b.refuse("symlink", link) }
func (b *bundleFS) Utimens(p string, _, _ int64) experimentalsys.Errno {
	return b.refuse("write", p)
}
