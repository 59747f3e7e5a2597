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
	"time"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	wsys "github.com/tetratelabs/wazero/sys"

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
	ents, err := t.list(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		p, st := e.path, e.st
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
// MaxStoredFile (nil otherwise: a big file is never held whole). It opens
// with O_NOFOLLOW: the walk found a regular file; if a link replaced it
// since, it is not followed.
func (t *tracker) digest(p string) (sha string, size int64, content []byte, err error) {
	f, errno := t.fsys.OpenFile(p, experimentalsys.O_RDONLY|experimentalsys.O_NOFOLLOW, 0)
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

// restoreReport says what a resume did with the files the task had changed.
type restoreReport struct {
	// Restored are files the task had written that were missing and were
	// written back from the store (e.g. a new temporary /output).
	Restored []string
	// Changed are files that exist but differ from what the task last
	// recorded (changed by a call that was cut off, or outside the task
	// while it was stopped), and files the task had deleted that exist
	// again. They are left exactly as they are.
	Changed []string
	// Problems are missing files that could not be written back, with why.
	Problems []string
}

// restore compares the tracked files with the state recorded in the steps
// and only ever adds: a file the task wrote that is now missing is written
// back from the store. A file that exists is never overwritten and never
// deleted, whatever it holds: it may be a host edit made while the task was
// stopped, or the partial work of an interrupted call, and both are data
// that a resume must not destroy. Such files are reported instead, so the
// model can be told which files changed outside the recorded steps.
func (t *tracker) restore(ctx context.Context, sb *fsbridge.Sandbox, want map[string]FileChange) (restoreReport, error) {
	var rep restoreReport
	if len(want) == 0 {
		return rep, nil
	}
	if err := sb.BeginRun(ctx); err != nil {
		return rep, fmt.Errorf("agent: restore files: %w", err)
	}
	paths := make([]string, 0, len(want))
	for p := range want {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		c := want[p]
		st, errno := t.fsys.Lstat(p)
		switch {
		case errno == experimentalsys.ENOENT:
			if c.Deleted {
				continue // as the task left it
			}
			if c.Omitted {
				rep.Problems = append(rep.Problems, fmt.Sprintf("%s is missing and was too big (%d bytes) to have been stored", p, c.Size))
				continue
			}
			if err := t.write(p, c.Content); err != nil {
				rep.Problems = append(rep.Problems, fmt.Sprintf("%s is missing and could not be written back: %v", p, err))
				continue
			}
			rep.Restored = append(rep.Restored, p)
		case errno != 0:
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s could not be checked: %v", p, errno))
		case c.Deleted:
			rep.Changed = append(rep.Changed, p+" (deleted by the task, exists again)")
		case !st.Mode.IsRegular():
			rep.Changed = append(rep.Changed, p+" (no longer a regular file)")
		case st.Size != c.Size:
			rep.Changed = append(rep.Changed, p)
		default:
			if c.SHA256 == "" {
				continue // recorded by size only (past the hashing budget): no way to tell
			}
			sha, _, _, err := t.digest(p)
			if err != nil {
				rep.Problems = append(rep.Problems, fmt.Sprintf("%s could not be checked: %v", p, err))
				continue
			}
			if sha != c.SHA256 {
				rep.Changed = append(rep.Changed, p)
			}
		}
	}
	return rep, nil
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
	f, errno := t.fsys.OpenFile(p, experimentalsys.O_WRONLY|experimentalsys.O_CREAT|experimentalsys.O_EXCL, fs.FileMode(0o644))
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

// modifiedSince lists the regular files under the tracked folders that
// were modified at or after since and are not in skip: what changed after
// the last stored step in files the steps know nothing about (created by a
// call that was cut off, or by a host program while the task was stopped).
// Modification times have coarse granularity on some file systems, so a
// second of slack is allowed.
func (t *tracker) modifiedSince(since time.Time, skip map[string]FileChange) ([]string, error) {
	limit := since.Add(-time.Second).UnixNano()
	var found []string
	var walk func(dir string) error
	walk = func(dir string) error {
		ents, err := t.list(dir)
		if err != nil {
			return err
		}
		for _, e := range ents {
			p, st := e.path, e.st
			switch {
			case st.Mode.IsDir():
				if err := walk(p); err != nil {
					return err
				}
			case st.Mode.IsRegular():
				if _, known := skip[p]; !known && st.Mtim >= limit {
					found = append(found, p)
				}
			}
		}
		return nil
	}
	for _, root := range t.roots {
		if err := walk(root); err != nil {
			return nil, err
		}
	}
	sort.Strings(found)
	return found, nil
}

// entry is one child of a tracked folder, with its Lstat.
type entry struct {
	path string
	st   wsys.Stat_t
}

// list returns the children of dir (none if dir is gone), each with its
// Lstat; children removed meanwhile are left out.
func (t *tracker) list(dir string) ([]entry, error) {
	d, errno := t.fsys.OpenFile(dir, experimentalsys.O_RDONLY|experimentalsys.O_DIRECTORY, 0)
	if errno == experimentalsys.ENOENT {
		return nil, nil
	}
	if errno != 0 {
		return nil, fmt.Errorf("agent: list %s: %w", dir, errno)
	}
	ents, errno := d.Readdir(-1)
	d.Close()
	if errno != 0 {
		return nil, fmt.Errorf("agent: list %s: %w", dir, errno)
	}
	out := make([]entry, 0, len(ents))
	for _, e := range ents {
		if e.Name == "." || e.Name == ".." {
			continue
		}
		p := path.Join(dir, e.Name)
		if st, errno := t.fsys.Lstat(p); errno == 0 {
			out = append(out, entry{p, st})
		}
	}
	return out, nil
}
