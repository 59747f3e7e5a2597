package packages

import (
	"archive/zip"
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
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
	return userDir(UserDirEnv, os.UserConfigDir, "config", "pybox", "site-packages")
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
	return parseMetadata(f)
}

// parseMetadata reads the header fields of METADATA (the first value of
// each field; the body after the blank line is ignored).
func parseMetadata(r io.Reader) (map[string]string, error) {
	out := map[string]string{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			break // the body starts
		}
		k, v, ok := strings.Cut(line, ": ")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		// Some packages state their license only as a trove classifier.
		if k == "Classifier" && strings.HasPrefix(v, "License ::") {
			parts := strings.Split(v, " :: ")
			k, v = "License-Classifier", parts[len(parts)-1]
		}
		if _, seen := out[k]; !seen {
			out[k] = v
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
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return distributions(os.DirFS(dir), ".", "user")
}

// BundlePackages lists what the runtime bundle provides: the standard
// library, and every distribution in its site-packages (the build writes
// .dist-info for the packages linked into python.wasm too).
func BundlePackages(b *Bundle) []Package {
	out := []Package{{Name: "python (standard library)", Version: b.Manifest.Python, Source: "stdlib", License: "PSF-2.0"}}
	dists, _ := distributions(b.Files, "lib/python3.11/site-packages", "bundle")
	return append(out, dists...)
}

// distributions reads the .dist-info folders directly under dir of fsys.
// Names are normalized as pip compares them (PEP 503: lower case, runs of
// "-", "_", "." as one "-").
func distributions(fsys fs.FS, dir, source string) ([]Package, error) {
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var out []Package
	for _, e := range ents {
		if !e.IsDir() || !strings.HasSuffix(e.Name(), ".dist-info") {
			continue
		}
		f, err := fsys.Open(path.Join(dir, e.Name(), "METADATA"))
		if err != nil {
			continue
		}
		meta, err := parseMetadata(f)
		f.Close()
		if err != nil || meta["Name"] == "" {
			continue
		}
		out = append(out, Package{
			Name:    normalizeName(meta["Name"]),
			Version: meta["Version"],
			Source:  source,
			License: firstNonEmpty(firstNonEmpty(meta["License-Expression"], meta["License"]), meta["License-Classifier"]),
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

var nameSeparators = regexp.MustCompile(`[-_.]+`)

func normalizeName(n string) string {
	return nameSeparators.ReplaceAllString(strings.ToLower(n), "-")
}
