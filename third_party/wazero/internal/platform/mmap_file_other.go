//go:build !linux

package platform

import (
	"errors"
	"os"
)

// MapCodeSegmentFile is implemented on Linux only (see mmap_file_linux.go);
// elsewhere callers copy the code into anonymous memory as before. macOS, for
// one, applies code-signing rules to executable pages mapped from files,
// which this was not tried against. (pybox patch 0005.)
func MapCodeSegmentFile(_ *os.File, _ int64, _ int) ([]byte, error) {
	return nil, errors.ErrUnsupported
}
