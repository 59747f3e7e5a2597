package packages

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/klauspost/compress/zstd"
)

// The extracted bundle is one file, the pack: every file's bytes back to
// back in the tar's order (python.wasm starting at a packAlign boundary),
// then the index, a text listing each folder and each file with its mode,
// size and offset in the pack, then a fixed-size trailer that locates the
// index and holds its CRC-32C:
//
//	[file bytes ...][index][index offset u64][index length u64][crc32c u32][0 u32][packMagic]
//
// (integers little-endian). The pack is written into a temporary folder
// and installed by renaming that folder, so a folder with a pack holds a
// complete one; opening checks the trailer, the index's CRC and every
// offset, so that a damaged pack is skipped, never used or deleted.
//
// Before this layout each file of the bundle was a file of its own under
// files/ beside an index (indexHeader): 7,066 files whose creation was
// most of a first run's time on a busy disk (docs/startup.md). Such
// folders are still read (openFolderLayout).
const (
	packName        = "pack"
	packIndexHeader = "pybox-bundle-pack 1"
	packMagic       = "pyboxpk1"
	packTrailerSize = 32
	// packAlign is where python.wasm starts in the pack: a multiple of
	// every page size in use (4 KiB, 16 KiB on Apple silicon, 64 KiB on
	// some arm64 kernels), so its pages are its own.
	packAlign = 64 << 10
	// packWriteBuffer is how many decoded bytes are written at once, and
	// packWriteBuffers how many such buffers there are (one being filled,
	// the others written or waiting to be).
	packWriteBuffer  = 1 << 20
	packWriteBuffers = 3
)

var packCRC = crc32.MakeTable(crc32.Castagnoli)

// extractPack decodes the compressed tar into dir/pack.
//
// Names are checked (fs.ValidPath, no line breaks, no file where a folder
// is needed or the same name twice) and only folders and regular files are
// accepted; a name is only a key in the index, and the only file created
// is dir/pack, so nothing can land anywhere else.
//
// It is what a first run on an empty cache folder waits for, so work is
// spread over goroutines: zstd decodes in two stages (WithDecoderConcurrency),
// and the decoded bytes are written to the file by a goroutine of their
// own (chunkWriter).
func extractPack(dir string, compressed []byte) (err error) {
	zr, err := zstd.NewReader(bytes.NewReader(compressed), zstd.WithDecoderConcurrency(2))
	if err != nil {
		return fmt.Errorf("zstd: %w", err)
	}
	defer zr.Close()
	name := filepath.Join(dir, packName)
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o444)
	if err != nil {
		return fmt.Errorf("create %s: %w", name, err)
	}
	cw := newChunkWriter(f)
	defer func() {
		werr := cw.Close()
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if err == nil && werr != nil {
			err = fmt.Errorf("write %s: %w", name, werr)
		}
	}()
	w := &packWriter{w: cw, kinds: map[string]bool{}}
	return w.decode(tar.NewReader(zr))
}

// packWriter writes a pack as its tar is decoded.
type packWriter struct {
	w     *chunkWriter
	off   int64           // bytes written so far
	kinds map[string]bool // names seen: true for a folder
	index strings.Builder
}

// decode copies each file of the tar into the pack, then writes the index
// and the trailer.
func (p *packWriter) decode(tr *tar.Reader) error {
	p.index.WriteString(packIndexHeader + "\n")
	var wasmID string
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("tar: %w", err)
		}
		name := path.Clean(strings.TrimPrefix(h.Name, "./"))
		if name == "." {
			continue
		}
		if !fs.ValidPath(name) || strings.ContainsAny(name, "\n\r") {
			return fmt.Errorf("tar: %q: invalid path", h.Name)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := p.claim(name, true); err != nil {
				return err
			}
			fmt.Fprintf(&p.index, "d %s\n", name)
			continue
		case tar.TypeReg:
		default:
			return fmt.Errorf("tar: %s: unsupported entry type %q (only files and directories)", h.Name, h.Typeflag)
		}
		if h.Size < 0 || h.Size > maxBundleFile {
			return fmt.Errorf("tar: %s: %d bytes is outside the 0 to %d byte limit", h.Name, h.Size, maxBundleFile)
		}
		if err := p.claim(name, false); err != nil {
			return err
		}
		var hw hash.Hash
		if name == "python.wasm" {
			if err := p.pad(packAlign); err != nil {
				return err
			}
			hw = sha256.New() // Bundle.ID, recorded so that loading need not hash 86 MB
		}
		start := p.off
		if err := p.copy(tr, h.Size, hw); err != nil {
			return fmt.Errorf("extract %s: %w", name, err)
		}
		if hw != nil {
			wasmID = hex.EncodeToString(hw.Sum(nil))
		}
		fmt.Fprintf(&p.index, "f %o %d %d %s\n", h.FileInfo().Mode().Perm(), h.Size, start, name)
	}
	if wasmID != "" {
		fmt.Fprintf(&p.index, "id %s\n", wasmID)
	}
	index := p.index.String()
	var trailer [packTrailerSize]byte
	binary.LittleEndian.PutUint64(trailer[0:], uint64(p.off))
	binary.LittleEndian.PutUint64(trailer[8:], uint64(len(index)))
	binary.LittleEndian.PutUint32(trailer[16:], crc32.Checksum([]byte(index), packCRC))
	copy(trailer[24:], packMagic)
	if _, err := p.w.Write([]byte(index)); err != nil {
		return fmt.Errorf("write the pack's index: %w", err)
	}
	if _, err := p.w.Write(trailer[:]); err != nil {
		return fmt.Errorf("write the pack's index: %w", err)
	}
	return nil
}

