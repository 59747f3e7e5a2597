package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

	"github.com/pybox-dev/pybox/internal/incident"
)

// Request is one piece of Python code to run in a fresh interpreter.
type Request struct {
	// Code is the Python source to run as __main__.
	Code string
	// Filename is shown in tracebacks and becomes __file__ and sys.argv[0].
	// Empty means "<string>".
	Filename string
	// Args are sys.argv[1:].
	Args []string
	// Stdin is the guest's standard input; nil means empty.
	Stdin io.Reader
	// Stdout and Stderr, if set, receive the guest's output live, as it is
	// written. The output is also captured into the Result either way.
	Stdout, Stderr io.Writer
	// Limits bound the run; zero fields take the defaults documented on
	// Limits.
	Limits Limits
	// FS is the filesystem the guest sees at "/" (package fsbridge builds
	// one from the operator's policy). Nil means an empty, read-only root.
	// The runtime bundle is always mounted read-only at /usr/local on top.
	FS experimentalsys.FS
	// Figures, if set, is the guest folder (normally "/output") where the
	// matplotlib figures still open when the code ends, and those open at
	// each plt.show(), are saved as PNG files and closed, as a notebook
	// shows them: figure-1.png, figure-2.png, ..., skipping names that
	// exist, so no file is overwritten. A figure that cannot be saved is
	// reported on stderr. Only code that imported matplotlib.pyplot is
	// affected; empty leaves figures alone.
	Figures string
}

func (r *Request) filename() string {
	if r.Filename == "" {
		return "<string>"
	}
	return r.Filename
}

// Limits are the operator's bounds on one run.
type Limits struct {
	// Timeout is the wall-clock limit of the whole call, counted from its
	// submission: for Session.Exec that includes waiting for the session's
	// previous call to end. Zero means none besides the context's deadline.
	// When it expires the guest gets KeyboardInterrupt; output written
	// until then is kept.
	Timeout time.Duration
	// Memory caps the guest's linear memory in bytes; allocating past it
	// raises MemoryError inside Python. Zero means DefaultMemoryLimit.
	Memory int64
	// Output caps the captured and streamed stdout+stderr in bytes; zero
	// means DefaultOutputLimit. Output past the cap is dropped with a
	// marker line, and the run goes on.
	Output int64
	// KillAfter is how long an interrupted guest has to stop on its own
	// (KeyboardInterrupt, finally blocks) before it is killed. Zero means
	// DefaultKillAfter.
	KillAfter time.Duration
}

// Defaults for zero Limits fields.
const (
	DefaultMemoryLimit = 1 << 30
	DefaultKillAfter   = 500 * time.Millisecond
	// abandonAfter is how long Run waits for a killed guest to trap before
	// it gives up on the instance and returns anyway.
	abandonAfter = 2 * time.Second
)

func (l Limits) withDefaults() Limits {
	if l.Memory <= 0 {
		l.Memory = DefaultMemoryLimit
	}
	if l.Output <= 0 {
		l.Output = DefaultOutputLimit
	}
	if l.KillAfter <= 0 {
		l.KillAfter = DefaultKillAfter
	}
	return l
}

// Status says how a run ended. Only StatusOK means the code completed
// normally; see Result.
type Status string

const (
	// StatusOK: the code ran to the end, or called sys.exit(0).
	StatusOK Status = "ok"
	// StatusExit: the code called sys.exit (or os._exit) with a non-zero code.
	StatusExit Status = "exit"
	// StatusError: the code raised an exception it did not catch.
	StatusError Status = "error"
	// StatusTimeout: the run hit Limits.Timeout or the context deadline and
	// was interrupted.
	StatusTimeout Status = "timeout"
	// StatusCanceled: the context was canceled and the run interrupted.
	StatusCanceled Status = "canceled"
	// StatusCrashed: the interpreter itself died (a wasm trap such as a
	// stack overflow in C code). Nothing is wrong with the host.
	StatusCrashed Status = "crashed"
)

