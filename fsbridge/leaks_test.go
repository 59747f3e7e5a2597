package fsbridge_test

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pybox-dev/pybox/fsbridge"

	"github.com/pybox-dev/pybox/runtime"
)

// noHostDetail fails the test if any text the guest or the caller sees
// carries a Go panic's detail (a goroutine header, a Go source path, the
// marker wazero adds to recovered panics) or one of the secrets.
func noHostDetail(t *testing.T, what, text string, secrets ...string) {
	t.Helper()
	for _, bad := range append([]string{"goroutine ", ".go:", "recovered by wazero", "panic"}, secrets...) {
		if bad != "" && strings.Contains(text, bad) {
			t.Errorf("%s contains %q:\n%s", what, bad, text)
		}
	}
}

// Seeking to a negative offset is EINVAL on every kind of file, and reads
// and writes at any offset, huge ones included, fail cleanly or succeed:
// nothing panics in the host (a negative offset used to reach afero's
// in-memory /tmp files and panic with "slice bounds out of range").
func TestSeekOffsets(t *testing.T) {
	w := newWorld(t)
	sb := newSandbox(t, w.policy())
	for _, dir := range []string{"/tmp", "/work", "/output"} {
		t.Run(dir, func(t *testing.T) {
			res := py(t, sb, prelude+`
d = '`+dir+`'
fd = os.open(d + '/seek.bin', os.O_RDWR | os.O_CREAT | os.O_TRUNC)
os.write(fd, b'hello')
t('negset', lambda: os.lseek(fd, -1, os.SEEK_SET))
t('negcur', lambda: os.lseek(fd, -6, os.SEEK_CUR))
t('negend', lambda: os.lseek(fd, -6, os.SEEK_END))
t('pos', lambda: os.lseek(fd, 0, os.SEEK_CUR))
t('write', lambda: os.write(fd, b'!'))
t('end', lambda: os.lseek(fd, -1, os.SEEK_END))
t('hugeseek', lambda: os.lseek(fd, 2**40, os.SEEK_SET))
t('hugeread', lambda: os.read(fd, 10))
t('hugewrite', lambda: os.write(fd, b'x'))
t('hugepwrite', lambda: os.pwrite(fd, b'x', 2**40))
t('hugepread', lambda: os.pread(fd, 10, 2**40))
if d == '/tmp':
    # Host files stop at the host's own maximum offset (EINVAL from the
    # host kernel); in-memory files are all pybox's, up to 2**63-1.
    t('maxseek', lambda: os.lseek(fd, 2**63 - 1, os.SEEK_SET))
    t('maxread', lambda: os.read(fd, 10))
    t('maxwrite', lambda: os.write(fd, b'xy'))
    t('overflow', lambda: os.lseek(fd, 10, os.SEEK_CUR))
    t('maxpread', lambda: os.pread(fd, 10, 2**63 - 1))
    t('maxpwrite', lambda: os.pwrite(fd, b'xy', 2**63 - 1))
    t('maxtrunc', lambda: os.ftruncate(fd, 2**63 - 1))
os.lseek(fd, 2, os.SEEK_SET)
t('pwrite', lambda: os.pwrite(fd, b'L', 3))
t('after', lambda: os.read(fd, 100))
t('whole', lambda: os.pread(fd, 100, 0))
os.close(fd)
`)
			if res.Status != runtime.StatusOK {
				t.Fatalf("status %s: %s\nstdout:\n%s\nstderr:\n%s", res.Status, res.Message, res.Stdout, res.Stderr)
			}
			want := map[string]string{
				"negset": "OSError EINVAL", "negcur": "OSError EINVAL", "negend": "OSError EINVAL",
				"pos": "OK 5", "write": "OK 1", "end": "OK 5",
				"hugeseek": "OK 1099511627776", "hugeread": "OK b''", "hugepread": "OK b''",
				"hugewrite": "OSError EIO", "hugepwrite": "OSError EIO",
				"pwrite": "OK 1", "after": "OK b'lLo!'", "whole": "OK b'helLo!'",
			}
			if dir == "/tmp" {
				for k, v := range map[string]string{
					"maxseek": "OK 9223372036854775807", "maxread": "OK b''", "maxwrite": "OSError EINVAL",
					"overflow": "OSError EINVAL", "maxpread": "OK b''", "maxpwrite": "OSError EINVAL",
					"maxtrunc": "OSError EIO",
				} {
					want[k] = v
				}
			}
			checkLines(t, string(res.Stdout), want)
			hasDenial(t, sb.Denials(), "write denied: "+dir+"/seek.bin would grow the file to 1099511627777 bytes, past the file size limit of 256 MiB")
			noHostDetail(t, "stdout", string(res.Stdout))
			noHostDetail(t, "stderr", string(res.Stderr))
		})
	}
}

