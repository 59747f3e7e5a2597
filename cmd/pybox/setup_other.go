//go:build !unix

package main

import (
	"context"
	"os/exec"
)

// detach leaves cmd as it is: without sessions, the compile still runs in
// a process of its own.
func detach(cmd *exec.Cmd) {}

// lockFile cannot lock here: compiles at the same time each fill the cache
// (its entries are written atomically), which costs time, not correctness.
func lockFile(ctx context.Context, path string) (unlock func(), err error) {
	return func() {}, nil
}

// lowerPriority leaves the priority as it is here.
func lowerPriority() {}
