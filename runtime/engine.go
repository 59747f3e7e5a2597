package runtime

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/packages"
)

// Config configures an Engine. The zero value is usable: the embedded bundle,
// a compilation cache in the user cache directory, no progress reports.
type Config struct {
	// Bundle is the runtime bundle to run. Nil means packages.Default(),
	// the bundle embedded in this binary.
	Bundle *packages.Bundle

	// CacheDir is where compiled machine code for the interpreter is kept
	// between processes (and the snapshot, with PersistSnapshot). Empty
	// means DefaultCacheDir(). Compiling python.wasm takes seconds; loading
	// it from the cache about 25 ms, 5 ms without the checksum pass
	// (SkipCodeChecksum).
	CacheDir string

	// NoCache disables the on-disk compilation cache: every NewEngine
	// compiles from scratch.
	NoCache bool

	// WarmPool is how many fresh interpreters are kept started and
	// waiting, so that Run does not pay for starting one: about 2 ms of CPU
	// restored from the engine's snapshot (mostly wazero's instantiation),
	// tens of milliseconds booted (NoSnapshot). A waiting interpreter
	// restored from the snapshot costs about 2 MB of resident memory (it
	// shares the snapshot's pages), plus the pages runs were seen to write,
	// which it writes ahead on Linux (about 0.4 MB with numpy, pandas and
	// matplotlib preloaded; see hotPages); a booted one 7-13 MB. The
	// housekeeping a run leaves (closing its interpreter, refilling the
	// pool) starts 10 ms after it ends, out of its caller's way. Zero
	// disables the pool (the CLI's choice: one run per process).
	WarmPool int

	// Preload lists modules every interpreter imports before it gets its
	// code (e.g. "json", "numpy"). They are imported once, into the
	// engine's snapshot, so importing them in user code then costs nothing
	// (with NoSnapshot, only in interpreters from the warm pool).
	// Interpreters are still never reused. Preloads should not depend on
	// the run (time, environment, files): their state is frozen into the
	// snapshot.
	Preload []string

	// PreloadAnalysis adds to Preload the data-analysis modules of
	// AnalysisModules that the bundle has (numpy, pandas, and
	// matplotlib.pyplot with the Agg backend): `import pandas as pd,
	// matplotlib.pyplot as plt` then costs nothing in a run started from
	// the snapshot. Absent ones are left out. The snapshot grows by what
	// they allocate at import (tens of MB, shared by every interpreter),
	// and, as every interpreter starts with that memory, so does the least
	// Limits.Memory a run can use (about 45 MB with numpy and pandas,
	// against 18 MB without).
	PreloadAnalysis bool

	// NoSnapshot makes every interpreter boot from scratch (tens of
	// milliseconds, plus the preloads) instead of starting from a snapshot
	// of one booted interpreter (about 2 ms; see
	// docs/RATIONALE.md). The engine takes its snapshot at the first run,
	// which costs a copy of the booted interpreter's memory: a process that
	// runs code only once either saves that with NoSnapshot or keeps the
	// snapshot for the next process (PersistSnapshot, as the CLI does). All
	// interpreters of a snapshotting engine share one str hash seed.
	NoSnapshot bool

	// PersistSnapshot keeps the engine's snapshot (see NoSnapshot) in the
	// cache folder (CacheDir; not with NoCache), so that the next process
	// with the same bundle, preloads and build starts its interpreters
	// from it instead of booting: for processes that run code once (the
	// CLI), where a snapshot taken in memory would be pure cost. The first
	// such process boots and writes the file (its own run is served by the
	// interpreter it booted); later ones map it (a few ms, and only the
	// pages a run touches are read). A damaged, truncated or foreign file
	// is replaced. Every process then shares the str hash seed drawn by
	// the boot that wrote the file (docs/RATIONALE.md, "A booted
	// interpreter kept in the cache folder"); random, numpy.random and
	// tempfile names are still reseeded in every interpreter.
	PersistSnapshot bool

	// SkipCodeChecksum loads the compiled interpreter from the cache
	// without reading its 180 MB of machine code to verify their checksum
	// (about 20 ms of CPU, most of what NewEngine then costs), where the
	// code is mapped from the cache file (Linux); the file's length is
	// still checked. For processes that start often and run briefly (the
	// CLI); a long-lived engine pays the check once. docs/RATIONALE.md
	// ("A fork of wazero", item 11) says what this trusts.
	SkipCodeChecksum bool

	// LazyCompile, on a miss of the compilation cache, compiles each
	// function of python.wasm in this process when it is first called,
	// instead of the whole module before the first run (wazero fork patch
	// 0040; LazyCompileSupported says where). A boot and a small script
	// call about a twentieth of the module's functions, so the engine is
	// ready at once and the first run costs a second or two of compiling
	// rather than the whole module's. Nothing is written to the cache: a
	// process that wants the next one to start without compiling also
	// compiles the module whole (pybox setup, as the CLI starts it). The
	// code is the same as a whole compile's; every call goes through a
	// stub, and the first call of each function waits for its compile.
	LazyCompile bool

	// UserPackages is a host folder of pure-Python packages added with
	// packages.AddWheel (see packages.UserDir). It is mounted read-only at
	// packages.UserSitePath in every interpreter and put on sys.path. Empty
	// or missing means none.
	UserPackages string

	// Progress, if set, is called with a short human-readable message when
	// NewEngine starts a slow step (a compile without a cache hit), and with
	// an empty message when that step ends. The CLI uses it to show progress
	// on a terminal.
	Progress func(msg string)

	// Logger receives what only the operator may read: when pybox itself
	// fails during a run (a Go panic in a host function, recovered by
	// wazero), the run's Result says only "internal error (id X)" and the
	// panic with its stack is logged here under the same id. Nil means
	// slog.Default().
	Logger *slog.Logger
}

