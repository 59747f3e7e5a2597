package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/packages"
	"github.com/pybox-dev/pybox/runtime"
)

// runFlags are the flags of `pybox run`.
type runFlags struct {
	code      string
	timeout   time.Duration
	memory    byteSize
	output    byteSize
	killAfter time.Duration
	cacheDir  string
	noCache   bool
	quiet     bool
	noFigures bool
	sandbox   sandboxFlags
}

func (f *runFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.code, "c", "", "run this `code` instead of a file")
	durationVar(fs, &f.timeout, "timeout", 0, "stop the code after this wall time (e.g. 2s, 1m); 0 means no limit")
	f.memory = runtime.DefaultMemoryLimit
	fs.Var((*memoryFlag)(&f.memory), "memory", "memory limit for the interpreter (e.g. 256MiB, 1GiB); allocating more raises MemoryError")
	f.output = runtime.DefaultOutputLimit
	fs.Var(&f.output, "output-limit", "cap on stdout+stderr (e.g. 1MiB); output past it is dropped with a marker")
	durationVar(fs, &f.killAfter, "kill-after", runtime.DefaultKillAfter, "after a timeout, how long the code may take to stop on KeyboardInterrupt before it is killed")
	fs.StringVar(&f.cacheDir, "cache-dir", "", "cache directory: the extracted runtime bundle and the compiled interpreter (default $PYBOX_CACHE_DIR or the user cache dir)")
	fs.BoolVar(&f.noCache, "no-cache", false, "do not use the compilation cache")
	fs.BoolVar(&f.quiet, "q", false, "do not show progress while compiling the runtime")
	fs.BoolVar(&f.noFigures, "no-figures", false, "do not save the matplotlib figures open at the end (and at plt.show()) as PNG files in /output")
	f.sandbox.register(fs)
}

const runHelp = `Usage: pybox run [flags] (script.py | -c CODE | -) [args...]

Runs Python 3.11 code in a fresh sandboxed interpreter. Output streams live.
The guest sees only what the policy mounts (--mount, --config), an in-memory
/tmp and /output; files written to /output are listed on stderr afterwards.
The exit status is the Python exit status (sys.exit(n) gives n, an uncaught
exception gives 1), or:
  124  the code timed out (--timeout) and was stopped
  2    bad flags or arguments
  125  pybox itself failed (bundle or cache problems, unreadable script)
  126  the interpreter crashed (a wasm trap, e.g. C stack overflow)
  130  interrupted (Ctrl-C)

Flags:
`

func cmdRun(ctx context.Context, args []string) int {
	// The Go heap of a run is a few MB that start-up allocates at once (the
	// bundle's index, the module's structure): collecting it two or three
	// times on the way cost about a fifth of a warm start's CPU. The
	// guest's memory is not Go heap, so this does not let it grow.
	debug.SetGCPercent(400)
	var f runFlags
	rest, code, ok := parseFlags("run", runHelp, f.register, args)
	if !ok {
		return code
	}
	req, script, err := buildRequest(&f, rest)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pybox run: %v\n", err)
		return 2
	}
	sb, eng, cleanup, code, ok := f.start(ctx, "run")
	if !ok {
		return code
	}
	defer cleanup()
	if script != "" {
		req.Filename = scriptGuestName(sb, script)
	}

	req.Stdout, req.Stderr = os.Stdout, os.Stderr
	req.Limits = runtime.Limits{
		Timeout:   f.timeout,
		Memory:    int64(f.memory),
		Output:    int64(f.output),
		KillAfter: f.killAfter,
	}
	req.FS = sb.FS()
	if !f.noFigures && !f.sandbox.noOutput {
		req.Figures = "/output"
	}
	if err := sb.BeginRun(ctx); err != nil {
		fmt.Fprintf(os.Stderr, "pybox: %v\n", err)
		return runtime.ExitCodeInternal
	}
	res, err := eng.Run(ctx, req)
	if script != "" {
		report(sb, req.Filename)
	} else {
		report(sb)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "pybox: %v\n", err)
		return runtime.ExitCodeInternal
	}
	// Timeouts and crashes are already explained on stderr by the runtime;
	// a MemoryError deserves a pointer to the flag that caused it.
	if res.Status == runtime.StatusError && res.MemoryLimitHit {
		fmt.Fprintf(os.Stderr, "pybox: %s (raise it with --memory)\n", res.Message)
	}
	return res.ExitCode
}

// buildRequest works out which code to run from -c, a file name or "-".
// script is the host path of the script file, if one was given; the
// request's Filename is then left for scriptGuestName to choose.
func buildRequest(f *runFlags, rest []string) (req runtime.Request, script string, err error) {
	switch {
	case f.code != "":
		req.Code, req.Filename, req.Args = f.code, "<string>", rest
		req.Stdin = os.Stdin
	case len(rest) == 0:
		return req, "", errors.New("nothing to run: give a script path, -c CODE, or - to read code from standard input")
	case rest[0] == "-":
		b, err := io.ReadAll(os.Stdin)
		if err != nil {
			return req, "", fmt.Errorf("read code from standard input: %w", err)
		}
		req.Code, req.Filename, req.Args = string(b), "<stdin>", rest[1:]
	default:
		b, err := os.ReadFile(rest[0])
		if err != nil {
			return req, "", fmt.Errorf("read script: %w", err)
		}
		script = rest[0]
		req.Code, req.Filename, req.Args = string(b), script, rest[1:]
		req.Stdin = os.Stdin
	}
	if strings.IndexByte(req.Code, 0) >= 0 {
		return req, "", fmt.Errorf("%s: source code cannot contain NUL bytes", req.Filename)
	}
	return req, script, nil
}

