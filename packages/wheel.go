package packages

import (
	"archive/zip"
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// UserSitePath is where the user's added packages appear in the guest. It
// is outside /usr/local (the bundle) and outside anything a sandbox policy
// may mount.
const UserSitePath = "/pybox/user-site"

// UserDirEnv overrides UserDir.
const UserDirEnv = "PYBOX_PACKAGES_DIR"

// UserDir is the host folder holding pure-Python packages added with
// AddWheel: $PYBOX_PACKAGES_DIR, else "pybox/site-packages" under
// os.UserConfigDir().
func UserDir() (string, error) {
	if d := os.Getenv(UserDirEnv); d != "" {
		return d, nil
	}
	base, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("find user config dir (set %s to choose one): %w", UserDirEnv, err)
	}
	return filepath.Join(base, "pybox", "site-packages"), nil
}

// Package is one importable distribution.
type Package struct {
	Name    string
	Version string
	// Source is "bundle" (built into the runtime bundle), "stdlib" or
	// "user" (added with AddWheel).
	Source  string
	License string
}

// ErrNotPure is wrapped by AddWheel's error for a wheel with compiled code.
var ErrNotPure = errors.New("not a pure-Python wheel")

// AddWheel installs a pure-Python wheel (tag py3-none-any) into dir, the way
// pip would lay it out in site-packages, and returns what was installed. A
// wheel with compiled code is refused: it is built for a native platform and
// cannot run in the WebAssembly interpreter. Nothing is written unless the
// whole wheel checks out.
func AddWheel(dir, wheel string) (Package, error) {
	name, version, tags, err := parseWheelName(filepath.Base(wheel))
	if err != nil {
		return Package{}, err
	}
	if !pureTags(tags) {
		return Package{}, fmt.Errorf("%s: %w: its tags %q are for a specific Python build or platform; pybox runs CPython on WebAssembly and can only add wheels tagged py3-none-any (pure Python)", filepath.Base(wheel), ErrNotPure, tags)
	}
	zr, err := zip.OpenReader(wheel)
	if err != nil {
		return Package{}, fmt.Errorf("open wheel %s: %w", wheel, err)
	}
	defer zr.Close()

	type entry struct {
		f    *zip.File
		dest string
	}
	var entries []entry
	dataDir := name + "-" + version + ".data/"
	for _, f := range zr.File {
		n := f.Name
		if strings.HasSuffix(n, "/") {
			continue
		}
		if !validWheelPath(n) {
			return Package{}, fmt.Errorf("%s: unsafe path %q in the wheel", filepath.Base(wheel), n)
		}
		switch ext := strings.ToLower(path.Ext(n)); ext {
		case ".so", ".pyd", ".dylib", ".dll", ".a", ".o":
			return Package{}, fmt.Errorf("%s: %w: it contains compiled code (%s), which cannot run in the WebAssembly interpreter", filepath.Base(wheel), ErrNotPure, n)
		}
		dest := n
		if strings.HasPrefix(strings.ToLower(n), strings.ToLower(dataDir)) {
			rest := n[len(dataDir):]
			kind, sub, _ := strings.Cut(rest, "/")
			if kind != "purelib" && kind != "platlib" {
				continue // scripts, headers, data: not importable, not installed
			}
			dest = sub
		}
		entries = append(entries, entry{f, dest})
	}
	if len(entries) == 0 {
		return Package{}, fmt.Errorf("%s: the wheel has no files", filepath.Base(wheel))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Package{}, fmt.Errorf("create %s: %w", dir, err)
	}
	for _, e := range entries {
		target := filepath.Join(dir, filepath.FromSlash(e.dest))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return Package{}, err
		}
		if err := extract(e.f, target); err != nil {
			return Package{}, fmt.Errorf("%s: extract %s: %w", filepath.Base(wheel), e.f.Name, err)
		}
	}
	p := Package{Name: name, Version: version, Source: "user"}
	if meta, err := readMetadata(filepath.Join(dir, name+"-"+version+".dist-info", "METADATA")); err == nil {
		p.Name, p.Version, p.License = firstNonEmpty(meta["Name"], p.Name), firstNonEmpty(meta["Version"], p.Version), meta["License"]
	}
	return p, nil
}

// validWheelPath rejects absolute paths, backslashes and any climbing out.
func validWheelPath(n string) bool {
	return !strings.HasPrefix(n, "/") && !strings.Contains(n, "\\") && path.Clean(n) == n && !strings.HasPrefix(n, "../") && n != ".."
}

func extract(f *zip.File, target string) error {
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	out, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, io.LimitReader(rc, maxBundleFile)); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// parseWheelName splits name-version(-build)?-pytag-abitag-plattag.whl.
func parseWheelName(file string) (name, version, tags string, err error) {
	base, ok := strings.CutSuffix(file, ".whl")
	parts := strings.Split(base, "-")
	if !ok || (len(parts) != 5 && len(parts) != 6) {
		return "", "", "", fmt.Errorf("%s: not a wheel file name (want NAME-VERSION-PYTAG-ABITAG-PLATFORM.whl)", file)
	}
	n := len(parts)
	return parts[0], parts[1], strings.Join(parts[n-3:], "-"), nil
}

// pureTags accepts py3-none-any and compressed sets that include py3.
func pureTags(tags string) bool {
	t := strings.Split(tags, "-")
	if len(t) != 3 || t[1] != "none" || t[2] != "any" {
		return false
	}
	for _, py := range strings.Split(t[0], ".") {
		if py == "py3" || py == "py311" {
			return true
		}
	}
	return false
}

// readMetadata reads the header fields of a dist-info METADATA file.
func readMetadata(file string) (map[string]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			break // the body starts
		}
		if k, v, ok := strings.Cut(line, ": "); ok {
			if _, seen := out[k]; !seen {
				out[k] = strings.TrimSpace(v)
			}
		}
	}
	return out, sc.Err()
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// UserPackages lists the distributions installed in dir by AddWheel.
func UserPackages(dir string) ([]Package, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Package
	for _, e := range ents {
		if !e.IsDir() || !strings.HasSuffix(e.Name(), ".dist-info") {
			continue
		}
		meta, err := readMetadata(filepath.Join(dir, e.Name(), "METADATA"))
		if err != nil {
			continue
		}
		out = append(out, Package{Name: meta["Name"], Version: meta["Version"], Source: "user", License: meta["License"]})
	}
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i].Name) < strings.ToLower(out[j].Name) })
	return out, nil
}

// BundlePackages lists what the runtime bundle provides: the standard
// library (as "python") and the packages built into it, from its manifest.
func BundlePackages(b *Bundle) []Package {
	out := []Package{{Name: "python (standard library)", Version: b.Manifest.Python, Source: "stdlib", License: "PSF-2.0"}}
	for _, s := range b.Manifest.Sources {
		switch s.Name {
		case "cpython", "zlib", "libjpeg-turbo", "freetype", "fonts-dejavu-core":
			continue // parts of the interpreter or of a package, not importable themselves
		}
		out = append(out, Package{Name: s.Name, Version: s.Version, Source: "bundle", License: s.License})
	}
	return out
}