// DefaultCacheDir is the compilation cache used when Config.CacheDir is empty:
// $PYBOX_CACHE_DIR if set, else "pybox" under os.UserCacheDir().
func DefaultCacheDir() (string, error) {
	return packages.CacheDir()
}

// Engine holds the compiled interpreter. Compile once with NewEngine, then
// call Run from any number of goroutines: each run gets its own interpreter
// instance, memory and files, and shares nothing with other runs.
type Engine struct {
	bundle   *packages.Bundle
	rt       wazero.Runtime
	compiled wazero.CompiledModule
	cache    wazero.CompilationCache
	// CompileTime is how long NewEngine spent compiling (or loading from
	// the cache) python.wasm.
	compileTime time.Duration
	cacheHit    bool
	// lazy is set when the interpreter's functions are compiled as they
	// are first called (Config.LazyCompile).
	lazy bool

	preload     []string
	preloadErrs sync.Map // module -> reason: preloads that failed (preloadFailed)
	// userSite is the read-only sandbox over the user's packages, mounted
	// at packages.UserSitePath in every interpreter (nil if none). It goes
	// through fsbridge like every other mount, so no host link in the
	// folder leads the guest out of it.
	userSite *fsbridge.Sandbox
	// userSiteTime is the user's packages folder's modification time when
	// the engine started: adding or removing a package changes it, and with
	// it the key of a persisted snapshot (a preload may come from there).
	userSiteTime time.Time
	userSiteFS   experimentalsys.FS
	logger       *slog.Logger

	data       []dataSegment // taken out of the compiled module: see splitData
	noSnapshot bool
	snapDir    string // the cache folder a persisted snapshot is kept in; "" if none
	snapOnce   sync.Once
	snapMu     sync.Mutex // guards snap and snapErr for Snapshot
	snap       *snapshot  // nil until taken, or if it could not be
	snapErr    error      // why there is no snapshot

	live     sync.Map // *instance -> struct{}: every instance not yet closed
	pool     chan *instance
	poolStop chan struct{}
	poolDone chan struct{}
	// poolChanged is closed (and replaced) each time fillPool adds an
	// interpreter to the pool or a chore ends (see WaitWarm).
	poolMu      sync.Mutex
	poolChanged chan struct{}
	// runs counts the one-off runs under way; runsIdle is closed (and
	// replaced) each time it falls to 0. fillPool starts the next
	// interpreter only when no run is under way or the pool is empty, so
	// that making it (restoring, the runner's warm-up) does not compete
	// for the CPU with the run that took the last one; and not before
	// settle has passed since the last run ended (lastEnd), so that it
	// does not compete with the caller of that run either.
	runs     int
	runsIdle chan struct{}
	lastEnd  time.Time
	// chores counts the housekeeping that finished runs left: a refill
	// under way, and interpreters of one-off runs not yet closed (see
	// retire).
	chores int
	// hot is what the engine learns of the pages runs write (see
	// hotPages).
	hot hotPages

	// guests counts the interpreters whose guest code may still run: each
	// served one until its pybox_serve call has returned. Close releases
	// the runtime (memory, compiled code) only once it is zero, and closes
	// released then.
	guestsMu    sync.Mutex
	guests      int
	closing     bool
	releaseOnce sync.Once
	released    chan struct{}
}

