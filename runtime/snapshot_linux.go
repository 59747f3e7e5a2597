package runtime

import (
	"os"

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
