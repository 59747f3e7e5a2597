package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/pybox-dev/pybox/packages"
	"github.com/pybox-dev/pybox/runtime"
)

const setupHelp = `Usage: pybox setup [flags]

Compiles the Python runtime into the compilation cache, so that the first
pybox run, repl, mcp, serve or agent starts without compiling (a fraction
of a second instead of half a minute or more), and writes the booted
interpreters that pybox run and repl, and serve, mcp and agent (with numpy,
pandas and matplotlib imported) start from. Installers, package
builds and container images run it once; a user never has to (the first run
does the same, in a process of its own that carries on if that run is
stopped). With a compile already under way (another pybox's first run), it
waits for that one. Exits 0 when the cache holds the runtime.

Flags:
`

// compileLockName is the file in the cache folder that one compile at a
// time holds locked (pybox setup, and the first runs that start it).
const compileLockName = "compile.lock"

// setupMemoryLimit is the Go runtime's soft memory limit while pybox setup
// compiles (the compiled code, ~180 MB, is mapped apart and not counted).
const setupMemoryLimit = 640 << 20

// compileLogName is where the background compile of a first run writes.
const compileLogName = "compile.log"

func cmdSetup(ctx context.Context, args []string) int {
	var cacheDir string
	var quiet, snapshot, background bool
	_, code, ok := parseFlags("setup", setupHelp, func(fs *flag.FlagSet) {
		fs.StringVar(&cacheDir, "cache-dir", "", "cache directory: the extracted runtime bundle and the compiled interpreter (default $PYBOX_CACHE_DIR or the user cache dir)")
		fs.BoolVar(&quiet, "q", false, "print nothing on success")
		fs.BoolVar(&snapshot, "snapshot", true, "also write the booted interpreters pybox run and repl (with their default --memory), and serve, mcp and agent (with their default preloads) start from")
		fs.BoolVar(&background, "background", false, "run at the lowest CPU priority (a first run that compiles as it goes starts it so)")
	}, args)
	if !ok {
		return code
	}
	if background {
		lowerPriority()
	}
	if cacheDir == "" {
		var err error
		if cacheDir, err = runtime.DefaultCacheDir(); err != nil {
			fmt.Fprintf(os.Stderr, "pybox setup: %v\n", err)
			return runtime.ExitCodeInternal
		}
	}
	b, err := packages.Default()
	if err != nil {
		fmt.Fprintf(os.Stderr, "pybox setup: %v\n", err)
		return runtime.ExitCodeInternal
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		fmt.Fprintf(os.Stderr, "pybox setup: create the cache folder: %v\n", err)
		return runtime.ExitCodeInternal
	}
	unlock, err := lockFile(ctx, filepath.Join(cacheDir, compileLockName))
	if err != nil {
		fmt.Fprintf(os.Stderr, "pybox setup: %v\n", err)
		return runtime.ExitCodeInternal
	}
	defer unlock()
	if done, err := runtime.Compiled(cacheDir, b); err != nil {
		fmt.Fprintf(os.Stderr, "pybox setup: %v\n", err)
		return runtime.ExitCodeInternal
	} else if done {
		if err := writeSnapshots(ctx, cacheDir, snapshot && !background, snapshot, quiet); err != nil {
			fmt.Fprintf(os.Stderr, "pybox setup: %v\n", err)
			return runtime.ExitCodeInternal
		}
		if !quiet {
			fmt.Printf("pybox setup: the Python runtime (bundle %s) is already compiled in %s\n", b.ID[:12], cacheDir)
		}
		return 0
	}
	// Most of what the compile allocates is garbage soon after (each
	// function's compiler state); with the default GOGC the heap grew to
	// twice what stays live before each collection. A soft limit keeps it
	// smaller at a small cost in collections (docs/RATIONALE.md, "A fork
	// of wazero", item 14). GOMEMLIMIT, when set, is left as it is.
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(setupMemoryLimit)
	}
	cfg := runtime.Config{Bundle: b, CacheDir: cacheDir, NoSnapshot: true}
	if !quiet && isTerminal(os.Stderr) {
		cfg.Progress = newSpinner(os.Stderr).progress
	}
	start := time.Now()
	eng, err := runtime.NewEngine(ctx, cfg)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pybox setup: %v\n", err)
		return runtime.ExitCodeInternal
	}
	eng.Close(context.Background())
	took := time.Since(start)
	// The compile's garbage (hundreds of MB the Go heap keeps for reuse)
	// would otherwise stay resident under the snapshots' engines.
	debug.FreeOSMemory()
	if err := writeSnapshots(ctx, cacheDir, snapshot && !background, snapshot, quiet); err != nil {
		fmt.Fprintf(os.Stderr, "pybox setup: %v\n", err)
		return runtime.ExitCodeInternal
	}
	if !quiet {
		fmt.Printf("pybox setup: compiled the Python runtime (bundle %s) in %.1f s into %s\n", b.ID[:12], took.Seconds(), cacheDir)
	}
	return 0
}