// settle is how long the engine leaves the CPU to the caller of a run that
// has just ended before it does the housekeeping that run left: closing its
// interpreter (unmapping its memory, about 0.7 ms) and starting the one
// that replaces it in the warm pool (restoring it, about 1 ms, then the
// runner's warm-up), with numpy, pandas and matplotlib preloaded. Done at
// once, that work took the Go processors just as the caller went on to
// send the result (an interpreter's wasm code is preempted only at a host
// call, after 10 ms), and `pybox serve` answered a fresh /v1/execute
// 1.6-5 ms after the run had ended (10-15 ms with GOMAXPROCS=1), which made
// up most of its latency (docs/RATIONALE.md, "The analyst's first lines").
// An agent's next call comes seconds later, after the housekeeping.
const settle = 10 * time.Millisecond

// choreBegin and choreEnd bracket a piece of housekeeping (see
// Engine.chores).
func (e *Engine) choreBegin() {
	e.poolMu.Lock()
	e.chores++
	e.poolMu.Unlock()
}

func (e *Engine) choreEnd() {
	e.poolMu.Lock()
	e.chores--
	e.poolChangedLocked()
	e.poolMu.Unlock()
}

// poolChangedLocked wakes WaitWarm's callers; poolMu is held.
func (e *Engine) poolChangedLocked() {
	if e.poolChanged != nil {
		close(e.poolChanged)
		e.poolChanged = make(chan struct{})
	}
}

// retire closes the interpreter of a one-off run that has ended: releasing
// its memory need not delay the result. An engine with a warm pool (a
// server) closes it settle after the run's end, out of the way of the
// caller's handling of the result; Engine.Close closes it at once if it
// comes first. One without (the CLI: one run, then Close) closes it at
// once, beside the caller's printing of the result.
func (e *Engine) retire(inst *instance) {
	if e.pool == nil {
		go inst.close(context.Background())
		return
	}
	e.choreBegin()
	time.AfterFunc(settle, func() {
		e.learnHotPages(inst)
		inst.close(context.Background())
		e.choreEnd()
	})
}

// beginRun and endRun bracket a one-off run (see Engine.runs).
func (e *Engine) beginRun() {
	e.poolMu.Lock()
	e.runs++
	e.poolMu.Unlock()
}

func (e *Engine) endRun() {
	e.poolMu.Lock()
	e.lastEnd = time.Now()
	e.runs--
	if e.runs == 0 && e.runsIdle != nil {
		close(e.runsIdle)
		e.runsIdle = make(chan struct{})
	}
	e.poolMu.Unlock()
}

// refillTurn waits until fillPool may start an interpreter: the pool is
// empty, or no run is under way and the last ended settle ago or more. It
// reports false if the engine is closing; when it reports true, the refill
// is counted as a chore (the caller ends it with choreEnd).
func (e *Engine) refillTurn() bool {
	for {
		e.poolMu.Lock()
		stocked := len(e.pool) > 0
		busy, idle := e.runs > 0 && stocked, e.runsIdle
		var wait time.Duration
		if stocked && !e.lastEnd.IsZero() {
			wait = settle - time.Since(e.lastEnd)
		}
		if !busy && wait <= 0 {
			// Counted under the lock that saw the engine at rest, so that
			// WaitWarm never sees it at rest while a refill starts.
			e.chores++
		}
		e.poolMu.Unlock()
		switch {
		case busy:
			select {
			case <-idle:
			case <-e.poolStop:
				return false
			}
		case wait > 0:
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-e.poolStop:
				t.Stop()
				return false
			}
		default:
			return true
		}
	}
}

