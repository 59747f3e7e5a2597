package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/pybox-dev/pybox/agent/serve"
	"github.com/pybox-dev/pybox/agent/tools"
	"github.com/pybox-dev/pybox/assets"
	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/packages"
	"github.com/pybox-dev/pybox/runtime"
)

// serveFlags are the flags of `pybox serve` and `pybox mcp`.
type serveFlags struct {
	addr          string
	token         string
	tokenFile     string
	timeout       time.Duration
	maxTimeout    time.Duration
	memory        byteSize
	output        byteSize
	resultBudget  byteSize
	toolPrefix    string
	strict        bool
	killAfter     time.Duration
	maxSessions   int
	idleTimeout   time.Duration
	maxWorkspaces int
	maxConcurrent int
	queue         int
	queueTimeout  time.Duration
	maxRequest    byteSize
	grace         time.Duration
	warmPool      int
	cacheDir      string
	noCache       bool
	quiet         bool
	noFigures     bool
	noPreload     bool
	preload       moduleList
	sandbox       sandboxFlags

	// start prepares the engine in the background (nil: startEngine);
	// tests put a step they control in its place.
	start func(ctx context.Context, rc runtime.Config, quiet bool) (*runtime.Engine, error)
}

func (f *serveFlags) register(fs *flag.FlagSet, http bool) {
	if http {
		fs.StringVar(&f.addr, "addr", serve.DefaultAddr, "listen `address`; a non-loopback address needs a token")
		fs.StringVar(&f.token, "token", "", "bearer `token` clients must send (visible in ps: prefer PYBOX_TOKEN or --token-file)")
		fs.StringVar(&f.tokenFile, "token-file", "", "read the bearer token from this `file`")
		fs.IntVar(&f.maxWorkspaces, "max-workspaces", serve.DefaultMaxWorkspaces, "most workspaces open at once")
		f.maxRequest = serve.DefaultMaxRequestBytes
		fs.Var(&f.maxRequest, "max-request-size", "largest request body (e.g. 16MiB); bigger ones get 413")
		fs.IntVar(&f.warmPool, "warm-pool", 2, "fresh interpreters kept booted ahead (each costs ~25 MB while waiting)")
	}
	durationVar(fs, &f.timeout, "timeout", tools.DefaultTimeout, "execute_python's time limit when the model names none")
	durationVar(fs, &f.maxTimeout, "max-timeout", tools.DefaultMaxTimeout, "the longest timeout_s a model may ask for")
	f.memory = runtime.DefaultMemoryLimit
	fs.Var((*memoryFlag)(&f.memory), "memory", "memory limit per interpreter (e.g. 512MiB)")
	f.output = runtime.DefaultOutputLimit
	fs.Var(&f.output, "output-limit", "cap on stdout+stderr per call (e.g. 1MiB)")
	f.resultBudget = tools.DefaultResultBudget
	fs.Var(&f.resultBudget, "result-budget", "output of a call put in its result (head and tail kept, the rest saved in /tmp/pybox-output)")
	fs.StringVar(&f.toolPrefix, "tool-prefix", "", "put this `prefix` before every tool name (e.g. pybox_), for clients that refuse two servers with a tool of the same name")
	fs.BoolVar(&f.strict, "strict-schemas", false, "tool schemas valid for OpenAI strict mode (every property required, optional ones nullable)")
	durationVar(fs, &f.killAfter, "kill-after", runtime.DefaultKillAfter, "how long interrupted code may take to stop before it is killed")
	fs.IntVar(&f.maxSessions, "max-sessions", 16, "interpreter sessions (session_id) per workspace")
	durationVar(fs, &f.idleTimeout, "idle-timeout", serve.DefaultIdleTimeout, "close workspaces and sessions unused for this long")
	fs.IntVar(&f.maxConcurrent, "max-concurrent", serve.DefaultMaxConcurrent(), "tool calls run at once; more wait in the queue")
	fs.IntVar(&f.queue, "queue", serve.DefaultQueue, "tool calls that may wait for a slot; past it calls are refused as busy")
	durationVar(fs, &f.queueTimeout, "queue-timeout", serve.DefaultQueueTimeout, "how long a call may wait for a slot before it is refused as busy")
	durationVar(fs, &f.grace, "grace", serve.DefaultGrace, "on SIGINT/SIGTERM, how long running code may finish before it is interrupted")
	fs.StringVar(&f.cacheDir, "cache-dir", "", "cache directory: the extracted runtime bundle and the compiled interpreter (default $PYBOX_CACHE_DIR or the user cache dir)")
	fs.BoolVar(&f.noCache, "no-cache", false, "do not use the compilation cache")
	fs.BoolVar(&f.quiet, "q", false, "log only warnings and errors")
	fs.BoolVar(&f.noFigures, "no-figures", false, "do not save the matplotlib figures open at the end of each execute_python call (and at plt.show()) as PNG files in /output")
	fs.BoolVar(&f.noPreload, "no-preload", false, "do not import numpy, pandas and matplotlib into every interpreter ahead of its call (saves ~30 MB of the --memory each interpreter starts with)")
	fs.Var(&f.preload, "preload", preloadUsage)
	f.sandbox.register(fs)
}

