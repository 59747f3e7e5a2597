package runtime

import (
	"bytes"
	"context"
	crand "crypto/rand"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/experimental/sysfs"
	"github.com/tetratelabs/wazero/sys"

	"github.com/pybox-dev/pybox/packages"
)

// runnerSource is the guest-side runner (guest/runner.py), handed to the
// interpreter at boot by pybox_boot (scripts/cpython/_pyboxmodule.c).
//
//go:embed guest/runner.py
var runnerSource []byte

// guestArgs is the interpreter's command line (read by pybox_boot in
// scripts/cpython/_pyboxmodule.c): isolated mode (no PYTHON* environment
// variables, no user site, no script dir on sys.path), unbuffered streams so
// output reaches the host as it is written, UTF-8 mode.
var guestArgs = []string{"python", "-I", "-u", "-X", "utf8"}

// instance is one interpreter: a wasm module instance running pybox_serve
// on its own goroutine. The guest pulls jobs from the host through the "job"
// host call and reports outcomes with "done".
type instance struct {
	mod    api.Module
	mem    *limitedMemory
	stdout *switchWriter
	stderr *switchWriter
	stdin  *switchReader
	root   *rootFS
	bundle *bundleFS // /usr/local

	jobs     chan *job     // next job for the guest
	ready    chan struct{} // closed when the guest first waits for a job
	restored bool          // started from the engine's snapshot (not booted)
	exited   chan struct{} // closed when pybox_serve returns
	exitErr  error         // nil, a *sys.ExitError or a trap; read after exited is closed

	cur   atomic.Pointer[job] // the job the guest is running
	reply []byte              // pending reply; guest goroutine only

	// flags are the guest addresses of the interrupt flags, reported by the
	// guest at start-up ("signals"): SIGINT tripped, is_tripped, killed,
	// signals_pending, eval_breaker. Zero until then.
	flags    [5]atomic.Uint32
	loopKill api.MutableGlobal // nil unless the binary has the loop guard
	killed   atomic.Bool       // answered to the guest's yield calls
	killCh   chan struct{}     // closed by kill: wakes a guest waiting in a host call
	killOnce sync.Once
	// phase is where the guest is in the runner protocol (phaseSetup...).
	// Touched only by host calls, on the guest's goroutine.
	phase   int
	preload []string // modules the runner imports before its first job
	// preloadFailed receives a preload that failed to import and why
	// ("preload_error"); nil ignores them.
	preloadFailed func(module, reason string)
	warm          bool // the runner warms up before its first job (a pool's)
	userSite      bool // packages.UserSitePath is mounted
	// userSiteEx explains refusals under packages.UserSitePath, which the
	// job's filesystem does not serve.
	userSiteEx Explainer
	userSiteFS experimentalsys.FS // the user's packages, read-only; nil without userSite
	openFDs    string             // file descriptors open after boot ("fds"), for the snapshot check
	closeOnce  sync.Once
	jobsOnce   sync.Once
	onClose    func() // unregisters the instance from its engine
}

// job is one piece of code handed to an instance.
type job struct {
	payload []byte
	stop    chan struct{} // closed when the host interrupts or kills this job
	stopped atomic.Bool
	caught  atomic.Int64  // unix ns when the runner caught KeyboardInterrupt
	done    chan struct{} // closed when the guest reported an outcome
	// parked is closed when the guest, having reported this job, is back
	// in its "job" call waiting for the next: only then is a session's
	// call over. A guest that reports and goes on running (guest code can
	// forge the report) is still on this call's clock.
	parked  chan struct{}
	outcome outcome // written before done is closed
}

// outcome is what the runner reported for a job.
type outcome struct {
	kind      string // "exit", "error" or "interrupt"
	exitCode  int
	excType   string
	excMsg    string
	traceback string
	value     string // repr of a final expression's value, "" if none
}

func newJob(req *Request, once bool) *job {
	return &job{
		payload: encodeJob(req, once),
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
		parked:  make(chan struct{}),
	}
}

// halt closes the job's stop channel (time.sleep returns early), once.
func (j *job) halt() {
	if j.stopped.CompareAndSwap(false, true) {
		close(j.stop)
	}
}

