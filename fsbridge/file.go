package fsbridge

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/spf13/afero"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	wsys "github.com/tetratelabs/wazero/sys"
)

// regFile adapts an afero.File (an *os.File from a host folder, a MemMapFs
// file, or an in-memory buffer for virtual files) to wazero's sys.File, and
// enforces on every call what the open flags and the policy allow: reads
// only if opened for reading, writes only if opened for writing, and the
// size and byte limits.
//
// Appending is emulated (seek to the end before each write) rather than
// passed to the host, so that the guest can toggle it (fcntl F_SETFL) and so
// that limits see the real offset.
type regFile struct {
	experimentalsys.UnimplementedFile

	s     *Sandbox
	m     *mount
	guest string // absolute guest path, for denials
	f     afero.File

	read, write, append bool
	// limited: writes count against the run's limits (every writable
	// mount; not virtual uploads, which have their own size cap).
	limited bool

	statT   func(fi fs.FileInfo) wsys.Stat_t
	chtimes func(atime, mtime time.Time) error
	// onWrite is called after the first successful change (output
	// artifacts bookkeeping); onClose when the guest closes the file.
	onWrite func()
	onClose func() error

	mu      sync.Mutex
	closed  bool
	wrote   bool
	release func() // gives back the open-files slot
}

var _ experimentalsys.File = (*regFile)(nil)

func (f *regFile) Dev() (uint64, experimentalsys.Errno) {
	st, errno := f.Stat()
	return st.Dev, errno
}

func (f *regFile) Ino() (wsys.Inode, experimentalsys.Errno) {
	st, errno := f.Stat()
	return st.Ino, errno
}

func (f *regFile) IsDir() (bool, experimentalsys.Errno) { return false, 0 }

func (f *regFile) IsAppend() bool { return f.append }

func (f *regFile) SetAppend(enable bool) experimentalsys.Errno {
	f.append = enable
	return 0
}

func (f *regFile) Stat() (wsys.Stat_t, experimentalsys.Errno) {
	if f.closed {
		return wsys.Stat_t{}, experimentalsys.EBADF
	}
	fi, err := f.f.Stat()
	if err != nil {
		return wsys.Stat_t{}, errnoOf(err)
	}
	return f.statT(fi), 0
}

func (f *regFile) Read(buf []byte) (int, experimentalsys.Errno) {
	if f.closed || !f.read {
		return 0, experimentalsys.EBADF
	}
	if len(buf) == 0 {
		return 0, 0
	}
	n, err := f.f.Read(buf)
	if atEOF(err) {
		err = nil
	}
	return n, errnoOf(err)
}

// atEOF reports an error that only means "nothing more to read". afero's
// in-memory files (/tmp) say io.ErrUnexpectedEOF when the offset is past the
// end; POSIX read and pread return 0 bytes there, not an error.
func atEOF(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

func (f *regFile) Pread(buf []byte, off int64) (int, experimentalsys.Errno) {
	if f.closed || !f.read {
		return 0, experimentalsys.EBADF
	}
	if off < 0 {
		return 0, experimentalsys.EINVAL
	}
	if len(buf) == 0 {
		return 0, 0
	}
	n, err := f.f.ReadAt(buf, off)
	if atEOF(err) {
		err = nil
	}
	return n, errnoOf(err)
}

func (f *regFile) Seek(offset int64, whence int) (int64, experimentalsys.Errno) {
	if f.closed {
		return 0, experimentalsys.EBADF
	}
	if whence < io.SeekStart || whence > io.SeekEnd {
		return 0, experimentalsys.EINVAL
	}
	// The resulting offset is checked here, not left to the file: afero's
	// in-memory files (/tmp, virtual files) accept any offset, and a
	// negative one makes their next read or write index out of range.
	var base int64
	switch whence {
	case io.SeekCurrent:
		cur, err := f.f.Seek(0, io.SeekCurrent)
		if err != nil {
			return 0, errnoOf(err)
		}
		base = cur
	case io.SeekEnd:
		size, errno := f.size()
		if errno != 0 {
			return 0, errno
		}
		base = size
	}
	target, ok := addOffset(base, offset)
	if !ok || target < 0 {
		return 0, experimentalsys.EINVAL
	}
	n, err := f.f.Seek(target, io.SeekStart)
	return n, errnoOf(err)
}

// addOffset adds two file offsets; ok is false if the sum overflows int64
// (POSIX EOVERFLOW; the guest sees EINVAL).
func addOffset(a, b int64) (int64, bool) {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		return 0, false
	}
	return s, true
}

