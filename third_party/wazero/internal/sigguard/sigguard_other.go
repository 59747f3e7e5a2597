//go:build !(linux && amd64)

package sigguard

import (
	"errors"
	"runtime"
)

// Supported reports whether Install can install the fault handler here.
const Supported = false

func install() error {
	return errors.New("sigguard: guarded memory is not implemented on " + runtime.GOOS + "/" + runtime.GOARCH)
}