// instantiate creates a new instance of python.wasm with its host-side
// state, without running any of its code.
func (e *Engine) instantiate(ctx context.Context, memLimit int64) (*instance, error) {
	inst := &instance{
		preload:       e.preload,
		preloadFailed: e.preloadFailed,
		warm:          e.pool != nil,
		userSite:      e.userSite != nil,
		mem:           &limitedMemory{},
		stdout:        &switchWriter{},
		stderr:        &switchWriter{},
		stdin:         &switchReader{},
		root:          &rootFS{},
		jobs:          make(chan *job, 1),
		ready:         make(chan struct{}),
		exited:        make(chan struct{}),
		killCh:        make(chan struct{}),
	}
	// A limit below the module's initial memory cannot hold the interpreter
	// at all (wazero would panic allocating it): say so instead.
	if memLimit > 0 {
		for _, m := range e.compiled.ExportedMemories() {
			if initial := uint64(m.Min()) * 65536; uint64(memLimit) < initial {
				return nil, fmt.Errorf("instantiate interpreter: memory limit of %d bytes is below python.wasm's initial memory of %d bytes", memLimit, initial)
			}
		}
	}
	inst.mem.setLimit(uint64(memLimit))
	inst.bundle = &bundleFS{FS: &sysfs.AdaptFS{FS: e.bundle.Files}, root: inst.root}
	// "/" is the job's filesystem (see rootFS); the bundle is mounted over
	// it at /usr/local, read-only, whatever the job's policy says (see
	// bundleFS). The mounts (and so the guest's preopened descriptors) are
	// the same for every instance of an engine, which a snapshot relies on.
	fsc := wazero.NewFSConfig().(sysfs.FSConfig).WithSysFSMount(inst.root, "/")
	fsc = fsc.(sysfs.FSConfig).WithSysFSMount(inst.bundle, bundleGuest)
	if e.userSite != nil {
		fsc = fsc.(sysfs.FSConfig).WithSysFSMount(e.userSiteFS, packages.UserSitePath)
		inst.userSiteEx = e.userSite
		inst.userSiteFS = e.userSiteFS
	}
	mc := wazero.NewModuleConfig().
		WithName("").
		WithArgs(guestArgs...).
		WithEnv("HOME", "/tmp").
		// The sandbox user (the bundle's pwd module answers for it):
		// getpass.getuser() and friends read these first.
		WithEnv("USER", "user").
		WithEnv("LOGNAME", "user").
		WithEnv("LANG", "C.UTF-8").
		WithStdin(inst.stdin).
		WithStdout(inst.stdout).
		WithStderr(inst.stderr).
		WithFSConfig(fsc).
		WithSysWalltime().
		WithSysNanotime().
		WithNanosleep(inst.sleep).
		WithRandSource(crand.Reader).
		WithStartFunctions() // the host calls the reactor's entry points itself
	ictx := experimental.WithMemoryAllocator(ctx, inst.mem)
	mod, err := e.rt.InstantiateModule(ictx, e.compiled, mc)
	if err != nil {
		if inst.mem.err != nil {
			err = inst.mem.err
		}
		return nil, fmt.Errorf("instantiate interpreter: %w", err)
	}
	inst.mod = mod
	// A bundle without the loop guard (a benchmark baseline) still runs, but
	// C loops can then neither be killed nor yield to the Go scheduler.
	if g, ok := mod.ExportedGlobal(loopKillGlobal).(api.MutableGlobal); ok {
		inst.loopKill = g
	}
	return inst, nil
}

// boot instantiates an interpreter and starts it (see startGuest), with
// preload as the modules it imports before its first job.
func (e *Engine) boot(ctx context.Context, memLimit int64, preload []string) (*instance, error) {
	inst, err := e.instantiate(ctx, memLimit)
	if err != nil {
		return nil, err
	}
	inst.preload = preload
	if err := e.startGuest(ctx, inst); err != nil {
		_ = inst.mod.Close(ctx)
		return nil, err
	}
	return inst, nil
}

// startGuest copies the module's data segments into memory (see
// splitData), runs libc's constructors (_initialize), then pybox_boot, which
// initialises CPython and runs the runner's set-up and preloads, on the
// calling goroutine. It returns with the guest at rest (no wasm frame on the
// stack), ready for serve or for a snapshot.
func (e *Engine) startGuest(ctx context.Context, inst *instance) error {
	e.guestStarted()
	defer e.guestEnded()
	if err := e.applyData(inst); err != nil {
		return err
	}
	var errOut bytes.Buffer
	inst.stderr.set(&errOut)
	defer inst.stderr.set(nil)
	callCtx := context.WithValue(ctx, instanceKey{}, inst)
	for _, name := range []string{"_initialize", "pybox_boot"} {
		fn := inst.mod.ExportedFunction(name)
		if fn == nil {
			return fmt.Errorf("python.wasm has no %s: it is not a pybox reactor build; rebuild it with scripts/build-runtime.sh", name)
		}
		res, err := fn.Call(callCtx)
		if err == nil && len(res) == 1 && res[0] != 0 {
			err = fmt.Errorf("%s returned %d", name, int32(res[0]))
		}
		if err != nil {
			if msg := strings.TrimSpace(errOut.String()); msg != "" {
				err = fmt.Errorf("%w: %s", err, msg)
			}
			return fmt.Errorf("start the interpreter: %w", err)
		}
	}
	return nil
}

