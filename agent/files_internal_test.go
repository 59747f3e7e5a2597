package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pybox-dev/pybox/fsbridge"
)

// After a run, the tracker reads no more than the run could write: files
// the guest only renamed or touched (which cost it nothing) are recorded by
// size past that budget, and big files are hashed as a stream, never held
// whole.
func TestTrackerBoundedByWriteBudget(t *testing.T) {
	work := t.TempDir()
	for _, n := range []string{"a", "b", "c"} {
		if err := os.WriteFile(filepath.Join(work, "old-"+n), []byte(strings.Repeat(n, 600<<10)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := fsbridge.Policy{
		Mounts:  []fsbridge.Mount{fsbridge.ReadWriteMount(work, "/work")},
		TempDir: t.TempDir(),
		Limits:  fsbridge.Limits{WriteBytes: 1 << 20},
	}
	sb, err := fsbridge.New(p)
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	fsys := sb.FS()
	tr := newTracker(fsys, trackedRoots(p), trackBudget(p))
	base, err := tr.snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if len(base) != 3 || base[0].SHA256 == "" || base[2].SHA256 == "" {
		t.Fatalf("baseline (not bounded): %+v", base)
	}
	for _, n := range []string{"a", "b", "c"} {
		if errno := fsys.Rename("/work/old-"+n, "/work/new-"+n); errno != 0 {
			t.Fatal(errno)
		}
	}
	changes, err := tr.snapshot()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range changes {
		s := c.Path
		switch {
		case c.Deleted:
			s += " deleted"
		case c.SHA256 != "" && len(c.Content) == 600<<10:
			s += " hashed"
		case c.SHA256 == "" && c.Omitted && c.Size == 600<<10 && c.Content == nil:
			s += " size only"
		default:
			s += " ?"
		}
		got = append(got, s)
	}
	want := "/work/new-a hashed,/work/new-b size only,/work/new-c size only,/work/old-a deleted,/work/old-b deleted,/work/old-c deleted"
	if strings.Join(got, ",") != want {
		t.Errorf("changes:\n  %s\nwant:\n  %s", strings.Join(got, ","), want)
	}
	// An unhashed file never counts as unchanged: a later change shows.
	if errno := fsys.Utimens("/work/new-b", 1e9, 1e9); errno != 0 {
		t.Fatal(errno)
	}
	changes, err = tr.snapshot()
	if err != nil || len(changes) != 1 || changes[0].Path != "/work/new-b" || changes[0].SHA256 == "" {
		t.Fatalf("after touching new-b: %+v %v", changes, err)
	}
}
