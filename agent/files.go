package agent

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

	"github.com/pybox-dev/pybox/fsbridge"
)

// MaxStoredFile is the largest file whose content a step stores; bigger
// tracked files are recorded by digest only and cannot be restored.
const MaxStoredFile = 64 << 20

// tracker follows the files a run may change (/output and the writable
// mounts), through the guest's view of the sandbox: guest paths stay the same
// when a task is resumed on another machine whose host folders differ.
type tracker struct {
	fsys  experimentalsys.FS
	roots []string
	// state is what the tracked folders held after the last snapshot.
	state map[string]fileState
	// budget bounds the bytes a snapshot after the first reads to hash
	// changed files (0: no bound); see trackBudget.
	budget   int64
	baseline bool // the first snapshot is done
}

// fileState is a tracked file as last seen; sha is empty when the file was
// not hashed (over the budget), and then never equals another digest.
type fileState struct {
	size  int64
	mtime int64
	sha   string
}

// trackBudget is the bytes a snapshot after a run may read to hash the
// files that changed: what the run could write (the policy's bytes-written
// limit; growing a file counts its holes). A run that only renames or
// touches big files cannot make the host read more: past the budget, changed
// files are recorded with their size only (as Omitted). 0 means no bound.
func trackBudget(p fsbridge.Policy) int64 {
	switch l := p.Limits.WriteBytes; {
	case l == 0:
		return fsbridge.DefaultWriteBytes
	case l < 0:
		return 0
	default:
		return l
	}
}

// trackedRoots are the guest folders whose changes a task depends on.
func trackedRoots(p fsbridge.Policy) []string {
	var roots []string
	if !p.NoOutput {
		roots = append(roots, "/output")
	}
	for _, m := range p.Mounts {
		if m.Mode != fsbridge.ReadOnly {
			roots = append(roots, path.Clean(m.Guest))
		}
	}
	return roots
}

func newTracker(fsys experimentalsys.FS, roots []string, budget int64) *tracker {
	return &tracker{fsys: fsys, roots: roots, state: map[string]fileState{}, budget: budget}
}

