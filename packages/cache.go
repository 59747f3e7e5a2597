package packages

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// CacheDirEnv names the environment variable that chooses pybox's cache
// folder: the extracted runtime bundle and the compiled interpreter.
const CacheDirEnv = "PYBOX_CACHE_DIR"

// CacheDir returns pybox's cache folder: $PYBOX_CACHE_DIR, or "pybox" in the
// user's cache folder.
func CacheDir() (string, error) {
	return userDir(CacheDirEnv, os.UserCacheDir, "cache", "pybox")
}

// userDir is $env if set, else the parts joined under base() (the user's
// cache or config folder, named what in the error when there is none).
func userDir(env string, base func() (string, error), what string, parts ...string) (string, error) {
	if d := os.Getenv(env); d != "" {
		return d, nil
	}
	b, err := base()
	if err != nil {
		return "", fmt.Errorf("find user %s dir (set %s to choose one): %w", what, env, err)
	}
	return filepath.Join(append([]string{b}, parts...)...), nil
}

// The extracted bundle's layout: the bundle's files under files/, and an
// index of them, written last, so a folder with an index is complete.
const (
	extractedFiles = "files"
	extractedIndex = "index"
	indexHeader    = "pybox-bundle-index 1"
)

// loadCached returns the bundle whose compressed bytes are compressed,
// extracting it under cacheDir on first use. Later processes only read the
// index and python.wasm; every other file is read when a guest opens it, so
// the bundle costs neither decompression time nor memory per process.
// sum is the hex SHA-256 of compressed when known (the embedded bundle's is
// committed beside it), "" to compute it.
func loadCached(cacheDir string, compressed []byte, sum string) (*Bundle, error) {
	if len(sum) < 24 {
		s := sha256.Sum256(compressed)
		sum = hex.EncodeToString(s[:])
	}
	base := filepath.Join(cacheDir, "bundle-"+sum[:24])
	// Installation is one rename, so a folder with an index is complete. A
	// folder without one (damaged by hand) is never deleted, since another
	// process could be installing or reading it; the next name is used.
	dirs := []string{base, base + ".1", base + ".2"}
	withSum := func(b *Bundle, err error) (*Bundle, error) {
		if err == nil {
			b.Checksum = sum
		}
		return b, err
	}
	for _, dir := range dirs {
		if b, err := openExtracted(dir); err == nil {
			return withSum(b, nil)
		}
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return nil, fmt.Errorf("create cache dir: %w", err)
	}
	tmp, err := os.MkdirTemp(cacheDir, ".bundle-tmp-")
	if err != nil {
		return nil, fmt.Errorf("create cache dir: %w", err)
	}
	defer os.RemoveAll(tmp)
	if err := extractBundle(tmp, compressed); err != nil {
		return nil, err
	}
	for _, dir := range dirs {
		if err := os.Rename(tmp, dir); err == nil {
			return withSum(openExtracted(dir))
		}
		// Taken: by another process that extracted it at the same moment
		// (use theirs), or by a damaged leftover (try the next name).
		if b, err := openExtracted(dir); err == nil {
			return withSum(b, nil)
		}
	}
	return nil, fmt.Errorf("install extracted bundle: %s and the next names are taken by damaged folders; remove them", base)
}

