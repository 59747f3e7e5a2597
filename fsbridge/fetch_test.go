package fsbridge_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pybox-dev/pybox/fsbridge"
)

// testServer is a loopback HTTP server with the endpoints the fetcher
// tests need. It records uploads.
type testServer struct {
	*httptest.Server
	mu      sync.Mutex
	uploads map[string]string
}

func newTestServer(t *testing.T) *testServer {
	t.Helper()
	ts := &testServer{uploads: map[string]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/ip", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "203.0.113.7") })
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(3 * time.Second):
		case <-r.Context().Done():
		}
		io.WriteString(w, "late")
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) { w.Write(make([]byte, 1<<20)) })
	mux.HandleFunc("/forbidden", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", http.StatusForbidden) })
	mux.HandleFunc("/broken", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "oops", http.StatusInternalServerError) })
	mux.HandleFunc("/files/", func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/files/")
		switch r.Method {
		case http.MethodPut:
			b, _ := io.ReadAll(r.Body)
			ts.mu.Lock()
			ts.uploads[name] = string(b)
			ts.mu.Unlock()
		case http.MethodGet:
			if name == "hello.txt" {
				io.WriteString(w, "hello file")
				return
			}
			if name == "a b/c.txt" {
				io.WriteString(w, "spaced")
				return
			}
			http.NotFound(w, r)
		}
	})
	ts.Server = httptest.NewServer(mux) // loopback only
	t.Cleanup(ts.Close)
	return ts
}

func (ts *testServer) fetcher() *fsbridge.HTTPFetcher {
	return &fsbridge.HTTPFetcher{
		Routes: map[string]string{
			"current-ip":   ts.URL + "/ip",
			"slow":         ts.URL + "/slow",
			"big":          ts.URL + "/big",
			"forbidden":    ts.URL + "/forbidden",
			"broken":       ts.URL + "/broken",
			"missing":      ts.URL + "/files/missing",
			"files/{path}": ts.URL + "/files/{path}",
		},
		Timeout:  300 * time.Millisecond,
		MaxBytes: 1000,
	}
}

func TestFetchers(t *testing.T) {
	ts := newTestServer(t)
	w := newWorld(t)
	p := w.policy()
	calls := 0
	p.Virtual = []fsbridge.VirtualMount{
		{Guest: "/network", Fetcher: ts.fetcher()},
		{Guest: "/upload", Fetcher: ts.fetcher(), Writable: true},
		{Guest: "/api", Fetcher: fsbridge.FetcherFunc(func(ctx context.Context, name string) ([]byte, error) {
			calls++
			switch name {
			case "time":
				return []byte("12:00"), nil
			case "secret":
				return nil, fmt.Errorf("api: %w", fs.ErrPermission)
			}
			return nil, fmt.Errorf("api has no %q: %w", name, fs.ErrNotExist)
		})},
	}
	sb := newSandbox(t, p)
	start := time.Now()
	res := py(t, sb, prelude+`
t('ip', lambda: read('/network/current-ip'))
t('list', lambda: sorted(os.listdir('/network')))
t('exists', lambda: os.path.exists('/network/current-ip'))
t('size', lambda: os.path.getsize('/network/current-ip'))
t('isdir', lambda: os.path.isdir('/network'))
t('missing', lambda: read('/network/missing'))
t('notlisted', lambda: read('/network/anything-else'))
t('slow', lambda: read('/network/slow'))
t('big', lambda: read('/network/big'))
t('forbidden', lambda: read('/network/forbidden'))
t('broken', lambda: read('/network/broken'))
t('pattern', lambda: read('/network/files/hello.txt'))
t('escaped', lambda: read('/network/files/a b/c.txt'))
t('patternmiss', lambda: read('/network/files/nope.txt'))
t('rofetch', lambda: put('/network/current-ip', 'x'))
t('rm', lambda: os.remove('/network/current-ip'))
t('upload', lambda: put('/upload/files/report.txt', 'uploaded!'))
t('uploadbad', lambda: put('/upload/not-allowed', 'x'))
t('func', lambda: read('/api/time'))
t('funcperm', lambda: read('/api/secret'))
t('funcmiss', lambda: read('/api/nothing'))
t('binary', lambda: len(open('/network/current-ip', 'rb').read()))
`)
	elapsed := time.Since(start)
	if res.Status != "ok" {
		t.Fatalf("status %s: %s\n%s\n%s", res.Status, res.Message, res.Stdout, res.Stderr)
	}
	checkLines(t, string(res.Stdout), map[string]string{
		"ip": "OK '203.0.113.7'", "list": "OK ['big', 'broken', 'current-ip', 'forbidden', 'missing', 'slow']",
		"exists": "OK True", "size": "OK 11", "isdir": "OK True",
		"missing": "FileNotFoundError ENOENT", "notlisted": "FileNotFoundError ENOENT",
		"slow": "OSError EIO", "big": "OSError EIO", "forbidden": "PermissionError EACCES",
		"broken": "OSError EIO", "pattern": "OK 'hello file'", "escaped": "OK 'spaced'",
		"patternmiss": "FileNotFoundError ENOENT", "rofetch": "OSError EROFS", "rm": "OSError EROFS",
		"upload": "OK 9", "uploadbad": "FileNotFoundError ENOENT",
		"func": "OK '12:00'", "funcperm": "PermissionError EACCES", "funcmiss": "FileNotFoundError ENOENT",
		"binary": "OK 11",
	})
	ds := sb.Denials()
	hasDenial(t, ds, `fetch failed: /network/missing: route "missing": 404 Not Found`)
	hasDenial(t, ds, `fetch failed: /network/slow: route "slow": timed out after 300ms`)
	hasDenial(t, ds, `fetch failed: /network/big: route "big": 200 OK: response exceeds the size limit (1000 bytes)`)
	hasDenial(t, ds, `fetch failed: /network/forbidden: route "forbidden": 403 Forbidden`)
	hasDenial(t, ds, `fetch failed: /network/broken: route "broken": 500 Internal Server Error`)
	hasDenial(t, ds, `fetch failed: /network/files/nope.txt: route "files/{path}": 404 Not Found`)
	hasDenial(t, ds, `fetch failed: /network/anything-else: "anything-else": not in the allowlist of this folder`)
	hasDenial(t, ds, "write denied: /network/current-ip is on a read-only virtual mount (/network)")
	hasDenial(t, ds, `upload failed: /upload/not-allowed: "not-allowed": not in the allowlist of this folder`)
	for _, d := range ds {
		if strings.Contains(d.Message, ts.Listener.Addr().String()) {
			t.Errorf("a denial names the operator's server: %s", d.Message)
		}
	}
	for _, d := range ds {
		if d.Path == "/network/slow" && d.Errno != "ETIMEDOUT" {
			t.Errorf("slow: Errno = %q, want ETIMEDOUT", d.Errno)
		}
	}
	// The guest asked Explain when the OSError was raised: the reason
	// (route and status) is in the Python exception's message.
	if !strings.Contains(string(res.Stdout), `fetch failed: /network/missing: route "missing": 404 Not Found`) {
		t.Errorf("the 404 reason is not in the exception message:\n%s", res.Stdout)
	}
	ts.mu.Lock()
	got := ts.uploads["report.txt"]
	ts.mu.Unlock()
	if got != "uploaded!" {
		t.Errorf("upload = %q", got)
	}
	// The slow fetch was cut at its timeout, not the server's 3 s.
	if elapsed > 2500*time.Millisecond {
		t.Errorf("run took %s: the fetch timeout did not apply", elapsed)
	}
	if calls == 0 {
		t.Errorf("FetcherFunc was not called")
	}
}

