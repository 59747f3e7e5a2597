package fsbridge

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"sync"
	"syscall"
	"time"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
)

// Denial is one action the sandbox refused or could not carry out on the
// guest's behalf: a write outside the writable mounts, a symbolic link
// leading out of a mount, a limit reached, a fetch that failed.
//
// A Denial is also an error (CopyToSandbox returns them), whose message is
// Message.
type Denial struct {
	// Op is what was attempted: "read", "write", "create", "delete",
	// "rename", "mkdir", "chmod", "link", "symlink", "stat", "fetch",
	// "upload".
	Op string
	// Path is the guest path, absolute and clean, e.g. "/etc/hosts".
	Path string
	// Target is the second path of a rename or link, or a symlink's
	// target; empty otherwise.
	Target string
	// Reason says why, as the end of a sentence that starts with Path, e.g.
	// "is on a read-only mount (/data)".
	Reason string
	// Message is the whole human-readable line, e.g.
	// "write denied: /data/a.csv is on a read-only mount (/data)".
	Message string
	// Errno names the POSIX error the operation would ideally fail with,
	// e.g. "EROFS", "EXDEV", "EFBIG". The guest may see a more generic one:
	// WASI as implemented by wazero carries only a subset of error numbers
	// (see ErrnoFor), and everything else reaches the guest as EIO.
	Errno string
	// Time is when it happened.
	Time time.Time
}

// Error implements error: it returns Message.
func (d *Denial) Error() string { return d.Message }

// String returns Message.
func (d Denial) String() string { return d.Message }

// denyErr is the internal error that carries a denial up to the FS method
// that records it and turns it into an errno.
type denyErr struct {
	d     Denial
	errno experimentalsys.Errno
}

func (e *denyErr) Error() string { return e.d.Message }

// deny builds a denial. failed selects "failed" instead of "denied" in the
// message (for fetches and uploads that went wrong rather than were
// refused).
func deny(op, guestPath, reason string, errno experimentalsys.Errno, ideal string) *denyErr {
	return &denyErr{
		d: Denial{
			Op:      op,
			Path:    guestPath,
			Reason:  reason,
			Message: fmt.Sprintf("%s denied: %s %s", op, guestPath, reason),
			Errno:   ideal,
		},
		errno: errno,
	}
}

// deny2 is deny for operations on two paths (rename, link, symlink).
func deny2(op, from, to, reason string, errno experimentalsys.Errno, ideal string) *denyErr {
	return &denyErr{
		d: Denial{
			Op:      op,
			Path:    from,
			Target:  to,
			Reason:  reason,
			Message: fmt.Sprintf("%s denied: %s -> %s %s", op, from, to, reason),
			Errno:   ideal,
		},
		errno: errno,
	}
}

// failure builds a denial for an operation that was allowed but failed on
// the host side, e.g. a fetch that returned 404.
func failure(op, guestPath, reason string, errno experimentalsys.Errno, ideal string) *denyErr {
	return &denyErr{
		d: Denial{
			Op:      op,
			Path:    guestPath,
			Reason:  reason,
			Message: fmt.Sprintf("%s failed: %s: %s", op, guestPath, reason),
			Errno:   ideal,
		},
		errno: errno,
	}
}

// ErrnoFor returns the WASI error the guest sees for an ideal POSIX error
// name, as used in Denial.Errno. wazero v1.12 carries only EACCES, EAGAIN,
// EBADF, EEXIST, EFAULT, EINTR, EINVAL, EIO, EISDIR, ELOOP, ENAMETOOLONG,
// ENOENT, ENOSYS, ENOTDIR, ERANGE, ENOTEMPTY, ENOTSOCK, ENOTSUP, EPERM and
// EROFS; the others are mapped here to the closest one the guest can
// receive:
//
//	EXDEV (rename or link across mounts)  -> EPERM  (PermissionError)
//	EFBIG (file size limit)               -> EIO    (OSError)
//	EDQUOT (bytes or files per run)       -> EIO    (OSError)
//	EMFILE (open files limit)             -> EIO    (OSError)
//	ETIMEDOUT (fetch timed out)           -> EIO    (OSError)
//
// The runtime can restore the ideal number in the Python exception from
// Denial.Errno.
func ErrnoFor(name string) experimentalsys.Errno {
	switch name {
	case "EXDEV":
		return experimentalsys.EPERM
	case "EFBIG", "EDQUOT", "EMFILE", "ETIMEDOUT", "ENOSPC":
		return experimentalsys.EIO
	case "EACCES":
		return experimentalsys.EACCES
	case "EPERM":
		return experimentalsys.EPERM
	case "EROFS":
		return experimentalsys.EROFS
	case "ENOENT":
		return experimentalsys.ENOENT
	case "ENOTSUP":
		return experimentalsys.ENOTSUP
	case "ELOOP":
		return experimentalsys.ELOOP
	}
	return experimentalsys.EIO
}