// applyFile fills the flags the command line did not set from the [serve]
// section of the --config file.
func (f *serveFlags) applyFile(set map[string]bool) error {
	if f.sandbox.config == "" {
		return nil
	}
	c, err := serve.LoadFileConfig(f.sandbox.config)
	if err != nil {
		return err
	}
	str := func(name string, dst *string, v string) {
		if !set[name] && v != "" {
			*dst = v
		}
	}
	num := func(name string, dst *int, v int) {
		if !set[name] && v != 0 {
			*dst = v
		}
	}
	dur := func(name string, dst *time.Duration, v serve.Duration) {
		if !set[name] && v != 0 {
			*dst = time.Duration(v)
		}
	}
	size := func(name string, dst *byteSize, v int64) {
		if !set[name] && v != 0 {
			*dst = byteSize(v)
		}
	}
	str("addr", &f.addr, c.Addr)
	str("token-file", &f.tokenFile, c.TokenFile)
	if c.Token != "" && !set["token"] {
		f.token = c.Token
	}
	num("max-concurrent", &f.maxConcurrent, c.MaxConcurrent)
	num("queue", &f.queue, c.Queue)
	dur("queue-timeout", &f.queueTimeout, c.QueueTimeout)
	size("max-request-size", &f.maxRequest, int64(c.MaxRequestSize))
	dur("idle-timeout", &f.idleTimeout, c.IdleTimeout)
	num("max-workspaces", &f.maxWorkspaces, c.MaxWorkspaces)
	dur("grace", &f.grace, c.Grace)
	num("warm-pool", &f.warmPool, c.WarmPool)
	dur("timeout", &f.timeout, c.Timeout)
	dur("max-timeout", &f.maxTimeout, c.MaxTimeout)
	size("memory", &f.memory, int64(c.Memory))
	size("result-budget", &f.resultBudget, int64(c.ResultBudget))
	str("tool-prefix", &f.toolPrefix, c.ToolPrefix)
	if c.StrictSchemas && !set["strict-schemas"] {
		f.strict = true
	}
	num("max-sessions", &f.maxSessions, c.MaxSessions)
	if c.NoFigures && !set["no-figures"] {
		f.noFigures = true
	}
	if c.NoPreload && !set["no-preload"] {
		f.noPreload = true
	}
	if !set["preload"] {
		for _, m := range c.Preload {
			if err := f.preload.Set(m); err != nil {
				return fmt.Errorf("%s: preload: %w", f.sandbox.config, err)
			}
		}
	}
	return nil
}

// resolveToken picks the token: --token, then --token-file, then
// $PYBOX_TOKEN, then the config file's token_file or token.
func (f *serveFlags) resolveToken(set map[string]bool) (string, error) {
	if set["token"] && f.token != "" {
		return f.token, nil
	}
	if set["token-file"] && f.tokenFile != "" {
		return readToken(f.tokenFile)
	}
	if t := strings.TrimSpace(os.Getenv("PYBOX_TOKEN")); t != "" {
		return t, nil
	}
	if f.tokenFile != "" {
		return readToken(f.tokenFile)
	}
	return f.token, nil
}

func readToken(file string) (string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	t := strings.TrimSpace(string(b))
	if t == "" {
		return "", fmt.Errorf("token file %s is empty", file)
	}
	return t, nil
}

