package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// fileStore is the embedded store: one append-only JSON-lines file per task
// in a folder, each line one Step, fsynced before Append returns.
//
// Why not an embedded database (bbolt): a task is written by one process, in
// order, and read back whole only when resumed, which is exactly an
// append-only log. A file per task lets several pybox processes run
// different tasks in one folder at once (bbolt locks the whole database file
// for one writer process), needs no dependency, and stays readable with
// standard tools (jq). A crash can leave at most a torn last line; it is
// ignored when reading and cut off before the next append.
type fileStore struct {
	dir string

	mu   sync.Mutex
	next map[string]int // task → next step number, once known
}

// NewFileStore returns the embedded store in folder dir (created if
// missing): one file <task id>.jsonl per task, plus a <task id>.lock that
// Lock holds with flock while a process runs the task.
func NewFileStore(dir string) (Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("agent: create task store folder: %w", err)
	}
	return &fileStore{dir: dir, next: map[string]int{}}, nil
}

func (s *fileStore) path(id, ext string) (string, error) {
	if !ValidTaskID(id) {
		return "", fmt.Errorf("agent: invalid task id %q", id)
	}
	return filepath.Join(s.dir, id+ext), nil
}

func (s *fileStore) Append(ctx context.Context, st Step) error {
	p, err := s.path(st.TaskID, ".jsonl")
	if err != nil {
		return err
	}
	line, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("agent: encode step %d: %w", st.N, err)
	}
	line = append(line, '\n')
	s.mu.Lock()
	defer s.mu.Unlock()
	next, known := s.next[st.TaskID]
	if !known {
		steps, err := s.read(p)
		if err != nil {
			return err
		}
		next = len(steps)
	}
	if st.N != next {
		return fmt.Errorf("agent: store step %d of task %s: the next step is %d (is another process running it?)", st.N, st.TaskID, next)
	}
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("agent: open task file: %w", err)
	}
	defer f.Close()
	end, err := cutTornTail(f)
	if err != nil {
		return fmt.Errorf("agent: task file %s: %w", p, err)
	}
	if _, err := f.WriteAt(line, end); err != nil {
		return fmt.Errorf("agent: write step %d: %w", st.N, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("agent: sync step %d: %w", st.N, err)
	}
	if end == 0 {
		syncDir(s.dir) // the new file's name must survive a crash too
	}
	s.next[st.TaskID] = next + 1
	return nil
}

// cutTornTail truncates a last line that has no newline (a write cut short
// by a crash) and returns the file's length after it.
func cutTornTail(f *os.File) (int64, error) {
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	size := st.Size()
	if size == 0 {
		return 0, nil
	}
	// Read backwards in blocks to the last newline.
	buf := make([]byte, 64<<10)
	end := size
	for end > 0 {
		n := int64(len(buf))
		if n > end {
			n = end
		}
		if _, err := f.ReadAt(buf[:n], end-n); err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			keep := end - n + int64(i) + 1
			if keep != size {
				if err := f.Truncate(keep); err != nil {
					return 0, err
				}
			}
			return keep, nil
		}
		end -= n
	}
	return 0, f.Truncate(0)
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

func (s *fileStore) Steps(ctx context.Context, id string) ([]Step, error) {
	p, err := s.path(id, ".jsonl")
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	steps, err := s.read(p)
	if err != nil {
		return nil, err
	}
	s.next[id] = len(steps)
	return steps, nil
}

// read parses a task file, ignoring a torn last line.
func (s *fileStore) read(p string) ([]Step, error) {
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("agent: read task file: %w", err)
	}
	// A last line without its newline was cut short by a crash.
	data = data[:bytes.LastIndexByte(data, '\n')+1]
	var steps []Step
	for line, b := range bytes.Split(bytes.TrimSuffix(data, []byte{'\n'}), []byte{'\n'}) {
		if len(b) == 0 {
			continue
		}
		var st Step
		if err := json.Unmarshal(b, &st); err != nil {
			return nil, fmt.Errorf("agent: %s line %d: %w", p, line+1, err)
		}
		if st.N != len(steps) {
			return nil, fmt.Errorf("agent: %s line %d: step %d where %d was expected", p, line+1, st.N, len(steps))
		}
		steps = append(steps, st)
	}
	return steps, nil
}

func (s *fileStore) Lock(ctx context.Context, id string) (func(), error) {
	p, err := s.path(id, ".lock")
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("agent: lock task %s: %w", id, err)
	}
	if err := tryLockFile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("agent: task %s: %w", id, err)
	}
	return func() {
		unlockFile(f)
		f.Close()
	}, nil
}

func (s *fileStore) Close() error { return nil }
