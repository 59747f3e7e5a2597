package fsbridge

import (
	"io"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/afero/mem"
)

// memChunk is the unit in which in-memory file content is allocated. A
// write allocates only the chunks it touches; a hole (a seek past the end,
// or a truncate that grows a file) allocates nothing and reads as zeros.
// Small chunks keep the gap between what the guest wrote and what the host
// holds small; limits count whole chunks, so that gap is charged too.
const memChunk = 4096

// memAccount counts the bytes of content a group of in-memory files holds
// (every /tmp file of a Sandbox, or one upload buffer).
type memAccount struct {
	allocated atomic.Int64
	// limit is the most the group may hold (0: no limit); writes check it
	// before allocating (see regFile.writeAt).
	limit int64
}

// memData is the content of one in-memory file: a sparse set of chunks.
// Decision: content lives here, not in afero's FileData (a flat []byte that
// a seek of 200 MiB followed by a one-byte write fills with 200 MiB of
// zeros, with transient copies on top), so that what the host holds is
// what the guest wrote, counted exactly in acct.
type memData struct {
	acct *memAccount

	mu     sync.Mutex
	size   int64
	chunks map[int64]*[memChunk]byte
	// open counts handles; unlinked marks content no name refers to any
	// more (freed when the last handle closes).
	open     int
	unlinked bool
	// names are the tree's records (one per name: hard links) that share
	// this content; their mode and times are kept equal. ino is the file's
	// inode number, the same under every name and across renames.
	names []*mem.FileData
	ino   uint64
	// atime, if set, is the access time set by utime (MemMapFs keeps one
	// time only); unset, the file reports its modification time.
	atime time.Time
}

func newMemData(acct *memAccount, ino uint64) *memData {
	return &memData{acct: acct, chunks: map[int64]*[memChunk]byte{}, ino: ino}
}

// setModTime sets the modification time under every name of the file.
func (d *memData) setModTime(t time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, n := range d.names {
		mem.SetModTime(n, t)
	}
}

// nlink is the number of names the file has.
func (d *memData) nlink() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.names)
}

// Size returns the file's size in bytes (its apparent size, holes
// included).
func (d *memData) Size() int64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.size
}