// lockedBuffer is a bytes.Buffer safe for the guest's goroutine to write
// while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// guestVisible is everything a run shows the guest, the model or the
// caller: output, status message, exception, and the refusals.
func guestVisible(res *runtime.Result, ds []fsbridge.Denial) string {
	var b strings.Builder
	b.Write(res.Stdout)
	b.Write(res.Stderr)
	b.WriteString(res.Message + "\n")
	if e := res.Exception; e != nil {
		b.WriteString(e.Type + " " + e.Message + "\n" + e.Traceback)
	}
	for _, d := range ds {
		fmt.Fprintf(&b, "%s|%s|%s|%s|%s\n", d.Op, d.Path, d.Target, d.Reason, d.Message)
	}
	return b.String()
}

// A fetch that fails tells the guest the path, the route and the status
// or a generic network reason; the operator's URL (its host, port and a
// query holding a key) is never shown, whatever the failure. The
// operator's log keeps the detail.
func TestFetchErrorsHideURL(t *testing.T) {
	const secret = "SECRET123"
	mux := http.NewServeMux()
	mux.HandleFunc("/up", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	mux.HandleFunc("/boom", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "boom at "+r.URL.String(), http.StatusInternalServerError)
	})
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://other.invalid/x?api_key="+secret, http.StatusFound)
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	mux.HandleFunc("/cut", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100")
		w.Write([]byte("partial"))
	})
	ts := httptest.NewServer(mux)
	defer ts.Close()
	// A port with nothing listening: connection refused.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()

	q := "?api_key=" + secret
	var log lockedBuffer
	h := &fsbridge.HTTPFetcher{
		Routes: map[string]string{
			"up":           ts.URL + "/up" + q,
			"boom":         ts.URL + "/boom" + q,
			"away":         ts.URL + "/away" + q,
			"slow":         ts.URL + "/slow" + q,
			"cut":          ts.URL + "/cut" + q,
			"refused":      "http://" + closed + "/x" + q,
			"badurl":       "http://" + closed + "/%zz" + q,
			"files/{path}": ts.URL + "/files/{path}" + q,
		},
		Timeout: 500 * time.Millisecond,
		Logger:  slog.New(slog.NewTextHandler(&log, nil)),
	}
	sb := newSandbox(t, fsbridge.Policy{Virtual: []fsbridge.VirtualMount{{Guest: "/net", Fetcher: h, Writable: true}}})
	res := py(t, sb, prelude+`
t('up', lambda: read('/net/up'))
t('boom', lambda: read('/net/boom'))
t('away', lambda: read('/net/away'))
t('slow', lambda: read('/net/slow'))
t('cut', lambda: read('/net/cut'))
t('refused', lambda: read('/net/refused'))
t('badurl', lambda: read('/net/badurl'))
t('pattern', lambda: read('/net/files/a.txt'))
t('stat', lambda: os.stat('/net/up'))
t('upload', lambda: put('/net/boom', 'data'))
t('notlisted', lambda: read('/net/other'))
open('/net/up').read()
`)
	if res.Status != runtime.StatusError || res.Exception == nil || res.Exception.Type != "FileNotFoundError" {
		t.Fatalf("status %s (%+v): %s\nstdout:\n%s\nstderr:\n%s", res.Status, res.Exception, res.Message, res.Stdout, res.Stderr)
	}
	checkLines(t, string(res.Stdout), map[string]string{
		"up":        `FileNotFoundError ENOENT | [Errno 44] fetch failed: /net/up: route "up": 404 Not Found: '/net/up'`,
		"boom":      `OSError EIO | [Errno 29] fetch failed: /net/boom: route "boom": 500 Internal Server Error: '/net/boom'`,
		"away":      `OSError EIO | [Errno 29] fetch failed: /net/away: route "away": redirect to another host refused: '/net/away'`,
		"slow":      `OSError EIO | [Errno 29] fetch failed: /net/slow: route "slow": timed out after 500ms: '/net/slow'`,
		"cut":       `OSError EIO | [Errno 29] fetch failed: /net/cut: route "cut": 200 OK: reading the response: network failure`,
		"refused":   `OSError EIO | [Errno 29] fetch failed: /net/refused: route "refused": network failure: connection refused: '/net/refused'`,
		"badurl":    `OSError EIO | [Errno 29] fetch failed: /net/badurl: route "badurl": the route's URL is not valid: '/net/badurl'`,
		"pattern":   `FileNotFoundError ENOENT | [Errno 44] fetch failed: /net/files/a.txt: route "files/{path}": 404 Not Found: '/net/files/a.txt'`,
		"stat":      `FileNotFoundError ENOENT | [Errno 44] fetch failed: /net/up: route "up": 404 Not Found`,
		"upload":    `OSError EIO`,
		"notlisted": `FileNotFoundError ENOENT | [Errno 44] fetch failed: /net/other: "other": not in the allowlist of this folder`,
	})
	ds := sb.Denials()
	hasDenial(t, ds, `upload failed: /net/boom: route "boom": 500 Internal Server Error`)
	seen := guestVisible(res, ds)
	for _, bad := range []string{secret, "api_key", ts.Listener.Addr().String(), closed, "127.0.0.1", "other.invalid", "http://"} {
		if strings.Contains(seen, bad) {
			t.Errorf("the guest or the caller sees %q:\n%s", bad, seen)
		}
	}
	// The operator's log has the detail.
	for _, want := range []string{ts.URL + "/up" + q + ": 404 Not Found", "PUT " + ts.URL + "/boom" + q, closed} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("operator log lacks %q:\n%s", want, log.String())
		}
	}
}

