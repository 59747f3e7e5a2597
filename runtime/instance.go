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
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
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

	jobs    chan *job     // next job for the guest
	exited  chan struct{} // closed when pybox_serve returns
	exitErr error         // nil, a *sys.ExitError or a trap; read after exited is closed

	cur   atomic.Pointer[job] // the job the guest is running
	reply []byte              // pending reply; guest goroutine only

	// flags are the guest addresses of the interrupt flags, reported by the
	// guest at start-up ("signals"): SIGINT tripped, is_tripped, killed,
	// signals_pending, eval_breaker. Zero until then.
	flags    [5]atomic.Uint32
	loopKill api.MutableGlobal // nil unless the binary has the loop guard
	killed   atomic.Bool       // answered to the guest's yield calls
	preload  []string          // modules the runner imports before its first job
	userSite bool              // packages.UserSitePath is mounted
	// userSiteEx explains refusals under packages.UserSitePath, which the
	// job's filesystem does not serve.
	userSiteEx Explainer
	openFDs    string // file descriptors open after boot ("fds"), for the snapshot check
	closeOnce  sync.Once
	jobsOnce   sync.Once
	onClose    func() // unregisters the instance from its engine
}

// job is one piece of code handed to an instance.
type job struct {
	payload []byte
	stop    chan struct{} // closed when the host interrupts this job
	stopped atomic.Bool
	caught  atomic.Int64  // unix ns when the runner caught KeyboardInterrupt
	started chan struct{} // closed when the guest took the job
	done    chan struct{} // closed when the guest reported an outcome
	outcome outcome
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
	var b bytes.Buffer
	kv := func(k, v string) {
		b.WriteString(k)
		b.WriteByte(0)
		b.WriteString(v)
		b.WriteByte(0)
	}
	kv("code", req.Code)
	if once {
		kv("mode", "once")
	}
	kv("filename", req.filename())
	for _, a := range req.Args {
		kv("argv", a)
	}
	return &job{payload: b.Bytes(), stop: make(chan struct{}), started: make(chan struct{}), done: make(chan struct{})}
}

// instantiate creates a new instance of python.wasm with its host-side
// state, without running any of its code.
func (e *Engine) instantiate(ctx context.Context, memLimit int64) (*instance, error) {
	inst := &instance{
		preload:  e.preload,
		userSite: e.userSite != nil,
		mem:      &limitedMemory{},
		stdout:   &switchWriter{},
		stderr:   &switchWriter{},
		stdin:    &switchReader{},
		root:     &rootFS{},
		jobs:     make(chan *job, 1),
		exited:   make(chan struct{}),
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
	}
	mc := wazero.NewModuleConfig().
		WithName("").
		WithArgs(guestArgs...).
		WithEnv("HOME", "/tmp").
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

// boot instantiates an interpreter and starts it (see startGuest).
func (e *Engine) boot(ctx context.Context, memLimit int64) (*instance, error) {
	inst, err := e.instantiate(ctx, memLimit)
	if err != nil {
		return nil, err
	}
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
	callCtx := context.WithValue(context.Background(), instanceKey{}, inst)
	go func() {
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
func (inst *instance) handle(op string, in []byte) ([]byte, error) {
	switch op {
	case "runner":
		return runnerSource, nil
	case "preload":
		return []byte(strings.Join(inst.preload, "\x00")), nil
	case "paths":
		if inst.userSite {
			return []byte(packages.UserSitePath), nil
		}
		return nil, nil
	case "job":
		j := <-inst.jobs
		if j == nil {
			return nil, errors.New("shutdown")
		}
		// An interrupt aimed at the previous job may have landed after it
		// finished; it must not hit this one.
		inst.clearInterrupt()
		inst.cur.Store(j)
		close(j.started)
		return j.payload, nil
	case "signals":
		if len(in) != 4*len(inst.flags) {
			return nil, fmt.Errorf("signals: want %d addresses", len(inst.flags))
		}
		for i := range inst.flags {
			inst.flags[i].Store(binary.LittleEndian.Uint32(in[4*i:]))
		}
		return nil, nil
	case "explain":
		return inst.explain(in), nil
	case "fds":
		inst.openFDs = string(in)
		return nil, nil
	case "caught":
		if j := inst.cur.Load(); j != nil {
			j.caught.CompareAndSwap(0, time.Now().UnixNano())
		}
		return nil, nil
	case "done":
		j := inst.cur.Load()
		if j == nil {
			return nil, errors.New("no job is running")
		}
		j.outcome = parseOutcome(in)
		close(j.done)
		return nil, nil
	}
	return nil, fmt.Errorf("unknown operation %q", op)
}

func parseOutcome(b []byte) outcome {
	parts := strings.Split(string(b), "\x00")
	get := func(i int) string {
		if i < len(parts) {
			return parts[i]
		}
		return ""
	}
	o := outcome{kind: get(0), excType: get(2), excMsg: get(3), traceback: get(4), value: get(5)}
	o.exitCode, _ = strconv.Atoi(get(1))
	return o
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
func (inst *instance) interrupt(j *job) {
	if j.stopped.CompareAndSwap(false, true) {
		close(j.stop)
	}
	inst.tripSIGINT()
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
// yield or loop iteration (loop guard). The instance is dead afterwards.
func (inst *instance) kill() {
	inst.killed.Store(true)
	if inst.loopKill != nil {
		inst.loopKill.Set(1)
	}
	inst.setFlag(flagKilled)
	inst.tripSIGINT()
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

// explain serves the guest's "explain" call: payload is cwd NUL path.
func (inst *instance) explain(in []byte) []byte {
	cwd, p, found := strings.Cut(string(in), "\x00")
	if !found {
		return nil
	}
	if !path.IsAbs(p) {
		if cwd == "" {
			cwd = "/"
		}
		p = path.Join(cwd, p)
	}
	p = path.Clean(p)
	if why, ok := inst.bundle.explain(p); ok {
		return []byte(why)
	}
	ex, ok := inst.root.fs().(Explainer)
	if inst.userSiteEx != nil && (p == packages.UserSitePath || strings.HasPrefix(p, packages.UserSitePath+"/")) {
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