// newBytes returns the bytes of content a write of n bytes at off would
// allocate: memChunk for every chunk of the range not yet allocated.
func (d *memData) newBytes(off, n int64) int64 {
	if n <= 0 {
		return 0
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var cost int64
	for c := off / memChunk; c <= (off+n-1)/memChunk; c++ {
		if d.chunks[c] == nil {
			cost += memChunk
		}
	}
	return cost
}

func (d *memData) readAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, syscall.EINVAL
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if off >= d.size {
		return 0, io.EOF
	}
	want := len(p)
	if rest := d.size - off; int64(want) > rest {
		want = int(rest)
	}
	n := 0
	for n < want {
		pos := off + int64(n)
		c, in := pos/memChunk, int(pos%memChunk)
		step := min(memChunk-in, want-n)
		if ch := d.chunks[c]; ch != nil {
			copy(p[n:n+step], ch[in:in+step])
		} else {
			clear(p[n : n+step])
		}
		n += step
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (d *memData) writeAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, syscall.EINVAL
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	n := 0
	for n < len(p) {
		pos := off + int64(n)
		c, in := pos/memChunk, int(pos%memChunk)
		step := min(memChunk-in, len(p)-n)
		ch := d.chunks[c]
		if ch == nil {
			ch = new([memChunk]byte)
			d.chunks[c] = ch
			d.acct.allocated.Add(memChunk)
		}
		copy(ch[in:in+step], p[n:n+step])
		n += step
	}
	if end := off + int64(n); end > d.size {
		d.size = end
	}
	return n, nil
}

// truncate sets the size. Growing allocates nothing; shrinking frees the
// chunks past the end and zeroes the tail of the last one, so that a later
// growth reads zeros there.
func (d *memData) truncate(size int64) error {
	if size < 0 {
		return syscall.EINVAL
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if size < d.size {
		last := (size + memChunk - 1) / memChunk // first chunk wholly past the end
		for c := range d.chunks {
			if c >= last {
				delete(d.chunks, c)
				d.acct.allocated.Add(-memChunk)
			}
		}
		if in := size % memChunk; in != 0 {
			if ch := d.chunks[size/memChunk]; ch != nil {
				clear(ch[in:])
			}
		}
	}
	d.size = size
	return nil
}

// free drops all content.
func (d *memData) free() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.acct.allocated.Add(-int64(len(d.chunks)) * memChunk)
	d.chunks = map[int64]*[memChunk]byte{}
	d.size = 0
}

// ReadAt implements io.ReaderAt (an upload is streamed from it).
func (d *memData) ReadAt(p []byte, off int64) (int, error) { return d.readAt(p, off) }

// bytes returns the whole content as one slice (for an upload).
func (d *memData) bytes() []byte {
	b := make([]byte, d.Size())
	n, _ := d.readAt(b, 0)
	return b[:n]
}

// memInfo is a FileInfo of an in-memory file with its real size (afero's
// own FileData holds no content).
type memInfo struct {
	fs.FileInfo
	size int64
}

func (i memInfo) Size() int64 { return i.size }

// memHandle is an open in-memory file: afero's FileData for the name, mode
// and times, memData for the content. It implements afero.File.
type memHandle struct {
	meta *mem.FileData
	data *memData

	mu     sync.Mutex
	off    int64
	closed bool
	// onLast runs when the last handle of unlinked content closes.
	onLast func()
}

func newMemHandle(meta *mem.FileData, data *memData) *memHandle {
	data.mu.Lock()
	data.open++
	data.mu.Unlock()
	return &memHandle{meta: meta, data: data}
}

func (h *memHandle) touch() { h.data.setModTime(time.Now()) }

func (h *memHandle) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return os.ErrClosed
	}
	h.closed = true
	h.mu.Unlock()
	d := h.data
	d.mu.Lock()
	d.open--
	last := d.open == 0 && d.unlinked
	d.mu.Unlock()
	if last {
		d.free()
	}
	return nil
}

func (h *memHandle) Read(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n, err := h.data.readAt(p, h.off)
	h.off += int64(n)
	return n, err
}

func (h *memHandle) ReadAt(p []byte, off int64) (int, error) { return h.data.readAt(p, off) }

func (h *memHandle) Seek(offset int64, whence int) (int64, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var base int64
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		base = h.off
	case io.SeekEnd:
		base = h.data.Size()
	default:
		return 0, syscall.EINVAL
	}
	if base+offset < 0 {
		return 0, syscall.EINVAL
	}
	h.off = base + offset
	return h.off, nil
}

func (h *memHandle) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n, err := h.data.writeAt(p, h.off)
	h.off += int64(n)
	if n > 0 {
		h.touch()
	}
	return n, err
}

func (h *memHandle) WriteAt(p []byte, off int64) (int, error) {
	n, err := h.data.writeAt(p, off)
	if n > 0 {
		h.touch()
	}
	return n, err
}

func (h *memHandle) WriteString(s string) (int, error) { return h.Write([]byte(s)) }

func (h *memHandle) Truncate(size int64) error {
	if err := h.data.truncate(size); err != nil {
		return err
	}
	h.touch()
	return nil
}

func (h *memHandle) Name() string { return h.meta.Name() }

func (h *memHandle) Stat() (fs.FileInfo, error) {
	return memInfo{FileInfo: mem.GetFileInfo(h.meta), size: h.data.Size()}, nil
}

func (h *memHandle) Sync() error { return nil }

func (h *memHandle) Readdir(int) ([]fs.FileInfo, error) { return nil, syscall.ENOTDIR }
func (h *memHandle) Readdirnames(int) ([]string, error) { return nil, syscall.ENOTDIR }

// writeCost implements writeCoster: what a write of n bytes at off (or,
// with n == 0, a truncate to off) adds to the host's load. A write costs the
// bytes it writes, or the chunks it allocates if more; a truncate costs
// nothing (holes are not stored).
func (h *memHandle) writeCost(off, n int64) int64 {
	if n <= 0 {
		return 0
	}
	return max(n, h.data.newBytes(off, n))
}