func (f *regFile) size() (int64, experimentalsys.Errno) {
	fi, err := f.f.Stat()
	if err != nil {
		return 0, errnoOf(err)
	}
	return fi.Size(), 0
}

// admit checks a write of n bytes ending at end against the limits.
func (f *regFile) admit(end int64, n int) experimentalsys.Errno {
	if !f.limited {
		return 0
	}
	if err := f.s.admitWrite(f.guest, end, int64(n)); err != nil {
		return f.s.fail(err)
	}
	return 0
}

// changed records n bytes written (n may be 0 for a shrinking truncate).
func (f *regFile) changed(n int) {
	if f.limited && n > 0 {
		f.s.chargeWrite(int64(n))
	}
	if !f.wrote {
		f.wrote = true
		if f.onWrite != nil {
			f.onWrite()
		}
	}
}

func (f *regFile) Write(buf []byte) (int, experimentalsys.Errno) {
	if f.closed || !f.write {
		return 0, experimentalsys.EBADF
	}
	if len(buf) == 0 {
		return 0, 0
	}
	var off int64
	var err error
	if f.append {
		off, err = f.f.Seek(0, io.SeekEnd)
	} else {
		off, err = f.f.Seek(0, io.SeekCurrent)
	}
	if err != nil {
		return 0, errnoOf(err)
	}
	end, ok := addOffset(off, int64(len(buf)))
	if off < 0 || !ok {
		return 0, experimentalsys.EINVAL
	}
	if errno := f.admit(end, len(buf)); errno != 0 {
		return 0, errno
	}
	n, err := f.f.Write(buf)
	if n > 0 {
		f.changed(n)
	}
	return n, errnoOf(err)
}

func (f *regFile) Pwrite(buf []byte, off int64) (int, experimentalsys.Errno) {
	if f.closed || !f.write {
		return 0, experimentalsys.EBADF
	}
	if off < 0 {
		return 0, experimentalsys.EINVAL
	}
	if len(buf) == 0 {
		return 0, 0
	}
	end, ok := addOffset(off, int64(len(buf)))
	if !ok {
		return 0, experimentalsys.EINVAL
	}
	if errno := f.admit(end, len(buf)); errno != 0 {
		return 0, errno
	}
	// pwrite leaves the file offset alone. An *os.File's WriteAt does;
	// afero's in-memory files move it, so it is put back.
	var restore func()
	if _, isOS := f.f.(*os.File); !isOS {
		prev, err := f.f.Seek(0, io.SeekCurrent)
		if err != nil {
			return 0, errnoOf(err)
		}
		restore = func() { f.f.Seek(prev, io.SeekStart) }
	}
	n, err := f.f.WriteAt(buf, off)
	if restore != nil {
		restore()
	}
	if n > 0 {
		f.changed(n)
	}
	return n, errnoOf(err)
}

func (f *regFile) Truncate(size int64) experimentalsys.Errno {
	if f.closed || !f.write {
		return experimentalsys.EBADF
	}
	if size < 0 {
		return experimentalsys.EINVAL
	}
	cur, errno := f.size()
	if errno != 0 {
		return errno
	}
	if size > cur {
		if errno := f.admit(size, int(size-cur)); errno != 0 {
			return errno
		}
	}
	if err := f.f.Truncate(size); err != nil {
		return errnoOf(err)
	}
	if size > cur {
		f.changed(int(size - cur))
	} else if size != cur {
		f.changed(0)
	}
	return 0
}

func (f *regFile) Sync() experimentalsys.Errno {
	if f.closed {
		return experimentalsys.EBADF
	}
	return errnoOf(f.f.Sync())
}

func (f *regFile) Datasync() experimentalsys.Errno { return f.Sync() }

func (f *regFile) Utimens(atim, mtim int64) experimentalsys.Errno {
	if f.closed {
		return experimentalsys.EBADF
	}
	if f.chtimes == nil {
		return experimentalsys.EROFS
	}
	return errnoOf(f.chtimes(nanoTime(atim), nanoTime(mtim)))
}