// Result is how a run ended. A Result is returned whenever the code could be
// started, whatever the code did; Run's error is reserved for pybox failing.
type Result struct {
	Status Status
	// ExitCode is the process-style exit status: 0 for StatusOK, the
	// sys.exit code for StatusExit, 1 for StatusError, and for other
	// statuses the code the CLI uses (see ExitCode constants).
	ExitCode int
	// Stdout and Stderr are the captured output, up to Limits.Output bytes
	// together (with a marker where they were cut).
	Stdout, Stderr []byte
	// Truncated is set when output was dropped because of Limits.Output.
	Truncated bool
	// Exception describes the uncaught exception for StatusError (and the
	// KeyboardInterrupt that stopped a timed-out or canceled run).
	Exception *Exception
	// Value is repr() of the value of the code's final expression statement
	// when it is not None, as a notebook cell shows it ("" otherwise). Long
	// reprs are cut at 20,000 characters.
	Value string
	// Message is a one-line human-readable account of a non-OK status,
	// e.g. "timed out after 2s; output up to the interrupt is kept".
	Message string
	// Duration is the wall time of the call: from handing the code to the
	// interpreter (Run) or from the call (Session.Exec) to its end.
	Duration time.Duration
	// Stop describes how an interrupted run was stopped.
	Stop *StopInfo
	// MemoryLimitHit is set when the guest tried to grow its memory past
	// Limits.Memory.
	MemoryLimitHit bool
	// PeakMemory is the largest size the guest's linear memory reached.
	PeakMemory int64
	// SessionRestarted (Session.Exec only) is set when the session's
	// previous interpreter had been lost (killed, crashed or exited) and
	// this call ran in a fresh one: earlier state is gone. Message says so.
	SessionRestarted bool
	// SessionLost (Session.Exec only) is set when this call ended the
	// session's interpreter; the next call starts a fresh one.
	SessionLost bool
}

// Exception is an uncaught Python exception.
type Exception struct {
	Type      string // e.g. "ZeroDivisionError"
	Message   string // str(exc)
	Traceback string // the full traceback, as printed to stderr
}

// StopInfo records how an interrupted run was stopped.
type StopInfo struct {
	// Reason is "timeout" or "canceled".
	Reason string
	// Latency is the time from the interrupt to the guest's end (traceback
	// printed, interpreter finalized).
	Latency time.Duration
	// RaiseLatency is the time from the interrupt until KeyboardInterrupt
	// reached the runner, i.e. until the user's code stopped running. Zero
	// if it never did (the guest was killed).
	RaiseLatency time.Duration
	// Killed is set when the guest did not stop on KeyboardInterrupt within
	// Limits.KillAfter and was killed.
	Killed bool
	// Abandoned is set when even the kill did not stop the guest (C code
	// that never checks for interrupts, in a binary without the loop guard).
	// Its goroutine finishes on its own; its result is discarded.
	Abandoned bool
}

// Exit codes used by the CLI for statuses that have no Python exit code.
const (
	ExitCodeTimeout  = 124 // like timeout(1)
	ExitCodeInternal = 125 // pybox could not run the code
	ExitCodeCrashed  = 126 // the interpreter died (wasm trap)
	ExitCodeCanceled = 130 // like a shell's SIGINT status
)

// Run runs req.Code in a fresh interpreter and waits for it to end. It is
// safe to call from many goroutines at once; runs share nothing.
//
// The error is non-nil only when pybox could not run the code at all (the
// interpreter could not be instantiated); everything the code did, including
// raising, exiting, timing out or crashing the interpreter, is in the Result.
func (e *Engine) Run(ctx context.Context, req Request) (*Result, error) {
	lim := req.Limits.withDefaults()
	e.beginRun()
	defer e.endRun()
	inst, err := e.instance(ctx, lim.Memory)
	if err != nil {
		return nil, err
	}
	inst.root.set(req.FS)
	// The instance is fresh and waiting for its job: the clock starts as it
	// is handed the job (starting an interpreter is pybox's cost).
	start := time.Now()
	res := e.runJob(ctx, inst, &req, lim, false, start, deadlineOf(start, lim))
	// The guest has ended; releasing its module and memory (unmapping)
	// need not delay the result, nor its caller (see settle). Engine.Close
	// waits for it.
	e.retire(inst)
	return res, nil
}

