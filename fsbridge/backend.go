package fsbridge

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/afero"
	"github.com/spf13/afero/mem"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	wsys "github.com/tetratelabs/wazero/sys"
)

// backend is one storage tree, addressed by clean slash-separated names
// relative to its root ("." is the root). Two implementations: rootBackend
// (a host folder through os.Root, which refuses every path and symbolic link
// that leads out of the folder) and memBackend (afero.MemMapFs, for /tmp).
//
// Backends decide nothing about policy; they only store.
type backend interface {
	open(name string, flag int, perm fs.FileMode) (afero.File, error)
	stat(name string) (fs.FileInfo, error)
	lstat(name string) (fs.FileInfo, error)
	mkdir(name string, perm fs.FileMode) error
	remove(name string) error // a file, or an empty folder
	rename(from, to string) error
	chmod(name string, mode fs.FileMode) error
	chtimes(name string, atime, mtime time.Time) error
	symlink(target, name string) error
	link(oldname, newname string) error
	readlink(name string) (string, error)
	// readDir lists a folder, entries not followed if symbolic links.
	readDir(name string) ([]fs.FileInfo, error)
	// statT converts an info from this backend (name is what was stat'ed).
	statT(name string, fi fs.FileInfo) wsys.Stat_t
	close() error
}

// errSpecial is returned for opening a host file that is neither a regular
// file nor a folder (a FIFO would block the host, a device could be
// anything).
var errSpecial = errors.New("not a regular file or folder")

// rootBackend is a host folder seen through os.Root: every name is resolved
// inside the folder, symbolic links included, with openat-style calls that
// cannot be raced out of it. Absolute symbolic links and links that climb
// out of the folder make the call fail (see isEscape).
type rootBackend struct {
	root *os.Root
}

func openRootBackend(dir string) (*rootBackend, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &rootBackend{root: r}, nil
}

func (b *rootBackend) open(name string, flag int, perm fs.FileMode) (afero.File, error) {
	// Refuse special files before opening: open(2) of a FIFO blocks.
	if fi, err := b.root.Stat(name); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		return nil, errSpecial
	}
	// WASI has no file modes: wazero asks for 0600 (folders 0700) whatever
	// the guest wanted. Files the guest creates in host folders are meant
	// for people and programs on the host, so they get the usual modes:
	// 0666 and 0777 less the process umask, which the kernel applies.
	if flag&os.O_CREATE != 0 {
		perm = hostFileMode
	}
	f, err := b.root.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || (!fi.Mode().IsRegular() && !fi.IsDir()) {
		f.Close()
		if err == nil {
			err = errSpecial
		}
		return nil, err
	}
	return f, nil
}

func (b *rootBackend) stat(name string) (fs.FileInfo, error)  { return b.root.Stat(name) }
func (b *rootBackend) lstat(name string) (fs.FileInfo, error) { return b.root.Lstat(name) }
func (b *rootBackend) mkdir(name string, _ fs.FileMode) error {
	return b.root.Mkdir(name, hostDirMode)
}

// The modes of files and folders the guest creates in host folders, before
// the umask (see rootBackend.open).
const (
	hostFileMode fs.FileMode = 0o666
	hostDirMode  fs.FileMode = 0o777
)

// The modes of files and folders the guest creates in /tmp (memBackend):
// the same less the sandbox's umask, 022.
const (
	memFileMode fs.FileMode = 0o644
	memDirMode  fs.FileMode = 0o755
)

func (b *rootBackend) remove(name string) error            { return b.root.Remove(name) }
func (b *rootBackend) rename(from, to string) error        { return b.root.Rename(from, to) }
func (b *rootBackend) chmod(n string, m fs.FileMode) error { return b.root.Chmod(n, m) }
func (b *rootBackend) chtimes(name string, atime, mtime time.Time) error {
	return b.root.Chtimes(name, atime, mtime)
}
func (b *rootBackend) symlink(target, name string) error { return b.root.Symlink(target, name) }
func (b *rootBackend) link(o, n string) error            { return b.root.Link(o, n) }
func (b *rootBackend) readlink(name string) (string, error) {
	return b.root.Readlink(name)
}
func (b *rootBackend) close() error { return b.root.Close() }

func (b *rootBackend) readDir(name string) ([]fs.FileInfo, error) {
	f, err := b.root.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	out := make([]fs.FileInfo, 0, len(names))
	for _, n := range names {
		// Lstat through the root, not by host path: nothing on the way can
		// be swapped for a link out of the folder.
		fi, err := b.root.Lstat(path.Join(name, n))
		if err != nil {
			continue // removed meanwhile
		}
		out = append(out, fi)
	}
	return out, nil
}