// guestFeatures are the WebAssembly features the interpreter is built with
// (see scripts/build-runtime.sh). Exception handling (the standard exnref
// encoding) carries setjmp/longjmp in libjpeg and FreeType, and C++
// exceptions (docs/runtime-bundle.md, "C++ exceptions"). Relaxed SIMD
// (fork patch 0063) lets a module built with -mrelaxed-simd use fused
// multiply-adds (OpenBLAS's DGEMM kernel can: docs/runtime-bundle.md,
// "OpenBLAS"); a python.wasm without relaxed instructions compiles to the
// same code either way.
const guestFeatures = api.CoreFeaturesV2 | experimental.CoreFeaturesExceptionHandling |
	experimental.CoreFeaturesRelaxedSIMD

// NewEngine compiles the interpreter, using the compilation cache when one is
// configured. It is the slow step (seconds on a cold cache); keep one Engine
// per process.
func NewEngine(ctx context.Context, cfg Config) (*Engine, error) {
	b := cfg.Bundle
	if b == nil {
		var err error
		if b, err = packages.Default(); err != nil {
			return nil, err
		}
	}
	rc := wazero.NewRuntimeConfigCompiler().WithCoreFeatures(guestFeatures)

	var cache wazero.CompilationCache
	var cacheWazeroDir string // where cache keeps its files
	if !cfg.NoCache {
		dir := cfg.CacheDir
		if dir == "" {
			var err error
			if dir, err = DefaultCacheDir(); err != nil {
				return nil, err
			}
		}
		dir = filepath.Join(dir, "wazero")
		cacheWazeroDir = dir
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("create compilation cache dir: %w", err)
		}
		var err error
		if cache, err = wazero.NewCompilationCacheWithDir(dir); err != nil {
			return nil, fmt.Errorf("open compilation cache %s: %w", dir, err)
		}
		rc = rc.WithCompilationCache(cache)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, rc)
	e := &Engine{bundle: b, rt: rt, cache: cache, released: make(chan struct{})}

	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		e.Close(ctx)
		return nil, fmt.Errorf("instantiate WASI: %w", err)
	}
	if err := instantiateHost(ctx, rt); err != nil {
		e.Close(ctx)
		return nil, err
	}

	start := time.Now()
	cctx := ctx
	if guardedMemory() {
		cctx = experimental.WithGuardedMemory(ctx)
	}
	compiled, cacheHit, err := e.compile(cctx, cfg.Progress, cfg.SkipCodeChecksum, cfg.LazyCompile && LazyCompileSupported())
	if err != nil {
		e.Close(ctx)
		return nil, fmt.Errorf("compile python.wasm: %w", err)
	}
	e.compiled = compiled
	e.compileTime = time.Since(start)
	if cache != nil && !e.lazy {
		markCompiled(cacheWazeroDir, b, e.compileTime, cacheHit)
	}
	e.cacheHit = cacheHit
	// The analysis modules first: matplotlib.pyplot is set up for the
	// sandbox when the runner imports it (a preload such as seaborn that
	// imports matplotlib itself must come after).
	if cfg.PreloadAnalysis {
		e.preload = AnalysisPreload(b)
	}
	for _, m := range cfg.Preload {
		if !slices.Contains(e.preload, m) {
			e.preload = append(e.preload, m)
		}
	}
	e.noSnapshot = cfg.NoSnapshot
	if cfg.PersistSnapshot && !cfg.NoSnapshot && cacheWazeroDir != "" {
		e.snapDir = filepath.Dir(cacheWazeroDir)
	}
	e.logger = cfg.Logger
	if cfg.UserPackages != "" {
		if st, err := os.Stat(cfg.UserPackages); err == nil && st.IsDir() {
			if err := e.mountUserSite(cfg.UserPackages); err != nil {
				e.Close(ctx)
				return nil, err
			}
			e.userSiteTime = st.ModTime()
		}
	}
	if cfg.WarmPool > 0 {
		e.pool = make(chan *instance, cfg.WarmPool)
		e.poolStop, e.poolDone = make(chan struct{}), make(chan struct{})
		e.poolChanged = make(chan struct{})
		e.runsIdle = make(chan struct{})
		go e.fillPool()
	}
	return e, nil
}