// extractBundle decodes the compressed tar into dir/files and writes dir/index.
//
// It is what a first run on an empty cache folder waits for (5,190 files),
// so each folder is created once and kept open (an os.Root per folder), each
// file is created with one openat below its folder's handle, and the files
// are written by extractWriters goroutines while the tar is decoded. Nothing
// can land outside dir/files: names are checked (fs.ValidPath), every open
// is of one name below a folder handle opened by this function, and only
// folders and regular files are ever created (no links to follow).
func extractBundle(dir string, compressed []byte) error {
	zr, err := zstd.NewReader(bytes.NewReader(compressed), zstd.WithDecoderConcurrency(1))
	if err != nil {
		return fmt.Errorf("zstd: %w", err)
	}
	defer zr.Close()
	if err := os.Mkdir(filepath.Join(dir, extractedFiles), 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(filepath.Join(dir, extractedFiles))
	if err != nil {
		return err
	}
	x := newExtractor(root)
	index, werr := x.decode(tar.NewReader(zr))
	if err := x.finish(); werr == nil {
		werr = err
	}
	if werr != nil {
		return werr
	}
	if x.wasmID != "" {
		index += "id " + x.wasmID + "\n"
	}
	return os.WriteFile(filepath.Join(dir, extractedIndex), []byte(index), 0o444)
}

// extractWriters is how many goroutines write extracted files while the
// tar is decoded; extractQueue how many decoded files may wait for them.
// Files larger than extractBuffered are written by the decoding goroutine
// as they are decoded.
const (
	extractWriters        = 2
	extractQueue          = 16
	extractBuffered int64 = 1 << 20
)

// extractor writes a bundle's files below one root folder.
type extractor struct {
	dirs   map[string]*os.Root // folders created so far, "." the root; open
	jobs   chan extractJob
	wg     sync.WaitGroup
	mu     sync.Mutex
	err    error  // the first write error
	wasmID string // hex SHA-256 of python.wasm
}

// extractJob is one file to write: name in folder dir.
type extractJob struct {
	dir  *os.Root
	name string // the file's path below the root, for errors
	base string // its name in dir
	data []byte
}

func newExtractor(root *os.Root) *extractor {
	x := &extractor{dirs: map[string]*os.Root{".": root}, jobs: make(chan extractJob, extractQueue)}
	for range extractWriters {
		x.wg.Add(1)
		go x.write()
	}
	return x
}

// decode reads the tar, creating folders and handing files to the writers,
// and returns the index text (without the python.wasm id line).
func (x *extractor) decode(tr *tar.Reader) (string, error) {
	var index strings.Builder
	index.WriteString(indexHeader + "\n")
	for {
		if err := x.failed(); err != nil {
			return "", err
		}
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return index.String(), nil
		}
		if err != nil {
			return "", fmt.Errorf("tar: %w", err)
		}
		name := path.Clean(strings.TrimPrefix(h.Name, "./"))
		if name == "." {
			continue
		}
		if !fs.ValidPath(name) || strings.ContainsAny(name, "\n\r") {
			return "", fmt.Errorf("tar: %q: invalid path", h.Name)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if _, err := x.mkdir(name); err != nil {
				return "", fmt.Errorf("extract %s: %w", name, err)
			}
			fmt.Fprintf(&index, "d %s\n", name)
			continue
		case tar.TypeReg:
		default:
			return "", fmt.Errorf("tar: %s: unsupported entry type %q (only files and directories)", h.Name, h.Typeflag)
		}
		if h.Size < 0 || h.Size > maxBundleFile {
			return "", fmt.Errorf("tar: %s: %d bytes is outside the 0 to %d byte limit", h.Name, h.Size, maxBundleFile)
		}
		d, base := splitPath(name)
		parent, err := x.mkdir(d)
		if err != nil {
			return "", fmt.Errorf("extract %s: %w", name, err)
		}
		if h.Size > extractBuffered || name == "python.wasm" {
			// A big file (python.wasm is 40 MB) is copied from the tar as
			// it is decoded rather than held whole in memory.
			if err := x.writeStream(parent, name, base, tr); err != nil {
				return "", err
			}
		} else {
			data := make([]byte, h.Size)
			if _, err := io.ReadFull(tr, data); err != nil {
				return "", fmt.Errorf("tar: read %s: %w", h.Name, err)
			}
			x.jobs <- extractJob{dir: parent, name: name, base: base, data: data}
		}
		fmt.Fprintf(&index, "f %o %d %s\n", h.FileInfo().Mode().Perm(), h.Size, name)
	}
}

// mkdir returns the open folder p (a valid path), creating it and its
// parents below the root the first time.
func (x *extractor) mkdir(p string) (*os.Root, error) {
	if r, ok := x.dirs[p]; ok {
		return r, nil
	}
	d, base := splitPath(p)
	parent, err := x.mkdir(d)
	if err != nil {
		return nil, err
	}
	if err := parent.Mkdir(base, 0o755); err != nil {
		return nil, err
	}
	r, err := parent.OpenRoot(base)
	if err != nil {
		return nil, err
	}
	x.dirs[p] = r
	return r, nil
}

// write is one writer goroutine: it creates each file (it must not exist)
// read-only, as the extracted bundle is never changed.
func (x *extractor) write() {
	defer x.wg.Done()
	for j := range x.jobs {
		if x.failed() != nil {
			continue // drain: decode stops at its next entry
		}
		f, err := j.dir.OpenFile(j.base, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o444)
		if err == nil {
			_, err = f.Write(j.data)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			x.mu.Lock()
			if x.err == nil {
				x.err = fmt.Errorf("extract %s: %w", j.name, err)
			}
			x.mu.Unlock()
		}
	}
}

