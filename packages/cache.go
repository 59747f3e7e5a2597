package packages

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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

// The older layout of an extracted bundle (before the pack, pack.go),
// still read: the bundle's files under files/, and an index of them,
// written last.
const (
	extractedFiles = "files"
	extractedIndex = "index"
	indexHeader    = "pybox-bundle-index 1"
)

// testHookExtracted, if set, is called by loadCached between extracting a
// bundle and installing it (tests make several extractions meet there).
var testHookExtracted func()

// loadCached returns the bundle whose compressed bytes are compressed,
// extracting it under cacheDir on first use (into one file, the pack:
// pack.go). Later processes map the pack and read only its index; a file's
// pages are read when a guest reads it, so the bundle costs neither
// decompression time nor memory per process.
// sum is the hex SHA-256 of compressed when known (the embedded bundle's is
// committed beside it), "" to compute it.
func loadCached(cacheDir string, compressed []byte, sum string) (*Bundle, error) {
	if len(sum) < 24 {
		s := sha256.Sum256(compressed)
		sum = hex.EncodeToString(s[:])
	}
	base := filepath.Join(cacheDir, "bundle-"+sum[:24])
	// Installation is one rename, so a folder with a pack is complete. A
	// folder whose pack is missing or fails openPack's checks (damaged by
	// hand) is never deleted, since another process could be installing or
	// reading it; the next name is used.
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
	if err := extractPack(tmp, compressed); err != nil {
		return nil, err
	}
	if testHookExtracted != nil {
		testHookExtracted()
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

// openExtracted loads the bundle extracted into dir: its pack, or a folder
// of the older layout (openFolderLayout).
func openExtracted(dir string) (*Bundle, error) {
	b, err := openPack(filepath.Join(dir, packName))
	if errors.Is(err, fs.ErrNotExist) {
		return openFolderLayout(dir)
	}
	return b, err
}

// openFolderLayout loads a bundle extracted by pybox before the pack: its
// index, manifest and python.wasm; other files stay on disk, each opened
// when a guest opens it.
func openFolderLayout(dir string) (*Bundle, error) {
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