// nanoTime converts a WASI timestamp; UTIME_OMIT becomes the zero time,
// which os.Chtimes and our backends read as "leave unchanged".
func nanoTime(ns int64) time.Time {
	if ns == experimentalsys.UTIME_OMIT {
		return time.Time{}
	}
	return time.Unix(0, ns)
}

func (f *regFile) Close() experimentalsys.Errno {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return 0
	}
	f.closed = true
	f.mu.Unlock()
	// onClose runs before the handle is closed: a virtual upload reads
	// the bytes back from it.
	var cerr error
	if f.onClose != nil {
		cerr = f.onClose()
	}
	err := f.f.Close()
	if f.release != nil {
		f.release()
	}
	if cerr != nil {
		return f.s.fail(cerr)
	}
	return errnoOf(err)
}

// dirFile is an open folder. Its entries are listed when first read (and
// again after a rewind), which is how merged copy-on-write folders, the
// synthetic folders above the mounts and virtual folders all work the same.
type dirFile struct {
	experimentalsys.DirFile

	list    func() ([]experimentalsys.Dirent, error)
	stat    func() (wsys.Stat_t, error)
	chtimes func(atime, mtime time.Time) error

	ents    []experimentalsys.Dirent
	loaded  bool
	closed  bool
	release func()
}

var _ experimentalsys.File = (*dirFile)(nil)

func (d *dirFile) Dev() (uint64, experimentalsys.Errno) {
	st, errno := d.Stat()
	return st.Dev, errno
}

func (d *dirFile) Ino() (wsys.Inode, experimentalsys.Errno) {
	st, errno := d.Stat()
	return st.Ino, errno
}

func (d *dirFile) Stat() (wsys.Stat_t, experimentalsys.Errno) {
	if d.closed {
		return wsys.Stat_t{}, experimentalsys.EBADF
	}
	st, err := d.stat()
	return st, errnoOf(err)
}

func (d *dirFile) Seek(offset int64, whence int) (int64, experimentalsys.Errno) {
	if d.closed {
		return 0, experimentalsys.EBADF
	}
	if offset == 0 && whence == io.SeekStart {
		d.loaded, d.ents = false, nil
		return 0, 0
	}
	return 0, experimentalsys.EISDIR
}

func (d *dirFile) Readdir(n int) ([]experimentalsys.Dirent, experimentalsys.Errno) {
	if d.closed {
		return nil, experimentalsys.EBADF
	}
	if !d.loaded {
		ents, err := d.list()
		if err != nil {
			return nil, errnoOf(err)
		}
		d.ents, d.loaded = ents, true
	}
	if n <= 0 || n > len(d.ents) {
		n = len(d.ents)
	}
	out := d.ents[:n:n]
	d.ents = d.ents[n:]
	return out, 0
}

func (d *dirFile) Sync() experimentalsys.Errno     { return 0 }
func (d *dirFile) Datasync() experimentalsys.Errno { return 0 }

func (d *dirFile) Utimens(atim, mtim int64) experimentalsys.Errno {
	if d.closed {
		return experimentalsys.EBADF
	}
	if d.chtimes == nil {
		return experimentalsys.EROFS
	}
	return errnoOf(d.chtimes(nanoTime(atim), nanoTime(mtim)))
}

func (d *dirFile) Close() experimentalsys.Errno {
	if d.closed {
		return 0
	}
	d.closed = true
	if d.release != nil {
		d.release()
	}
	return 0
}

// direntsOf turns backend infos into dirents.
func direntsOf(be backend, dir string, infos []fs.FileInfo) []experimentalsys.Dirent {
	out := make([]experimentalsys.Dirent, 0, len(infos))
	for _, fi := range infos {
		name := joinRel(dir, fi.Name())
		st := be.statT(name, fi)
		out = append(out, experimentalsys.Dirent{Name: fi.Name(), Ino: st.Ino, Type: fi.Mode().Type()})
	}
	return out
}

// joinRel joins a mount-relative folder and a name.
func joinRel(dir, name string) string {
	if dir == "." || dir == "" {
		return name
	}
	return dir + "/" + name
}
