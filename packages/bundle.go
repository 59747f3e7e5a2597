package packages

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/pybox-dev/pybox/assets"
)

// Bundle is a decoded runtime bundle: the interpreter and the files the guest
// sees under /usr/local.
type Bundle struct {
	// Wasm is python.wasm, the CPython interpreter compiled for wasm32-wasi.
	// It must not be modified: in a bundle extracted into the cache folder
	// (Default) it is the file mapped read-only.
	Wasm []byte
	// Files holds everything else in the bundle, rooted at the guest's
	// /usr/local: lib/python3.11/... (stdlib .pyc files, site-packages).
	Files *Tree
	// Manifest describes how the bundle was built.
	Manifest Manifest
	// ID is the hex sha256 of Wasm. It keys the compilation cache.
	ID string
	// Checksum is the hex sha256 of the compressed bundle this was read
	// from, when known ("" otherwise): it names everything in the bundle,
	// and keys snapshots of booted interpreters kept in the cache folder.
	Checksum string
}

// Manifest is the build record written by scripts/build-runtime.sh.
type Manifest struct {
	Format  int      `json:"format"`
	Python  string   `json:"python"`
	Sources []Source `json:"sources"`
	// Raw is the whole manifest as it was read, including fields this
	// version of pybox does not interpret.
	Raw json.RawMessage `json:"-"`
}

// Source is one upstream source package that went into the bundle.
type Source struct {
	Name         string   `json:"name"`
	Version      string   `json:"version"`
	DebianSource string   `json:"debian_source,omitempty"`
	File         string   `json:"file"`
	SHA256       string   `json:"sha256"`
	License      string   `json:"license"`
	Patches      []string `json:"patches,omitempty"`
}

// maxBundleFile bounds a single file inside a bundle: a corrupt or hostile
// tar cannot make the decoder allocate without limit.
const maxBundleFile = 512 << 20

var (
	defaultOnce   sync.Once
	defaultBundle *Bundle
	defaultErr    error
)

// BundleEnv names the environment variable that points Default at a bundle
// file (runtime.tar.zst) instead of the one embedded in the binary: for
// operators who build their own bundle, and for comparing builds.
const BundleEnv = "PYBOX_BUNDLE"

// Default returns the runtime bundle: the file named by $PYBOX_BUNDLE if set,
// else the one embedded in this binary (package assets). It is shared by
// every caller in the process.
//
// The first process to use a bundle extracts it into the cache folder
// (CacheDir, under "bundle-" and a hash of the compressed bundle: one
// file, the pack, 225 MB; about a second of CPU); later ones map it and
// read only its index, and guests read the other files from the mapping
// as they import them. DefaultPackages lists the bundle's packages without this. Where the cache folder
// cannot be written, the bundle is decoded into memory instead (about 0.2 s
// and 40 MB per process).
func Default() (*Bundle, error) {
	defaultOnce.Do(func() {
		compressed, what, sum := assets.Runtime, "embedded runtime bundle", assets.RuntimeSHA256
		if path := os.Getenv(BundleEnv); path != "" {
			var err error
			if compressed, err = os.ReadFile(path); err != nil {
				defaultErr = fmt.Errorf("open runtime bundle: %w", err)
				return
			}
			what, sum = "runtime bundle "+path, ""
		}
		if dir, err := CacheDir(); err == nil {
			if defaultBundle, defaultErr = loadCached(dir, compressed, sum); defaultErr == nil {
				return
			}
		}
		defaultBundle, defaultErr = Decode(bytes.NewReader(compressed))
		if defaultErr != nil {
			defaultErr = fmt.Errorf("decode %s: %w", what, defaultErr)
		} else {
			defaultBundle.Checksum = sum
		}
	})
	return defaultBundle, defaultErr
}

// Open decodes the bundle file at path.
func Open(path string) (*Bundle, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open runtime bundle: %w", err)
	}
	defer f.Close()
	b, err := Decode(f)
	if err != nil {
		return nil, fmt.Errorf("decode runtime bundle %s: %w", path, err)
	}
	return b, nil
}

// Decode reads a zstd-compressed tar bundle as written by
// scripts/build-runtime.sh.
func Decode(r io.Reader) (*Bundle, error) {
	zr, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1))
	if err != nil {
		return nil, fmt.Errorf("zstd: %w", err)
	}
	defer zr.Close()
	return decodeTar(zr)
}

func decodeTar(r io.Reader) (*Bundle, error) {
	tr := tar.NewReader(r)
	b := &Bundle{}
	tb := newTreeBuilder()
	var manifest []byte
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("tar: %w", err)
		}
		name := strings.TrimPrefix(h.Name, "./")
		switch h.Typeflag {
		case tar.TypeDir:
			// Directories may be empty (lib-dynload is CPython's
			// exec_prefix landmark), so they are recorded too.
			if d := strings.TrimSuffix(name, "/"); d != "" && d != "." {
				tb.dir(d)
			}
			continue
		case tar.TypeReg:
		default:
			return nil, fmt.Errorf("tar: %s: unsupported entry type %q (only files and directories)", h.Name, h.Typeflag)
		}
		if h.Size > maxBundleFile {
			return nil, fmt.Errorf("tar: %s: %d bytes is larger than the %d byte limit", h.Name, h.Size, maxBundleFile)
		}
		data := make([]byte, h.Size)
		if _, err := io.ReadFull(tr, data); err != nil {
			return nil, fmt.Errorf("tar: read %s: %w", h.Name, err)
		}
		switch name {
		case "python.wasm":
			b.Wasm = data
		case "manifest.json":
			manifest = data
		default:
			if err := tb.file(name, data, h.FileInfo().Mode()); err != nil {
				return nil, fmt.Errorf("tar: %w", err)
			}
		}
	}
	if b.Wasm == nil {
		return nil, errors.New("bundle has no python.wasm")
	}
	if manifest == nil {
		return nil, errors.New("bundle has no manifest.json")
	}
	if err := setManifest(b, manifest); err != nil {
		return nil, err
	}
	b.Files = tb.done()
	sum := sha256.Sum256(b.Wasm)
	b.ID = hex.EncodeToString(sum[:])
	return b, nil
}