// parse parses the flags and the config file.
func (f *serveFlags) parse(name, help string, args []string, http bool) (code int, ok bool) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	f.register(fs, http)
	if code, ok := parseFlagSet(fs, name, help, args); !ok {
		return code, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "pybox %s: unexpected arguments %q\n", name, fs.Args())
		return 2, false
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if err := f.applyFile(set); err != nil {
		fmt.Fprintf(os.Stderr, "pybox %s: %v\n", name, err)
		return 2, false
	}
	if http {
		t, err := f.resolveToken(set)
		if err != nil {
			fmt.Fprintf(os.Stderr, "pybox %s: %v\n", name, err)
			return 2, false
		}
		f.token = t
	}
	return 0, true
}

// server starts the engine and builds the Server. cleanup closes both.
func (f *serveFlags) server(ctx context.Context, name string, logger *slog.Logger) (*serve.Server, func(), error) {
	policy, err := f.sandbox.policy()
	if err != nil {
		return nil, nil, err
	}
	// Failed fetches reach the guest without their URL; the operator's
	// log gets the detail.
	for _, v := range policy.Virtual {
		if h, ok := v.Fetcher.(*fsbridge.HTTPFetcher); ok && h.Logger == nil {
			h.Logger = logger
		}
	}
	// Interpreters start from a snapshot with numpy, pandas and
	// matplotlib.pyplot imported (those the bundle has).
	rc := serveEngineConfig(f.cacheDir, f.noCache, !f.noPreload, f.preload)
	rc.WarmPool, rc.Logger = f.warmPool, logger
	userDir := rc.UserPackages
	// The interpreter compiles in the background (seconds with an empty
	// cache): the server answers initialize, tools/list and health checks
	// meanwhile, and tool calls wait for it. A client that gives a server a
	// few seconds to start (the OpenAI Agents SDK: 5 s) is not cut off by
	// the first compile.
	start := f.start
	if start == nil {
		start = startEngine
	}
	// The tools' descriptions list the bundle's packages before the
	// engine is ready, from the list embedded beside the bundle: on an
	// empty cache folder the bundle is unpacked (5,190 files) in the
	// background with the compile.
	pkgs, err := packages.DefaultPackages()
	if err != nil {
		return nil, nil, err
	}
	eng := newEngineStarter(ctx, rc, f.quiet, logger, start)
	s, err := serve.New(serve.Config{
		EngineReady: eng.wait,
		Box: tools.Config{
			Policy:       policy,
			Limits:       runtime.Limits{Timeout: f.timeout, Memory: int64(f.memory), Output: int64(f.output), KillAfter: f.killAfter},
			MaxTimeout:   f.maxTimeout,
			Sessions:     runtime.SessionsConfig{Max: f.maxSessions, IdleTimeout: f.idleTimeout, Session: runtime.SessionConfig{Memory: int64(f.memory)}},
			UserPackages: userDir,
			ResultBudget: int(f.resultBudget),
			NoFigures:    f.noFigures,
			Packages:     pkgs,
		},
		ToolPrefix:      f.toolPrefix,
		StrictSchemas:   f.strict,
		Token:           f.token,
		MaxConcurrent:   f.maxConcurrent,
		MaxQueue:        f.queue,
		QueueTimeout:    f.queueTimeout,
		MaxRequestBytes: int64(f.maxRequest),
		IdleTimeout:     f.idleTimeout,
		MaxWorkspaces:   f.maxWorkspaces,
		Grace:           f.grace,
		Logger:          logger,
		Version:         version,
	})
	if err != nil {
		eng.close()
		return nil, nil, err
	}
	return s, func() {
		s.Close()
		eng.close()
	}, nil
}

// serveEngineConfig is the engine configuration of serve, mcp and agent:
// interpreters start from a snapshot with numpy, pandas and
// matplotlib.pyplot imported (analysis; those the bundle has) and then the
// preload modules (after those: they may import them), and see the user's
// added packages. The snapshot is kept in the cache folder, so that only the
// first such process boots CPython and imports them (MCP clients start
// `pybox mcp` for every conversation); pybox setup writes it ahead.
func serveEngineConfig(cacheDir string, noCache, analysis bool, preload []string) runtime.Config {
	rc := runtime.Config{CacheDir: cacheDir, NoCache: noCache, PreloadAnalysis: analysis, Preload: preload, PersistSnapshot: true}
	if dir, err := packages.UserDir(); err == nil {
		rc.UserPackages = dir
	}
	return rc
}