func (b *rootBackend) statT(_ string, fi fs.FileInfo) wsys.Stat_t { return wsys.NewStat_t(fi) }

// memBackend is an in-memory tree (afero.MemMapFs) with the POSIX checks
// MemMapFs lacks: parents must exist, folders must be empty to be removed,
// files and folders do not replace each other on rename.
//
// File content is not kept in MemMapFs but in memData (sparse chunks),
// keyed by MemMapFs's per-file record, which a rename keeps; acct counts
// the bytes all content holds. A hard link is a second record sharing the
// first one's memData, which keeps the names' mode and times equal and
// gives them one inode number.
type memBackend struct {
	fs  *afero.MemMapFs
	dev uint64

	acct    memAccount
	mu      sync.Mutex
	content map[*mem.FileData]*memData
	lastIno uint64
}

func newMemBackend(id string) *memBackend {
	return &memBackend{fs: afero.NewMemMapFs().(*afero.MemMapFs), dev: hash64("dev:" + id), content: map[*mem.FileData]*memData{}}
}

// memRecord is the MemMapFs record behind fi, if fi is one of memBackend's.
func memRecord(fi fs.FileInfo) *mem.FileData {
	if w, ok := fi.(memInfo); ok {
		fi = w.FileInfo
	}
	if mi, ok := fi.(*mem.FileInfo); ok {
		return mi.FileData
	}
	return nil
}

// contentOf is the content behind fi, or nil (a folder, or a file never
// opened).
func (b *memBackend) contentOf(fi fs.FileInfo) *memData {
	meta := memRecord(fi)
	if meta == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.content[meta]
}

// atime is the access time of the file fi describes.
func (b *memBackend) atime(fi fs.FileInfo) time.Time {
	if d := b.contentOf(fi); d != nil {
		d.mu.Lock()
		t := d.atime
		d.mu.Unlock()
		if !t.IsZero() {
			return t
		}
	}
	return fi.ModTime()
}

// dataOf returns the content of the file whose record is meta, made empty
// if it has none yet.
func (b *memBackend) dataOf(meta *mem.FileData) *memData {
	b.mu.Lock()
	defer b.mu.Unlock()
	d := b.content[meta]
	if d == nil {
		b.lastIno++
		// Folders are numbered by a hash of their path (statT); a file's
		// number is its own, kept across renames and shared by its links.
		d = newMemData(&b.acct, hash64(fmt.Sprintf("ino:%d", b.lastIno)))
		d.names = []*mem.FileData{meta}
		b.content[meta] = d
	}
	return d
}

// withSize gives a MemMapFs info of a file the size of its content.
func (b *memBackend) withSize(fi fs.FileInfo) fs.FileInfo {
	mi, ok := fi.(*mem.FileInfo)
	if !ok || fi.IsDir() {
		return fi
	}
	b.mu.Lock()
	d := b.content[mi.FileData]
	b.mu.Unlock()
	var size int64
	if d != nil {
		size = d.Size()
	}
	return memInfo{FileInfo: fi, size: size}
}

// unlinked drops a name of a file: its content goes with the last name, at
// once, or when its last open handle closes.
func (b *memBackend) unlinked(fi fs.FileInfo) {
	mi, ok := fi.(*mem.FileInfo)
	if !ok {
		return
	}
	b.mu.Lock()
	d := b.content[mi.FileData]
	delete(b.content, mi.FileData)
	b.mu.Unlock()
	if d == nil {
		return
	}
	d.mu.Lock()
	names := d.names[:0]
	for _, n := range d.names {
		if n != mi.FileData {
			names = append(names, n)
		}
	}
	d.names = names
	if len(names) > 0 {
		d.mu.Unlock()
		return
	}
	d.unlinked = true
	idle := d.open == 0
	d.mu.Unlock()
	if idle {
		d.free()
	}
}

// allocated is the bytes of file content the tree holds.
func (b *memBackend) allocated() int64 { return b.acct.allocated.Load() }

func memName(name string) string {
	if name == "." || name == "" {
		return "/"
	}
	return "/" + name
}

func pathErr(op, name string, err error) error { return &fs.PathError{Op: op, Path: name, Err: err} }