// claim records name as a folder (dir) or a file, its parents as folders,
// refusing a name seen before as a file, a file where a folder was, and a
// file as a parent: what creating them one by one on disk refused.
func (p *packWriter) claim(name string, dir bool) error {
	for i := 0; i < len(name); i++ {
		if name[i] != '/' {
			continue
		}
		parent := name[:i]
		if isDir, ok := p.kinds[parent]; ok && !isDir {
			return fmt.Errorf("extract %s: %s is a file", name, parent)
		} else if !ok {
			p.kinds[parent] = true
		}
	}
	if isDir, ok := p.kinds[name]; ok && !(isDir && dir) {
		return fmt.Errorf("extract %s: %w", name, fs.ErrExist)
	}
	p.kinds[name] = dir
	return nil
}

// pad writes zeros up to the next multiple of align.
func (p *packWriter) pad(align int64) error {
	n, err := p.w.Write(make([]byte, (align-p.off%align)%align))
	p.off += int64(n)
	if err != nil {
		return fmt.Errorf("write the pack: %w", err)
	}
	return nil
}

// copy writes the next size bytes of r into the pack (and into h if set).
func (p *packWriter) copy(r io.Reader, size int64, h hash.Hash) error {
	var w io.Writer = p.w
	if h != nil {
		w = io.MultiWriter(p.w, h)
	}
	n, err := io.CopyN(w, r, size)
	p.off += n
	return err
}

// chunkWriter gathers what is written in buffers of packWriteBuffer bytes
// and writes each full one to a file from a goroutine of its own, so that
// writing overlaps decoding. The first write error stops further writes
// and is returned by the next Write or ReadFrom, and by Close.
type chunkWriter struct {
	f    *os.File
	cur  []byte      // being filled
	full chan []byte // to write
	free chan []byte // written
	done chan struct{}
	err  atomic.Pointer[error] // the first write error
}

func newChunkWriter(f *os.File) *chunkWriter {
	w := &chunkWriter{f: f, full: make(chan []byte, packWriteBuffers), free: make(chan []byte, packWriteBuffers), done: make(chan struct{})}
	for range packWriteBuffers - 1 {
		w.free <- make([]byte, 0, packWriteBuffer)
	}
	w.cur = make([]byte, 0, packWriteBuffer)
	go w.write()
	return w
}

// write is the goroutine that writes full buffers.
func (w *chunkWriter) write() {
	defer close(w.done)
	for b := range w.full {
		if w.err.Load() == nil {
			if _, err := w.f.Write(b); err != nil {
				w.err.Store(&err)
			}
		}
		w.free <- b[:0]
	}
}

// next hands the full buffer to the writer and takes an empty one.
func (w *chunkWriter) next() error {
	if err := w.err.Load(); err != nil {
		return *err
	}
	w.full <- w.cur
	w.cur = <-w.free
	return nil
}

// Write implements io.Writer.
func (w *chunkWriter) Write(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(w.cur) == cap(w.cur) {
			if err := w.next(); err != nil {
				return n, err
			}
		}
		k := copy(w.cur[len(w.cur):cap(w.cur)], p[n:])
		w.cur = w.cur[:len(w.cur)+k]
		n += k
	}
	return n, nil
}