// CopyToSandbox names no host folder in its refusals, and answers a source
// outside every mount the same way whether it exists or not, also when the
// way out is a host link inside a mount: the caller (a model) cannot probe
// the host through it.
func TestCopyToSandboxHidesHost(t *testing.T) {
	w := newWorld(t)
	sb := newSandbox(t, w.policy())
	hostDirs := []string{w.base, w.data, w.work, w.src, w.upper, w.out, w.secret}
	// Each pair: a source that exists and one that does not, which must
	// get the same answer (with the source's own text taken out).
	pairs := []struct {
		name          string
		exists, nope  string
		wantInMessage string
	}{
		{"outside", filepath.Join(w.secret, "secret.txt"), filepath.Join(w.secret, "nope.txt"),
			"is not inside a host folder mounted in the sandbox (mounted at /data, /work, /src, /output)"},
		{"outside folder", w.secret, filepath.Join(w.base, "nope"), "is not inside a host folder mounted in the sandbox"},
		{"system", "/etc/passwd", "/etc/nope-pybox", "is not inside a host folder mounted in the sandbox"},
		{"dotdot", filepath.Join(w.data, "..", "secret", "secret.txt"), filepath.Join(w.data, "..", "secret", "nope"), "is not inside a host folder mounted in the sandbox"},
		{"relative", "../../../../../../../etc/passwd", "../../../../../../../etc/nope-pybox", "is not inside a host folder mounted in the sandbox"},
		{"through a folder link", filepath.Join(w.data, "dir_out", "secret.txt"), filepath.Join(w.data, "dir_out", "nope.txt"),
			"leads outside its mount (/data) through a symbolic link"},
	}
	for _, p := range pairs {
		t.Run(p.name, func(t *testing.T) {
			var msgs [2]string
			for i, src := range []string{p.exists, p.nope} {
				_, err := sb.CopyToSandbox(src, "/work/")
				if err == nil {
					t.Fatalf("copy of %s succeeded", src)
				}
				var d *fsbridge.Denial
				if !errors.As(err, &d) {
					t.Errorf("%s: error %T %v, want a *Denial", src, err, err)
				}
				msg := strings.ReplaceAll(err.Error(), src, "SRC")
				for _, h := range hostDirs {
					if strings.Contains(msg, h) {
						t.Errorf("%s: message names host folder %s: %s", src, h, err)
					}
				}
				if !strings.Contains(msg, p.wantInMessage) {
					t.Errorf("%s: message %q lacks %q", src, err, p.wantInMessage)
				}
				msgs[i] = strings.ReplaceAll(msg, "/data/dir_out/secret.txt", "/data/dir_out/X")
				msgs[i] = strings.ReplaceAll(msgs[i], "/data/dir_out/nope.txt", "/data/dir_out/X")
			}
			if msgs[0] != msgs[1] {
				t.Errorf("an existing and a missing source get different answers:\n  %s\n  %s", msgs[0], msgs[1])
			}
		})
	}
	// Inside a mount, errors speak of guest paths only.
	_, err := sb.CopyToSandbox(filepath.Join(w.data, "nope"), "/work/")
	if err == nil || err.Error() != "copy failed: /data/nope: no such file or directory" {
		t.Errorf("missing file inside a mount: %v", err)
	}
	for _, d := range sb.Denials() {
		for _, h := range hostDirs {
			if strings.Contains(strings.ReplaceAll(d.Message, d.Path, ""), h) {
				t.Errorf("recorded denial names host folder %s: %s", h, d.Message)
			}
		}
	}
}