// denialLog records denials and answers Explain.
type denialLog struct {
	mu     sync.Mutex
	all    []Denial
	latest map[string]int // guest path -> index in all of its latest denial
	max    int
}

// maxDenials bounds the log: a guest in a loop of refused writes must not
// grow host memory without bound. Past it, only the count grows.
const maxDenials = 10000

func (l *denialLog) add(d Denial) { l.record(d, true) }

// record adds d to the log; explainable makes it Explain's answer for its
// paths (until taken).
func (l *denialLog) record(d Denial, explainable bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if d.Time.IsZero() {
		d.Time = time.Now()
	}
	if l.latest == nil {
		l.latest = map[string]int{}
	}
	if len(l.all) >= maxDenials {
		// Keep Explain working for the newest one by overwriting the last
		// slot; the log itself says it is full.
		l.all[len(l.all)-1] = d
	} else {
		l.all = append(l.all, d)
	}
	if !explainable {
		return
	}
	i := len(l.all) - 1
	l.latest[d.Path] = i
	if d.Target != "" {
		l.latest[d.Target] = i
	}
}

func (l *denialLog) list() []Denial {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Denial(nil), l.all...)
}

func (l *denialLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.all = nil
	l.latest = nil
}

// take returns and forgets the latest denial recorded for p.
func (l *denialLog) take(p string) (Denial, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	i, ok := l.latest[p]
	if !ok {
		return Denial{}, false
	}
	d := l.all[i]
	delete(l.latest, d.Path)
	if d.Target != "" {
		delete(l.latest, d.Target)
	}
	return d, true
}

// takeSymlink returns and forgets the newest denial if it is a refused
// symlink not yet explained whose target text, taken against some working
// folder, could be p (an absolute target must be p itself).
func (l *denialLog) takeSymlink(p string) (Denial, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.all) == 0 {
		return Denial{}, false
	}
	i := len(l.all) - 1
	d := l.all[i]
	if j, ok := l.latest[d.Path]; d.Op != "symlink" || !ok || j != i {
		return Denial{}, false
	}
	if path.IsAbs(d.Target) && path.Clean(d.Target) != p {
		return Denial{}, false
	}
	delete(l.latest, d.Path)
	if j, ok := l.latest[d.Target]; ok && j == i {
		delete(l.latest, d.Target)
	}
	return d, true
}

// guestAbs turns a path as the guest or a caller wrote it into the absolute,
// clean form denials use. Relative paths are taken relative to "/", the
// guest's working directory.
func guestAbs(p string) string {
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return path.Clean(p)
}

// errnoOf maps a Go error from a backend to the errno the guest sees.
func errnoOf(err error) experimentalsys.Errno {
	if err == nil {
		return 0
	}
	var de *denyErr
	if errors.As(err, &de) {
		return de.errno
	}
	var en experimentalsys.Errno
	if errors.As(err, &en) {
		return en
	}
	// Before the fs.Err* checks: syscall.ENOTEMPTY "is" fs.ErrExist.
	var se syscall.Errno
	if errors.As(err, &se) {
		return experimentalsys.UnwrapOSError(se)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return experimentalsys.ENOENT
	case errors.Is(err, fs.ErrExist):
		return experimentalsys.EEXIST
	case errors.Is(err, fs.ErrPermission):
		return experimentalsys.EACCES
	case errors.Is(err, fs.ErrClosed):
		return experimentalsys.EBADF
	}
	return experimentalsys.UnwrapOSError(err)
}

// isEscape reports whether err is os.Root refusing a path because it (or a
// symbolic link on the way) leads outside the root.
func isEscape(err error) bool {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return strings.Contains(pe.Err.Error(), "escapes from parent")
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return strings.Contains(le.Err.Error(), "escapes from parent")
	}
	return strings.Contains(err.Error(), "escapes from parent")
}

// takeUnnamed returns and forgets the newest denial if it is one the guest
// received as a bare EIO with no file name attached (a write or truncate
// stopped by a limit: the guest's errno cannot say EFBIG, EDQUOT or
// ENOSPC) and has not been explained yet.
func (l *denialLog) takeUnnamed() (Denial, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.all) == 0 {
		return Denial{}, false
	}
	i := len(l.all) - 1
	d := l.all[i]
	if j, ok := l.latest[d.Path]; !ok || j != i {
		return Denial{}, false
	}
	switch d.Errno {
	case "EFBIG", "EDQUOT", "ENOSPC":
	default:
		return Denial{}, false
	}
	delete(l.latest, d.Path)
	if d.Target != "" {
		delete(l.latest, d.Target)
	}
	return d, true
}