// runJob hands one job to inst and waits for its outcome. A one-off
// interpreter (keepAlive false) takes no further job and is waited for until
// it exits; a session's (keepAlive true) lives on after the job, and the job
// is over when the guest is back waiting for the next one.
//
// deadline (zero for none) is when the call's Limits.Timeout runs out,
// counted by the caller from the call's submission.
func (e *Engine) runJob(ctx context.Context, inst *instance, req *Request, lim Limits, keepAlive bool, start, deadline time.Time) *Result {
	budget := &outputBudget{remaining: lim.Output, limit: lim.Output}
	stdout := &stream{budget: budget, live: req.Stdout}
	stderr := &stream{budget: budget, live: req.Stderr}
	inst.stdout.set(stdout)
	inst.stderr.set(stderr)
	inst.stdin.set(req.Stdin)
	defer inst.stdout.set(nil)
	defer inst.stderr.set(nil)
	defer inst.stdin.set(nil)
	inst.mem.refused.Store(false)

	j := newJob(req, !keepAlive)
	inst.jobs <- j // never blocks: an instance holds at most one job
	// A session's job is over when the guest is back in its "job" call
	// (parked) or has ended; a one-off interpreter is waited for until it
	// ends (nil finished). The guest's own report ("done") is not enough:
	// guest code can make it and go on running.
	var finished <-chan struct{}
	if keepAlive {
		finished = j.parked
	} else {
		inst.noMoreJobs()
	}

	stop := inst.supervise(ctx, j, lim, deadline, finished)
	res := &Result{Duration: time.Since(start), Stop: stop}
	res.MemoryLimitHit = inst.mem.refused.Load()
	res.PeakMemory = int64(inst.mem.peak.Load())
	e.finish(res, inst, j, lim, stderr, keepAlive)
	res.Stdout, res.Stderr = stdout.bytes(), stderr.bytes()
	res.Truncated = stdout.truncated || stderr.truncated
	return res
}

// deadlineOf is when a call submitted at start runs out of lim.Timeout;
// zero if it has none.
func deadlineOf(start time.Time, lim Limits) time.Time {
	if lim.Timeout <= 0 {
		return time.Time{}
	}
	return start.Add(lim.Timeout)
}

// isClosed reports whether c is closed.
func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// ctxReason is the stop reason for a done context.
func ctxReason(ctx context.Context) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "timeout"
	}
	return "canceled"
}

// supervise waits for the job to be over (finished closed, or the guest
// ended), interrupting the guest at the deadline or on cancellation, and
// killing it if it does not stop in time. It returns nil if the job ended on
// its own.
func (inst *instance) supervise(ctx context.Context, j *job, lim Limits, deadline time.Time, finished <-chan struct{}) *StopInfo {
	exited := inst.exited
	var timeout <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		timeout = t.C
	}
	var reason string
	select {
	case <-finished:
		return nil
	case <-exited:
		return nil
	case <-timeout:
		reason = "timeout"
	case <-ctx.Done():
		reason = ctxReason(ctx)
	}
	info := &StopInfo{Reason: reason}
	at := time.Now()
	if isClosed(j.done) {
		// The job was reported but the guest is not back for the next:
		// either the runner is about to park (microseconds) or guest code
		// forged the report and goes on. No KeyboardInterrupt (it would land
		// in the runner); the grace period, then the kill.
		j.halt()
	} else {
		inst.interrupt(j)
	}
	grace := time.NewTimer(lim.KillAfter)
	defer grace.Stop()
	defer func() {
		if c := j.caught.Load(); c != 0 && !info.Killed {
			info.RaiseLatency = time.Duration(c - at.UnixNano())
		}
	}()
	select {
	case <-finished:
		info.Latency = time.Since(at)
		return info
	case <-exited:
		info.Latency = time.Since(at)
		return info
	case <-grace.C:
	}
	info.Killed = true
	j.halt()
	inst.kill()
	// A killed guest ends: it traps, or, waiting for a job, is ended there.
	abandon := time.NewTimer(abandonAfter)
	defer abandon.Stop()
	select {
	case <-exited:
	case <-abandon.C:
		info.Abandoned = true
	}
	info.Latency = time.Since(at)
	return info
}