// scriptGuestName is the name the guest sees for the script at host path
// script (in sys.argv[0], __file__ and tracebacks): its guest path if it
// lies in a mounted folder (so that code reading files next to __file__
// works), else "/" and its base name. Never its host path: that names the
// operator's folders (home directory, user name, project layout).
func scriptGuestName(sb *fsbridge.Sandbox, script string) string {
	if g, ok := sb.GuestPath(script); ok {
		return g
	}
	base := filepath.Base(script)
	if base == "." || base == string(filepath.Separator) || base == "" {
		base = "script.py"
	}
	return "/" + base
}

// parseFlags parses a command's flags; when ok is false the command is over
// and code is its exit status (0 for -h).
func parseFlags(name, help string, register func(*flag.FlagSet), args []string) (rest []string, code int, ok bool) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	register(fs)
	if code, ok := parseFlagSet(fs, name, help, args); !ok {
		return nil, code, false
	}
	return fs.Args(), 0, true
}

// start opens the sandbox the flags describe and the engine. cleanup closes
// both; when ok is false the command is over with exit status code.
func (f *runFlags) start(ctx context.Context, cmd string) (sb *fsbridge.Sandbox, eng *runtime.Engine, cleanup func(), code int, ok bool) {
	sb, closeSandbox, err := f.sandbox.openSandbox()
	if err != nil {
		fmt.Fprintf(os.Stderr, "pybox %s: %v\n", cmd, err)
		return nil, nil, nil, 2, false
	}
	eng, err = newEngine(ctx, f.cacheDir, f.noCache, f.quiet, int64(f.memory))
	if err != nil {
		closeSandbox()
		fmt.Fprintf(os.Stderr, "pybox: %v\n", err)
		return nil, nil, nil, runtime.ExitCodeInternal, false
	}
	return sb, eng, func() {
		eng.Close(context.Background())
		closeSandbox()
	}, 0, true
}

// newEngine compiles (or loads from cache) the interpreter, showing progress
// on a terminal during a cold compile. memory is the run's memory limit.
func newEngine(ctx context.Context, cacheDir string, noCache, quiet bool, memory int64) (*runtime.Engine, error) {
	cfg, err := runEngineConfig(cacheDir, noCache, memory)
	if err != nil {
		return nil, err
	}
	return startEngine(ctx, cfg, quiet)
}

// runEngineConfig is the engine configuration of pybox run and repl (and
// of the snapshot pybox setup writes for them). One run (or one session)
// per process: the interpreter starts from a snapshot kept in the cache
// folder, written by the first process (or pybox setup), with numpy
// already imported (runPreload). It also trusts the cached machine code
// without reading it all for its checksum, which would be most of its
// start-up.
func runEngineConfig(cacheDir string, noCache bool, memory int64) (runtime.Config, error) {
	cfg := runtime.Config{CacheDir: cacheDir, NoCache: noCache, PersistSnapshot: true, NoSnapshot: noCache, SkipCodeChecksum: true}
	if dir, err := packages.UserDir(); err == nil {
		cfg.UserPackages = dir // packages added with "pybox packages add"
	}
	b, err := packages.Default()
	if err != nil {
		return cfg, err
	}
	cfg.Bundle = b
	if memory >= preloadMinMemory {
		cfg.Preload = runPreload(b)
	}
	return cfg, nil
}

// runPreload is what the snapshot of run and repl has imported: numpy, if
// the bundle has it. Mapping the snapshot costs a run only the pages it
// touches, so `import numpy` then costs nothing and print(1) no more
// (docs/RATIONALE.md, "A booted interpreter kept in the cache folder").
// pandas and matplotlib are left to the code that imports them. Below a
// --memory of preloadMinMemory the snapshot has nothing imported, so that
// the limit is the code's (numpy's import takes about 4.5 MiB of it).
const preloadMinMemory = 256 << 20

func runPreload(b *packages.Bundle) []string {
	if b == nil {
		return nil
	}
	for _, m := range runtime.AnalysisPreload(b) {
		if m == "numpy" {
			return []string{m}
		}
	}
	return nil
}

// startEngine creates the engine, with a progress spinner on a terminal
// during a cold compile unless quiet.
//
// On a cold cache the compile runs in a detached `pybox setup` (see
// compileDetached), so that it is never lost; should that fail, this
// process compiles.
func startEngine(ctx context.Context, cfg runtime.Config, quiet bool) (*runtime.Engine, error) {
	if err := compileDetached(ctx, &cfg, quiet); err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		fmt.Fprintf(os.Stderr, "pybox: %v; compiling in this process\n", err)
	}
	if !quiet && isTerminal(os.Stderr) {
		cfg.Progress = newSpinner(os.Stderr).progress
	}
	return runtime.NewEngine(ctx, cfg)
}
