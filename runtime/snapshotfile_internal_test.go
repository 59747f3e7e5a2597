package runtime

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// pruneSnapshots keeps the newest files and removes stale temporary ones,
// leaving a temporary file that may still be being written.
func TestPruneSnapshots(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	write := func(name string, age time.Duration) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(name), 0o444); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, now.Add(-age), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 11 {
		write(fmt.Sprintf("snap%02d", i), time.Duration(i)*time.Minute)
	}
	write("snap00.123.tmp", 2*time.Hour)
	write("snap01.456.tmp", time.Minute)
	pruneSnapshots(dir, 8)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	want := []string{"snap00", "snap01", "snap01.456.tmp", "snap02", "snap03", "snap04", "snap05", "snap06", "snap07"}
	if !slices.Equal(names, want) {
		t.Fatalf("left %v, want %v", names, want)
	}
}
