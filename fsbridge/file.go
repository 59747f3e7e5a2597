package fsbridge

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
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
	r     *runRec // the run that opened it (set by sandboxFS.OpenFile)
	m     *mount
	guest string // absolute guest path, for denials
	f     afero.File

	read, write, append bool
	// nonblock is O_NONBLOCK as the guest set it (os.set_blocking); as on
	// Linux it changes nothing for a regular file, which is always ready.
	nonblock bool
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
	// refused is the message of the last write the limits refused, so
	// that an upload cut short is not sent.
	refused string
}

var _ experimentalsys.PollableFile = (*regFile)(nil)

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

// IsNonblock implements experimentalsys.PollableFile: wazero reports it in
// fd_fdstat_get (os.get_blocking).
func (f *regFile) IsNonblock() bool { return f.nonblock }

// SetNonblock implements experimentalsys.PollableFile: wazero's
// fd_fdstat_set_flags (os.set_blocking, fcntl F_SETFL) needs it, and refused
// O_NONBLOCK with ENOSYS on a file that lacks it. Reads and writes do not
// change: a regular file never blocks.
func (f *regFile) SetNonblock(enable bool) experimentalsys.Errno {
	if f.closed {
		return experimentalsys.EBADF
	}
	f.nonblock = enable
	return 0
}

// Poll implements experimentalsys.PollableFile: a regular file is always
// ready.
func (f *regFile) Poll(experimentalsys.Pflag, int32) (bool, experimentalsys.Errno) {
	if f.closed {
		return false, experimentalsys.EBADF
	}
	return true, 0
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

// writeCoster is implemented by files that know what a change costs the
// host (in-memory files, which store holes for free but allocate whole
// chunks).
type writeCoster interface {
	writeCost(off, n int64) int64
}

// cost is what writing n bytes at off (n == 0: truncating the file to off)
// counts against the bytes written per run. Decision: for a host file it is
// the bytes written or, if more, how much the file grows, holes included:
// a seek far past the end followed by a one-byte write makes a file whose
// every byte the host reads back after the run (artifacts and change
// tracking hash it), so the run pays for all of it, and what the host
// reads after a run is bounded by what the guest was allowed to write.
func (f *regFile) cost(off, n int64) (int64, experimentalsys.Errno) {
	if wc, ok := f.f.(writeCoster); ok {
		return wc.writeCost(off, n), 0
	}
	size, errno := f.size()
	if errno != 0 {
		return 0, errno
	}
	return max(n, off+n-size), 0
}

// admit checks a change ending at end that costs cost (see regFile.cost)
// against the limits.
func (f *regFile) admit(end, cost int64) experimentalsys.Errno {
	if !f.limited {
		return 0
	}
	if err := f.s.admitWrite(f.guest, end, cost); err != nil {
		f.refused = err.Error()
		return f.run().fail(err)
	}
	return 0
}

// changed records a change that cost cost (0 for a shrinking truncate).
func (f *regFile) changed(cost int64) {
	if f.limited && cost > 0 {
		f.s.chargeWrite(cost)
	}
	if !f.wrote {
		f.wrote = true
		if f.onWrite != nil {
			f.onWrite()
		}
	}
}

// writeAt admits, performs and charges a write of buf at off; do writes.
func (f *regFile) writeAt(buf []byte, off int64, do func() (int, error)) (int, experimentalsys.Errno) {
	n := int64(len(buf))
	if _, ok := addOffset(off, n); off < 0 || !ok {
		return 0, experimentalsys.EINVAL
	}
	var cost int64
	if f.limited {
		var errno experimentalsys.Errno
		if cost, errno = f.cost(off, n); errno != 0 {
			return 0, errno
		}
	}
	if errno := f.admit(off+n, cost); errno != 0 {
		return 0, errno
	}
	if mh, ok := f.f.(*memHandle); ok && f.limited && mh.data.acct.limit > 0 {
		acct := mh.data.acct
		if need := mh.data.newBytes(off, n); need > 0 && acct.allocated.Load()+need > acct.limit {
			err := deny("write", f.guest, fmt.Sprintf("is on %s, which is full (it may hold %s, the limit of bytes written per run, and holds %s); delete files there to make room",
				f.m.guest, formatBytes(acct.limit), formatBytes(acct.allocated.Load())), experimentalsys.EIO, "ENOSPC")
			f.refused = err.Error()
			return 0, f.run().fail(err)
		}
	}
	w, err := do()
	if w > 0 {
		f.changed(cost)
	}
	return w, errnoOf(err)
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
	return f.writeAt(buf, off, func() (int, error) { return f.f.Write(buf) })
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
	return f.writeAt(buf, off, func() (int, error) { return f.f.WriteAt(buf, off) })
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
	var cost int64
	if size > cur {
		if wc, ok := f.f.(writeCoster); ok {
			cost = wc.writeCost(size, 0)
		} else {
			cost = size - cur
		}
		if errno := f.admit(size, cost); errno != 0 {
			return errno
		}
	}
	if err := f.f.Truncate(size); err != nil {
		return errnoOf(err)
	}
	if size != cur {
		f.changed(cost)
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
		return f.run().fail(cerr)
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

// run is the run that opened f: its refusals and writes are recorded
// there (the Sandbox's default run for files opened otherwise).
func (f *regFile) run() *runRec {
	if f.r != nil {
		return f.r
	}
	return f.s.runRec
}