// serve starts the guest's job loop (pybox_serve) on its own goroutine and
// registers the instance with its engine. The guest then blocks in the
// "job" host call until a job arrives.
func (e *Engine) serve(inst *instance) error {
	fn := inst.mod.ExportedFunction("pybox_serve")
	if fn == nil {
		_ = inst.mod.Close(context.Background())
		return errors.New("python.wasm has no pybox_serve: rebuild it with scripts/build-runtime.sh")
	}
	e.track(inst)
	e.guestStarted()
	callCtx := context.WithValue(context.Background(), instanceKey{}, inst)
	go func() {
		defer e.guestEnded()
		res, err := fn.Call(callCtx)
		if err == nil && len(res) == 1 && res[0] != 0 {
			// A session's runner ends with sys.exit, a one-off's returns 0
			// after reporting its job; anything else is a failure the
			// runner reported on stderr.
			err = sys.NewExitError(uint32(res[0]))
		}
		inst.exitErr = err
		close(inst.exited)
	}()
	return nil
}

// loopKillGlobal is the exported global added by internal/loopguard: set to
// non-zero, every loop in the guest traps at its next iteration.
const loopKillGlobal = "pybox_loop_kill"

// handle serves one host call from the guest. It runs on the guest's
// goroutine.
//
// Guest code can make these calls itself (the runner's interface is
// reachable from Python in the same interpreter), so each is checked against
// the protocol phase: a call out of place ends the instance (violate).
func (inst *instance) handle(op string, in []byte) ([]byte, error) {
	switch op {
	case "runner":
		return runnerSource, nil
	case "preload":
		return []byte(strings.Join(inst.preload, "\x00")), nil
	case "preload_error":
		// Only while setting up, where the runner imports the preloads.
		if inst.phase != phaseSetup {
			inst.violate("a preload failure was reported after set-up")
		}
		module, reason, _ := strings.Cut(string(in), "\x00")
		if inst.preloadFailed != nil {
			inst.preloadFailed(module, reason)
		}
		return nil, nil
	case "warm":
		// Whether the runner warms up before its first job (_warm_up):
		// worth it only ahead of time, in the warm pool.
		if inst.warm {
			return []byte("1"), nil
		}
		return nil, nil
	case "paths":
		if inst.userSite {
			return []byte(packages.UserSitePath), nil
		}
		return nil, nil
	case "job":
		return inst.nextJob()
	case "signals":
		// Once, at start-up (PyInit__pybox): moving the flags later would
		// aim the host's interrupts at memory of the guest's choosing.
		if inst.phase != phaseSetup || inst.flags[flagEvalBreaker].Load() != 0 {
			inst.violate("the interrupt flags were reported again")
		}
		if len(in) != 4*len(inst.flags) {
			return nil, fmt.Errorf("signals: want %d addresses", len(inst.flags))
		}
		for i := range inst.flags {
			inst.flags[i].Store(binary.LittleEndian.Uint32(in[4*i:]))
		}
		return nil, nil
	case "explain":
		return inst.explain(in), nil
	case "mode":
		return inst.mode(in), nil
	case "chmod":
		return inst.chmod(in), nil
	case "fds":
		if inst.phase != phaseSetup {
			inst.violate("open descriptors were reported after set-up")
		}
		inst.openFDs = string(in)
		return nil, nil
	case "caught":
		if j := inst.cur.Load(); j != nil && inst.phase == phaseRunning {
			j.caught.CompareAndSwap(0, time.Now().UnixNano())
		}
		return nil, nil
	case "done":
		j := inst.cur.Load()
		switch {
		case j == nil || inst.phase == phaseSetup:
			inst.violate("done was reported with no job running")
		case inst.phase != phaseRunning:
			inst.violate("done was reported twice for one job")
		}
		o, err := parseOutcome(in)
		if err != nil {
			inst.violate(err.Error())
		}
		j.outcome = o
		inst.phase = phaseReported
		close(j.done)
		return nil, nil
	}
	inst.violate(fmt.Sprintf("unknown operation %q", op))
	return nil, nil
}