// refusalCase runs code (after prelude) in a fresh world's sandbox and
// checks its lines; the world's read-only and copy-on-write host folders are
// checked unchanged by newWorld, the read-write one here.
func refusalCase(t *testing.T, code string, want map[string]string, notWant ...string) {
	t.Helper()
	w := newWorld(t)
	work := treeSum(t, w.work)
	sb := newSandbox(t, w.policy())
	res := py(t, sb, prelude+code)
	if res.Status != runtime.StatusOK {
		t.Fatalf("status %s: %s\nstdout:\n%s\nstderr:\n%s", res.Status, res.Message, res.Stdout, res.Stderr)
	}
	checkLines(t, string(res.Stdout), want)
	for _, s := range notWant {
		if strings.Contains(string(res.Stdout), s) {
			t.Errorf("stdout contains %q:\n%s", s, res.Stdout)
		}
	}
	if treeSum(t, w.work) != work {
		t.Errorf("the read-write host folder changed")
	}
	if t.Failed() {
		t.Logf("stdout:\n%s", res.Stdout)
	}
}

// A refusal of an operation on a name relative to a folder descriptor
// (dir_fd) explains the real guest path, not the name taken from "/"; a
// plain error there is not dressed up as a refusal.
func TestRefusalRelativeToDirFD(t *testing.T) {
	refusalCase(t, `
fd = os.open('/data/sub', os.O_RDONLY)
t('create', lambda: os.open('new.txt', os.O_WRONLY | os.O_CREAT, dir_fd=fd))
t('mkdir', lambda: os.mkdir('d', dir_fd=fd))
t('remove', lambda: os.remove('b.txt', dir_fd=fd))
t('utime', lambda: os.utime('b.txt', (0, 0), dir_fd=fd))
t('missing', lambda: os.open('nope.txt', os.O_RDONLY, dir_fd=fd))
t('read', lambda: os.read(os.open('b.txt', os.O_RDONLY, dir_fd=fd), 10))
os.chdir('/work')
t('cwd', lambda: os.mkdir('deeper', dir_fd=fd))
tfd = os.open('/tmp', os.O_RDONLY)
t('rwok', lambda: os.mkdir('made', dir_fd=tfd) or os.path.isdir('/tmp/made'))
`, map[string]string{
		"create":  "OSError EROFS | [Errno 69] write denied: /data/sub/new.txt is on a read-only mount (/data): 'new.txt'",
		"mkdir":   "OSError EROFS | [Errno 69] mkdir denied: /data/sub/d is on a read-only mount (/data): 'd'",
		"remove":  "OSError EROFS | [Errno 69] delete denied: /data/sub/b.txt is on a read-only mount (/data): 'b.txt'",
		"utime":   "OSError EROFS | [Errno 69] write denied: /data/sub/b.txt is on a read-only mount (/data): 'b.txt'",
		"missing": "FileNotFoundError ENOENT | [Errno 44] No such file or directory: 'nope.txt'",
		"read":    "OK b'bee\\n'",
		"cwd":     "OSError EROFS | [Errno 69] mkdir denied: /data/sub/deeper is on a read-only mount (/data): 'deeper'",
		"rwok":    "OK True",
	}, "outside every mount", "denied: /new.txt", "denied: /d ", "denied: /work/deeper")
}