// guardedMemory reports whether python.wasm is compiled for a guarded memory
// (wazero fork patch 0012): loads and stores without bounds checks, relying
// on limitedMemory's PROT_NONE reservation of 8 GiB + 64 KiB past the memory's
// base and on the fork's fault handler to turn an access past the end into
// the same out-of-bounds trap. About half the machine code and a quarter less
// CPU time (docs/RATIONALE.md, "Guarded memory"). The fork implements it on
// linux/amd64; elsewhere the code keeps its checks. PYBOX_BOUNDS_CHECKS=1
// compiles the checks anyway (to compare, or to rule the handler out); the
// two kinds of code have separate cache entries.
func guardedMemory() bool {
	return goruntime.GOOS == "linux" && goruntime.GOARCH == "amd64" && os.Getenv("PYBOX_BOUNDS_CHECKS") != "1"
}

// LazyCompileSupported reports whether Config.LazyCompile compiles
// lazily here: linux/amd64, where wazero fork patch 0040 implements it.
// Elsewhere LazyCompile is ignored and a cache miss compiles the module
// whole.
func LazyCompileSupported() bool {
	return goruntime.GOOS == "linux" && goruntime.GOARCH == "amd64"
}

// CompiledLazily reports whether the engine's interpreter is compiled
// function by function as it runs (Config.LazyCompile on a cache miss).
func (e *Engine) CompiledLazily() bool { return e.lazy }

// compile makes python.wasm's compiled code available. From the cache it
// needs only the module's structure (moduleStub) and its digest
// (moduleDigest): wazero neither reads nor hashes the code. Otherwise it
// compiles the module with its data segments taken out (splitData; the
// host applies them when it boots an interpreter, and not at all when it
// restores one from a snapshot), reporting progress. hit reports whether
// the code came from the cache.
//
// lazy compiles, on a miss, each function when it is first called
// (Config.LazyCompile); the cache is then left as it is.
func (e *Engine) compile(ctx context.Context, progress func(string), skipChecksum, lazy bool) (compiled wazero.CompiledModule, hit bool, err error) {
	b := e.bundle
	stub, segs, err := moduleStub(b.Wasm)
	if err != nil {
		// A module splitData does not understand is compiled as it is.
		if progress != nil {
			progress("compiling the Python runtime (first run only; up to a minute or more)")
			defer progress("")
		}
		compiled, err = e.rt.CompileModule(experimental.WithCompilationWorkers(ctx, goruntime.GOMAXPROCS(0)), b.Wasm)
		return compiled, false, err
	}
	e.data = segs
	dctx := experimental.WithModuleDigest(ctx, moduleDigest(b))
	lctx := experimental.WithCachedModuleOnly(dctx)
	if skipChecksum {
		lctx = experimental.WithoutCachedCodeChecksum(lctx)
	}
	compiled, err = e.rt.CompileModule(lctx, stub)
	if err == nil || !errors.Is(err, experimental.ErrModuleNotCached) {
		return compiled, err == nil, err
	}
	if lazy {
		stripped, _, err := splitData(b.Wasm)
		if err != nil {
			return nil, false, err
		}
		compiled, err = e.rt.CompileModule(experimental.WithLazyCompilation(dctx), stripped)
		e.lazy = err == nil
		return compiled, false, err
	}
	if progress != nil {
		progress("compiling the Python runtime (first run only; up to a minute or more)")
		defer progress("")
	}
	stripped, _, err := splitData(b.Wasm)
	if err != nil {
		return nil, false, err
	}
	compiled, err = e.rt.CompileModule(experimental.WithCompilationWorkers(dctx, goruntime.GOMAXPROCS(0)), stripped)
	return compiled, false, err
}

// moduleDigest names the module NewEngine compiles, python.wasm with its
// data segments taken out, in the compilation cache: a hash of the bundle's
// checksum of python.wasm (Bundle.ID, recorded when the bundle was
// extracted), so that no process hashes the module's 40 MB again.
func moduleDigest(b *packages.Bundle) [32]byte {
	return sha256.Sum256([]byte("pybox: python.wasm without its data segments (splitData), sha256 " + b.ID))
}

