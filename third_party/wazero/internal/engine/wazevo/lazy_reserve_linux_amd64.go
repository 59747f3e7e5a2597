package wazevo

import "golang.org/x/sys/unix"

// lazySupported reports whether compileModuleLazily is implemented here
// (pybox patch 0040).
const lazySupported = true

// reserveLazyRegion maps size bytes of address space that nothing can
// access; makeWritable and makeExecutable make parts of it usable. It is
// unmapped by platform.MunmapCodeSegment, as executables are. A variable
// for tests.
var reserveLazyRegion = func(size int) ([]byte, error) {
	return unix.Mmap(-1, 0, size, unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANON|unix.MAP_NORESERVE)
}

// makeWritable makes b, page aligned, readable and writable.
func makeWritable(b []byte) error { return unix.Mprotect(b, unix.PROT_READ|unix.PROT_WRITE) }

// makeExecutable makes b, page aligned, readable and executable.
func makeExecutable(b []byte) error { return unix.Mprotect(b, unix.PROT_READ|unix.PROT_EXEC) }