// parentDir checks that name's parent exists and is a folder.
func (b *memBackend) parentDir(op, name string) error {
	dir := path.Dir(name)
	if dir == "." {
		return nil
	}
	fi, err := b.fs.Stat(memName(dir))
	if err != nil {
		return pathErr(op, name, syscall.ENOENT)
	}
	if !fi.IsDir() {
		return pathErr(op, name, syscall.ENOTDIR)
	}
	return nil
}

func (b *memBackend) open(name string, flag int, perm fs.FileMode) (afero.File, error) {
	fi, err := b.fs.Stat(memName(name))
	switch {
	case err == nil:
		if flag&os.O_CREATE != 0 && flag&os.O_EXCL != 0 {
			return nil, pathErr("open", name, syscall.EEXIST)
		}
		if fi.IsDir() && flag&(os.O_WRONLY|os.O_RDWR|os.O_TRUNC) != 0 {
			return nil, pathErr("open", name, syscall.EISDIR)
		}
	case flag&os.O_CREATE == 0:
		return nil, pathErr("open", name, syscall.ENOENT)
	default:
		if err := b.parentDir("open", name); err != nil {
			return nil, err
		}
	}
	// WASI has no file modes (wazero asks for 0600 whatever the guest
	// wanted): a new file gets 0666 less the sandbox's umask 022, as
	// rootBackend's do through the host's umask. The runner sets the bits
	// a guest asks for explicitly (os.open(p, flags, 0o600)) afterwards.
	perm = memFileMode
	// MemMapFs hands out a read-only handle only for exactly O_RDONLY;
	// access modes are enforced by the sys.File adapter anyway.
	f, err := b.fs.OpenFile(memName(name), flag&^os.O_APPEND, perm)
	if err != nil {
		return nil, err
	}
	mf, ok := f.(*mem.File)
	if !ok || mf.Info().IsDir() {
		return f, nil
	}
	// The MemMapFs handle is dropped, not closed: closing it would
	// change the modification time.
	d := b.dataOf(mf.Data())
	if flag&os.O_TRUNC != 0 && flag&(os.O_WRONLY|os.O_RDWR) != 0 {
		d.truncate(0)
	}
	return newMemHandle(mf.Data(), d), nil
}

func (b *memBackend) stat(name string) (fs.FileInfo, error) {
	fi, err := b.fs.Stat(memName(name))
	if err != nil {
		return nil, err
	}
	return b.withSize(fi), nil
}
func (b *memBackend) lstat(name string) (fs.FileInfo, error) { return b.stat(name) }

func (b *memBackend) mkdir(name string, perm fs.FileMode) error {
	if _, err := b.fs.Stat(memName(name)); err == nil {
		return pathErr("mkdir", name, syscall.EEXIST)
	}
	if err := b.parentDir("mkdir", name); err != nil {
		return err
	}
	_ = perm // as for files: WASI asks for 0700 whatever the guest wanted
	return b.fs.Mkdir(memName(name), memDirMode)
}

func (b *memBackend) remove(name string) error {
	if name == "." {
		return pathErr("remove", name, syscall.EBUSY)
	}
	fi, err := b.fs.Stat(memName(name))
	if err != nil {
		return pathErr("remove", name, syscall.ENOENT)
	}
	if fi.IsDir() {
		if ents, err := b.readDir(name); err != nil {
			return err
		} else if len(ents) > 0 {
			return pathErr("remove", name, syscall.ENOTEMPTY)
		}
	}
	if err := b.fs.Remove(memName(name)); err != nil {
		return err
	}
	if !fi.IsDir() {
		b.unlinked(fi)
	}
	return nil
}

func (b *memBackend) rename(from, to string) error {
	if from == "." || to == "." {
		return pathErr("rename", from, syscall.EBUSY)
	}
	src, err := b.fs.Stat(memName(from))
	if err != nil {
		return pathErr("rename", from, syscall.ENOENT)
	}
	if err := b.parentDir("rename", to); err != nil {
		return err
	}
	if from == to {
		return nil
	}
	if src.IsDir() && strings.HasPrefix(to, from+"/") {
		return pathErr("rename", from, syscall.EINVAL)
	}
	if dst, err := b.fs.Stat(memName(to)); err == nil {
		// Two names of one file (hard links): rename does nothing, as
		// POSIX says.
		if d := b.contentOf(src); d != nil && d == b.contentOf(dst) {
			return nil
		}
		switch {
		case src.IsDir() && !dst.IsDir():
			return pathErr("rename", to, syscall.ENOTDIR)
		case !src.IsDir() && dst.IsDir():
			return pathErr("rename", to, syscall.EISDIR)
		}
		if err := b.remove(to); err != nil {
			return err
		}
	}
	return b.fs.Rename(memName(from), memName(to))
}