// Bundle returns the runtime bundle this engine runs.
func (e *Engine) Bundle() *packages.Bundle { return e.bundle }

// CompileTime reports how long NewEngine took to compile or load python.wasm,
// and whether the compilation cache already had it.
func (e *Engine) CompileTime() (time.Duration, bool) { return e.compileTime, e.cacheHit }

// Close releases the compiled code and every instance still running. Runs in
// progress fail.
//
// A guest that does not end when it is killed (it is inside a host call that
// does not return, such as a read of a Request.Stdin that blocks) keeps its
// memory and code: unmapping them under it would crash the whole process
// when the call returns. Close then returns an error saying so, and the
// engine's resources are released when the last such guest ends (Released
// is closed then).
func (e *Engine) Close(ctx context.Context) error {
	if e.pool != nil {
		close(e.poolStop)
		<-e.poolDone
	}
	// Stop every interpreter before the runtime goes: closing a module under
	// a running guest races with its host calls.
	var wg sync.WaitGroup
	e.live.Range(func(k, _ any) bool {
		wg.Add(1)
		go func(inst *instance) {
			defer wg.Done()
			inst.close(ctx)
		}(k.(*instance))
		return true
	})
	wg.Wait()
	e.guestsMu.Lock()
	already := e.closing
	e.closing = true
	running := e.guests
	e.guestsMu.Unlock()
	if already {
		return nil
	}
	if running > 0 {
		// The last guest to end releases everything (guestEnded).
		return fmt.Errorf("close engine: %d interpreter(s) still running after being killed (stuck in a host call); the engine's memory and code are released when they end", running)
	}
	return e.release(ctx)
}

// Released is closed once Close has released the engine's runtime, compiled
// code and caches: at once, or after the last interpreter that was still
// running at Close ended.
func (e *Engine) Released() <-chan struct{} { return e.released }

// guestStarted and guestEnded bracket the life of a served guest (see
// Engine.guests).
func (e *Engine) guestStarted() {
	e.guestsMu.Lock()
	e.guests++
	e.guestsMu.Unlock()
}

func (e *Engine) guestEnded() {
	e.guestsMu.Lock()
	e.guests--
	last := e.guests == 0 && e.closing
	e.guestsMu.Unlock()
	if last {
		if err := e.release(context.Background()); err != nil {
			e.logf("release engine after its last guest ended: %v", err)
		}
	}
}

// release frees what the engine holds once no guest can run any more. Only
// the first call does anything.
func (e *Engine) release(ctx context.Context) (err error) {
	e.releaseOnce.Do(func() { err = e.releaseNow(ctx) })
	return err
}

func (e *Engine) releaseNow(ctx context.Context) error {
	var errs []error
	e.snapMu.Lock()
	errs = append(errs, e.snap.close())
	e.snapMu.Unlock()
	if e.rt != nil {
		errs = append(errs, e.rt.Close(ctx))
	}
	if e.cache != nil {
		errs = append(errs, e.cache.Close(ctx))
	}
	if e.userSite != nil {
		errs = append(errs, e.userSite.Close())
	}
	close(e.released)
	return errors.Join(errs...)
}

// mountUserSite opens the user's packages folder as a read-only fsbridge
// mount at packages.UserSitePath. Interpreters run at once share it, so it
// has no open-files limit of its own (the job's sandbox has one).
func (e *Engine) mountUserSite(dir string) error {
	sb, err := fsbridge.New(fsbridge.Policy{
		Mounts:   []fsbridge.Mount{fsbridge.ReadOnlyMount(dir, packages.UserSitePath)},
		NoOutput: true,
		NoTmp:    true,
		Limits:   fsbridge.Limits{OpenFiles: -1},
	})
	if err != nil {
		return fmt.Errorf("user packages %s: %w", dir, err)
	}
	fsys, err := sb.MountFS(packages.UserSitePath)
	if err != nil {
		sb.Close()
		return fmt.Errorf("user packages %s: %w", dir, err)
	}
	e.userSite, e.userSiteFS = sb, fsys
	return nil
}

// track registers a live instance so that Close can stop it.
func (e *Engine) track(inst *instance) {
	e.live.Store(inst, struct{}{})
	inst.onClose = func() { e.live.Delete(inst) }
}

