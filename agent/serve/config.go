package serve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/pybox-dev/pybox/agent/tools"
	"github.com/pybox-dev/pybox/fsbridge"
	pyruntime "github.com/pybox-dev/pybox/runtime"
)

// Defaults for Config's zero fields.
const (
	// DefaultAddr is where `pybox serve` listens: loopback only.
	DefaultAddr = "127.0.0.1:8765"
	// DefaultQueue is how many tool calls may wait for a free slot.
	DefaultQueue = 256
	// DefaultQueueTimeout is how long a call may wait for a slot before it
	// is answered "busy".
	DefaultQueueTimeout = 30 * time.Second
	// DefaultMaxRequestBytes caps a request body (MCP or HTTP API).
	DefaultMaxRequestBytes = 16 << 20
	// DefaultIdleTimeout closes a workspace unused for this long.
	DefaultIdleTimeout = 30 * time.Minute
	// DefaultMaxWorkspaces is the most workspaces open at once.
	DefaultMaxWorkspaces = 256
	// DefaultGrace is how long running code may go on after a shutdown
	// begins before it is interrupted.
	DefaultGrace = 30 * time.Second
)

// DefaultMaxConcurrent is the default number of tool calls run at once:
// two per CPU (interpreters spend part of their time waiting on files and
// the host), at least 2.
func DefaultMaxConcurrent() int { return max(2, 2*runtime.GOMAXPROCS(0)) }

// Config is the operator's side of a Server. Nothing here is visible to the
// model.
type Config struct {
	// Box is the template of every workspace: Engine (shared by all
	// workspaces; or see EngineReady), Policy, Limits, MaxTimeout,
	// Sessions, ImageLimit.
	// Stdout and Stderr are ignored. Each workspace gets its own /output:
	// a temporary folder, or a subfolder named after the workspace id when
	// Policy.Output is set; copy-on-write mounts with an Upper folder get
	// a subfolder per workspace the same way.
	Box tools.Config

	// EngineReady, used when Box.Engine is nil, returns the engine once it
	// can run code (it is called for every new workspace and must return
	// the same engine each time). Until then the server answers everything
	// that runs no code (MCP initialize, tools/list, /healthz, the tool
	// schemas) at once, and the first tool call waits: pybox mcp and serve
	// compile the interpreter in the background, so a client's start-up
	// timeout is not spent on a first compile.
	EngineReady func(ctx context.Context) (*pyruntime.Engine, error)

	// ToolPrefix, if set, is put before every tool name the clients see
	// (e.g. "pybox_" gives pybox_read_file), for clients that refuse two
	// servers offering tools of the same name.
	ToolPrefix string
	// StrictSchemas gives the tools schemas valid for OpenAI's strict mode
	// (every property required, optional ones nullable).
	StrictSchemas bool

	// Token, if set, is the bearer token every HTTP request except
	// /healthz and /openapi.json must carry ("Authorization: Bearer ...").
	// Stdio needs none: whoever starts the process owns it.
	Token string

	// MaxConcurrent is how many tool calls run at once across all
	// workspaces (default DefaultMaxConcurrent()). Calls beyond it wait in a
	// queue of MaxQueue (default DefaultQueue) for up to QueueTimeout
	// (default DefaultQueueTimeout); past either bound they are refused as
	// busy (HTTP 429 with Retry-After, an MCP tool error).
	MaxConcurrent int
	MaxQueue      int
	QueueTimeout  time.Duration

	// MaxRequestBytes caps request bodies (default DefaultMaxRequestBytes);
	// bigger requests get 413.
	MaxRequestBytes int64

	// IdleTimeout closes a workspace (its files and sessions) when nothing
	// used it for this long (default DefaultIdleTimeout); MCP sessions over
	// HTTP expire after the same time (idle_timeout in [serve],
	// --idle-timeout).
	//
	// Every request addressed to a workspace is a use: a tool call, and a
	// GET of its status, sessions or files too (listing all workspaces is
	// not). A request holds its workspace from its lookup until its handler
	// ends (a download until its body is sent), and a workspace a request
	// holds is never closed for idleness: its idle time counts from the end
	// of its last request, and a later pass of the reaper (every
	// IdleTimeout/4, at most a minute apart) closes it.
	//
	// An explicit close wins over requests that hold the workspace: DELETE
	// /v1/workspaces/{id} (or the end of its MCP session) closes it at once.
	// Calls already running finish first (the DELETE waits for them) and a
	// download already being sent goes on from its open file; a request
	// that has not started its call fails with HTTP 410 workspace_closed
	// (over MCP a tool error) naming the workspace. By the time the DELETE
	// returns, no request finds the workspace and none starts on it (a call
	// that names its id again opens a new, empty one).
	IdleTimeout time.Duration
	// MaxWorkspaces bounds open workspaces (default DefaultMaxWorkspaces).
	MaxWorkspaces int

	// Grace is how long running code may go on after a shutdown begins
	// before it is interrupted (default DefaultGrace).
	Grace time.Duration

	// Logger receives one line per request and lifecycle events; nil
	// discards them.
	Logger *slog.Logger

	// Version is reported to MCP clients as the server's version.
	Version string

	// clock is what workspaces' idle times are read from; nil is
	// time.Now. Tests set it to move time themselves.
	clock func() time.Time
	// onQueue, if set, is called when a call begins to wait for a
	// concurrency slot, and onTake when a workspace is taken out of the
	// set (deleted, its MCP session ended, or idle), before it is closed.
	// Tests use them to know where a request is.
	onQueue func()
	onTake  func(id string)
}

