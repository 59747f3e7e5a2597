//go:build !unix

package packages

import (
	"errors"
	"io"
	"os"
)

// mapFile returns the contents of f (read: no mapping here).
func mapFile(f *os.File) ([]byte, error) { return io.ReadAll(f) }

// mapReadOnly fails: files are not mapped here, the caller reads them.
func mapReadOnly(*os.File, int64) ([]byte, error) { return nil, errors.ErrUnsupported }
