package platform

import (
	"os"

	"golang.org/x/sys/unix"
)

// MapCodeSegmentFile maps size bytes of machine code from f at offset, which
// must be a multiple of the page size, read-only and executable, without
// reading them: pages are read from the page cache when first run, and are
// shared with every process mapping the same file. Release the result with
// MunmapCodeSegment. It fails where the file may not be mapped executable (a
// noexec mount, a security policy); callers then copy the code instead.
//
// The file must not be changed in place while the code is mapped: a private
// mapping may still see later writes to the file, and a truncation makes
// running the code beyond the new end fault. Replacing the file (a rename, as
// the file cache does) or removing it is safe. (pybox patch 0005.)
func MapCodeSegmentFile(f *os.File, offset int64, size int) ([]byte, error) {
	if size == 0 {
		panic("BUG: MapCodeSegmentFile with zero length")
	}
	return unix.Mmap(int(f.Fd()), offset, size, unix.PROT_READ|unix.PROT_EXEC, unix.MAP_PRIVATE)
}