// engineStarter prepares the engine in the background (on an empty cache
// folder: unpack the bundle, compile, boot the snapshot) and hands it, or
// the error that stopped it, to whoever waits for it.
type engineStarter struct {
	done   chan struct{}
	eng    *runtime.Engine
	err    error
	cancel context.CancelFunc
}

func newEngineStarter(ctx context.Context, rc runtime.Config, quiet bool, logger *slog.Logger,
	start func(context.Context, runtime.Config, bool) (*runtime.Engine, error)) *engineStarter {
	ctx, cancel := context.WithCancel(ctx)
	e := &engineStarter{done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(e.done)
		began := time.Now()
		e.eng, e.err = start(ctx, rc, quiet)
		if e.err != nil && ctx.Err() == nil {
			logger.Error("the Python runtime could not be started; tool calls will fail", "error", e.err)
		} else if e.err == nil {
			logger.Info("Python runtime ready", "took", time.Since(began).Round(time.Millisecond))
		}
	}()
	return e
}

// wait returns the engine once it is compiled (serve.Config.EngineReady).
func (e *engineStarter) wait(ctx context.Context) (*runtime.Engine, error) {
	select {
	case <-e.done:
		return e.eng, e.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// close stops a compile still running and closes the engine.
func (e *engineStarter) close() {
	e.cancel()
	<-e.done
	if e.eng != nil {
		e.eng.Close(context.Background())
	}
}

func (f *serveFlags) logger() *slog.Logger {
	level := slog.LevelInfo
	if f.quiet {
		level = slog.LevelWarn
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
}

// onSignal restores the default signal behaviour once the first signal has
// started a graceful shutdown, so that a second Ctrl-C ends the process.
func onSignal(ctx context.Context, msg string) {
	go func() {
		<-ctx.Done()
		signal.Reset(os.Interrupt, syscall.SIGTERM)
		fmt.Fprintln(os.Stderr, msg)
	}()
}

const serveHelp = `Usage: pybox serve [flags]

Serves the sandbox's tools (execute_python, copy_to_sandbox, ls, read_file,
write_file, describe, help) over HTTP:
  /mcp           MCP, streamable HTTP transport (one workspace per MCP session)
  /v1/...        a JSON API: POST /v1/execute, POST /v1/tools/{name},
                 workspaces, sessions, file download (see /openapi.json)
Listens on 127.0.0.1:8765 by default. A bearer token (PYBOX_TOKEN, --token-file,
or token_file in the [serve] section of --config) is required on other
addresses. Calls beyond --max-concurrent wait in a queue (--queue,
--queue-timeout) and are refused as busy (429, Retry-After) past it.
SIGINT/SIGTERM: stop accepting, let running code finish for --grace, then
interrupt it, then exit.

Flags (the [serve] section of --config sets the same, flags win):
`

func cmdServe(ctx context.Context, args []string) int {
	var f serveFlags
	if code, ok := f.parse("serve", serveHelp, args, true); !ok {
		return code
	}
	if err := serve.CheckAddr(f.addr, f.token != ""); err != nil {
		fmt.Fprintf(os.Stderr, "pybox serve: %v\n", err)
		return 2
	}
	logger := f.logger()
	s, cleanup, err := f.server(ctx, "serve", logger)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pybox serve: %v\n", err)
		return runtime.ExitCodeInternal
	}
	defer cleanup()
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pybox serve: %v\n", err)
		return 2
	}
	auth := "no token (loopback only)"
	if f.token != "" {
		auth = "bearer token required"
	}
	fmt.Fprintf(os.Stderr, "pybox serve: listening on http://%s (MCP at /mcp, API at /v1, /openapi.json); %s\n", ln.Addr(), auth)
	onSignal(ctx, fmt.Sprintf("pybox serve: shutting down: running code has %s to finish (Ctrl-C again to exit now)", f.grace))
	if err := s.Serve(ctx, ln); err != nil {
		fmt.Fprintf(os.Stderr, "pybox serve: %v\n", err)
		return 1
	}
	return 0
}

const mcpHelp = `Usage: pybox mcp [flags]

Serves the sandbox's tools over MCP on standard input and output (the stdio
transport), for MCP clients that start pybox themselves: the OpenAI Agents SDK
(MCPServerStdio), tiny-agents, Claude Desktop. One workspace for the
connection: files and sessions (session_id) last until the client hangs up.
Logs go to standard error.

Flags (the [serve] section of --config sets the same, flags win):
`

func cmdMCP(ctx context.Context, args []string) int {
	var f serveFlags
	if code, ok := f.parse("mcp", mcpHelp, args, false); !ok {
		return code
	}
	f.quiet = true // stderr is often shown to the user by MCP clients
	s, cleanup, err := f.server(ctx, "mcp", f.logger())
	if err != nil {
		fmt.Fprintf(os.Stderr, "pybox mcp: %v\n", err)
		return runtime.ExitCodeInternal
	}
	defer cleanup()
	onSignal(ctx, "pybox mcp: shutting down")
	if err := s.ServeStdio(ctx, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "pybox mcp: %v\n", err)
		return 1
	}
	return 0
}