// writeStream creates the file base in dir and copies the tar entry's
// contents into it as they are decoded; it hashes python.wasm on the way.
func (x *extractor) writeStream(dir *os.Root, name, base string, r io.Reader) error {
	f, err := dir.OpenFile(base, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o444)
	if err != nil {
		return fmt.Errorf("extract %s: %w", name, err)
	}
	var w io.Writer = f
	var h hash.Hash
	if name == "python.wasm" { // Bundle.ID, recorded so that loading need not hash 40 MB
		h = sha256.New()
		w = io.MultiWriter(f, h)
	}
	_, err = io.Copy(w, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("extract %s: %w", name, err)
	}
	if h != nil {
		x.wasmID = hex.EncodeToString(h.Sum(nil))
	}
	return nil
}

// failed returns the first write error, if any.
func (x *extractor) failed() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.err
}

// finish waits for the writers and closes the folders (the root too); it
// returns the first write error.
func (x *extractor) finish() error {
	close(x.jobs)
	x.wg.Wait()
	for _, r := range x.dirs {
		r.Close()
	}
	return x.failed()
}

// openExtracted loads an extracted bundle: its index, manifest and
// python.wasm; other files stay on disk.
func openExtracted(dir string) (*Bundle, error) {
	// The whole index is read at once and parsed in place: names and paths
	// are pieces of one string, nodes come from one slice, so that the few
	// thousand entries cost a few allocations rather than several each
	// (every pybox process does this).
	data, err := os.ReadFile(filepath.Join(dir, extractedIndex))
	if err != nil {
		return nil, err
	}
	index := string(data)
	idxName := filepath.Join(dir, extractedIndex)
	header, rest, _ := strings.Cut(index, "\n")
	if header != indexHeader {
		return nil, fmt.Errorf("%s: not a pybox bundle index", idxName)
	}
	root, err := os.OpenRoot(filepath.Join(dir, extractedFiles))
	if err != nil {
		return nil, err
	}
	b := &Bundle{}
	tb := newTreeBuilderSize(strings.Count(rest, "\n"))
	for rest != "" {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		bad := func() error {
			root.Close()
			return fmt.Errorf("%s: bad line %q", idxName, line)
		}
		switch {
		case strings.HasPrefix(line, "id "):
			b.ID = line[3:]
		case strings.HasPrefix(line, "d "):
			tb.dir(line[2:])
		case strings.HasPrefix(line, "f "):
			modeText, more, ok1 := strings.Cut(line[2:], " ")
			sizeText, name, ok2 := strings.Cut(more, " ")
			if !ok1 || !ok2 {
				return nil, bad()
			}
			mode, err1 := strconv.ParseUint(modeText, 8, 32)
			size, err2 := strconv.ParseInt(sizeText, 10, 64)
			if err1 != nil || err2 != nil {
				return nil, bad()
			}
			switch name {
			case "python.wasm":
				// Mapped, not read: a process that finds the interpreter
				// compiled in the cache reads only the module's structure
				// (runtime's moduleStub), a few hundred KB of its 40 MB.
				data, err := mapRootFile(root, name)
				if err != nil {
					root.Close()
					return nil, fmt.Errorf("read extracted %s: %w", name, err)
				}
				b.Wasm = data
			case "manifest.json":
				data, err := root.ReadFile(name)
				if err != nil {
					root.Close()
					return nil, fmt.Errorf("read extracted %s: %w", name, err)
				}
				if err := setManifest(b, data); err != nil {
					root.Close()
					return nil, err
				}
			default:
				if err := tb.diskFile(name, root, size, fs.FileMode(mode)); err != nil {
					root.Close()
					return nil, err
				}
			}
		default:
			return nil, bad()
		}
	}
	if b.Wasm == nil || b.Manifest.Raw == nil {
		root.Close()
		return nil, errors.New("extracted bundle lacks python.wasm or manifest.json")
	}
	b.Files = tb.done()
	if b.ID == "" { // an index written before IDs were recorded
		sum := sha256.Sum256(b.Wasm)
		b.ID = hex.EncodeToString(sum[:])
	}
	return b, nil
}

// mapRootFile maps the file name below root read-only (see mapFile).
// Extracted files are never changed in place: the folder is installed by a
// rename and then only read.
func mapRootFile(root *os.Root, name string) ([]byte, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return mapFile(f)
}

// setManifest parses manifest.json into b.
func setManifest(b *Bundle, data []byte) error {
	if err := json.Unmarshal(data, &b.Manifest); err != nil {
		return fmt.Errorf("manifest.json: %w", err)
	}
	b.Manifest.Raw = data
	return nil
}
