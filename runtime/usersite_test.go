package runtime_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pybox-dev/pybox/runtime"
)

// TestUserSiteFollowsNoLinkOut: the user's packages folder is mounted
// through fsbridge, read-only, so host links in it that lead out of it are
// refused like in every other mount (wazero's own folder mount followed
// them), with the reason in the exception, while links inside work.
func TestUserSiteFollowsNoLinkOut(t *testing.T) {
	base := t.TempDir()
	site := filepath.Join(base, "site")
	secret := filepath.Join(base, "secret.txt")
	for p, s := range map[string]string{
		filepath.Join(site, "usermod.py"):         "X = 42\n",
		filepath.Join(site, "pkg", "__init__.py"): "Y = 'pkg'\n",
		secret: "TOPSECRET\n",
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range map[string]string{
		"inlink.py": "usermod.py", "out": "../secret.txt", "abs": secret, "dirout": "..", "pkglink": "pkg",
	} {
		if err := os.Symlink(target, filepath.Join(site, name)); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	eng, err := runtime.NewEngine(ctx, runtime.Config{UserPackages: site, NoSnapshot: true})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(ctx)
	res, err := eng.Run(ctx, runtime.Request{Code: `
import os, errno
def t(label, fn):
    try:
        print(label, 'OK', repr(fn())[:60])
    except OSError as e:
        print(label, type(e).__name__, errno.errorcode.get(e.errno, e.errno), '|', e)
import usermod, pkg
print('import OK', usermod.X, pkg.Y)
t('inlink', lambda: open('/pybox/user-site/inlink.py').read())
t('pkglink', lambda: sorted(os.listdir('/pybox/user-site/pkglink')))
t('out', lambda: open('/pybox/user-site/out').read())
t('abs', lambda: open('/pybox/user-site/abs').read())
t('dirout', lambda: os.listdir('/pybox/user-site/dirout'))
t('readlink', lambda: os.readlink('/pybox/user-site/abs'))
t('write', lambda: open('/pybox/user-site/new.py', 'w'))
t('symlink', lambda: os.symlink('usermod.py', '/pybox/user-site/l'))
`})
	if err != nil {
		t.Fatal(err)
	}
	out := string(res.Stdout)
	if res.Status != runtime.StatusOK {
		t.Fatalf("status %s: %s\n%s\n%s", res.Status, res.Message, out, res.Stderr)
	}
	for _, want := range []string{
		"import OK 42 pkg\n",
		"inlink OK 'X = 42\\n'\n",
		"pkglink OK ['__init__.py']\n",
		"out PermissionError EACCES | [Errno 2] read denied: /pybox/user-site/out leads outside its mount (/pybox/user-site) through a symbolic link",
		"abs PermissionError EACCES | [Errno 2] read denied: /pybox/user-site/abs leads outside its mount",
		"dirout PermissionError EACCES",
		"readlink PermissionError EACCES",
		"write OSError EROFS | [Errno 69] write denied: /pybox/user-site/new.py is on a read-only mount (/pybox/user-site)",
		"symlink OSError EROFS",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "TOPSECRET") || strings.Contains(out, base) {
		t.Errorf("the guest saw the secret or a host path:\n%s", out)
	}
	if _, err := os.Lstat(filepath.Join(site, "new.py")); err == nil {
		t.Errorf("the guest wrote into the user's packages")
	}
}