const toolsHelp = `Usage: pybox tools [--format openai|mcp|json]

Prints the tool definitions the model sees, as JSON:
  openai  Chat Completions "tools" entries ({"type":"function","function":{...}})
  mcp     MCP tools/list entries (name, description, inputSchema)
  json    name, description, parameters

Flags:
`

func cmdTools(ctx context.Context, args []string) int {
	var format string
	var f serveFlags
	fs := flag.NewFlagSet("tools", flag.ContinueOnError)
	fs.StringVar(&format, "format", "openai", "output `format`: openai, mcp or json")
	f.register(fs, false)
	fs.BoolVar(&f.strict, "strict", false, "same as --strict-schemas")
	if code, ok := parseFlagSet(fs, "tools", toolsHelp, args); !ok {
		return code
	}
	if format != "openai" && format != "mcp" && format != "json" {
		fmt.Fprintf(os.Stderr, "pybox tools: unknown format %q: use openai, mcp or json\n", format)
		return 2
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if err := f.applyFile(set); err != nil {
		fmt.Fprintf(os.Stderr, "pybox tools: %v\n", err)
		return 2
	}
	// The schemas depend on the settings and the bundle's package list
	// only: nothing is compiled or started, and nothing is written to the
	// cache, to print them.
	defs := serve.Definitions(serve.Config{
		Box: tools.Config{Limits: runtime.Limits{Timeout: f.timeout}, MaxTimeout: f.maxTimeout, ResultBudget: int(f.resultBudget),
			NoFigures: f.noFigures, Packages: toolsPackages()},
		ToolPrefix:    f.toolPrefix,
		StrictSchemas: f.strict,
	})
	var out []any
	for _, t := range defs {
		switch format {
		case "openai":
			out = append(out, t.OpenAI())
		case "mcp":
			out = append(out, map[string]any{"name": t.Name, "description": t.Description, "inputSchema": t.Parameters})
		default:
			out = append(out, serve.ToolInfo{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
		}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		fmt.Fprintf(os.Stderr, "pybox tools: %v\n", err)
		return 1
	}
	return 0
}

// toolsPackages is the bundle's package list for pybox tools: the one
// embedded beside the bundle, or, with $PYBOX_BUNDLE, read from that bundle
// decoded into memory (memoryBundle); nil if neither can be had.
func toolsPackages() []packages.Package {
	if os.Getenv(packages.BundleEnv) == "" {
		if pkgs, err := packages.EmbeddedPackages(); err == nil {
			return pkgs
		}
	}
	if b := memoryBundle(); b != nil {
		return packages.BundlePackages(b)
	}
	return nil
}

// memoryBundle decodes the runtime bundle (PYBOX_BUNDLE's, else the
// embedded one) into memory, without the cache packages.Default uses; nil
// if it cannot be read (the tool descriptions then list fewer packages).
func memoryBundle() *packages.Bundle {
	if p := os.Getenv(packages.BundleEnv); p != "" {
		b, _ := packages.Open(p)
		return b
	}
	b, _ := packages.Decode(bytes.NewReader(assets.Runtime))
	return b
}
