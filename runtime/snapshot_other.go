//go:build !linux

package runtime

import "os"

// newImageFile returns an unlinked temporary file: no other process can
// open it, and its space is freed when the last descriptor and mapping are.
func newImageFile() (*os.File, error) {
	f, err := os.CreateTemp("", "pybox-snapshot-*")
	if err != nil {
		return nil, err
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// sealImageFile: without memfd seals the image is protected by being
// unlinked and private to this process, and mapped MAP_PRIVATE.
func sealImageFile(*os.File) error { return nil }

// privatePageIndexes cannot tell which pages are private here: no
// /proc/self/pagemap. Pooled interpreters are not given pages ahead.
func privatePageIndexes([]byte) ([]uint32, bool) { return nil, false }