// TestReferenceIP is reference scenario 1 without Pillow: the host serves
// /network/current-ip, Python writes it to /output/ip.txt, and the caller
// gets the artifact back.
func TestReferenceIP(t *testing.T) {
	ts := newTestServer(t)
	out := t.TempDir()
	sb := newSandbox(t, fsbridge.Policy{
		Output:  out,
		Virtual: []fsbridge.VirtualMount{{Guest: "/network", Fetcher: ts.fetcher()}},
	})
	pyOK(t, sb, `
ip = open('/network/current-ip').read().strip()
with open('/output/ip.txt', 'w') as f:
    f.write(f'My IP address is {ip}\n')
`)
	arts, err := sb.Artifacts()
	if err != nil {
		t.Fatal(err)
	}
	want := "My IP address is 203.0.113.7\n"
	sum := sha256.Sum256([]byte(want))
	if len(arts) != 1 {
		t.Fatalf("artifacts = %+v, want one", arts)
	}
	a := arts[0]
	if a.Path != "/output/ip.txt" || a.Size != int64(len(want)) || a.MIME != "text/plain; charset=utf-8" || a.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("artifact = %+v", a)
	}
	b, err := sb.ReadArtifact(a.Path)
	if err != nil || string(b) != want {
		t.Errorf("ReadArtifact = %q, %v", b, err)
	}

	// A second run that changes nothing reports nothing; one that
	// rewrites the file reports it again.
	pyOK(t, sb, `print(open('/output/ip.txt').read())`)
	if arts, _ := sb.Artifacts(); len(arts) != 0 {
		t.Errorf("read-only run: artifacts = %+v", arts)
	}
	pyOK(t, sb, `
import os
os.makedirs('/output/charts', exist_ok=True)
open('/output/charts/c.png', 'wb').write(b'\x89PNG\r\n\x1a\n' + bytes(100))
open('/output/ip.txt', 'a').write('again\n')
`)
	arts, _ = sb.Artifacts()
	if len(arts) != 2 || arts[0].Path != "/output/charts/c.png" || arts[0].MIME != "image/png" || arts[1].Path != "/output/ip.txt" {
		t.Errorf("second run artifacts = %+v", arts)
	}
	if _, err := sb.ReadArtifact("/etc/passwd"); err == nil {
		t.Errorf("ReadArtifact outside /output succeeded")
	}
	var d *fsbridge.Denial
	if _, err := sb.ReadArtifact("/work/x"); !errors.As(err, &d) {
		t.Errorf("ReadArtifact(/work/x) error = %v, want a *Denial", err)
	}
}
