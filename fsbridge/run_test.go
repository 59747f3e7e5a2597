package fsbridge_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

	"github.com/pybox-dev/pybox/fsbridge"
)

// writeVia opens name for writing through fsys and writes data; it returns
// the open file so that a test can write more later.
func writeVia(t *testing.T, fsys experimentalsys.FS, name, data string) experimentalsys.File {
	t.Helper()
	f, errno := fsys.OpenFile(name, experimentalsys.O_CREAT|experimentalsys.O_WRONLY|experimentalsys.O_APPEND, 0o644)
	if errno != 0 {
		t.Fatalf("open %s: %v", name, errno)
	}
	if _, errno := f.Write([]byte(data)); errno != 0 {
		t.Fatalf("write %s: %v", name, errno)
	}
	return f
}

func artifactPaths(t *testing.T, list func() ([]fsbridge.Artifact, error)) []string {
	t.Helper()
	arts, err := list()
	if err != nil {
		t.Fatalf("Artifacts: %v", err)
	}
	var paths []string
	for _, a := range arts {
		paths = append(paths, a.Path)
	}
	slices.Sort(paths)
	return paths
}

// Runs at the same time each list the /output files they wrote, in every
// interleaving of their starts, ends and writes: a file another run was
// writing while a run went on is never that run's, even when the other
// run opened it (and wrote its first bytes) before this run began.
func TestRunsKeepTheirOwnArtifacts(t *testing.T) {
	sb, err := fsbridge.New(fsbridge.Policy{Output: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	ctx := context.Background()

	b, err := sb.StartRun(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fb := writeVia(t, b.FS(), "/output/b.txt", "first bytes")
	// a begins while b holds b.txt open; b keeps writing after.
	a, err := sb.StartRun(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, errno := fb.Write([]byte(", more while a runs")); errno != 0 {
		t.Fatalf("write: %v", errno)
	}
	fb.Close()
	writeVia(t, a.FS(), "/output/a.txt", "a").Close()
	// b ends before a does; a file b wrote is still not a's.
	b.End()
	c, err := sb.StartRun(ctx) // begins after b ended: b's files are old news
	if err != nil {
		t.Fatal(err)
	}
	writeVia(t, c.FS(), "/output/c.txt", "c").Close()
	// Both a and c write shared.txt: each lists it.
	writeVia(t, a.FS(), "/output/shared.txt", "a").Close()
	writeVia(t, c.FS(), "/output/shared.txt", "c").Close()
	a.End()
	c.End()

	for _, tc := range []struct {
		run  string
		list func() ([]fsbridge.Artifact, error)
		want []string
	}{
		{"a", a.Artifacts, []string{"/output/a.txt", "/output/shared.txt"}},
		{"b", b.Artifacts, []string{"/output/b.txt"}},
		{"c", c.Artifacts, []string{"/output/c.txt", "/output/shared.txt"}},
		{"sandbox (every change since its last BeginRun)", sb.Artifacts, []string{"/output/a.txt", "/output/b.txt", "/output/c.txt", "/output/shared.txt"}},
	} {
		if got := artifactPaths(t, tc.list); !slices.Equal(got, tc.want) {
			t.Errorf("run %s lists %q, want %q", tc.run, got, tc.want)
		}
	}
}

// A run listing its artifacts while another run creates files in /output
// never lists the other's files: the creating run's mark is in place before
// the file appears. (The CI run that found this listed a file another call
// was creating at that moment as the listing call's own.)
func TestArtifactsNeverClaimFilesBeingCreated(t *testing.T) {
	sb, err := fsbridge.New(fsbridge.Policy{Output: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	ctx := context.Background()
	lister, err := sb.StartRun(ctx)
	if err != nil {
		t.Fatal(err)
	}
	writer, err := sb.StartRun(ctx)
	if err != nil {
		t.Fatal(err)
	}
	const files = 300
	done := make(chan experimentalsys.Errno, 1)
	go func() {
		fsys := writer.FS()
		for i := 0; i < files; i++ {
			f, errno := fsys.OpenFile(fmt.Sprintf("/output/w%03d.txt", i), experimentalsys.O_CREAT|experimentalsys.O_WRONLY, 0o644)
			if errno != 0 {
				done <- errno
				return
			}
			f.Close()
		}
		done <- 0
	}()
	var claimed []string
	for finished := false; !finished; {
		select {
		case errno := <-done:
			if errno != 0 {
				t.Fatalf("create: %v", errno)
			}
			finished = true
		default:
		}
		arts, err := lister.Artifacts()
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range arts {
			claimed = append(claimed, a.Path)
		}
	}
	if len(claimed) > 0 {
		t.Errorf("the listing run claimed files another run was creating: %v", claimed[:min(len(claimed), 5)])
	}
	writer.End()
	lister.End()
}