// writeSnapshots writes the booted-interpreter snapshots into the cache
// folder: with run, the one pybox run and repl start from (runEngineConfig
// with the default --memory; without it the first pybox run after setup
// would boot, 0.1 to 0.4 s more); with serve, the one serve, mcp and agent
// start from (serveEngineConfig with the default preloads; without it the
// first of them would boot and import numpy, pandas and matplotlib before
// its first call, a second or more). The background compile of a first run
// writes only run's: that user may never start a server.
func writeSnapshots(ctx context.Context, cacheDir string, serve, run, quiet bool) error {
	if run {
		cfg, err := runEngineConfig(cacheDir, false, runtime.DefaultMemoryLimit)
		if err != nil {
			return err
		}
		if err := writeSnapshot(ctx, cfg, "pybox run starts from", quiet); err != nil {
			return err
		}
		debug.FreeOSMemory() // that engine's memory, before the next one's

	}
	if serve {
		cfg := serveEngineConfig(cacheDir, false, true, nil)
		if err := writeSnapshot(ctx, cfg, "serve, mcp and agent start from", quiet); err != nil {
			return err
		}
	}
	return nil
}

// writeSnapshot writes the snapshot of an engine with configuration cfg
// (PersistSnapshot) unless it is in the cache folder already: the engine's
// first run boots the interpreter and persists it. who says which commands
// start from it, for the progress line.
func writeSnapshot(ctx context.Context, cfg runtime.Config, who string, quiet bool) error {
	eng, err := runtime.NewEngine(ctx, cfg)
	if err != nil {
		return fmt.Errorf("write the snapshot of a booted interpreter: %w", err)
	}
	defer eng.Close(context.Background())
	if path, ok := eng.SnapshotFile(); !ok {
		return nil // nothing to persist (a bundle whose checksum is unknown)
	} else if _, err := os.Stat(path); err == nil {
		return nil
	}
	if !quiet && isTerminal(os.Stderr) {
		sp := newSpinner(os.Stderr)
		sp.progress("booting the Python runtime once for the snapshot " + who)
		defer sp.progress("")
	}
	res, err := eng.Run(ctx, runtime.Request{Code: "pass"})
	if err == nil && res.Status != runtime.StatusOK {
		err = fmt.Errorf("%s: %s", res.Status, res.Message)
	}
	if err != nil {
		return fmt.Errorf("write the snapshot of a booted interpreter: %w", err)
	}
	if s := eng.Snapshot(); s.Err != nil {
		return fmt.Errorf("write the snapshot of a booted interpreter: %w", s.Err)
	}
	return nil
}

