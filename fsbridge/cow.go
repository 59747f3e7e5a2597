package fsbridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/afero"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	wsys "github.com/tetratelabs/wazero/sys"
)

// readOnlyBackend refuses every change at the type level: read-only mounts
// and copy-on-write lowers go through it, so a bug in a mount cannot turn
// into a write on the host.
type readOnlyBackend struct{ backend }

func (readOnlyBackend) mkdir(string, fs.FileMode) error { return syscall.EROFS }
func (readOnlyBackend) remove(string) error             { return syscall.EROFS }
func (readOnlyBackend) rename(string, string) error     { return syscall.EROFS }
func (readOnlyBackend) chmod(string, fs.FileMode) error { return syscall.EROFS }
func (readOnlyBackend) chtimes(string, time.Time, time.Time) error {
	return syscall.EROFS
}
func (readOnlyBackend) symlink(string, string) error { return syscall.EROFS }
func (readOnlyBackend) link(string, string) error    { return syscall.EROFS }
func (b readOnlyBackend) open(name string, flag int, perm fs.FileMode) (afero.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_TRUNC|os.O_APPEND) != 0 {
		return nil, syscall.EROFS
	}
	return b.backend.open(name, flag, perm)
}

// cowMount is a copy-on-write mount: reads come from the lower (host)
// folder unless the upper folder has the path; every change happens in the
// upper folder, after copying the file (or folder) up with its mode and
// times. Deletions of lower entries are recorded as whiteouts; a folder
// recreated over a whiteout is opaque (the lower folder's entries stay
// hidden under it). Whiteouts and opaque marks are saved in the upper
// folder, in cowMetaName, which the guest can neither see nor touch.
type cowMount struct {
	m     *mount
	lower backend // readOnlyBackend over a rootBackend
	upper *rootBackend

	mu     sync.Mutex
	white  map[string]bool
	opaque map[string]bool
}

type cowMeta struct {
	Whiteouts []string `json:"whiteouts"`
	Opaque    []string `json:"opaque"`
}

