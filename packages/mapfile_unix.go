//go:build unix

package packages

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFile returns the contents of f, mapped read-only: pages are read from
// the page cache when first touched, and shared with every other process
// that maps the file. The mapping is never unmapped (the bundle lives as
// long as the process), and writing to it faults.
func mapFile(f *os.File) ([]byte, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() == 0 || st.Size() != int64(int(st.Size())) {
		return os.ReadFile(f.Name())
	}
	return unix.Mmap(int(f.Fd()), 0, int(st.Size()), unix.PROT_READ, unix.MAP_SHARED)
}

// mapReadOnly maps the first size bytes of f read-only, as mapFile does,
// or fails (then the caller reads the file instead).
func mapReadOnly(f *os.File, size int64) ([]byte, error) {
	if size <= 0 || size != int64(int(size)) {
		return nil, unix.EINVAL
	}
	return unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
}