// ReadFrom implements io.ReaderFrom: it reads into the buffers directly.
func (w *chunkWriter) ReadFrom(r io.Reader) (int64, error) {
	var total int64
	for {
		if len(w.cur) == cap(w.cur) {
			if err := w.next(); err != nil {
				return total, err
			}
		}
		n, err := r.Read(w.cur[len(w.cur):cap(w.cur)])
		w.cur = w.cur[:len(w.cur)+n]
		total += int64(n)
		if errors.Is(err, io.EOF) {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

// Close writes what is buffered, waits for the writer and returns the
// first write error.
func (w *chunkWriter) Close() error {
	if len(w.cur) > 0 && w.err.Load() == nil {
		w.full <- w.cur
		w.cur = nil
	}
	close(w.full)
	<-w.done
	if err := w.err.Load(); err != nil {
		return *err
	}
	return nil
}

// packSource is an opened pack: mapped read-only where the platform maps
// files, otherwise read with ReadAt from the open file (kept open as long
// as the bundle is used, i.e. the process).
type packSource struct {
	mapped []byte
	f      *os.File
}

// bytes returns the pack's bytes [off, off+n): a piece of the mapping, or
// read into a new slice.
func (s *packSource) bytes(off, n int64) ([]byte, error) {
	if s.mapped != nil {
		return s.mapped[off : off+n : off+n], nil
	}
	b := make([]byte, n)
	if _, err := s.f.ReadAt(b, off); err != nil {
		return nil, err
	}
	return b, nil
}

// openPack loads the pack at name: its index into a tree, the manifest and
// python.wasm. File contents are pieces of the mapping (read by a guest as
// memory, pages coming from the page cache when first touched, shared with
// every process that maps the pack), or read from the file when opened
// where nothing is mapped; nothing is read until used, but for the index.
func openPack(name string) (*Bundle, error) { return openPackFile(name, true) }

// openPackFile is openPack, mapping the pack only if mapIt (and the
// platform can).
func openPackFile(name string, mapIt bool) (*Bundle, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	size := st.Size()
	bad := func(why string, args ...any) error {
		return fmt.Errorf("%s: damaged pack: %s", name, fmt.Sprintf(why, args...))
	}
	if !st.Mode().IsRegular() || size < packTrailerSize {
		f.Close()
		return nil, bad("%d bytes", size)
	}
	src := &packSource{f: f}
	if mapIt {
		if m, err := mapReadOnly(f, size); err == nil {
			src = &packSource{mapped: m}
			f.Close() // the mapping stays
		}
	}
	closeSrc := func() {
		if src.f != nil {
			src.f.Close()
		}
		// A mapping is left as it is: a damaged pack is rare, and a
		// slice of it could have been handed out already.
	}
	b, err := readPack(src, size, bad)
	if err != nil {
		closeSrc()
		return nil, err
	}
	return b, nil
}

// readPack parses the pack's trailer and index.
func readPack(src *packSource, size int64, bad func(string, ...any) error) (*Bundle, error) {
	trailer, err := src.bytes(size-packTrailerSize, packTrailerSize)
	if err != nil {
		return nil, err
	}
	if string(trailer[24:]) != packMagic {
		return nil, bad("no trailer")
	}
	indexOff := binary.LittleEndian.Uint64(trailer[0:])
	indexLen := binary.LittleEndian.Uint64(trailer[8:])
	dataEnd := size - packTrailerSize
	if indexOff > uint64(dataEnd) || indexLen != uint64(dataEnd)-indexOff {
		return nil, bad("index at %d, %d bytes, in %d bytes", indexOff, indexLen, size)
	}
	indexBytes, err := src.bytes(int64(indexOff), int64(indexLen))
	if err != nil {
		return nil, err
	}
	if crc32.Checksum(indexBytes, packCRC) != binary.LittleEndian.Uint32(trailer[16:]) {
		return nil, bad("the index's checksum differs")
	}
	// Names and paths are pieces of one string, nodes come from one
	// slice: the few thousand entries cost a few allocations (every pybox
	// process does this).
	index := string(indexBytes)
	header, rest, _ := strings.Cut(index, "\n")
	if header != packIndexHeader {
		return nil, bad("index header %q", header)
	}
	b := &Bundle{}
	tb := newTreeBuilderSize(strings.Count(rest, "\n"))
	for rest != "" {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		switch {
		case strings.HasPrefix(line, "id "):
			b.ID = line[3:]
		case strings.HasPrefix(line, "d "):
			if !fs.ValidPath(line[2:]) || line[2:] == "." {
				return nil, bad("line %q", line)
			}
			tb.dir(line[2:])
		case strings.HasPrefix(line, "f "):
			modeText, more, ok1 := strings.Cut(line[2:], " ")
			sizeText, more, ok2 := strings.Cut(more, " ")
			offText, name, ok3 := strings.Cut(more, " ")
			mode, err1 := strconv.ParseUint(modeText, 8, 32)
			n, err2 := strconv.ParseInt(sizeText, 10, 64)
			off, err3 := strconv.ParseInt(offText, 10, 64)
			if !ok1 || !ok2 || !ok3 || err1 != nil || err2 != nil || err3 != nil || n < 0 || off < 0 || off > int64(indexOff)-n {
				return nil, bad("line %q", line)
			}
			switch name {
			case "python.wasm":
				if b.Wasm, err = src.bytes(off, n); err != nil {
					return nil, fmt.Errorf("read python.wasm from the pack: %w", err)
				}
			case "manifest.json":
				data, err := src.bytes(off, n)
				if err != nil {
					return nil, fmt.Errorf("read manifest.json from the pack: %w", err)
				}
				if err := setManifest(b, data); err != nil {
					return nil, err
				}
			default:
				var err error
				if src.mapped != nil {
					err = tb.file(name, src.mapped[off:off+n:off+n], fs.FileMode(mode))
				} else {
					err = tb.readerFile(name, src.f, off, n, fs.FileMode(mode))
				}
				if err != nil {
					return nil, bad("%v", err)
				}
			}
		default:
			return nil, bad("line %q", line)
		}
	}
	if b.Wasm == nil || b.Manifest.Raw == nil {
		return nil, bad("no python.wasm or manifest.json")
	}
	if len(b.ID) != 64 {
		return nil, bad("no id")
	}
	b.Files = tb.done()
	return b, nil
}