func newCowMount(m *mount, lower, upper *rootBackend) (*cowMount, error) {
	c := &cowMount{m: m, lower: readOnlyBackend{lower}, upper: upper, white: map[string]bool{}, opaque: map[string]bool{}}
	f, err := upper.root.Open(cowMetaName)
	if err == nil {
		defer f.Close()
		var meta cowMeta
		if err := json.NewDecoder(f).Decode(&meta); err != nil {
			return nil, fmt.Errorf("copy-on-write state %s: %w", path.Join(upper.root.Name(), cowMetaName), err)
		}
		for _, w := range meta.Whiteouts {
			c.white[w] = true
		}
		for _, o := range meta.Opaque {
			c.opaque[o] = true
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return c, nil
}

// save writes the whiteouts; c.mu must be held.
func (c *cowMount) save() error {
	meta := cowMeta{Whiteouts: []string{}, Opaque: []string{}}
	for w := range c.white {
		meta.Whiteouts = append(meta.Whiteouts, w)
	}
	for o := range c.opaque {
		meta.Opaque = append(meta.Opaque, o)
	}
	sort.Strings(meta.Whiteouts)
	sort.Strings(meta.Opaque)
	data, _ := json.MarshalIndent(meta, "", "  ")
	tmp := cowMetaName + ".tmp"
	if err := c.upper.root.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return c.upper.root.Rename(tmp, cowMetaName)
}

func reserved(rel string) bool {
	return rel == cowMetaName || strings.HasPrefix(rel, cowMetaName+"/") ||
		rel == cowMetaName+".tmp"
}

// lowerVisible reports whether the lower entry at rel may show through: no
// whiteout on it or above it, and no opaque folder above it.
func (c *cowMount) lowerVisible(rel string) bool {
	if rel == "." {
		return true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	parts := strings.Split(rel, "/")
	q := ""
	for i, p := range parts {
		q = joinRel(q, p)
		if c.white[q] {
			return false
		}
		if i < len(parts)-1 && c.opaque[q] {
			return false
		}
	}
	return true
}

func notExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOENT)
}

// locate finds rel in the merged view.
func (c *cowMount) locate(rel string, follow bool) (backend, fs.FileInfo, error) {
	if reserved(rel) {
		return nil, nil, syscall.ENOENT
	}
	st := func(b backend) (fs.FileInfo, error) {
		if follow {
			return b.stat(rel)
		}
		return b.lstat(rel)
	}
	fi, err := st(c.upper)
	if err == nil {
		return c.upper, fi, nil
	}
	if !notExist(err) {
		return nil, nil, err
	}
	if !c.lowerVisible(rel) {
		return nil, nil, syscall.ENOENT
	}
	fi, err = st(c.lower)
	if err != nil {
		return nil, nil, err
	}
	return c.lower, fi, nil
}

// inLower reports whether a visible lower entry exists at rel.
func (c *cowMount) inLower(rel string) bool {
	if !c.lowerVisible(rel) {
		return false
	}
	_, err := c.lower.lstat(rel)
	return err == nil
}

// ensureUpperDir makes the merged-view folder rel exist in the upper
// folder, with the lower folder's mode (plus owner rwx, so that the upper
// copy stays writable for us) and times.
func (c *cowMount) ensureUpperDir(rel string) error {
	if rel == "." {
		return nil
	}
	if fi, err := c.upper.lstat(rel); err == nil {
		if fi.IsDir() {
			return nil
		}
		return syscall.ENOTDIR
	}
	if err := c.ensureUpperDir(path.Dir(rel)); err != nil {
		return err
	}
	if !c.lowerVisible(rel) {
		return syscall.ENOENT
	}
	lfi, err := c.lower.stat(rel)
	if err != nil {
		return err
	}
	if !lfi.IsDir() {
		return syscall.ENOTDIR
	}
	if err := c.upper.mkdir(rel, lfi.Mode().Perm()|0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	_ = c.upper.chtimes(rel, lfi.ModTime(), lfi.ModTime())
	return nil
}

// copyUp makes rel (a file or folder of the merged view) exist in the upper
// folder. Files are copied with their mode and modification time; the host
// file is only read. The copy is a write of the guest's: its bytes count
// against the bytes written per run, and a copy that would exceed it is
// refused before anything is copied. copyUp(rel) copies the content;
// copyUpEmpty is for an open that truncates the file anyway.
func (c *cowMount) copyUp(rel string) error { return c.copyUpData(rel, true) }

func (c *cowMount) copyUpEmpty(rel string) error { return c.copyUpData(rel, false) }

func (c *cowMount) copyUpData(rel string, content bool) error {
	if _, err := c.upper.lstat(rel); err == nil {
		return nil
	}
	lfi, err := c.lower.stat(rel)
	if err != nil {
		return err
	}
	if lfi.IsDir() {
		return c.ensureUpperDir(rel)
	}
	if err := c.ensureUpperDir(path.Dir(rel)); err != nil {
		return err
	}
	src, err := c.lower.open(rel, os.O_RDONLY, 0)
	if err != nil {
		return err
	}
	defer src.Close()
	var size int64
	if content {
		// The size of the open file, not of the earlier stat: the copy
		// reads no more than was admitted even if the host file grows.
		sfi, err := src.Stat()
		if err != nil {
			return err
		}
		size = sfi.Size()
		if err := c.m.s.reserveWrite(c.m.gpath(rel), size,
			fmt.Sprintf("must first be copied to the copy-on-write layer (%d bytes)", size)); err != nil {
			return err
		}
	}
	dst, err := c.upper.open(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, lfi.Mode().Perm()|0o200)
	if err != nil {
		c.m.s.chargeWrite(-size)
		return err
	}
	if _, err := io.CopyN(dst, src, size); err != nil && !errors.Is(err, io.EOF) {
		dst.Close()
		c.upper.remove(rel)
		c.m.s.chargeWrite(-size)
		return err
	}
	if err := dst.Close(); err != nil {
		return err
	}
	// Exact mode, whatever the umask; the owner keeps write permission
	// (a read-only host file is still writable in the sandbox, as the
	// guest asked to write it).
	_ = c.upper.chmod(rel, lfi.Mode().Perm()|0o200)
	_ = c.upper.chtimes(rel, lfi.ModTime(), lfi.ModTime())
	return nil
}

// copyUpTree copies a whole merged folder up, for renames.
func (c *cowMount) copyUpTree(rel string) error {
	if err := c.ensureUpperDir(rel); err != nil {
		return err
	}
	ents, err := c.list(rel)
	if err != nil {
		return err
	}
	for _, e := range ents {
		child := joinRel(rel, e.Name)
		if e.Type.IsDir() {
			err = c.copyUpTree(child)
		} else {
			err = c.copyUp(child)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// created records that rel now exists in the upper folder: a whiteout on it
// becomes an opaque mark.
func (c *cowMount) created(rel string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.white[rel] {
		delete(c.white, rel)
		c.opaque[rel] = true
		_ = c.save()
	}
}

// forget drops whiteouts and opaque marks at and below rel; c.mu held.
func (c *cowMount) forget(rel string) {
	for k := range c.white {
		if k == rel || strings.HasPrefix(k, rel+"/") {
			delete(c.white, k)
		}
	}
	for k := range c.opaque {
		if k == rel || strings.HasPrefix(k, rel+"/") {
			delete(c.opaque, k)
		}
	}
}

func (c *cowMount) reservedErr(op, rel string) error {
	return deny(op, c.m.gpath(rel), "is reserved for the sandbox's copy-on-write bookkeeping", experimentalsys.EACCES, "EACCES")
}

func (c *cowMount) open(rel string, oflag experimentalsys.Oflag, perm fs.FileMode) (experimentalsys.File, error) {
	write := isWriteOpen(oflag)
	if reserved(rel) {
		if write {
			return nil, c.reservedErr("write", rel)
		}
		return nil, syscall.ENOENT
	}
	be, fi, err := c.locate(rel, oflag&experimentalsys.O_NOFOLLOW == 0)
	if err != nil && !notExist(err) {
		return nil, c.m.hostErr("read", rel, err)
	}
	exists := err == nil
	if exists && oflag&experimentalsys.O_CREAT != 0 && oflag&experimentalsys.O_EXCL != 0 {
		return nil, syscall.EEXIST // before EISDIR, as Linux
	}
	if exists && fi.IsDir() {
		if write {
			return nil, syscall.EISDIR
		}
		return c.openDir(rel)
	}
	if exists && oflag&experimentalsys.O_DIRECTORY != 0 {
		return nil, syscall.ENOTDIR
	}
	if !write {
		if !exists {
			return nil, syscall.ENOENT
		}
		return openIn(c.m, be, rel, oflag, perm, nil)
	}
	if exists && oflag&experimentalsys.O_CREAT != 0 && oflag&experimentalsys.O_EXCL != 0 {
		return nil, syscall.EEXIST
	}
	if exists && be != backend(c.upper) {
		copyUp := c.copyUp
		if _, w := accessOf(oflag); w && oflag&experimentalsys.O_TRUNC != 0 {
			copyUp = c.copyUpEmpty // the content would be cut at once
		}
		if err := copyUp(rel); err != nil {
			return nil, c.m.hostErr("write", rel, err)
		}
	}
	if !exists {
		if oflag&experimentalsys.O_CREAT == 0 {
			return nil, syscall.ENOENT
		}
		if err := c.ensureUpperDir(path.Dir(rel)); err != nil {
			return nil, c.m.hostErr("write", rel, err)
		}
	}
	return openIn(c.m, c.upper, rel, oflag, perm, func() { c.created(rel) })
}

func (c *cowMount) openDir(rel string) (experimentalsys.File, error) {
	release, err := c.m.s.acquireOpen(c.m.gpath(rel))
	if err != nil {
		return nil, err
	}
	return &dirFile{
		list: func() ([]experimentalsys.Dirent, error) { return c.list(rel) },
		stat: func() (wsys.Stat_t, error) { return c.stat(rel, true) },
		chtimes: func(a, mt time.Time) error {
			return c.utimensT(rel, a, mt)
		},
		release: release,
	}, nil
}

func (c *cowMount) stat(rel string, follow bool) (wsys.Stat_t, error) {
	be, fi, err := c.locate(rel, follow)
	if err != nil {
		return wsys.Stat_t{}, c.m.hostErr("stat", rel, err)
	}
	return be.statT(rel, fi), nil
}

func (c *cowMount) mkdir(rel string, perm fs.FileMode) error {
	if reserved(rel) {
		return c.reservedErr("mkdir", rel)
	}
	if _, _, err := c.locate(rel, false); err == nil {
		return syscall.EEXIST
	}
	if err := c.ensureUpperDir(path.Dir(rel)); err != nil {
		return c.m.hostErr("mkdir", rel, err)
	}
	if err := c.m.s.admitCreate(c.m.gpath(rel)); err != nil {
		return err
	}
	if perm == 0 {
		perm = 0o755
	}
	if err := c.upper.mkdir(rel, perm.Perm()); err != nil {
		return c.m.hostErr("mkdir", rel, err)
	}
	c.m.s.chargeCreate()
	c.created(rel)
	return nil
}

func (c *cowMount) chmod(rel string, perm fs.FileMode) error {
	if reserved(rel) {
		return c.reservedErr("chmod", rel)
	}
	if _, _, err := c.locate(rel, true); err != nil {
		return c.m.hostErr("chmod", rel, err)
	}
	if err := c.copyUp(rel); err != nil {
		return c.m.hostErr("chmod", rel, err)
	}
	return c.upper.chmod(rel, perm&fs.ModePerm) // permission bits only, as plainMount.chmod
}

func (c *cowMount) utimens(rel string, atim, mtim int64) error {
	return c.utimensT(rel, nanoTime(atim), nanoTime(mtim))
}

func (c *cowMount) utimensT(rel string, a, mt time.Time) error {
	if reserved(rel) {
		return c.reservedErr("write", rel)
	}
	if _, _, err := c.locate(rel, true); err != nil {
		return c.m.hostErr("write", rel, err)
	}
	if err := c.copyUp(rel); err != nil {
		return c.m.hostErr("write", rel, err)
	}
	return c.upper.chtimes(rel, a, mt)
}

func (c *cowMount) unlink(rel string) error {
	if reserved(rel) {
		return c.reservedErr("delete", rel)
	}
	if rel == "." {
		return syscall.EISDIR
	}
	be, fi, err := c.locate(rel, false)
	if err != nil {
		return c.m.hostErr("delete", rel, err)
	}
	if fi.IsDir() {
		return syscall.EISDIR
	}
	return c.removeEntry(rel, be)
}

func (c *cowMount) rmdir(rel string) error {
	if reserved(rel) {
		return c.reservedErr("delete", rel)
	}
	if rel == "." {
		return syscall.EBUSY
	}
	be, fi, err := c.locate(rel, false)
	if err != nil {
		return c.m.hostErr("delete", rel, err)
	}
	if !fi.IsDir() {
		return syscall.ENOTDIR
	}
	ents, err := c.list(rel)
	if err != nil {
		return err
	}
	if len(ents) > 0 {
		return syscall.ENOTEMPTY
	}
	return c.removeEntry(rel, be)
}

// removeEntry removes rel from the upper folder if it is there, and hides
// the lower entry with a whiteout if there is one. The host is not touched.
func (c *cowMount) removeEntry(rel string, be backend) error {
	lower := c.inLower(rel)
	if be == backend(c.upper) {
		if err := c.upper.remove(rel); err != nil {
			return c.m.hostErr("delete", rel, err)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.forget(rel)
	if lower {
		c.white[rel] = true
	}
	return c.save()
}

func (c *cowMount) rename(from, to string) error {
	if reserved(from) || reserved(to) {
		return c.reservedErr("rename", from)
	}
	if from == "." || to == "." {
		return syscall.EBUSY
	}
	_, sfi, err := c.locate(from, false)
	if err != nil {
		return c.m.hostErr("rename", from, err)
	}
	if from == to {
		return nil
	}
	// Links never move (links.go); copy-up would also turn a lower link
	// to a folder into an empty folder.
	if l, err := c.findLink(from); err != nil {
		return c.m.hostErr("rename", from, err)
	} else if l != "" {
		return linkMoveErr(c.m, "rename", from, to, l)
	}
	if sfi.IsDir() && strings.HasPrefix(to, from+"/") {
		return syscall.EINVAL
	}
	if _, dfi, err := c.locate(to, false); err == nil {
		switch {
		case sfi.IsDir() && !dfi.IsDir():
			return syscall.ENOTDIR
		case !sfi.IsDir() && dfi.IsDir():
			return syscall.EISDIR
		case dfi.IsDir():
			if ents, err := c.list(to); err != nil {
				return err
			} else if len(ents) > 0 {
				return syscall.ENOTEMPTY
			}
		}
	} else if !notExist(err) {
		return c.m.hostErr("rename", to, err)
	}
	lowerFrom, lowerTo := c.inLower(from), c.inLower(to)
	if sfi.IsDir() {
		err = c.copyUpTree(from)
	} else {
		err = c.copyUp(from)
	}
	if err != nil {
		return c.m.hostErr("rename", from, err)
	}
	if err := c.ensureUpperDir(path.Dir(to)); err != nil {
		return c.m.hostErr("rename", to, err)
	}
	if err := c.upper.rename(from, to); err != nil {
		return c.m.hostErr("rename", from, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.forget(from)
	c.forget(to)
	if lowerFrom {
		c.white[from] = true
	}
	if lowerTo {
		c.opaque[to] = true
	}
	return c.save()
}

// link is refused: a hard link to a lower file would let writes reach the
// host file the mount protects.
func (c *cowMount) link(from, to string) error {
	return deny2("link", c.m.gpath(from), c.m.gpath(to),
		fmt.Sprintf("is not possible in a copy-on-write mount (%s): a hard link would share the host's file; copy the file instead (shutil.copy2)", c.m.guest), experimentalsys.EPERM, "EPERM")
}

// symlink is refused: the upper folder is a host folder (see links.go).
func (c *cowMount) symlink(target, link string) error {
	return symlinkInHostFolder(c.m, link, target)
}

// findLink is findLink for the merged view: the first symbolic link at or
// below rel, in the upper or the visible lower folder.
func (c *cowMount) findLink(rel string) (string, error) {
	_, fi, err := c.locate(rel, false)
	if err != nil {
		return "", err
	}
	if isLink(fi) {
		return rel, nil
	}
	if !fi.IsDir() {
		return "", nil
	}
	stack := []string{rel}
	for len(stack) > 0 {
		dir := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ents, err := c.list(dir)
		if err != nil {
			return "", err
		}
		for _, e := range ents {
			child := joinRel(dir, e.Name)
			switch {
			case e.Type&fs.ModeSymlink != 0:
				return child, nil
			case e.Type.IsDir():
				stack = append(stack, child)
			}
		}
	}
	return "", nil
}

func (c *cowMount) readlink(rel string) (string, error) {
	be, _, err := c.locate(rel, false)
	if err != nil {
		return "", c.m.hostErr("readlink", rel, err)
	}
	t, err := be.readlink(rel)
	if err != nil {
		return "", err
	}
	if _, ok := linkTarget(c.m.guest, rel, t); !ok || path.IsAbs(t) {
		return "", deny("readlink", c.m.gpath(rel), fmt.Sprintf("is a symbolic link that points outside its mount (%s)", c.m.guest), experimentalsys.EACCES, "EACCES")
	}
	return t, nil
}

// list merges the upper and lower folders, minus whiteouts.
func (c *cowMount) list(rel string) ([]experimentalsys.Dirent, error) {
	seen := map[string]experimentalsys.Dirent{}
	found := false
	if infos, err := c.upper.readDir(rel); err == nil {
		found = true
		for _, d := range direntsOf(c.upper, rel, infos) {
			if rel == "." && reserved(d.Name) {
				continue
			}
			seen[d.Name] = d
		}
	} else if !notExist(err) && !errors.Is(err, syscall.ENOTDIR) {
		return nil, c.m.hostErr("read", rel, err)
	}
	c.mu.Lock()
	opaque := c.opaque[rel]
	c.mu.Unlock()
	if !opaque && c.lowerVisible(rel) {
		if infos, err := c.lower.readDir(rel); err == nil {
			found = true
			c.mu.Lock()
			for _, d := range direntsOf(c.lower, rel, infos) {
				if _, ok := seen[d.Name]; ok || c.white[joinRel(rel, d.Name)] {
					continue
				}
				seen[d.Name] = d
			}
			c.mu.Unlock()
		} else if !notExist(err) && !errors.Is(err, syscall.ENOTDIR) {
			return nil, c.m.hostErr("read", rel, err)
		}
	}
	if !found {
		return nil, syscall.ENOENT
	}
	out := make([]experimentalsys.Dirent, 0, len(seen))
	for _, d := range seen {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func (c *cowMount) close() error {
	err := c.upper.close()
	if e := c.lower.close(); err == nil {
		err = e
	}
	return err
}
