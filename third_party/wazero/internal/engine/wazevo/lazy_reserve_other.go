//go:build !(linux && amd64)

package wazevo

import "errors"

// lazySupported reports whether compileModuleLazily is implemented here
// (pybox patch 0040).
const lazySupported = false

var errLazyUnsupported = errors.New("lazy compilation is not supported on this platform")

var reserveLazyRegion = func(int) ([]byte, error) { return nil, errLazyUnsupported }

func makeWritable([]byte) error { return errLazyUnsupported }

func makeExecutable([]byte) error { return errLazyUnsupported }
