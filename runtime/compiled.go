package runtime

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	goruntime "runtime"
	"runtime/debug"
	"time"

	"github.com/pybox-dev/pybox/packages"
)

// Compiled reports whether the compilation cache in cacheDir (as
// Config.CacheDir; "" means DefaultCacheDir) holds bundle b's interpreter
// as compiled by this build of pybox, so that NewEngine loads it instead of
// compiling. It reads a marker that NewEngine writes after it compiled or
// loaded the interpreter with that cache; the marker names the bundle, the
// platform and the wazero pybox was built with (module, fork cache
// version), so a new bundle or engine reads as not compiled. A wrong answer
// costs time, never a wrong engine: the cache itself is keyed by wazero.
func Compiled(cacheDir string, b *packages.Bundle) (bool, error) {
	dir, err := cacheRoot(cacheDir)
	if err != nil {
		return false, err
	}
	_, err = os.Stat(compiledMarker(dir, b))
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	}
	return false, fmt.Errorf("compilation cache: %w", err)
}

// cacheRoot is the folder NewEngine keeps wazero's cache in.
func cacheRoot(cacheDir string) (string, error) {
	if cacheDir == "" {
		var err error
		if cacheDir, err = DefaultCacheDir(); err != nil {
			return "", err
		}
	}
	return filepath.Join(cacheDir, "wazero"), nil
}

// compiledMarker is the marker's path in wazero's cache folder dir.
func compiledMarker(dir string, b *packages.Bundle) string {
	return filepath.Join(dir, "compiled-"+b.ID[:min(16, len(b.ID))]+"-"+buildTag())
}

// markCompiled records that b's interpreter is in the cache folder dir (see
// Compiled), unless it was loaded from there and the marker exists.
// Failing to is harmless: the next process loads it anyway.
func markCompiled(dir string, b *packages.Bundle, took time.Duration, loaded bool) {
	if loaded {
		if _, err := os.Stat(compiledMarker(dir, b)); err == nil {
			return
		}
	}
	_ = os.WriteFile(compiledMarker(dir, b), fmt.Appendf(nil, "python.wasm %s compiled or loaded in %s\n", b.ID, took.Round(time.Millisecond)), 0o644)
}

// forkCacheVersion is the suffix pybox's fork of wazero adds to the version
// in its cache entries (third_party/wazero, cacheVersionSuffix in
// internal/engine/wazevo/engine.go; TestForkCacheVersion keeps the two
// equal). The fork bumps it when its compiled code changes.
const forkCacheVersion = "+pybox.2504.73"

// forkCacheLayout is what the fork appends to that version for the layout
// of its cache entries (cacheEntryLayout in
// internal/engine/wazevo/engine_cache.go, patch 0005; TestForkCacheVersion
// keeps the two equal).
const forkCacheLayout = "+codealign"

// moduleKeying names how NewEngine keys python.wasm in the cache: by
// moduleDigest (fork patch 0011) rather than by the hash of the module's
// bytes, which keyed the entries of earlier builds.
const moduleKeying = "digest1"

// buildTag names what besides the bundle decides the compiled code: the
// platform, the wazero module (its version, or the directory of a replace
// such as pybox's fork), the fork's cache version and entry layout, and how
// the module is keyed.
func buildTag() string {
	h := sha256.New()
	fmt.Fprintln(h, goruntime.GOOS, goruntime.GOARCH, forkCacheVersion+forkCacheLayout, moduleKeying)
	if guardedMemory() {
		fmt.Fprintln(h, "guarded memory") // other code, other cache entry
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/tetratelabs/wazero" {
				fmt.Fprintln(h, d.Version, d.Sum)
				if d.Replace != nil {
					fmt.Fprintln(h, d.Replace.Path, d.Replace.Version, d.Replace.Sum)
				}
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}
