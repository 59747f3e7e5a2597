package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/internal/incident"
	"github.com/pybox-dev/pybox/packages"
	"github.com/pybox-dev/pybox/runtime"
)

// Defaults for Config's zero fields.
const (
	// DefaultTimeout bounds an execute_python call that names no timeout.
	DefaultTimeout = 60 * time.Second
	// DefaultMaxTimeout is the longest timeout_s a model may ask for.
	DefaultMaxTimeout = 10 * time.Minute
	// DefaultImageLimit is the largest image returned to the model inline.
	DefaultImageLimit = 4 << 20
	// HelpPath is where the manuals appear in the sandbox.
	HelpPath = "/help"
)

// Config is the operator's side of a Box: everything the model cannot
// choose.
type Config struct {
	// Engine runs the interpreters. Required; the Box does not close it.
	Engine *runtime.Engine
	// Policy is the sandbox: mounts, /output, limits, network fetchers.
	// The Box adds the manuals at /help (read-only) unless NoHelpMount.
	Policy fsbridge.Policy
	// NoHelpMount keeps /help out of the sandbox (the help tool still works).
	NoHelpMount bool
	// Limits bound every execute_python call. Limits.Timeout is the
	// timeout when the model names none (default DefaultTimeout).
	Limits runtime.Limits
	// MaxTimeout caps the timeout_s a model may ask for (default
	// DefaultMaxTimeout).
	MaxTimeout time.Duration
	// Sessions bounds persistent interpreters (execute_python with a
	// session_id): how many, idle timeout, memory. Its FS and Configure
	// are set by the Box: sessions see the Box's sandbox.
	Sessions runtime.SessionsConfig
	// ImageLimit is the largest image (bytes) a result carries inline;
	// bigger ones are listed as files (default DefaultImageLimit).
	ImageLimit int64
	// ResultBudget is how many bytes of program output (stdout, stderr and
	// the final value together) an execute_python result carries (default
	// DefaultResultBudget; negative: no budget). Longer output keeps its
	// head and tail with a marker, and the whole text is saved under
	// /tmp/pybox-output/ in the sandbox, where read_file can page through
	// it. Models have finite contexts: a single huge print must not make a
	// tool result that no request can carry.
	ResultBudget int
	// Stdout and Stderr, if set, receive the guest's output live while
	// execute_python runs (the CLI shows it on the terminal).
	Stdout, Stderr io.Writer
	// UserPackages, if set, is the folder of packages added with `pybox
	// packages add`, listed in the packages manual.
	UserPackages string
	// NoFigures turns off figure capture: by default the matplotlib
	// figures open when execute_python's code ends (and at each
	// plt.show()) are saved as PNG files in /output, where the result
	// returns them as images (see runtime.Request.Figures). Without
	// /output (Policy.NoOutput) figures are never captured.
	NoFigures bool
	// Bundle is the runtime bundle whose packages execute_python's
	// description lists. Nil means the Engine's; Definitions without
	// either (or Packages) says only that numpy and more are installed.
	Bundle *packages.Bundle
	// Packages, if set, is the bundle's package list
	// (packages.BundlePackages) for execute_python's description, in place
	// of reading it from Bundle: packages.DefaultPackages has it without
	// unpacking the bundle, so that a server can list its tools before it.
	Packages []packages.Package
}

// Box is one workspace for a model: a sandbox filesystem, fresh
// interpreters and named sessions over it, and the tools that use them.
//
// Calls on one Box may run at the same time: execute_python calls in one
// session (session_id) run one after another, in order; calls in different
// sessions or in fresh interpreters run concurrently. Each execute_python
// still reports exactly the files its own code wrote and the refusals it
// met (each run gets its own fsbridge.Run over the shared sandbox). Boxes
// can share an Engine; the caller bounds how many calls run at once.
type Box struct {
	cfg      Config
	sb       *fsbridge.Sandbox
	sessions *runtime.Sessions
	tools    []Tool
	nresults atomic.Int64 // execute_python results whose output was cut (names the saved files)
	byName   map[string]Tool
	manuals  map[string][]byte

	mu     sync.RWMutex // calls hold it shared; Close exclusively
	closed bool
}