// finish fills in the status of a run whose guest has ended (or was
// abandoned).
//
// In a session (keepAlive) the interpreter normally outlives the job: it is
// only waited for if it is ending anyway (killed, crashed, os._exit).
func (e *Engine) finish(res *Result, inst *instance, j *job, lim Limits, stderr *stream, keepAlive bool) {
	reported := isClosed(j.done)
	parked := isClosed(j.parked)
	exited := false
	var exitErr error
	switch {
	case res.Stop != nil && res.Stop.Abandoned:
	case keepAlive && parked && (res.Stop == nil || !res.Stop.Killed):
		// The guest is waiting for its next job.
	default:
		<-inst.exited
		exitErr = inst.exitErr
		exited = true
	}
	// The guest broke the runner protocol (guest code called the runner's
	// host interface itself): whatever it reported is not to be believed.
	var pe *protocolError
	violated := exited && errors.As(exitErr, &pe)
	o := j.outcome
	if !reported || violated {
		o, reported = outcome{}, false
	}
	if reported {
		res.Value = o.value
	}
	if reported && (o.kind == "error" || o.kind == "interrupt") {
		res.Exception = &Exception{Type: o.excType, Message: o.excMsg, Traceback: o.traceback}
	}

	if res.Stop != nil {
		if res.Stop.Reason == "timeout" {
			res.Status, res.ExitCode = StatusTimeout, ExitCodeTimeout
			after := lim.Timeout
			if after == 0 {
				after = res.Duration
			}
			res.Message = fmt.Sprintf("timed out after %s; output up to the interrupt is kept", roundDuration(after))
		} else {
			res.Status, res.ExitCode = StatusCanceled, ExitCodeCanceled
			res.Message = "canceled; output up to the interrupt is kept"
		}
		switch {
		case res.Stop.Abandoned:
			res.Message += "; the interpreter did not respond to the kill and was abandoned"
		case res.Stop.Killed && isClosed(j.done) && !parked:
			res.Message += "; it went on running after its result was reported (guest code called pybox's internal runner interface) and was killed"
		case res.Stop.Killed:
			res.Message += fmt.Sprintf("; it did not stop within %s of the interrupt (stuck in C code, or catching KeyboardInterrupt) and was killed", lim.KillAfter)
		}
		if violated {
			res.Message += "; " + violationMessage(pe)
		}
		stderr.note("\npybox: " + res.Message + "\n")
		return
	}
	if violated {
		res.Status, res.ExitCode = StatusCrashed, ExitCodeCrashed
		res.Message = violationMessage(pe)
		stderr.note("\npybox: " + res.Message + "\n")
		return
	}

	code, clean := exitCode(exitErr)
	if !exited || (exitErr == nil && reported) {
		// A session's guest lives on, and a one-off guest returns to the
		// host after reporting: the status is the one it reported.
		code, clean = o.exitCode, true
	}
	switch {
	case !clean && hostPanic(exitErr):
		// pybox itself failed while serving the guest: the detail (Go
		// stack, build paths, addresses) is for the operator only.
		ie := incident.Report(e.logger, "interpreter host call", exitErr)
		res.Status, res.ExitCode = StatusCrashed, ExitCodeCrashed
		res.Message = ie.Error() + ": pybox failed while serving the interpreter, which was stopped"
		stderr.note("\npybox: " + res.Message + "\n")
	case !clean:
		res.Status, res.ExitCode = StatusCrashed, ExitCodeCrashed
		res.Message = "the Python interpreter crashed: " + trapReason(exitErr)
		if res.MemoryLimitHit {
			res.Message += fmt.Sprintf(" (after reaching the memory limit of %s)", formatBytes(lim.Memory))
		}
		stderr.note("\npybox: " + res.Message + "\n")
	case reported && o.kind == "error", reported && o.kind == "interrupt":
		res.Status, res.ExitCode = StatusError, code
		if code == 0 {
			res.ExitCode = 1
		}
		res.Message = fmt.Sprintf("uncaught %s", o.excType)
		if res.MemoryLimitHit && o.excType == "MemoryError" {
			res.Message += fmt.Sprintf(": the memory limit of %s was reached", formatBytes(lim.Memory))
		}
	case code == 0:
		res.Status, res.ExitCode = StatusOK, 0
	default:
		res.Status, res.ExitCode = StatusExit, code
		res.Message = fmt.Sprintf("exited with status %d", code)
	}
}

// hostPanic reports whether err is a Go panic in a host function (pybox's
// own code, e.g. the filesystem) that wazero recovered and turned into the
// guest's end, as opposed to a trap of the guest's code.
func hostPanic(err error) bool {
	return err != nil && strings.Contains(err.Error(), "(recovered by wazero)")
}

// violationMessage explains the end of an instance whose guest broke the
// runner protocol.
func violationMessage(pe *protocolError) string {
	return "pybox stopped the interpreter: guest code called pybox's internal runner interface out of turn (" + pe.msg + "); the result it reported is discarded"
}

// trapReason turns a wazero error into a short explanation.
func trapReason(err error) string {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "stack overflow"), strings.Contains(msg, "call stack exhausted"):
		return "stack overflow in C code (deep recursion); " + msg
	case strings.Contains(msg, "out of bounds memory access"):
		return "invalid memory access in C code; " + msg
	case strings.Contains(msg, "unreachable"):
		return "the interpreter aborted; " + msg
	case strings.Contains(msg, "uncaught exception"):
		// A wasm exception no handler caught: a C++ exception (or a
		// longjmp) that left the module.
		return "a C++ exception was not caught; " + msg
	}
	return msg
}

func roundDuration(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(100 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(time.Millisecond)
	}
	return d
}

func formatBytes(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
