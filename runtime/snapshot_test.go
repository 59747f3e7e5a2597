package runtime_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/pybox-dev/pybox/internal/loopguard"
	"github.com/pybox-dev/pybox/packages"
	"github.com/pybox-dev/pybox/runtime"
)

// Interpreters of an engine start from one snapshot of a booted interpreter.
// Nothing one run does may be visible to the next, and per-interpreter
// randomness must differ.
func TestSnapshotIsolation(t *testing.T) {
	for _, noSnap := range []bool{false, true} {
		t.Run(fmt.Sprintf("NoSnapshot=%v", noSnap), func(t *testing.T) {
			e, err := runtime.NewEngine(context.Background(), runtime.Config{
				NoSnapshot: noSnap,
				// random and tempfile imported at boot: their state would be
				// shared by every restored interpreter unless reseeded.
				Preload: []string{"random", "tempfile", "json"},
			})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close(context.Background())
			code := `
import sys, json, random, tempfile, builtins
seen = [hasattr(sys, "mark"), hasattr(json, "mark"), hasattr(builtins, "mark"), "mark" in globals(), "leaked" in sys.modules]
sys.mark = json.mark = builtins.mark = mark = 1
sys.modules["leaked"] = json
print(seen, random.getrandbits(64), next(tempfile._get_candidate_names()), random.SystemRandom().getrandbits(64))
`
			outs := map[string]bool{}
			for i := 0; i < 4; i++ {
				res, err := e.Run(context.Background(), runtime.Request{Code: code})
				if err != nil || res.Status != runtime.StatusOK {
					t.Fatalf("run %d: %v %+v %s", i, err, res, res.Stderr)
				}
				out := string(res.Stdout)
				if !strings.HasPrefix(out, "[False, False, False, False, False] ") {
					t.Fatalf("run %d sees state of an earlier run: %s", i, out)
				}
				fields := strings.Fields(out[strings.Index(out, "] ")+2:])
				for _, f := range fields {
					if outs[f] {
						t.Fatalf("run %d repeats random value %s of an earlier run", i, f)
					}
					outs[f] = true
				}
			}
			if si := e.Snapshot(); si.Taken == noSnap || (!noSnap && (si.Err != nil || si.Size == 0 || si.Resident == 0 || si.Resident > si.Size)) {
				t.Fatalf("Snapshot: %+v", si)
			}
		})
	}
}

// numpy's legacy global RandomState is seeded when numpy is imported: with
// numpy preloaded into the snapshot it must be reseeded per interpreter.
func TestSnapshotNumpyRandomDiffers(t *testing.T) {
	if testing.Short() {
		t.Skip("imports numpy")
	}
	e, err := runtime.NewEngine(context.Background(), runtime.Config{Preload: []string{"numpy", "numpy.random", "PIL.Image"}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	seen := map[string]bool{}
	for i := 0; i < 3; i++ {
		res, err := e.Run(context.Background(), runtime.Request{Code: "import sys, numpy as np\nprint('PIL.Image' in sys.modules, np.random.random(), np.random.default_rng().random())"})
		if err != nil || res.Status != runtime.StatusOK {
			t.Fatalf("%v %+v %s", err, res, res.Stderr)
		}
		f := strings.Fields(string(res.Stdout))
		if len(f) != 3 || f[0] != "True" || seen[f[1]] || seen[f[2]] {
			t.Fatalf("run %d: %q (earlier: %v)", i, res.Stdout, seen)
		}
		seen[f[1]], seen[f[2]] = true, true
	}
}

// The str hash seed is fixed when the snapshot is taken: the same in every
// interpreter of one engine, different between engines (docs/RATIONALE.md).
func TestSnapshotHashSeed(t *testing.T) {
	hash := func(e *runtime.Engine) string {
		res, err := e.Run(context.Background(), runtime.Request{Code: "print(hash('pybox'))"})
		if err != nil || res.Status != runtime.StatusOK {
			t.Fatalf("%v %+v", err, res)
		}
		return string(res.Stdout)
	}
	other, err := runtime.NewEngine(context.Background(), runtime.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close(context.Background())
	a, b, c := hash(engine), hash(engine), hash(other)
	if a != b {
		t.Errorf("hash seed differs between interpreters of one engine: %s vs %s", a, b)
	}
	if a == c {
		t.Errorf("two engines share a hash seed: %s", a)
	}
}

// Sessions start from the snapshot too: their state persists across calls
// and is not shared between sessions.
func TestSnapshotSessionsIsolated(t *testing.T) {
	ctx := context.Background()
	s1, err := engine.NewSession(ctx, runtime.SessionConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer s1.Close()
	s2, err := engine.NewSession(ctx, runtime.SessionConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	exec := func(s *runtime.Session, code string) string {
		res, err := s.Exec(ctx, runtime.Request{Code: code})
		if err != nil || res.Status != runtime.StatusOK {
			t.Fatalf("%v %+v", err, res)
		}
		return string(res.Stdout)
	}
	exec(s1, "import random\nx = 41\nr = random.random()")
	if got := exec(s1, "print(x + 1)"); got != "42\n" {
		t.Fatalf("session state lost: %q", got)
	}
	if got := exec(s2, "print('x' in globals())"); got != "False\n" {
		t.Fatalf("session sees another session's globals: %q", got)
	}
	if a, b := exec(s1, "print(r)"), exec(s2, "import random\nprint(random.random())"); a == b {
		t.Fatalf("two sessions drew the same random number %s", a)
	}
}

// A snapshot is linear memory plus globals. That is the whole mutable state
// of python.wasm only if its code never changes a table and it has no
// globals besides the stack pointer and the loop guard's two.
func TestBundleIsSnapshotable(t *testing.T) {
	b, err := packages.Default()
	if err != nil {
		t.Fatal(err)
	}
	// Re-instrumenting under another name is the cheapest full decode.
	_, st, err := loopguard.Instrument(b.Wasm, loopguard.Options{GlobalName: "pybox_snapshot_probe"})
	if err != nil {
		t.Fatal(err)
	}
	if st.TableWrites != 0 {
		t.Errorf("python.wasm has %d table-changing instructions: a snapshot of memory and globals would miss table state", st.TableWrites)
	}
	if st.Global != 3 {
		t.Errorf("python.wasm has %d globals, want 3 (__stack_pointer, the loop guard's kill switch and countdown): check the new ones are immutable or restored by the snapshot", st.Global)
	}
}