// New creates a Box and its sandbox. Close it to end its sessions and remove
// its temporary folders.
func New(cfg Config) (*Box, error) {
	if cfg.Engine == nil {
		return nil, errors.New("tools: Config.Engine is required")
	}
	cfg.setDefaults()
	b := &Box{cfg: cfg, manuals: manuals(cfg.Engine, cfg.UserPackages)}
	policy := cfg.Policy
	if !cfg.NoHelpMount {
		policy.Virtual = append(append([]fsbridge.VirtualMount(nil), policy.Virtual...),
			fsbridge.VirtualMount{Guest: HelpPath, Fetcher: helpFetcher(b.manuals)})
	}
	sb, err := fsbridge.New(policy)
	if err != nil {
		return nil, fmt.Errorf("tools: sandbox: %w", err)
	}
	b.sb = sb
	sc := cfg.Sessions
	sc.Configure = nil
	sc.Session.FS = sb.FS()
	b.sessions = cfg.Engine.NewSessions(sc)
	b.defineTools()
	return b, nil
}

// Definitions returns the tools a Box with this configuration offers, for
// their names, descriptions and schemas only (the handlers must not be
// called). It needs no Engine and starts nothing, so printing the schemas
// (pybox tools) or answering an MCP client's tools/list does not wait for
// the interpreter to compile.
func Definitions(cfg Config) []Tool {
	cfg.setDefaults()
	b := &Box{cfg: cfg, manuals: manuals(nil, "")}
	b.defineTools()
	return b.Tools()
}

// defineTools makes the tool list from the configuration.
func (b *Box) defineTools() {
	b.tools = []Tool{
		b.executeTool(),
		b.copyTool(),
		b.lsTool(),
		b.readFileTool(),
		b.writeFileTool(),
		b.describeTool(),
		b.helpTool(),
	}
	b.byName = make(map[string]Tool, len(b.tools))
	for _, t := range b.tools {
		b.byName[t.Name] = t
	}
}

// setDefaults fills in the zero fields of a Config.
func (cfg *Config) setDefaults() {
	if cfg.Limits.Timeout <= 0 {
		cfg.Limits.Timeout = DefaultTimeout
	}
	if cfg.MaxTimeout <= 0 {
		cfg.MaxTimeout = DefaultMaxTimeout
	}
	if cfg.Limits.Timeout > cfg.MaxTimeout {
		cfg.MaxTimeout = cfg.Limits.Timeout
	}
	if cfg.ImageLimit <= 0 {
		cfg.ImageLimit = DefaultImageLimit
	}
	if cfg.ResultBudget == 0 {
		cfg.ResultBudget = DefaultResultBudget
	}
}

// Tools returns every tool, in a stable order.
func (b *Box) Tools() []Tool { return append([]Tool(nil), b.tools...) }

// Tool returns the tool with this name.
func (b *Box) Tool(name string) (Tool, bool) {
	t, ok := b.byName[name]
	return t, ok
}

// Sandbox returns the Box's sandbox, e.g. to read artifacts for download.
func (b *Box) Sandbox() *fsbridge.Sandbox { return b.sb }

// Sessions returns the Box's persistent interpreters.
func (b *Box) Sessions() *runtime.Sessions { return b.sessions }

// Call runs the named tool. An unknown name is the model's mistake, so it is
// a Result with IsError that lists the tools; the error is reserved for
// pybox failing.
//
// A Go panic in a tool is recovered and returned as an error wrapping an
// *incident.Panic (its message is the panic value only; the stack is in
// the error for the operator's log): one bad call must not take a server
// down, nor show its stack to a model.
func (b *Box) Call(ctx context.Context, name string, args json.RawMessage) (res *Result, err error) {
	defer func() {
		if p := incident.Recovered(recover()); p != nil {
			res, err = nil, fmt.Errorf("tool %s: %w", name, p)
		}
	}()
	t, ok := b.byName[name]
	if !ok {
		names := make([]string, 0, len(b.byName))
		for n := range b.byName {
			names = append(names, n)
		}
		sort.Strings(names)
		return errorResult("There is no tool named %q. The tools are: %v.", name, names), nil
	}
	return t.Handle(ctx, args)
}

// lock registers a call (release it with b.mu.RUnlock), so that Close
// waits for it; it fails once the Box is closed.
func (b *Box) lock() error {
	b.mu.RLock()
	if b.closed {
		b.mu.RUnlock()
		return errors.New("tools: the workspace is closed")
	}
	return nil
}

// Close ends the Box's sessions and closes its sandbox. Calls in progress
// finish first.
func (b *Box) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil
	}
	b.closed = true
	b.sessions.Close()
	return b.sb.Close()
}

// Policy returns the sandbox policy the Box was made with (without the
// /help mount it adds), e.g. to know which folders are writable.
func (b *Box) Policy() fsbridge.Policy { return b.cfg.Policy }
