package fsbridge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"
	"sync"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
)

// Sandbox is one guest's view of the world, built from a Policy: its
// mounts, its /output and /tmp, its limits, and the record of what it was
// refused. Hand Sandbox.FS() to the runtime as the guest's root.
//
// A Sandbox may serve several runs in turn (a persistent session): call
// BeginRun before each, and read Artifacts and Denials after. Runs at the
// same time each take their own Run (StartRun), which keeps their refusals
// and the files they wrote apart. Its methods are safe for concurrent use.
type Sandbox struct {
	limits Limits
	mounts []*mount // in policy order
	output *mount   // nil with Policy.NoOutput
	// synth maps each folder above the mounts ("/", and "/mnt" for a
	// mount at "/mnt/data") to its children's names.
	synth    map[string][]string
	tempDirs []string

	// runRec is the default run: the one BeginRun, FS, Artifacts and
	// Denials of the Sandbox itself use.
	*runRec

	mu      sync.Mutex
	written int64 // by the runs since the Sandbox was last idle
	created int
	open    int
	closed  bool
	live    map[*runRec]bool // runs started with StartRun and not ended
	seq     uint64           // counts BeginRun, StartRun and markOutput
	marks   map[string]mark  // who last wrote each /output file
}

// New builds a Sandbox from p: it checks the policy, opens the host
// folders, and creates the temporary folders it needs (removed by Close).
func New(p Policy) (*Sandbox, error) {
	plan, err := p.plan(true)
	if err != nil {
		return nil, err
	}
	s := &Sandbox{limits: p.Limits.withDefaults(), synth: map[string][]string{}, live: map[*runRec]bool{}, marks: map[string]mark{}}
	s.runRec = &runRec{Sandbox: s, outDirty: map[string]bool{}}
	ok := false
	defer func() {
		if !ok {
			s.Close()
		}
	}()
	tempDir := func(pattern string) (string, error) {
		d, err := os.MkdirTemp(p.TempDir, pattern)
		if err != nil {
			return "", err
		}
		s.tempDirs = append(s.tempDirs, d)
		return realDir(d)
	}
	for _, pm := range plan {
		m := &mount{s: s, kind: pm.kind, guest: pm.guest, host: pm.host, hostAsGiven: pm.hostAbs}
		switch pm.kind {
		case kindRO, kindRW, kindOutput:
			if pm.kind == kindOutput && m.host == "" {
				if m.host, err = tempDir("pybox-output-"); err != nil {
					return nil, fmt.Errorf("output folder: %w", err)
				}
			}
			rb, err := openRootBackend(m.host)
			if err != nil {
				return nil, fmt.Errorf("mount %s: %w", pm.guest, err)
			}
			var be backend = rb
			if pm.kind == kindRO {
				be = readOnlyBackend{rb}
			}
			m.ops = &plainMount{m: m, be: be}
			if pm.kind == kindOutput {
				s.output = m
			}
		case kindCOW:
			upper := pm.upper
			if upper == "" {
				if upper, err = tempDir("pybox-cow-"); err != nil {
					return nil, fmt.Errorf("mount %s: upper folder: %w", pm.guest, err)
				}
			}
			lower, err := openRootBackend(m.host)
			if err != nil {
				return nil, fmt.Errorf("mount %s: %w", pm.guest, err)
			}
			up, err := openRootBackend(upper)
			if err != nil {
				lower.close()
				return nil, fmt.Errorf("mount %s: upper folder: %w", pm.guest, err)
			}
			if m.ops, err = newCowMount(m, lower, up); err != nil {
				lower.close()
				up.close()
				return nil, fmt.Errorf("mount %s: %w", pm.guest, err)
			}
		case kindTmp:
			// What /tmp holds stays in host memory across the runs of a
			// session: it may hold at most what one run may write.
			mb := newMemBackend(fmt.Sprintf("%p%s", s, pm.guest))
			mb.acct.limit = max(0, s.limits.WriteBytes)
			m.ops = &plainMount{m: m, be: mb}
		case kindVirtual:
			m.writableVirtual = pm.virtual.Writable
			m.ops = newVirtualMount(m, pm.virtual)
		}
		s.mounts = append(s.mounts, m)
	}
	for _, g := range append(s.guestPaths(nil), bundleGuest) {
		child := g
		for child != "/" {
			parent := path.Dir(child)
			s.addSynth(parent, path.Base(child))
			child = parent
		}
	}
	s.synth[bundleGuest] = nil
	s.addDevices()
	ok = true
	return s, nil
}

func (s *Sandbox) addSynth(dir, name string) {
	for _, n := range s.synth[dir] {
		if n == name {
			return
		}
	}
	s.synth[dir] = append(s.synth[dir], name)
	sort.Strings(s.synth[dir])
}