// nextJob serves "job": the guest has finished with its previous job (if
// any) and waits for the next.
func (inst *instance) nextJob() ([]byte, error) {
	switch inst.phase {
	case phaseRunning:
		inst.violate("a job was asked for before the running one was reported")
	case phaseWaiting:
		inst.violate("a job was asked for while waiting for one")
	case phaseReported:
		// The previous job's call is over only now: the guest is parked.
		close(inst.cur.Load().parked)
	case phaseSetup:
		// Started (and warmed up, in a pool): the interpreter is ready.
		close(inst.ready)
	}
	inst.phase = phaseWaiting
	if inst.killed.Load() {
		panic(errKilledWaiting)
	}
	var j *job
	select {
	case j = <-inst.jobs:
	case <-inst.killCh:
		panic(errKilledWaiting)
	}
	if j == nil {
		return nil, errors.New("shutdown")
	}
	// An interrupt aimed at the previous job may have landed after it
	// finished; it must not hit this one.
	inst.clearInterrupt()
	inst.cur.Store(j)
	inst.phase = phaseRunning
	return j.payload, nil
}

// violate ends the instance: the guest broke the runner protocol. The panic
// unwinds the guest's wasm call (pybox_serve returns it as an error), so
// nothing of the guest runs after it.
func (inst *instance) violate(msg string) {
	panic(&protocolError{msg: msg})
}

// sleep is the guest's nanosleep (time.sleep): it returns early when the
// current job is interrupted, so a sleeping guest stops at once.
func (inst *instance) sleep(ns int64) {
	var stop chan struct{}
	if j := inst.cur.Load(); j != nil {
		stop = j.stop
	}
	t := time.NewTimer(time.Duration(ns))
	defer t.Stop()
	select {
	case <-t.C:
	case <-stop:
	case <-inst.killCh:
	}
}

// Indexes into instance.flags.
const (
	flagTripped = iota
	flagIsTripped
	flagKilled
	flagSignalsPending
	flagEvalBreaker
)

// interrupt asks the guest to raise KeyboardInterrupt in the current job,
// the way a SIGINT handler would: it stores 1 into the handler's flags and
// the eval breaker, in trip_signal's order. Safe from any goroutine while the
// guest runs: these are plain stores to linear memory, read by the guest at
// its next check.
//
// The flags are stored before the job's stop channel wakes a sleeping guest,
// as a signal handler runs before the interrupted system call returns. The
// other order lost the interrupt when this goroutine was descheduled between
// the two: time.sleep returned normally, and a script that ended with it
// finished before the flags were set (status canceled, no KeyboardInterrupt:
// TestGracefulShutdown failed that way under the whole suite's -race load).
func (inst *instance) interrupt(j *job) {
	inst.tripSIGINT()
	j.halt()
}

// tripSIGINT stores 1 into the SIGINT flags and the eval breaker.
func (inst *instance) tripSIGINT() {
	for _, f := range []int{flagTripped, flagIsTripped, flagSignalsPending, flagEvalBreaker} {
		inst.setFlag(f)
	}
}

// clearInterrupt resets the SIGINT flags. Only called while the guest waits
// in a host call, so nothing races with it.
func (inst *instance) clearInterrupt() {
	for _, i := range []int{flagTripped, flagIsTripped, flagSignalsPending} {
		if addr := inst.flags[i].Load(); addr != 0 {
			inst.mem.store32(addr, 0)
		}
	}
}

// dead reports whether the interpreter has ended.
func (inst *instance) dead() bool {
	select {
	case <-inst.exited:
		return true
	default:
		return false
	}
}

func (inst *instance) setFlag(i int) {
	addr := inst.flags[i].Load()
	if addr == 0 {
		return // the guest has not reported its flags yet
	}
	inst.mem.store32(addr, 1)
}

// kill makes the guest trap at its next eval-breaker check, signal check,
// yield or loop iteration (loop guard); a guest sleeping or waiting for a
// job is woken and ended. The instance is dead afterwards.
func (inst *instance) kill() {
	inst.killed.Store(true)
	if inst.loopKill != nil {
		inst.loopKill.Set(1)
	}
	inst.setFlag(flagKilled)
	inst.tripSIGINT()
	// Wake a sleeping or waiting guest last, once the flags it will check
	// are set (see interrupt).
	inst.killOnce.Do(func() { close(inst.killCh) })
}