// snapshot walks the tracked folders and returns what changed since the last
// snapshot (with content, up to MaxStoredFile), making the new state current.
func (t *tracker) snapshot() ([]FileChange, error) {
	now := map[string]fileState{}
	var changes []FileChange
	left := int64(-1) // no bound
	if t.baseline && t.budget > 0 {
		left = t.budget
	}
	for _, root := range t.roots {
		if err := t.walk(root, now, &changes, &left); err != nil {
			return nil, err
		}
	}
	t.baseline = true
	for p := range t.state {
		if _, ok := now[p]; !ok {
			changes = append(changes, FileChange{Path: p, Deleted: true})
		}
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	t.state = now
	return changes, nil
}

// walk records the files below dir in now and their changes; left is the
// bytes it may still read to hash (-1: no bound).
func (t *tracker) walk(dir string, now map[string]fileState, changes *[]FileChange, left *int64) error {
	d, errno := t.fsys.OpenFile(dir, experimentalsys.O_RDONLY|experimentalsys.O_DIRECTORY, 0)
	if errno == experimentalsys.ENOENT {
		return nil
	}
	if errno != 0 {
		return fmt.Errorf("agent: list %s: %w", dir, errno)
	}
	ents, errno := d.Readdir(-1)
	d.Close()
	if errno != 0 {
		return fmt.Errorf("agent: list %s: %w", dir, errno)
	}
	for _, e := range ents {
		if e.Name == "." || e.Name == ".." {
			continue
		}
		p := path.Join(dir, e.Name)
		st, errno := t.fsys.Lstat(p)
		if errno != 0 {
			continue // removed meanwhile
		}
		switch {
		case st.Mode.IsDir():
			if err := t.walk(p, now, changes, left); err != nil {
				return err
			}
		case st.Mode.IsRegular():
			old, seen := t.state[p]
			if seen && old.size == st.Size && old.mtime == st.Mtim {
				now[p] = old
				continue
			}
			if *left >= 0 && st.Size > *left {
				now[p] = fileState{size: st.Size, mtime: st.Mtim}
				*changes = append(*changes, FileChange{Path: p, Size: st.Size, Omitted: true})
				continue
			}
			sha, size, data, err := t.digest(p)
			if err != nil {
				return err
			}
			if *left >= 0 {
				*left = max(0, *left-size)
			}
			fst := fileState{size: size, mtime: st.Mtim, sha: sha}
			now[p] = fst
			if seen && old.sha == fst.sha {
				continue // touched, not changed
			}
			c := FileChange{Path: p, Size: fst.size, SHA256: fst.sha}
			if data == nil {
				c.Omitted = true
			} else {
				c.Content = data
			}
			*changes = append(*changes, c)
		}
	}
	return nil
}

// digest reads p through, streaming it into its hash, and returns the hex
// digest, the size read, and the content if the file is no bigger than
// MaxStoredFile (nil otherwise: a big file is never held whole).
func (t *tracker) digest(p string) (sha string, size int64, content []byte, err error) {
	f, errno := t.fsys.OpenFile(p, experimentalsys.O_RDONLY, 0)
	if errno != 0 {
		return "", 0, nil, fmt.Errorf("agent: read %s: %w", p, errno)
	}
	defer f.Close()
	h := sha256.New()
	var buf bytes.Buffer
	keep := true
	chunk := make([]byte, 256<<10)
	for {
		n, errno := f.Read(chunk)
		h.Write(chunk[:n])
		size += int64(n)
		if keep && size <= MaxStoredFile {
			buf.Write(chunk[:n])
		} else if keep {
			keep = false
			buf = bytes.Buffer{}
		}
		if errno != 0 {
			return "", 0, nil, fmt.Errorf("agent: read %s: %w", p, errno)
		}
		if n == 0 {
			break
		}
	}
	if keep {
		content = buf.Bytes()
		if content == nil {
			content = []byte{}
		}
	}
	return hex.EncodeToString(h.Sum(nil)), size, content, nil
}

// restore brings the tracked files back to the state recorded in the
// steps: a file whose last recorded change differs from what is there now
// is rewritten (or removed, if the run deleted it). Files the run never
// changed are left alone. It returns the paths it could not restore (too
// big to have been stored, or refused) with the reason.
func (t *tracker) restore(ctx context.Context, sb *fsbridge.Sandbox, want map[string]FileChange) (restored []string, problems []string, err error) {
	if len(want) == 0 {
		return nil, nil, nil
	}
	if err := sb.BeginRun(ctx); err != nil {
		return nil, nil, fmt.Errorf("agent: restore files: %w", err)
	}
	paths := make([]string, 0, len(want))
	for p := range want {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		c := want[p]
		st, errno := t.fsys.Stat(p)
		exists := errno == 0 && st.Mode.IsRegular()
		if c.Deleted {
			if exists {
				if errno := t.fsys.Unlink(p); errno != 0 {
					problems = append(problems, fmt.Sprintf("%s: could not delete it again: %v", p, errno))
					continue
				}
				restored = append(restored, p)
			}
			continue
		}
		if exists && st.Size == c.Size && c.SHA256 != "" {
			if sha, _, _, err := t.digest(p); err == nil && sha == c.SHA256 {
				continue
			}
		}
		if c.Omitted {
			problems = append(problems, fmt.Sprintf("%s: differs from what the run left there and was too big (%d bytes) to store", p, c.Size))
			continue
		}
		if err := t.write(p, c.Content); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", p, err))
			continue
		}
		restored = append(restored, p)
	}
	return restored, problems, nil
}

func (t *tracker) write(p string, data []byte) error {
	// Create missing parent folders.
	parts := strings.Split(strings.TrimPrefix(path.Dir(p), "/"), "/")
	for i := range parts {
		dir := "/" + strings.Join(parts[:i+1], "/")
		if _, errno := t.fsys.Stat(dir); errno == experimentalsys.ENOENT {
			if errno := t.fsys.Mkdir(dir, 0o755); errno != 0 && errno != experimentalsys.EEXIST {
				return fmt.Errorf("create folder %s: %w", dir, errno)
			}
		}
	}
	f, errno := t.fsys.OpenFile(p, experimentalsys.O_WRONLY|experimentalsys.O_CREAT|experimentalsys.O_TRUNC, fs.FileMode(0o644))
	if errno != 0 {
		return fmt.Errorf("write: %w", errno)
	}
	for len(data) > 0 {
		n, errno := f.Write(data)
		if errno != 0 {
			f.Close()
			return fmt.Errorf("write: %w", errno)
		}
		data = data[n:]
	}
	if errno := f.Close(); errno != 0 {
		return fmt.Errorf("write: %w", errno)
	}
	return nil
}