func (c *Config) setDefaults() error {
	if c.Box.Engine == nil && c.EngineReady == nil {
		return errors.New("serve: Config.Box.Engine (or EngineReady) is required")
	}
	if c.MaxConcurrent <= 0 {
		c.MaxConcurrent = DefaultMaxConcurrent()
	}
	if c.MaxQueue == 0 {
		c.MaxQueue = DefaultQueue
	}
	if c.MaxQueue < 0 {
		c.MaxQueue = 0
	}
	if c.QueueTimeout <= 0 {
		c.QueueTimeout = DefaultQueueTimeout
	}
	if c.MaxRequestBytes <= 0 {
		c.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = DefaultIdleTimeout
	}
	if c.MaxWorkspaces <= 0 {
		c.MaxWorkspaces = DefaultMaxWorkspaces
	}
	if c.Grace <= 0 {
		c.Grace = DefaultGrace
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Version == "" {
		c.Version = "dev"
	}
	c.Box.Stdout, c.Box.Stderr = nil, nil
	return nil
}

// FileConfig is the [serve] section of a pybox configuration file (the same
// TOML file whose [sandbox] section is the policy, see fsbridge.Config):
//
//	[serve]
//	addr = "127.0.0.1:8765"
//	token_file = "/etc/pybox/token"   # or token = "..." (the file is better)
//	max_concurrent = 4
//	queue = 256
//	queue_timeout = "30s"
//	max_request_size = "16MiB"
//	idle_timeout = "30m"              # close workspaces no request used for this long (Config.IdleTimeout)
//	max_workspaces = 256
//	grace = "30s"
//	warm_pool = 2
//	timeout = "60s"                   # execute_python's default timeout
//	max_timeout = "10m"               # the longest timeout_s a model may ask
//	memory = "1GiB"                   # per interpreter
//	max_sessions = 16                 # interpreter sessions per workspace
//
// Zero values mean the defaults.
type FileConfig struct {
	// Each field is the key in its tag; see the flags of `pybox serve`.
	Addr           string            `toml:"addr"`
	Token          string            `toml:"token"`
	TokenFile      string            `toml:"token_file"`
	MaxConcurrent  int               `toml:"max_concurrent"`
	Queue          int               `toml:"queue"`
	QueueTimeout   Duration          `toml:"queue_timeout"`
	MaxRequestSize fsbridge.ByteSize `toml:"max_request_size"`
	IdleTimeout    Duration          `toml:"idle_timeout"`
	MaxWorkspaces  int               `toml:"max_workspaces"`
	Grace          Duration          `toml:"grace"`
	WarmPool       int               `toml:"warm_pool"`
	Timeout        Duration          `toml:"timeout"`
	MaxTimeout     Duration          `toml:"max_timeout"`
	Memory         fsbridge.ByteSize `toml:"memory"`
	ResultBudget   fsbridge.ByteSize `toml:"result_budget"`
	ToolPrefix     string            `toml:"tool_prefix"`
	StrictSchemas  bool              `toml:"strict_schemas"`
	MaxSessions    int               `toml:"max_sessions"`
	NoFigures      bool              `toml:"no_figures"`
	NoPreload      bool              `toml:"no_preload"`
	// Preload lists modules imported into every interpreter ahead of its
	// call besides numpy, pandas and matplotlib (--preload).
	Preload []string `toml:"preload"`
}

// Duration is a TOML string such as "30s" or "10m".
type Duration time.Duration

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(strings.TrimSpace(string(b)))
	if err != nil {
		return fmt.Errorf("invalid duration %q: use e.g. 30s, 10m, 1h", b)
	}
	*d = Duration(v)
	return nil
}

// LoadFileConfig reads the [serve] section of a TOML file. A file without
// one gives the zero FileConfig. Unknown keys in [serve] are errors.
func LoadFileConfig(file string) (FileConfig, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return FileConfig{}, fmt.Errorf("serve: read config: %w", err)
	}
	var doc struct {
		Serve FileConfig `toml:"serve"`
	}
	md, err := toml.Decode(string(data), &doc)
	if err != nil {
		return FileConfig{}, fmt.Errorf("serve: %s: %w", file, err)
	}
	for _, k := range md.Undecoded() {
		if len(k) > 0 && k[0] == "serve" {
			return FileConfig{}, fmt.Errorf("serve: %s: unknown key %s in the [serve] section", file, k)
		}
	}
	return doc.Serve, nil
}
