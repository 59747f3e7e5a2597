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
