package runtime

import (
	"encoding/binary"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// newImageFile returns an anonymous in-memory file (memfd): no disk, gone
// when the last descriptor and mapping are.
func newImageFile() (*os.File, error) {
	fd, err := unix.MemfdCreate("pybox-snapshot", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), "pybox-snapshot"), nil
}

// sealImageFile forbids any later change to the image: every instance maps
// it, so it must never change under them.
func sealImageFile(f *os.File) error {
	_, err := unix.FcntlInt(f.Fd(), unix.F_ADD_SEALS, unix.F_SEAL_SHRINK|unix.F_SEAL_GROW|unix.F_SEAL_WRITE|unix.F_SEAL_SEAL)
	return err
}

// privatePageIndexes reads /proc/self/pagemap for the pages of mem (which
// starts on a page boundary): the indexes, from mem's start, of those
// present and no longer the mapped file's (bit 63 set, bit 61 clear; see
// the kernel's Documentation/admin-guide/mm/pagemap.rst), which a process
// may read of itself without privileges.
func privatePageIndexes(mem []byte) ([]uint32, bool) {
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		return nil, false
	}
	defer f.Close()
	first := uintptr(unsafe.Pointer(&mem[0])) / uintptr(osPageSize)
	n := len(mem) / osPageSize
	buf := make([]byte, 8*n)
	if _, err := f.ReadAt(buf, int64(first)*8); err != nil {
		return nil, false
	}
	var out []uint32
	for i := 0; i < n; i++ {
		e := binary.LittleEndian.Uint64(buf[8*i:])
		if e&(1<<63) != 0 && e&(1<<61) == 0 {
			out = append(out, uint32(i))
		}
	}
	return out, true
}
