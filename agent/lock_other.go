//go:build !unix

package agent

import "os"

// tryLockFile is a no-op where flock does not exist: run one process per
// task there.
func tryLockFile(*os.File) error { return nil }

func unlockFile(*os.File) {}
