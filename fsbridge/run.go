package fsbridge

import (
	"context"
	"sync"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
)

// runRec is what one run of the guest did: its refusals, the /output files
// it wrote and the /output snapshot taken when it began. Runs share the
// Sandbox (its files, limits and open-files count); only this record is
// theirs, so that runs at the same time each report their own.
type runRec struct {
	*Sandbox

	denials denialLog

	// recent are the guest paths of the run's latest operations, newest
	// first (see recentOp).
	recentMu sync.Mutex
	recent   [4]string

	rmu      sync.Mutex
	ctx      context.Context
	outDirty map[string]bool
	outSnap  map[string]fileMeta
	begun    uint64 // Sandbox.seq when the run began
	ended    uint64 // Sandbox.seq when a Run ended; 0 while it runs
}

// wroteDuring reports whether a write the mark m records may have gone on
// after r began: m's run was still under way then. The default run
// (BeginRun, the file tools) is not tracked as under way, so only the
// moment of its first write counts.
func (m mark) wroteDuring(r *runRec) bool {
	if m.r == m.r.Sandbox.runRec {
		return m.seq > r.begun
	}
	return m.r.ended == 0 || m.r.ended > r.begun
}

// mark is who last wrote an /output file, and when (Sandbox.seq).
type mark struct {
	r   *runRec
	seq uint64
}

// Run is one run of the guest among others on the same Sandbox at the same
// time (tool calls that do not share an interpreter). Hand Run.FS() to the
// runtime; Artifacts and Denials then list what this run wrote and was
// refused, not what the others did. Limits stay the Sandbox's: runs that
// overlap share one budget of bytes written and files created. Call End
// when the run is over.
type Run struct{ r *runRec }

// StartRun starts a Run: it snapshots /output so that the Run's Artifacts
// can tell what it created or changed, and sets the context fetchers get.
func (s *Sandbox) StartRun(ctx context.Context) (*Run, error) {
	r := &runRec{Sandbox: s}
	if err := s.begin(r, ctx); err != nil {
		return nil, err
	}
	return &Run{r: r}, nil
}

// FS returns the filesystem to hand the runtime as the guest's root for
// this run (runtime.Request.FS).
func (r *Run) FS() experimentalsys.FS { return &sandboxFS{s: r.r.Sandbox, r: r.r} }

// Denials returns what this run was refused, oldest first.
func (r *Run) Denials() []Denial { return r.r.denials.list() }

// Artifacts returns the files under /output this run created or changed
// (see Sandbox.Artifacts); files another run wrote meanwhile are left out.
func (r *Run) Artifacts() ([]Artifact, error) { return r.r.artifacts() }

// End ends the run. Its Artifacts and Denials stay readable.
func (r *Run) End() {
	s := r.r.Sandbox
	s.mu.Lock()
	delete(s.live, r.r)
	s.seq++
	r.r.ended = s.seq
	s.mu.Unlock()
}
