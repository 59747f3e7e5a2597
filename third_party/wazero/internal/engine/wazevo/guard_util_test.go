//go:build linux && amd64

package wazevo_test

import (
	"os"
	"path/filepath"
	"runtime/debug"
)

type osSignal = os.Signal

func debugSetPanicOnFault(on bool) bool { return debug.SetPanicOnFault(on) }

// filepathGlob counts the files under dir.
func filepathGlob(dir string) (int, error) {
	n := 0
	err := filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			n++
		}
		return err
	})
	return n, err
}