// fillPool keeps the warm pool full: an interpreter is started ahead of
// time (restored from the snapshot, or booted), and joins the pool once its
// runner has warmed up and waits in its first "job" call.
func (e *Engine) fillPool() {
	defer close(e.poolDone)
	for {
		if !e.refillTurn() {
			return
		}
		inst, err := e.fresh(context.Background(), 0)
		if err == nil {
			err = e.warmedUp(inst)
		}
		if err == nil {
			e.prefault(inst)
		}
		e.choreEnd()
		if err != nil {
			if inst != nil {
				inst.close(context.Background())
			}
			// Starting only fails if the engine is closing or broken; Run
			// starts one on demand either way.
			select {
			case <-e.poolStop:
				return
			case <-time.After(time.Second):
				continue
			}
		}
		select {
		case e.pool <- inst:
			e.poolMu.Lock()
			e.poolChangedLocked()
			e.poolMu.Unlock()
		case <-e.poolStop:
			inst.close(context.Background())
			return
		}
	}
}

// warmedUp waits until inst's runner has warmed up and asks for its first
// job (see instance.ready): until then the interpreter is still starting,
// and a run handed to it would wait.
func (e *Engine) warmedUp(inst *instance) error {
	select {
	case <-inst.ready:
		return nil
	case <-inst.exited:
		return fmt.Errorf("the interpreter ended while starting: %v", inst.exitErr)
	case <-e.poolStop:
		return errors.New("runtime: the engine is closed")
	}
}