// Removing, moving or replacing a mount point is refused with the path and
// the reason, not a bare I/O error.
func TestRefusalMountPoints(t *testing.T) {
	const why = " is a mount point and cannot be "
	refusalCase(t, `
t('into', lambda: os.rename('/work', '/work/inner/w'))
t('over', lambda: os.rename('/work/notes.txt', '/work'))
t('rmdir', lambda: os.rmdir('/work'))
t('rmdircow', lambda: os.rmdir('/src'))
t('rmdirtmp', lambda: os.rmdir('/tmp'))
t('rmdirout', lambda: os.rmdir('/output'))
t('rmtree', lambda: shutil.rmtree('/output'))
t('renamecow', lambda: os.rename('/src', '/src/x'))
t('still', lambda: sorted(os.listdir('/work')))
`, map[string]string{
		"into":      "PermissionError EPERM | [Errno 63] rename denied: /work -> /work/inner/w is not possible: /work" + why + "moved, renamed or replaced (change what is inside it instead): '/work' -> '/work/inner/w'",
		"over":      "PermissionError EPERM | [Errno 63] rename denied: /work/notes.txt -> /work is not possible: /work" + why + "moved, renamed or replaced",
		"rmdir":     "PermissionError EPERM | [Errno 63] delete denied: /work" + why + "removed (change what is inside it instead): '/work'",
		"rmdircow":  "PermissionError EPERM | [Errno 63] delete denied: /src" + why + "removed",
		"rmdirtmp":  "PermissionError EPERM | [Errno 63] delete denied: /tmp" + why + "removed",
		"rmdirout":  "PermissionError EPERM | [Errno 63] delete denied: /output" + why + "removed",
		"rmtree":    "PermissionError EPERM | [Errno 63] delete denied: /output" + why + "removed",
		"renamecow": "PermissionError EPERM | [Errno 63] rename denied: /src -> /src/x is not possible: /src" + why + "moved",
		"still":     "OK ['notes.txt']",
	}, "I/O error")
}

// os.utime on a read-only mount names the path and the mount (CPython
// gives utime errors no file name, so the runner asks the host itself).
func TestRefusalUtimeReadOnly(t *testing.T) {
	refusalCase(t, `
t('file', lambda: os.utime('/data/a.csv', (0, 0)))
t('nofollow', lambda: os.utime('/data/a.csv', (0, 0), follow_symlinks=False))
t('dir', lambda: os.utime('/data/sub'))
t('ns', lambda: os.utime('/data/a.csv', ns=(1, 1)))
t('missing', lambda: os.utime('/work/nope', (0, 0)))
t('ok', lambda: os.utime('/tmp', (0, 0)))
t('same', lambda: os.utime in os.supports_follow_symlinks and os.utime in os.supports_dir_fd)
`, map[string]string{
		"file":     "OSError EROFS | [Errno 69] write denied: /data/a.csv is on a read-only mount (/data): '/data/a.csv'",
		"nofollow": "OSError EROFS | [Errno 69] write denied: /data/a.csv is on a read-only mount (/data): '/data/a.csv'",
		"dir":      "OSError EROFS | [Errno 69] write denied: /data/sub is on a read-only mount (/data): '/data/sub'",
		"ns":       "OSError EROFS | [Errno 69] write denied: /data/a.csv is on a read-only mount (/data): '/data/a.csv'",
		"missing":  "FileNotFoundError ENOENT | [Errno 44] No such file or directory: '/work/nope'",
		"ok":       "OK None",
		"same":     "OK True",
	})
}

