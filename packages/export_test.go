package packages

import (
	"path/filepath"
	"testing"

	"github.com/pybox-dev/pybox/assets"
)

// Test hooks for the external test package (guest_test.go).

// ExtractEmbeddedForTest extracts the embedded bundle into cache (or opens
// it there) as Default does.
func ExtractEmbeddedForTest(cache string) (*Bundle, error) {
	return loadCached(cache, assets.Runtime, assets.RuntimeSHA256)
}

// OpenUnmappedForTest opens the pack ExtractEmbeddedForTest installed in
// cache without mapping it, as where files are not mapped.
func OpenUnmappedForTest(cache string) (*Bundle, error) {
	return openPackFile(filepath.Join(extractedDir(cache), packName), false)
}

// WriteFolderLayoutForTest writes b into cache as pybox extracted bundles
// before the pack (one file per file), and opens it from there.
func WriteFolderLayoutForTest(t *testing.T, cache string, b *Bundle) (*Bundle, error) {
	writeFolderLayout(t, extractedDir(cache), b)
	return loadCached(cache, assets.Runtime, assets.RuntimeSHA256)
}