// compileDetached makes sure the cache holds the interpreter before
// NewEngine runs: on a cold cache it runs `pybox setup` as a process of
// its own (its own session, so a signal to this process or its group does
// not reach it) and waits for it. The compile takes a minute or more on a
// busy machine and gigabytes of memory; done by a process that an impatient
// client kills, it would be lost and the next start would begin again. The
// detached compile finishes and installs the cache whatever happens to the
// process that started it. It sets cfg.Bundle (loaded once for both).
// Where lazyFirstRun, it does not wait: it starts the compile at the
// lowest priority and sets cfg.LazyCompile, so that this process compiles
// only what it calls, as it calls it.
//
// An error means the cache is still cold: the caller compiles in-process.
// When ctx ends first, the compile carries on without this process.
func compileDetached(ctx context.Context, cfg *runtime.Config, quiet bool) error {
	if cfg.NoCache {
		return nil
	}
	if cfg.Bundle == nil {
		b, err := packages.Default()
		if err != nil {
			return err
		}
		cfg.Bundle = b
	}
	cacheDir := cfg.CacheDir
	if cacheDir == "" {
		var err error
		if cacheDir, err = runtime.DefaultCacheDir(); err != nil {
			return err
		}
	}
	if done, err := runtime.Compiled(cacheDir, cfg.Bundle); err != nil || done {
		return err
	}
	// Stopped while the bundle was unpacked (a server whose client hung
	// up at once): the next start compiles, not a process nobody waits for.
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("stopped before the runtime was compiled: %w", err)
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("start the background compile: %w", err)
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return fmt.Errorf("create the cache folder: %w", err)
	}
	logPath := filepath.Join(cacheDir, compileLogName)
	logf, err := os.Create(logPath)
	if err != nil {
		return fmt.Errorf("start the background compile: %w", err)
	}
	defer logf.Close()
	// The snapshot only when the caller starts from it (pybox run, repl);
	// serve and mcp take theirs in memory.
	args := []string{"setup", "-q", "-snapshot=" + strconv.FormatBool(cfg.PersistSnapshot), "-cache-dir", cacheDir}
	lazy := lazyFirstRun()
	if lazy {
		args = append(args, "-background")
	}
	cmd := exec.Command(exe, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start the background compile: %w", err)
	}
	if lazy {
		// This process compiles what it calls as it runs; the whole
		// compile, at the lowest priority so that it leaves the cores to
		// this run, installs the cache for the next ones.
		cfg.LazyCompile = true
		go cmd.Wait() // Reaped if this process lives longer (serve, mcp).
		if !quiet && !isTerminal(os.Stderr) {
			fmt.Fprintf(os.Stderr, "pybox: compiling the Python runtime as it runs (first run only), and whole in the background in %s, process %d; `pybox setup` does this ahead of time\n", cacheDir, cmd.Process.Pid)
		}
		return nil
	}
	if !quiet {
		msg := "compiling the Python runtime (first run only; it carries on if this process stops)"
		if isTerminal(os.Stderr) {
			sp := newSpinner(os.Stderr)
			sp.progress(msg)
			defer sp.progress("")
		} else {
			fmt.Fprintf(os.Stderr, "pybox: %s in %s, process %d; `pybox setup` does this ahead of time\n", msg, cacheDir, cmd.Process.Pid)
		}
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err := <-waited:
		if err != nil {
			out, _ := os.ReadFile(logPath)
			return fmt.Errorf("the background compile failed (%v): %s", err, strings.TrimSpace(string(lastLines(out, 5))))
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("stopped while the runtime compiles (the compile goes on: process %d): %w", cmd.Process.Pid, ctx.Err())
	}
}

// lazyFirstRun reports whether a first run compiles python.wasm as it runs
// (runtime.Config.LazyCompile) instead of waiting for the whole compile:
// where the engine supports it, unless PYBOX_LAZY_COMPILE=0.
func lazyFirstRun() bool {
	return runtime.LazyCompileSupported() && os.Getenv("PYBOX_LAZY_COMPILE") != "0"
}

// lastLines returns the last n lines of b.
func lastLines(b []byte, n int) []byte {
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return bytes.Join(lines, []byte("\n"))
}