// Writes into the Python installation (/usr/local) are refused as
// read-only with the reason, not ENOENT or ENOSYS; reads are unchanged.
func TestRefusalBundleWrites(t *testing.T) {
	const why = " is part of the Python installation (/usr/local), which is read-only; write under /tmp or /output instead: "
	sb := newSandbox(t, fsbridge.Policy{})
	res := py(t, sb, prelude+`
import json
src = json.__file__  # a module of the bundle, whatever its suffix
print('src', src)
t('create', lambda: put('/usr/local/lib/x.py', 'x'))
t('append', lambda: put(src, '#', 'a'))
t('mkdir', lambda: os.mkdir('/usr/local/lib/d'))
t('remove', lambda: os.remove(src))
t('rename', lambda: os.rename(src, '/usr/local/lib/moved'))
t('utime', lambda: os.utime(src, (0, 0)))
t('rmdir', lambda: os.rmdir('/usr/local/lib'))
t('read', lambda: len(open(src, 'rb').read()) > 100)
t('missing', lambda: read('/usr/local/nope.txt'))
t('again', lambda: read('/usr/local/lib/x.py'))
`)
	if res.Status != runtime.StatusOK {
		t.Fatalf("status %s: %s\nstdout:\n%s\nstderr:\n%s", res.Status, res.Message, res.Stdout, res.Stderr)
	}
	out := string(res.Stdout)
	first, _, _ := strings.Cut(out, "\n")
	src := strings.TrimPrefix(first, "src ")
	if !strings.HasPrefix(src, "/usr/local/lib/python3.11/json/__init__.py") {
		t.Fatalf("json.__file__ = %q", src)
	}
	out = strings.ReplaceAll(out, src, "SRC")
	checkLines(t, out, map[string]string{
		"create":  "OSError EROFS | [Errno 69] write denied: /usr/local/lib/x.py" + why + "'/usr/local/lib/x.py'",
		"append":  "OSError EROFS | [Errno 69] write denied: SRC" + why + "'SRC'",
		"mkdir":   "OSError EROFS | [Errno 69] mkdir denied: /usr/local/lib/d" + why + "'/usr/local/lib/d'",
		"remove":  "OSError EROFS | [Errno 69] delete denied: SRC" + why + "'SRC'",
		"rename":  "OSError EROFS | [Errno 69] rename denied: SRC" + why + "'SRC' -> '/usr/local/lib/moved'",
		"utime":   "OSError EROFS | [Errno 69] write denied: SRC" + why + "'SRC'",
		"rmdir":   "OSError EROFS | [Errno 69] delete denied: /usr/local/lib" + why + "'/usr/local/lib'",
		"read":    "OK True",
		"missing": "FileNotFoundError ENOENT | [Errno 44] No such file or directory: '/usr/local/nope.txt'",
		"again":   "FileNotFoundError ENOENT | [Errno 44] No such file or directory: '/usr/local/lib/x.py'",
	})
	// The caller's list of refusals has them too.
	ds := sb.Denials()
	hasDenial(t, ds, "write denied: /usr/local/lib/x.py"+strings.TrimSuffix(why, ": "))
	hasDenial(t, ds, "mkdir denied: /usr/local/lib/d"+strings.TrimSuffix(why, ": "))
	hasDenial(t, ds, "delete denied: "+src+strings.TrimSuffix(why, ": "))
	hasDenial(t, ds, "rename denied: "+src+strings.TrimSuffix(why, ": "))
}