// WaitWarm waits until the warm pool (Config.WarmPool) is full and the
// housekeeping of earlier runs is done (their interpreters closed), so
// that the next runs start from interpreters made ahead of time on an
// engine at rest, as they do between a model's calls; it returns at once
// without a pool. Benchmarks use it to measure calls as users meet them; a
// server has no need to.
func (e *Engine) WaitWarm(ctx context.Context) error {
	if e.pool == nil {
		return nil
	}
	for {
		e.poolMu.Lock()
		full, added := len(e.pool) == cap(e.pool) && e.chores == 0, e.poolChanged
		e.poolMu.Unlock()
		if full {
			return nil
		}
		select {
		case <-added:
		case <-e.poolDone:
			return errors.New("runtime: the engine is closed")
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// instance returns a fresh interpreter, serving: one from the warm pool if
// ready, else a new one.
func (e *Engine) instance(ctx context.Context, memLimit int64) (*instance, error) {
	select {
	case inst := <-e.pool: // a nil pool channel is never ready
		inst.mem.setLimit(uint64(memLimit))
		return inst, nil
	default:
	}
	return e.fresh(ctx, memLimit)
}

// fresh starts a new interpreter: restored from the engine's snapshot,
// which the first call takes (and then serves from the very interpreter it
// booted), or booted when the engine does not snapshot or the snapshot
// could not be taken.
func (e *Engine) fresh(ctx context.Context, memLimit int64) (*instance, error) {
	var inst *instance
	var err error
	first := false
	if !e.noSnapshot {
		e.snapOnce.Do(func() {
			if s := e.loadPersisted(); s != nil {
				e.snapMu.Lock()
				e.snap = s
				e.snapMu.Unlock()
				return
			}
			// Not canceled with the run that happens to come first.
			s, booted, err := e.takeSnapshot(context.WithoutCancel(ctx))
			e.snapMu.Lock()
			e.snap, e.snapErr = s, err
			e.snapMu.Unlock()
			if err == nil {
				inst, first = booted, true
				inst.mem.setLimit(uint64(memLimit))
			}
		})
	}
	switch {
	case first:
	case e.snap != nil && memLimit > 0 && uint64(memLimit) < e.snap.size:
		// The snapshot alone is over the run's memory limit: boot, without
		// the preloads (which would fail halfway).
		inst, err = e.boot(ctx, memLimit, nil)
	case e.snap != nil:
		inst, err = e.restore(ctx, e.snap, memLimit)
		if err != nil && e.snap.loaded {
			// A file from the cache folder that cannot be mapped: boot.
			inst, err = e.boot(ctx, memLimit, e.preload)
		}
	default:
		inst, err = e.boot(ctx, memLimit, e.preload)
	}
	if err != nil {
		return nil, err
	}
	if err := e.serve(inst); err != nil {
		return nil, err
	}
	return inst, nil
}

// SnapshotInfo describes an engine's snapshot (see Engine.Snapshot).
type SnapshotInfo struct {
	// Taken is set once interpreters start from the snapshot: false before
	// the engine's first run, with Config.NoSnapshot, or when it could not
	// be taken (Err says why; interpreters then boot from scratch).
	Taken bool
	// Size is the guest memory the snapshot holds; Resident is how many of
	// those bytes are not zero, kept once in memory and shared copy-on-write
	// by every interpreter.
	Size, Resident int64
	// Boot is how long the boot that the snapshot replaces took.
	Boot time.Duration
	// File is where the snapshot is kept in the cache folder
	// (Config.PersistSnapshot), "" if only in memory; Loaded is set when
	// this engine found it there rather than taking it.
	File   string
	Loaded bool
	Err    error
}

// Snapshot describes the engine's snapshot of a booted interpreter.
func (e *Engine) Snapshot() SnapshotInfo {
	e.snapMu.Lock()
	defer e.snapMu.Unlock()
	if e.snap == nil {
		return SnapshotInfo{Err: e.snapErr}
	}
	return SnapshotInfo{Taken: true, Size: int64(e.snap.size), Resident: int64(e.snap.resident), Boot: e.snap.bootTime,
		File: e.snap.path, Loaded: e.snap.loaded}
}

// snapshotPath is where the engine persists its snapshot, "" if it does
// not.
func (e *Engine) snapshotPath() string {
	p, _ := e.SnapshotFile()
	return p
}

// loadPersisted returns the snapshot persisted in the cache folder for this
// engine, or nil if there is none that is usable (the engine then boots and
// writes one).
func (e *Engine) loadPersisted() *snapshot {
	path := e.snapshotPath()
	if path == "" {
		return nil
	}
	key, _ := e.snapshotKey()
	s, err := loadSnapshot(path, key)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			e.logf("replacing the snapshot in the cache folder: %v", err)
		}
		return nil
	}
	s.path, s.loaded = path, true
	return s
}

// logf logs an operator-facing note about the engine (not about a run).
func (e *Engine) logf(format string, args ...any) {
	l := e.logger
	if l == nil {
		l = slog.Default()
	}
	l.Debug(fmt.Sprintf(format, args...))
}

// preloadFailed logs, once per engine and module, that a preload
// (Config.Preload) failed to import in a booting interpreter and why: the
// interpreters start without it, and the operator who asked for it should
// learn that from the log rather than from slower runs.
func (e *Engine) preloadFailed(module, reason string) {
	if _, seen := e.preloadErrs.LoadOrStore(module, reason); seen {
		return
	}
	l := e.logger
	if l == nil {
		l = slog.Default()
	}
	l.Warn("preloaded module failed to import; interpreters start without it", "module", module, "error", reason)
}

// PreloadErrors returns the preloads (Config.Preload, PreloadAnalysis) that
// failed to import in this engine's interpreters so far, each with the
// exception it raised ("ModuleNotFoundError: No module named 'x'"). They
// are logged as warnings too.
func (e *Engine) PreloadErrors() map[string]string {
	out := map[string]string{}
	e.preloadErrs.Range(func(k, v any) bool {
		out[k.(string)] = v.(string)
		return true
	})
	return out
}

// AnalysisModules are the modules Config.PreloadAnalysis imports ahead of
// the first run when the bundle has them: what a model's data-analysis code
// imports in its first line.
var AnalysisModules = []string{"numpy", "pandas", "matplotlib.pyplot"}

// AnalysisPreload returns the modules of AnalysisModules whose top-level
// package is in bundle b's site-packages, in that order.
func AnalysisPreload(b *packages.Bundle) []string {
	var out []string
	for _, m := range AnalysisModules {
		top, _, _ := strings.Cut(m, ".")
		if st, err := fs.Stat(b.Files, path.Join(bundleSitePackages, top)); err == nil && st.IsDir() {
			out = append(out, m)
		}
	}
	return out
}

// bundleSitePackages is the bundle's site-packages folder, relative to the
// bundle's root (the guest's /usr/local).
const bundleSitePackages = "lib/python3.11/site-packages"