// noMoreJobs tells the guest there will be no job after the current one:
// its runner exits when it next asks.
func (inst *instance) noMoreJobs() {
	inst.jobsOnce.Do(func() { close(inst.jobs) })
}

// close ends the instance and releases it. A guest still running is killed
// first, and close waits (up to abandonAfter) for it to end: closing a
// module under a running guest races with its host calls. A guest that does
// not end in time is left to finish on its own goroutine and closed then.
func (inst *instance) close(ctx context.Context) {
	inst.closeOnce.Do(func() {
		inst.noMoreJobs()
		if !inst.dead() {
			inst.kill()
		}
		t := time.NewTimer(abandonAfter)
		defer t.Stop()
		select {
		case <-inst.exited:
			_ = inst.mod.Close(ctx)
		case <-t.C:
			go func() {
				<-inst.exited
				_ = inst.mod.Close(context.Background())
			}()
		}
		if inst.onClose != nil {
			inst.onClose()
		}
	})
}

// exitCode extracts the guest's exit status from pybox_serve's error.
func exitCode(err error) (code int, exited bool) {
	if err == nil {
		return 0, true
	}
	var ee *sys.ExitError
	if errors.As(err, &ee) {
		return int(ee.ExitCode()), true
	}
	return 0, false
}

// switchWriter forwards to a writer that can be replaced between jobs.
type switchWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *switchWriter) set(w io.Writer) {
	s.mu.Lock()
	s.w = w
	s.mu.Unlock()
}

func (s *switchWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	w := s.w
	s.mu.Unlock()
	if w == nil {
		return len(p), nil
	}
	return w.Write(p)
}

// switchReader reads from a reader that can be replaced between jobs; with
// none set it is at EOF.
type switchReader struct {
	mu sync.Mutex
	r  io.Reader
}

func (s *switchReader) set(r io.Reader) {
	s.mu.Lock()
	s.r = r
	s.mu.Unlock()
}

func (s *switchReader) Read(p []byte) (int, error) {
	s.mu.Lock()
	r := s.r
	s.mu.Unlock()
	if r == nil {
		return 0, io.EOF
	}
	return r.Read(p)
}

// Explainer is implemented by a Request.FS that can say why it refused an
// operation on a guest path (fsbridge's filesystem does). The guest asks
// whenever an OSError carries a file name, and the answer becomes the
// exception's message: "[Errno 13] write denied: /etc/hosts is outside
// writable mounts (/work, /output): '/etc/hosts'".
type Explainer interface {
	Explain(guestPath string) (reason string, ok bool)
}

// UnnamedExplainer is an Explainer that can also say why an error that
// carries no path (a refused write) happened: see fsbridge's
// Sandbox.ExplainUnnamed.
type UnnamedExplainer interface {
	ExplainUnnamed() (string, bool)
}

// Writer is implemented by a Request.FS that can say whether the guest may
// modify a guest path (fsbridge's filesystem does): the guest's
// os.access(p, os.W_OK) is false on a read-only mount, as on Linux.
type Writer interface {
	Writable(guestPath string) bool
}

// guestPath reads the payload "cwd NUL path" of a guest call into a clean
// absolute guest path, and what follows the path (after a further NUL).
func guestPath(in []byte) (p, rest string, ok bool) {
	cwd, p, found := strings.Cut(string(in), "\x00")
	if !found {
		return "", "", false
	}
	p, rest, _ = strings.Cut(p, "\x00")
	if p == "" {
		return "", "", false
	}
	if !path.IsAbs(p) {
		if cwd == "" {
			cwd = "/"
		}
		p = path.Join(cwd, p)
	}
	return path.Clean(p), rest, true
}

// under reports whether guest path p is dir or inside it.
func under(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }

// mode serves the guest's "mode" call (payload cwd NUL path NUL "1" to follow
// a final symbolic link, "0" not to): WASI's file status has no permission
// bits, so the runner's os.stat asks for them here. The answer is
// "MODE,W": the permission bits in decimal, and W 1 if the guest may modify
// the path (see Writer), else 0; empty if the path cannot be looked at. The
// runtime bundle and the user's packages are read-only installations:
// 0o755 for folders, 0o644 for files.
func (inst *instance) mode(in []byte) []byte {
	p, follow, ok := guestPath(in)
	if !ok {
		return nil
	}
	var fsys experimentalsys.FS = inst.root.fs()
	rel := strings.TrimPrefix(p, "/")
	installed := false
	switch {
	case under(p, bundleGuest):
		fsys, rel, installed = inst.bundle, strings.TrimPrefix(strings.TrimPrefix(p, bundleGuest), "/"), true
	case inst.userSiteFS != nil && under(p, packages.UserSitePath):
		fsys, rel, installed = inst.userSiteFS, strings.TrimPrefix(strings.TrimPrefix(p, packages.UserSitePath), "/"), true
	}
	if rel == "" {
		rel = "."
	}
	var st sys.Stat_t
	var errno experimentalsys.Errno
	if follow == "0" {
		st, errno = fsys.Lstat(rel)
	} else {
		st, errno = fsys.Stat(rel)
	}
	if errno != 0 {
		return nil
	}
	perm := uint32(st.Mode.Perm())
	writable := false
	if installed {
		perm = 0o644
		if st.Mode.IsDir() {
			perm = 0o755
		}
	} else if w, ok := fsys.(Writer); ok {
		writable = w.Writable(p)
	}
	w := byte('0')
	if writable {
		w = '1'
	}
	return append(strconv.AppendUint(nil, uint64(perm), 10), ',', w)
}

// chmod serves the guest's "chmod" call (payload cwd NUL path NUL mode in
// decimal): WASI has no chmod, and python.wasm's os.chmod did nothing. The
// job's filesystem decides (fsbridge: permission bits only, on writable
// mounts; refused elsewhere, with the reason kept for "explain"). The
// answer is empty on success, else the name of the errno ("EROFS").
func (inst *instance) chmod(in []byte) []byte {
	p, modeText, ok := guestPath(in)
	if !ok {
		return []byte("EINVAL")
	}
	mode, err := strconv.ParseUint(modeText, 10, 32)
	if err != nil {
		return []byte("EINVAL")
	}
	perm := fs.FileMode(mode) & fs.ModePerm
	var errno experimentalsys.Errno
	switch {
	case under(p, bundleGuest):
		errno = inst.bundle.Chmod(strings.TrimPrefix(strings.TrimPrefix(p, bundleGuest), "/"), perm)
	case inst.userSiteFS != nil && under(p, packages.UserSitePath):
		errno = experimentalsys.EROFS
	default:
		errno = inst.root.fs().Chmod(strings.TrimPrefix(p, "/"), perm)
	}
	if errno == 0 {
		return nil
	}
	return []byte(errnoName(errno))
}

// errnoName is the POSIX name of a wazero errno, as Python's errno module
// has it.
func errnoName(e experimentalsys.Errno) string {
	switch e {
	case experimentalsys.EACCES:
		return "EACCES"
	case experimentalsys.EPERM:
		return "EPERM"
	case experimentalsys.EROFS:
		return "EROFS"
	case experimentalsys.ENOENT:
		return "ENOENT"
	case experimentalsys.ENOTDIR:
		return "ENOTDIR"
	case experimentalsys.EINVAL:
		return "EINVAL"
	case experimentalsys.ENOSYS:
		return "ENOSYS"
	case experimentalsys.ENOTSUP:
		return "ENOTSUP"
	case experimentalsys.ELOOP:
		return "ELOOP"
	case experimentalsys.ENAMETOOLONG:
		return "ENAMETOOLONG"
	}
	return "EIO"
}

// explain serves the guest's "explain" call: payload is cwd NUL path. An
// empty path asks about an error without a file name (CPython's failed
// write), which only a refusal by a limit can explain.
func (inst *instance) explain(in []byte) []byte {
	if _, p, found := strings.Cut(string(in), "\x00"); found && p == "" {
		if ex, ok := inst.root.fs().(UnnamedExplainer); ok {
			if why, ok := ex.ExplainUnnamed(); ok {
				return []byte(why)
			}
		}
		return nil
	}
	p, _, ok := guestPath(in)
	if !ok {
		return nil
	}
	if why, ok := inst.bundle.explain(p); ok {
		return []byte(why)
	}
	ex, ok := inst.root.fs().(Explainer)
	if inst.userSiteEx != nil && under(p, packages.UserSitePath) {
		ex, ok = inst.userSiteEx, true
	}
	if !ok {
		return nil
	}
	if why, ok := ex.Explain(p); ok {
		return []byte(why)
	}
	return nil
}