func (b *memBackend) chmod(name string, mode fs.FileMode) error {
	if err := b.fs.Chmod(memName(name), mode); err != nil {
		return err
	}
	// Every name of the file has the mode (hard links).
	if fi, err := b.fs.Stat(memName(name)); err == nil {
		if d := b.contentOf(fi); d != nil {
			d.mu.Lock()
			for _, n := range d.names {
				mem.SetMode(n, fi.Mode())
			}
			d.mu.Unlock()
		}
	}
	return nil
}

func (b *memBackend) chtimes(name string, atime, mtime time.Time) error {
	fi, err := b.fs.Stat(memName(name))
	if err != nil {
		return err
	}
	// A zero time is left as it is (UTIME_OMIT).
	if mtime.IsZero() {
		mtime = fi.ModTime()
	}
	if atime.IsZero() {
		atime = b.atime(fi)
	}
	d := b.contentOf(fi)
	if d == nil {
		return b.fs.Chtimes(memName(name), atime, mtime)
	}
	d.mu.Lock()
	d.atime = atime
	d.mu.Unlock()
	d.setModTime(mtime)
	return nil
}

func (b *memBackend) symlink(string, string) error { return syscall.ENOTSUP }

// link gives the file from a second name, to: a record of its own in the
// tree that shares from's content, mode and times.
func (b *memBackend) link(from, to string) error {
	src, err := b.fs.Stat(memName(from))
	if err != nil {
		return pathErr("link", from, syscall.ENOENT)
	}
	if src.IsDir() {
		return pathErr("link", from, syscall.EPERM) // as Linux: no links to folders
	}
	if _, err := b.fs.Stat(memName(to)); err == nil {
		return pathErr("link", to, syscall.EEXIST)
	}
	if err := b.parentDir("link", to); err != nil {
		return err
	}
	meta := memRecord(src)
	if meta == nil {
		return pathErr("link", from, syscall.EIO)
	}
	d := b.dataOf(meta)
	f, err := b.fs.OpenFile(memName(to), os.O_CREATE|os.O_EXCL|os.O_WRONLY, src.Mode().Perm())
	if err != nil {
		return err
	}
	mf, ok := f.(*mem.File)
	if !ok {
		return pathErr("link", to, syscall.EIO)
	}
	// The handle is dropped, not closed (see open).
	rec := mf.Data()
	d.mu.Lock()
	mem.SetMode(rec, src.Mode())
	mem.SetModTime(rec, src.ModTime())
	d.names = append(d.names, rec)
	d.mu.Unlock()
	b.mu.Lock()
	b.content[rec] = d
	b.mu.Unlock()
	return nil
}

func (b *memBackend) readlink(name string) (string, error) {
	if _, err := b.fs.Stat(memName(name)); err != nil {
		return "", err
	}
	return "", syscall.EINVAL // not a link
}

func (b *memBackend) readDir(name string) ([]fs.FileInfo, error) {
	f, err := b.fs.Open(memName(name))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, syscall.ENOTDIR
	}
	ents, err := f.Readdir(-1)
	if err != nil {
		return nil, err
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	for i, fi := range ents {
		ents[i] = b.withSize(fi)
	}
	return ents, nil
}

func (b *memBackend) statT(name string, fi fs.FileInfo) wsys.Stat_t {
	st := wsys.NewStat_t(fi)
	st.Dev = b.dev
	st.Ino = hash64(name)
	st.Atim = b.atime(fi).UnixNano()
	if fi.IsDir() {
		st.Nlink = 2
	} else if d := b.contentOf(fi); d != nil {
		st.Ino = d.ino
		st.Nlink = uint64(max(d.nlink(), 1))
	}
	return st
}

// close drops all content.
func (b *memBackend) close() error {
	b.mu.Lock()
	all := b.content
	b.content = map[*mem.FileData]*memData{}
	b.mu.Unlock()
	freed := map[*memData]bool{}
	for _, d := range all {
		if !freed[d] { // linked names share one
			freed[d] = true
			d.free()
		}
	}
	return nil
}

// hash64 is a non-zero 64-bit hash, for inode numbers of trees that have
// none (wasi-libc treats inode 0 as "unknown", and Python's shutil treats
// equal inodes on one device as the same file).
func hash64(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	v := h.Sum64()
	if v == 0 {
		v = 1
	}
	return v
}

var _ = experimentalsys.EIO
