//go:build unix

package packages_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/pybox-dev/pybox/assets"
	"github.com/pybox-dev/pybox/packages"
	"github.com/pybox-dev/pybox/runtime"
)

// guestView prints what the guest sees of /usr/local: listings, scandir
// types, stat of every entry (mode, size, mtime, links, inode), contents'
// SHA-256 and a read after a seek, for a few folders; and imports a module
// the boot does not (read through the bundle as the guest imports it).
const guestView = `
import os, stat, hashlib, json
def entry(p):
    st = os.stat(p)
    d = {'mode': st.st_mode, 'size': st.st_size, 'mtime': st.st_mtime, 'nlink': st.st_nlink, 'ino': st.st_ino}
    if stat.S_ISREG(st.st_mode):
        with open(p, 'rb') as f:
            data = f.read()
            f.seek(len(data) // 2)
            d['half'] = f.read(7).hex()
        d['sha256'] = hashlib.sha256(data).hexdigest()
        if len(data) != st.st_size:
            d['short'] = len(data)
    return d
out = {}
for top in ['/usr/local', '/usr/local/lib/python3.11/json', '/usr/local/lib/python3.11/site-packages/numpy/linalg', '/usr/local/lib/python3.11/lib-dynload', '/usr/local/lib/python3.11/email/mime']:
    names = os.listdir(top)
    out[top] = {'list': names, 'entries': {n: entry(os.path.join(top, n)) for n in names},
                'types': [(e.name, e.is_dir(), e.is_file(), e.is_symlink()) for e in os.scandir(top)]}
import email.mime.text
out['import'] = email.mime.text.__file__
print(json.dumps(out, sort_keys=True))
`

// TestGuestReadsExtractedBundle: a real interpreter sees the same
// /usr/local (listings, modes, sizes, times, contents) whether its bundle is
// the extracted pack mapped, the pack read (where files are not mapped), a
// folder of the older layout, or the bundle decoded into memory; only
// files and folders, every time the epoch, every file read whole.
func TestGuestReadsExtractedBundle(t *testing.T) {
	if testing.Short() {
		t.Skip("boots four interpreters")
	}
	mem, err := packages.Decode(bytes.NewReader(assets.Runtime))
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	mapped, err := packages.ExtractEmbeddedForTest(cache)
	if err != nil {
		t.Fatal(err)
	}
	unmapped, err := packages.OpenUnmappedForTest(cache)
	if err != nil {
		t.Fatal(err)
	}
	folder, err := packages.WriteFolderLayoutForTest(t, t.TempDir(), mem)
	if err != nil {
		t.Fatal(err)
	}
	compiled, err := runtime.DefaultCacheDir() // the compiled interpreter, shared with other tests
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var want string
	for _, c := range []struct {
		name string
		b    *packages.Bundle
	}{{"memory", mem}, {"pack", mapped}, {"pack read", unmapped}, {"folder layout", folder}} {
		e, err := runtime.NewEngine(ctx, runtime.Config{Bundle: c.b, CacheDir: compiled, NoSnapshot: true})
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Run(ctx, runtime.Request{Code: guestView})
		e.Close(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != runtime.StatusOK {
			t.Fatalf("%s: %s\n%s", c.name, res.Status, res.Stderr)
		}
		got := string(res.Stdout)
		if want == "" {
			want = got
			checkGuestView(t, got)
		} else if got != want {
			t.Errorf("%s: the guest sees\n%s\nwith the bundle in memory\n%s", c.name, got, want)
		}
	}
}

// checkGuestView checks the file types, times and sizes the guest saw.
func checkGuestView(t *testing.T, view string) {
	var out map[string]json.RawMessage
	if err := json.Unmarshal([]byte(view), &out); err != nil {
		t.Fatal(err)
	}
	var imported string
	if err := json.Unmarshal(out["import"], &imported); err != nil || !strings.HasPrefix(imported, "/usr/local/lib/python3.11/email/mime/text.") {
		t.Errorf("email.mime.text imported from %q (%v)", imported, err)
	}
	files := 0
	for top, raw := range out {
		if top == "import" {
			continue
		}
		var dir struct {
			List    []string
			Entries map[string]struct {
				Mode  uint32
				Mtime float64
				Short *int
				Size  int64
			}
		}
		if err := json.Unmarshal(raw, &dir); err != nil {
			t.Fatal(err)
		}
		for name, e := range dir.Entries {
			switch e.Mode &^ 0o777 {
			case 0o100000:
				files++
			case 0o40000:
			default:
				t.Errorf("%s/%s: mode %o", top, name, e.Mode)
			}
			if e.Mtime != 0 || e.Short != nil {
				t.Errorf("%s/%s: mtime %v, read %v bytes of %d", top, name, e.Mtime, e.Short, e.Size)
			}
		}
	}
	if files < 10 {
		t.Errorf("the guest saw %d files", files)
	}
}