// guestPaths lists mount points, all or those keep accepts.
func (s *Sandbox) guestPaths(keep func(*mount) bool) []string {
	var out []string
	for _, m := range s.mounts {
		if keep == nil || keep(m) {
			out = append(out, m.guest)
		}
	}
	return out
}

// Close releases the host folders and removes the temporary folders the
// Sandbox made (a temporary /output with its artifacts included: read them
// first). The guest must not use the FS afterwards.
func (s *Sandbox) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	var errs []error
	for _, m := range s.mounts {
		if m.ops != nil {
			if err := m.ops.close(); err != nil {
				errs = append(errs, err)
			}
		}
	}
	for _, d := range s.tempDirs {
		if err := os.RemoveAll(d); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// FS returns the filesystem to hand the runtime as the guest's root
// (runtime.Request.FS). Every path the guest uses goes through it.
func (s *Sandbox) FS() experimentalsys.FS { return &sandboxFS{s: s, r: s.runRec} }

// BeginRun starts a run:  it resets the per-run limits (bytes written,
// files created; only when no Run is under way) and the denial log,
// snapshots /output so that Artifacts can tell what the run created or
// changed, and sets the context fetchers get (cancel it to abort a slow
// fetch when the run is interrupted).
func (s *Sandbox) BeginRun(ctx context.Context) error { return s.begin(s.runRec, ctx) }

// begin starts run r (see BeginRun).
func (s *Sandbox) begin(r *runRec, ctx context.Context) error {
	if ctx == nil {
		ctx = context.Background()
	}
	// The run's start is counted before /output is snapshotted, so that
	// a file another run writes while the snapshot is taken counts as
	// written after r began (see runRec.artifacts).
	s.mu.Lock()
	s.seq++
	r.begun = s.seq
	s.mu.Unlock()
	snap, err := s.snapshotOutput()
	if err != nil {
		return fmt.Errorf("snapshot of /output: %w", err)
	}
	s.mu.Lock()
	idle := len(s.live) == 0
	if idle {
		// Runs that overlap share one budget: a run never gets more
		// than the limits, however many run beside it.
		s.written, s.created = 0, 0
	}
	if r != s.runRec {
		s.live[r] = true
	}
	s.mu.Unlock()
	r.rmu.Lock()
	r.ctx = ctx
	r.outDirty = map[string]bool{}
	r.outSnap = snap
	r.rmu.Unlock()
	r.denials.reset()
	if idle {
		for _, m := range s.mounts {
			if v, ok := m.ops.(*virtualMount); ok {
				v.mu.Lock()
				v.cache = map[string]fetched{}
				v.mu.Unlock()
			}
		}
	}
	return nil
}

// ctx is the context fetchers get: the run's, when one run is under way
// (the default run's when none). With several, no run's end may cancel
// another's fetch, so fetches are bounded by the fetchers' own limits.
func (s *Sandbox) ctx() context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ctx context.Context
	switch len(s.live) {
	case 0:
		ctx = s.runRec.ctx
	case 1:
		for r := range s.live {
			ctx = r.ctx
		}
	}
	if ctx == nil {
		return context.Background()
	}
	return ctx
}

// Denials returns what was refused (or failed, for fetches) since the last
// BeginRun, oldest first. At most 10000 are kept.
func (s *Sandbox) Denials() []Denial { return s.denials.list() }

// Explain returns the message of the most recent denial recorded for
// guestPath (absolute, or relative to "/"), and forgets it, so that an
// error raised in the guest can say why. For a path outside every mount
// with no recorded denial (wazero refuses paths such as /data/../../x
// before they reach the Sandbox) it returns a general explanation. It
// returns false when it has nothing to say: the error had an ordinary
// cause, such as a missing file.
//
// A refused symlink is explained under its target too: the guest asks
// about the target first, as the text resolved against its working folder
// (os.symlink's first argument), which names no real path.
//
// The guest joins a name relative to a folder descriptor (dir_fd) to its
// working folder before asking; Explain then recognises the operation by
// the name's last element among the latest ones and explains the path it
// really used.
func (s *Sandbox) Explain(guestPath string) (string, bool) { return s.runRec.explain(guestPath) }

// explain is Explain for run r.
func (r *runRec) explain(guestPath string) (string, bool) {
	s := r
	p := guestAbs(guestPath)
	if d, ok := s.denials.take(p); ok {
		return d.Message, true
	}
	if d, ok := s.denials.takeSymlink(p); ok {
		return d.Message, true
	}
	if r, ok := s.recentOp(p); ok {
		// The guest's path was relative to a folder descriptor: explain
		// the path the operation really used, or nothing.
		if d, ok := s.denials.take(r); ok {
			return d.Message, true
		}
		return "", false
	}
	if m, _ := s.mountFor(p); m == nil && strings.HasPrefix(p, devFolder+"/") && devices[p] == nil {
		return fmt.Sprintf("no such device: %s (the sandbox's /dev has %s)", p, deviceNames()), true
	}
	if m, _ := s.mountFor(p); m == nil && !s.isSynth(p) && !guestWithin(p, bundleGuest) {
		return fmt.Sprintf("access denied: %s is outside every mount (%s)", p, strings.Join(s.guestPaths(nil), ", ")), true
	}
	return "", false
}

