//go:build unix

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// detach starts cmd in a session of its own: it has no controlling
// terminal, and signals sent to this process's group (Ctrl-C, a client
// killing the group it started) do not reach it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// lockFile takes an exclusive lock on the file at path (created if
// missing), waiting while another process holds it. The lock goes with the
// process, however it ends.
func lockFile(ctx context.Context, path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	locked := make(chan error, 1)
	go func() { locked <- syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }()
	select {
	case err := <-locked:
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		return func() { f.Close() }, nil
	case <-ctx.Done():
		// Closing the file ends the wait (or drops the lock just taken).
		f.Close()
		return nil, ctx.Err()
	}
}

// lowerPriority gives this process the lowest CPU priority (nice 19). On
// Linux a nice value belongs to a thread, and new threads take their
// creator's, so it is set for every thread there is (the Go runtime's
// threads made so far); elsewhere for the process. Failing leaves the
// priority as it was.
func lowerPriority() {
	const lowest = 19
	if tasks, err := os.ReadDir("/proc/self/task"); err == nil {
		for _, t := range tasks {
			if tid, err := strconv.Atoi(t.Name()); err == nil {
				_ = syscall.Setpriority(syscall.PRIO_PROCESS, tid, lowest)
			}
		}
		return
	}
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, 0, lowest)
}
