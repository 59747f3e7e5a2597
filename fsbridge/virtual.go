package fsbridge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/afero/mem"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	wsys "github.com/tetratelabs/wazero/sys"
)

// virtualMount serves files produced by a Fetcher. Reading a file fetches
// it, synchronously, when the guest opens it (or stats it: Python's
// os.path.exists and os.stat need a size). A stat's bytes are kept for
// statCacheTTL so that the open that usually follows does not fetch twice.
type virtualMount struct {
	m   *mount
	v   VirtualMount
	dev uint64

	mu    sync.Mutex
	cache map[string]fetched
}

type fetched struct {
	data []byte
	at   time.Time
}

const statCacheTTL = 2 * time.Second

func newVirtualMount(m *mount, v VirtualMount) *virtualMount {
	return &virtualMount{m: m, v: v, dev: hash64("dev:" + m.guest), cache: map[string]fetched{}}
}

// names returns the names the fetcher lists, if it is a Lister.
func (v *virtualMount) names() []string {
	l, ok := v.v.Fetcher.(Lister)
	if !ok {
		return nil
	}
	names, err := l.List(v.m.s.ctx())
	if err != nil {
		return nil
	}
	return names
}

// isDir reports whether rel is a folder: the mount itself, or a prefix of
// listed names.
func (v *virtualMount) isDir(rel string) bool {
	if rel == "." {
		return true
	}
	for _, n := range v.names() {
		if strings.HasPrefix(n, rel+"/") {
			return true
		}
	}
	return false
}