// ExplainUnnamed returns the message of the newest refusal that reached
// the guest as a bare I/O error with no file name (a write or truncate
// stopped by the file size, bytes-written or /tmp limit), and forgets it.
// CPython attaches no file name to a failed write, so the guest asks with
// an empty path; the message names the path, the limit and its value.
func (s *Sandbox) ExplainUnnamed() (string, bool) { return s.runRec.explainUnnamed() }

// explainUnnamed is ExplainUnnamed for run r.
func (r *runRec) explainUnnamed() (string, bool) {
	if d, ok := r.denials.takeUnnamed(); ok {
		return d.Message, true
	}
	return "", false
}

// mountFor finds the mount holding the absolute guest path g.
func (s *Sandbox) mountFor(g string) (*mount, string) {
	for _, m := range s.mounts {
		if g == m.guest {
			return m, "."
		}
		if strings.HasPrefix(g, m.guest+"/") {
			return m, g[len(m.guest)+1:]
		}
	}
	return nil, ""
}

func (s *Sandbox) isSynth(g string) bool {
	_, ok := s.synth[g]
	return ok
}

// fail records a denial carried by err, if any, and returns the errno.
func (r *runRec) fail(err error) experimentalsys.Errno {
	var de *denyErr
	if errors.As(err, &de) {
		r.denials.add(de.d)
		return de.errno
	}
	return errnoOf(err)
}

// Limits bookkeeping.

func (s *Sandbox) admitWrite(guest string, end, n int64) error {
	l := s.limits
	if l.FileSize > 0 && end > l.FileSize {
		return deny("write", guest, fmt.Sprintf("would grow the file to %d bytes, past the file size limit of %s", end, formatBytes(l.FileSize)), experimentalsys.EIO, "EFBIG")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if l.WriteBytes > 0 && s.written+n > l.WriteBytes {
		return deny("write", guest, fmt.Sprintf("would exceed the limit of %s written per run (%s written so far)",
			formatBytes(l.WriteBytes), formatBytes(s.written)), experimentalsys.EIO, "EDQUOT")
	}
	return nil
}

// reserveWrite checks that n more bytes fit the bytes written per run and
// charges them (give them back with chargeWrite(-n) if the write does not
// happen). why says what the bytes are for, as the end of a sentence that
// starts with the guest path.
func (s *Sandbox) reserveWrite(guest string, n int64, why string) error {
	l := s.limits
	s.mu.Lock()
	defer s.mu.Unlock()
	if l.WriteBytes > 0 && s.written+n > l.WriteBytes {
		return deny("write", guest, fmt.Sprintf("%s, which would exceed the limit of %s written per run (%s written so far)",
			why, formatBytes(l.WriteBytes), formatBytes(s.written)), experimentalsys.EIO, "EDQUOT")
	}
	s.written += n
	return nil
}

func (s *Sandbox) chargeWrite(n int64) {
	s.mu.Lock()
	s.written += n
	s.mu.Unlock()
}

func (s *Sandbox) admitCreate(guest string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.limits.Files > 0 && s.created >= s.limits.Files {
		return deny("create", guest, fmt.Sprintf("would exceed the limit of %d files created per run", s.limits.Files), experimentalsys.EIO, "EDQUOT")
	}
	return nil
}

func (s *Sandbox) chargeCreate() {
	s.mu.Lock()
	s.created++
	s.mu.Unlock()
}

// acquireOpen takes an open-files slot; the returned func gives it back
// (once).
func (s *Sandbox) acquireOpen(guest string) (func(), error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.limits.OpenFiles > 0 && s.open >= s.limits.OpenFiles {
		return nil, deny("open", guest, fmt.Sprintf("would exceed the limit of %d open files", s.limits.OpenFiles), experimentalsys.EIO, "EMFILE")
	}
	s.open++
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			s.open--
			s.mu.Unlock()
		})
	}, nil
}

// markOutput notes that run r wrote the /output file rel.
func (r *runRec) markOutput(rel string) {
	s := r.Sandbox
	s.mu.Lock()
	s.seq++
	s.marks[rel] = mark{r, s.seq}
	s.mu.Unlock()
	r.rmu.Lock()
	r.outDirty[rel] = true
	r.rmu.Unlock()
}