func (v *virtualMount) children(rel string) []experimentalsys.Dirent {
	prefix := ""
	if rel != "." {
		prefix = rel + "/"
	}
	seen := map[string]bool{}
	var out []experimentalsys.Dirent
	for _, n := range v.names() {
		rest, ok := strings.CutPrefix(n, prefix)
		if !ok || rest == "" {
			continue
		}
		name, _, sub := strings.Cut(rest, "/")
		if seen[name] {
			continue
		}
		seen[name] = true
		t := fs.FileMode(0)
		if sub {
			t = fs.ModeDir
		}
		out = append(out, experimentalsys.Dirent{Name: name, Ino: hash64(v.m.gpath(joinRel(rel, name))), Type: t})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (v *virtualMount) dirStat(rel string) wsys.Stat_t {
	return wsys.Stat_t{Dev: v.dev, Ino: hash64(v.m.gpath(rel)), Mode: fs.ModeDir | 0o555, Nlink: 2}
}

func (v *virtualMount) fileMode() fs.FileMode {
	if v.v.Writable {
		return 0o644
	}
	return 0o444
}

// fetch gets name's bytes, from the stat cache if fresh (and consumes it).
func (v *virtualMount) fetch(rel string, keep bool) ([]byte, error) {
	v.mu.Lock()
	c, ok := v.cache[rel]
	if ok && time.Since(c.at) < statCacheTTL {
		if !keep {
			delete(v.cache, rel)
		}
		v.mu.Unlock()
		return c.data, nil
	}
	v.mu.Unlock()
	data, err := v.v.Fetcher.Fetch(v.m.s.ctx(), rel)
	if err != nil {
		return nil, fetchDenial("fetch", v.m.gpath(rel), err)
	}
	if keep {
		v.mu.Lock()
		v.cache[rel] = fetched{data: data, at: time.Now()}
		v.mu.Unlock()
	}
	return data, nil
}

// fetchDenial turns a fetcher's error into a recorded failure with the
// errno the guest sees.
func fetchDenial(op, guest string, err error) error {
	errno, ideal := experimentalsys.EIO, "EIO"
	switch {
	case errors.Is(err, fs.ErrNotExist):
		errno, ideal = experimentalsys.ENOENT, "ENOENT"
	case errors.Is(err, fs.ErrPermission):
		errno, ideal = experimentalsys.EACCES, "EACCES"
	case errors.Is(err, context.DeadlineExceeded):
		ideal = "ETIMEDOUT"
	case errors.Is(err, context.Canceled):
		errno, ideal = experimentalsys.EINTR, "EINTR"
	case errors.Is(err, ErrTooLarge):
		ideal = "EFBIG"
	}
	return failure(op, guest, err.Error(), errno, ideal)
}

func (v *virtualMount) readOnly(op, rel string) error {
	return deny(op, v.m.gpath(rel), fmt.Sprintf("is on a read-only virtual mount (%s)", v.m.guest), experimentalsys.EROFS, "EROFS")
}

func (v *virtualMount) open(rel string, oflag experimentalsys.Oflag, _ fs.FileMode) (experimentalsys.File, error) {
	write := isWriteOpen(oflag)
	if v.isDir(rel) {
		if write {
			return nil, syscall.EISDIR
		}
		release, err := v.m.s.acquireOpen(v.m.gpath(rel))
		if err != nil {
			return nil, err
		}
		return &dirFile{
			list:    func() ([]experimentalsys.Dirent, error) { return v.children(rel), nil },
			stat:    func() (wsys.Stat_t, error) { return v.dirStat(rel), nil },
			release: release,
		}, nil
	}
	if oflag&experimentalsys.O_DIRECTORY != 0 {
		return nil, syscall.ENOTDIR
	}
	release, err := v.m.s.acquireOpen(v.m.gpath(rel))
	if err != nil {
		return nil, err
	}
	meta := mem.CreateFile(rel)
	mem.SetMode(meta, v.fileMode())
	mem.SetModTime(meta, time.Now())
	content := newMemData(&memAccount{}, 0)
	content.names = []*mem.FileData{meta}
	h := newMemHandle(meta, content)
	r, w := accessOf(oflag)
	f := &regFile{
		s: v.m.s, m: v.m, guest: v.m.gpath(rel), f: h,
		read: r, write: w, append: oflag&experimentalsys.O_APPEND != 0, nonblock: oflag&experimentalsys.O_NONBLOCK != 0,
		statT: func(fi fs.FileInfo) wsys.Stat_t {
			return wsys.Stat_t{Dev: v.dev, Ino: hash64(v.m.gpath(rel)), Mode: v.fileMode(), Nlink: 1,
				Size: fi.Size(), Atim: fi.ModTime().UnixNano(), Mtim: fi.ModTime().UnixNano(), Ctim: fi.ModTime().UnixNano()}
		},
		release: release,
	}
	if !write {
		b, err := v.fetch(rel, false)
		if err != nil {
			release()
			return nil, err
		}
		content.writeAt(b, 0)
		return f, nil
	}
	// An upload: the guest's bytes go to Put when it closes the file.
	// Without O_TRUNC or O_APPEND the file starts empty anyway: there is
	// no partial update of a remote file. The bytes are held in host
	// memory until then, so they count against the limits as they are
	// written, like any write: the write that would grow the upload past
	// the file size limit fails, naming the path and the limit.
	putter := v.v.Fetcher.(Putter)
	max := v.m.s.limits.FileSize
	f.limited = true
	f.onClose = func() error {
		if f.refused != "" {
			content.free()
			return failure("upload", v.m.gpath(rel), "not sent, a write to it was refused: "+f.refused, experimentalsys.EIO, "EFBIG")
		}
		defer content.free()
		size := content.Size()
		if max > 0 && size > max {
			return deny("upload", v.m.gpath(rel), fmt.Sprintf("is %d bytes, over the file size limit of %s", size, formatBytes(max)), experimentalsys.EIO, "EFBIG")
		}
		var err error
		if rp, ok := putter.(ReaderPutter); ok {
			err = rp.PutReader(v.m.s.ctx(), rel, io.NewSectionReader(content, 0, size), size)
		} else {
			err = putter.Put(v.m.s.ctx(), rel, content.bytes())
		}
		if err != nil {
			return fetchDenial("upload", v.m.gpath(rel), err)
		}
		return nil
	}
	return f, nil
}

func (v *virtualMount) stat(rel string, _ bool) (wsys.Stat_t, error) {
	if v.isDir(rel) {
		return v.dirStat(rel), nil
	}
	b, err := v.fetch(rel, true)
	if err != nil {
		return wsys.Stat_t{}, err
	}
	now := time.Now().UnixNano()
	return wsys.Stat_t{Dev: v.dev, Ino: hash64(v.m.gpath(rel)), Mode: v.fileMode(), Nlink: 1, Size: int64(len(b)), Atim: now, Mtim: now, Ctim: now}, nil
}

func (v *virtualMount) mkdir(rel string, _ fs.FileMode) error { return v.readOnly("mkdir", rel) }
func (v *virtualMount) chmod(rel string, _ fs.FileMode) error { return v.readOnly("chmod", rel) }
func (v *virtualMount) rename(from, to string) error {
	return deny2("rename", v.m.gpath(from), v.m.gpath(to), fmt.Sprintf("is not possible in a virtual mount (%s)", v.m.guest), experimentalsys.EPERM, "EPERM")
}
func (v *virtualMount) rmdir(rel string) error  { return v.readOnly("delete", rel) }
func (v *virtualMount) unlink(rel string) error { return v.readOnly("delete", rel) }
func (v *virtualMount) link(from, to string) error {
	return deny2("link", v.m.gpath(from), v.m.gpath(to), fmt.Sprintf("is not possible in a virtual mount (%s)", v.m.guest), experimentalsys.EPERM, "EPERM")
}
func (v *virtualMount) symlink(target, link string) error {
	return deny2("symlink", v.m.gpath(link), target, fmt.Sprintf("is not possible in a virtual mount (%s)", v.m.guest), experimentalsys.EPERM, "EPERM")
}
func (v *virtualMount) readlink(string) (string, error) { return "", syscall.EINVAL }
func (v *virtualMount) utimens(rel string, _, _ int64) error {
	return v.readOnly("write", rel)
}
func (v *virtualMount) list(rel string) ([]experimentalsys.Dirent, error) {
	return v.children(rel), nil
}
func (v *virtualMount) close() error { return nil }

// formatBytes prints a size for messages.
func formatBytes(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
