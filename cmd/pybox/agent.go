package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pybox-dev/pybox/agent"
	"github.com/pybox-dev/pybox/agent/tools"
	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/packages"
)

const agentHelp = `Usage: pybox agent [flags] "task"
       pybox agent --resume TASK [flags]

Runs a model (any OpenAI-compatible Chat Completions endpoint, e.g. vLLM)
with pybox's tools until it answers. The model's text streams to stdout;
tool calls, results and status go to stderr. Files the code writes to
/output are listed at the end.

Every step is stored (--store); if the run is killed, --resume TASK continues
it without running completed tool calls again. The task id is printed at the
start. A resumed task keeps its settings; flags given with --resume override
them.

Before each execute_python, copy_to_sandbox and write_file, the code is shown
and you approve, deny, or deny with a reason the model reads. --yes (or
PYBOX_AGENT_YES=1) approves everything.

Settings come from flags, then the agent config file (--agent-config), then
the environment: OPENAI_BASE_URL, OPENAI_API_KEY, PYBOX_MODEL. AGENTS.md in
the current folder is added to the system prompt.

Exit status:
    0  the model gave its final answer
    1  stopped at --max-turns without a final answer
    2  bad flags or configuration; or a confirmation had no answer
    3  the model endpoint failed (after retries)
  125  pybox failed (store, runtime)
  130  interrupted (Ctrl-C); resume with --resume

Flags:
`

// agentFlags are the flags of `pybox agent`.
type agentFlags struct {
	baseURL, apiKey, model string
	system                 string
	agentConfig            string
	maxTurns               int
	yes                    bool
	resume, taskID, store  string
	tools                  string
	noImages               bool
	noFigures              bool
	noPreload              bool
	preload                moduleList
	reasoning              string
	showReasoning          bool
	timeout, maxTimeout    time.Duration
	memory, outputLimit    byteSize
	resultBudget           byteSize
	cacheDir               string
	noCache, quiet         bool
	sandbox                sandboxFlags
}

func (f *agentFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.baseURL, "base-url", "", "OpenAI-compatible API `url`, e.g. http://localhost:8000/v1 (default $OPENAI_BASE_URL)")
	fs.StringVar(&f.apiKey, "api-key", "", "API `key` (default $OPENAI_API_KEY; not stored)")
	fs.StringVar(&f.model, "model", "", "model `name` (default $PYBOX_MODEL)")
	fs.StringVar(&f.system, "system", "", "system prompt `file` (default: the agent config's PROMPT.md, else a built-in prompt)")
	fs.StringVar(&f.agentConfig, "agent-config", "", "agent config `file` (agent.json) or a folder holding agent.json and PROMPT.md")
	fs.IntVar(&f.maxTurns, "max-turns", 0, fmt.Sprintf("most model requests for the task (default %d)", agent.DefaultMaxTurns))
	fs.BoolVar(&f.yes, "yes", false, "approve every tool call without asking (also PYBOX_AGENT_YES=1)")
	fs.StringVar(&f.resume, "resume", "", "continue the stored task with this `id`")
	fs.StringVar(&f.taskID, "task-id", "", "`id` for a new task (default: generated)")
	fs.StringVar(&f.store, "store", "", "where steps are stored: a `folder`, or postgres://... (default $PYBOX_AGENT_STORE, else the user state folder)")
	fs.StringVar(&f.tools, "tools", "", "comma-separated `names` of the tools to offer (default all)")
	fs.BoolVar(&f.noImages, "no-images", false, "never send images to the model (for text-only models such as GPT-OSS)")
	fs.BoolVar(&f.noFigures, "no-figures", false, "do not save the matplotlib figures open at the end of each execute_python call (and at plt.show()) as PNG files in /output")
	fs.BoolVar(&f.noPreload, "no-preload", false, "do not import numpy, pandas and matplotlib into every interpreter ahead of its call (saves ~30 MB of the --memory each interpreter starts with)")
	fs.Var(&f.preload, "preload", preloadUsage)
	fs.StringVar(&f.reasoning, "reasoning", "auto", "send the model's reasoning of tool-calling turns back to it: `auto` (for gpt-oss models), send or drop")
	fs.BoolVar(&f.showReasoning, "show-reasoning", false, "show the model's reasoning (if the server sends it) on stderr")
	durationVar(fs, &f.timeout, "timeout", 0, "default time limit of each execute_python call (default 60s)")
	durationVar(fs, &f.maxTimeout, "max-timeout", 0, "longest timeout_s the model may ask for (default 10m)")
	fs.Var((*memoryFlag)(&f.memory), "memory", "memory limit of each interpreter (e.g. 1GiB)")
	fs.Var(&f.outputLimit, "output-limit", "cap on the output of each call (e.g. 1MiB)")
	fs.Var(&f.resultBudget, "result-budget", "output of a call sent to the model (head and tail kept, the rest saved in /tmp/pybox-output; default 24KiB)")
	fs.StringVar(&f.cacheDir, "cache-dir", "", "cache directory: the extracted runtime bundle and the compiled interpreter (default $PYBOX_CACHE_DIR or the user cache dir)")
	fs.BoolVar(&f.noCache, "no-cache", false, "do not use the compilation cache")
	fs.BoolVar(&f.quiet, "q", false, "do not show progress while compiling the runtime")
	f.sandbox.register(fs)
}

// agentMeta is what the CLI stores with a task so that --resume needs no
// flags. The API key is never stored.
type agentMeta struct {
	Cwd           string        `json:"cwd"`
	AgentConfig   string        `json:"agent_config,omitempty"`
	SandboxConfig string        `json:"sandbox_config,omitempty"`
	Mounts        []string      `json:"mounts,omitempty"`
	Output        string        `json:"output,omitempty"`
	BaseURL       string        `json:"base_url,omitempty"`
	Tools         string        `json:"tools,omitempty"`
	MaxTurns      int           `json:"max_turns,omitempty"`
	NoImages      bool          `json:"no_images,omitempty"`
	NoFigures     bool          `json:"no_figures,omitempty"`
	NoPreload     bool          `json:"no_preload,omitempty"`
	Preload       []string      `json:"preload,omitempty"`
	Reasoning     string        `json:"reasoning,omitempty"`
	Timeout       time.Duration `json:"timeout,omitempty"`
	MaxTimeout    time.Duration `json:"max_timeout,omitempty"`
	Memory        int64         `json:"memory,omitempty"`
	OutputLimit   int64         `json:"output_limit,omitempty"`
	ResultBudget  int64         `json:"result_budget,omitempty"`
}

func cmdAgent(ctx context.Context, args []string) int {
	var f agentFlags
	set := map[string]bool{}
	fs := flag.NewFlagSet("agent", flag.ContinueOnError)
	f.register(fs)
	if code, ok := parseFlagSet(fs, "agent", agentHelp, args); !ok {
		return code
	}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	task := strings.TrimSpace(strings.Join(fs.Args(), " "))
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(os.Stderr, "pybox agent: "+format+"\n", a...)
		return code
	}
	switch {
	case f.resume == "" && task == "":
		return fail(2, `give a task, e.g. pybox agent "make a chart of data.csv", or --resume TASK`)
	case f.resume != "" && task != "":
		return fail(2, "--resume continues a stored task; it takes no new task text")
	case strings.HasSuffix(f.sandbox.config, ".json"):
		return fail(2, "--config is the sandbox policy (TOML, [sandbox] section); pass agent.json with --agent-config")
	}

	storeSpec := f.store
	store, err := agent.OpenStore(ctx, storeSpec)
	if err != nil {
		return fail(125, "%v", err)
	}
	defer store.Close()

	// On resume, the stored settings fill in what the flags do not say.
	var meta agentMeta
	if f.resume != "" {
		steps, err := store.Steps(ctx, f.resume)
		if err != nil {
			return fail(125, "%v", err)
		}
		if len(steps) == 0 || steps[0].Start == nil {
			return fail(2, "no task %q in the store (%s)", f.resume, storeName(storeSpec))
		}
		if len(steps[0].Start.Meta) > 0 {
			if err := json.Unmarshal(steps[0].Start.Meta, &meta); err != nil {
				return fail(125, "task %s: stored settings: %v", f.resume, err)
			}
		}
		f.fillFrom(meta, set)
		if meta.Cwd != "" {
			if err := os.Chdir(meta.Cwd); err != nil {
				return fail(2, "task %s was started in %s: %v", f.resume, meta.Cwd, err)
			}
		}
	}

	var file *agent.FileConfig
	if f.agentConfig != "" {
		if file, err = agent.LoadFile(f.agentConfig); err != nil {
			return fail(2, "%v", err)
		}
	} else {
		file = &agent.FileConfig{}
	}
	cfg := agent.Config{
		BaseURL:  first(f.baseURL, file.EndpointURL, os.Getenv("OPENAI_BASE_URL")),
		APIKey:   first(f.apiKey, os.Getenv("OPENAI_API_KEY")),
		Model:    first(f.model, file.Model, os.Getenv("PYBOX_MODEL")),
		MaxTurns: firstInt(f.maxTurns, file.MaxTurns),
		Store:    store,
		TaskID:   f.taskID,
		NoImages: f.noImages || (file.Images != nil && !*file.Images),
	}
	switch f.reasoning {
	case "auto", "":
	case "send", "drop":
		cfg.Reasoning = agent.ReasoningMode(f.reasoning)
	default:
		return fail(2, "--reasoning %q: use auto, send or drop", f.reasoning)
	}
	if cfg.BaseURL == "" && cfg.APIKey == "" {
		return fail(2, "no model endpoint: pass --base-url (e.g. http://localhost:8000/v1 for vLLM) or set OPENAI_BASE_URL; "+
			"for OpenAI's own API set OPENAI_API_KEY")
	}
	if f.resume != "" {
		cfg.Model = f.model // a resumed task keeps its model unless --model says otherwise
	}
	if f.resume == "" && cfg.Model == "" {
		return fail(2, "no model: pass --model, set PYBOX_MODEL, or put \"model\" in the agent config")
	}
	if f.tools != "" {
		for _, n := range strings.Split(f.tools, ",") {
			cfg.Tools = append(cfg.Tools, strings.TrimSpace(n))
		}
	} else {
		cfg.Tools = file.Tools
	}
	if cfg.System, err = systemPrompt(f.system, file.Prompt); err != nil {
		return fail(2, "%v", err)
	}
	if !f.yes && os.Getenv("PYBOX_AGENT_YES") != "1" {
		cfg.Approver = agent.NewTerminalApprover(os.Stdin, os.Stderr)
	}

	// The sandbox: the agent config's policy, then --config, --mount, --output.
	policy, err := file.Policy()
	if err != nil {
		return fail(2, "%v", err)
	}
	flagPolicy, err := f.sandbox.policy()
	if err != nil {
		return fail(2, "%v", err)
	}
	policy.Mounts = append(policy.Mounts, flagPolicy.Mounts...)
	policy.Virtual = append(policy.Virtual, flagPolicy.Virtual...)
	if flagPolicy.Output != "" {
		policy.Output = flagPolicy.Output
	}
	if flagPolicy.Limits != (fsbridge.Limits{}) {
		policy.Limits = flagPolicy.Limits
	}
	tempOut := ""
	if policy.Output == "" {
		if tempOut, err = os.MkdirTemp("", "pybox-output-"); err != nil {
			return fail(125, "create output folder: %v", err)
		}
		policy.Output = tempOut
	}
	if err := policy.Validate(); err != nil {
		return fail(2, "%v", err)
	}

	limits, maxTimeout, err := file.RunLimits()
	if err != nil {
		return fail(2, "%v", err)
	}
	if f.timeout > 0 {
		limits.Timeout = f.timeout
	}
	if f.maxTimeout > 0 {
		maxTimeout = f.maxTimeout
	}
	if f.memory > 0 {
		limits.Memory = int64(f.memory)
	}
	if f.outputLimit > 0 {
		limits.Output = int64(f.outputLimit)
	}

	// An agent runs many fresh interpreters in one process: unlike run, it
	// starts them from a snapshot of a booted one (2 ms instead of ~50).
	// numpy, pandas and matplotlib are imported into that snapshot.
	// The same engine as serve's, and so the same snapshot.
	ecfg := serveEngineConfig(f.cacheDir, f.noCache, !f.noPreload, f.preload)
	eng, err := startEngine(ctx, ecfg, f.quiet)
	if err != nil {
		return fail(125, "%v", err)
	}
	defer eng.Close(context.Background())
	tcfg := tools.Config{Engine: eng, Policy: policy, Limits: limits, MaxTimeout: maxTimeout, ResultBudget: int(f.resultBudget),
		NoFigures: f.noFigures || (file.Figures != nil && !*file.Figures)}
	if dir, err := packages.UserDir(); err == nil {
		tcfg.UserPackages = dir
	}
	box, err := tools.New(tcfg)
	if err != nil {
		return fail(2, "%v", err)
	}
	defer box.Close()
	cfg.Box = box
	for _, n := range cfg.Tools {
		if _, ok := box.Tool(n); !ok {
			var names []string
			for _, t := range box.Tools() {
				names = append(names, t.Name)
			}
			return fail(2, "unknown tool %q; the tools are %s", n, strings.Join(names, ", "))
		}
	}

	cwd, _ := os.Getwd()
	meta = agentMeta{
		Cwd: cwd, AgentConfig: absPath(f.agentConfig), SandboxConfig: absPath(f.sandbox.config),
		Mounts: absMounts(f.sandbox.mounts), Output: policy.Output, BaseURL: cfg.BaseURL, Tools: f.tools,
		MaxTurns: f.maxTurns, NoImages: f.noImages, NoFigures: f.noFigures, NoPreload: f.noPreload, Preload: f.preload, Reasoning: f.reasoning, Timeout: f.timeout, MaxTimeout: f.maxTimeout,
		Memory: int64(f.memory), OutputLimit: int64(f.outputLimit), ResultBudget: int64(f.resultBudget),
	}
	if cfg.Meta, err = json.Marshal(meta); err != nil {
		return fail(125, "%v", err)
	}

	v := newAgentView(os.Stdout, os.Stderr, f.showReasoning)
	cfg.OnEvent = v.event
	var out *agent.Outcome
	if f.resume != "" {
		v.status("resuming task %s (store: %s)", f.resume, storeName(storeSpec))
		out, err = agent.Resume(ctx, cfg, f.resume)
	} else {
		if cfg.TaskID == "" {
			cfg.TaskID = agent.NewTaskID()
		}
		v.status("task %s (if stopped, continue with: pybox agent --resume %s)", cfg.TaskID, cfg.TaskID)
		out, err = agent.Run(ctx, cfg, task)
	}
	v.endLine()
	id := first(f.resume, cfg.TaskID)
	if err != nil {
		switch {
		case errors.Is(err, context.Canceled) || ctx.Err() != nil:
			v.status("interrupted; continue with: pybox agent --resume %s", id)
			return 130
		case errors.Is(err, agent.ErrNoAnswer):
			v.status("%v; the task is kept: pybox agent --resume %s --yes", err, id)
			return 2
		case errors.Is(err, agent.ErrModel):
			v.status("%v; continue later with: pybox agent --resume %s", err, id)
			return 3
		case errors.Is(err, agent.ErrTaskExists), errors.Is(err, agent.ErrLocked), errors.Is(err, agent.ErrUnknownTask):
			v.status("%v", err)
			return 2
		}
		v.status("%v; continue with: pybox agent --resume %s", err, id)
		return 125
	}
	if v.printed == 0 && out.Answer != "" {
		fmt.Fprintln(os.Stdout, out.Answer) // a finished task, resumed: nothing streamed
	}
	for _, fl := range out.Files {
		v.status("output %s (%s, %s) saved as %s", fl.Path, humanBytes(fl.Size), fl.MIME, fl.HostPath)
	}
	if tempOut != "" && len(out.Files) == 0 {
		os.Remove(tempOut) // only if empty
	}
	if out.Reason == agent.StopMaxTurns {
		v.status("stopped after %d model turns without a final answer (--max-turns); task %s", out.Turns, out.TaskID)
		return 1
	}
	v.status("done: task %s, %d model turns", out.TaskID, out.Turns)
	return 0
}

// fillFrom takes the stored settings of a task for the flags not given.
func (f *agentFlags) fillFrom(m agentMeta, set map[string]bool) {
	str := func(name string, dst *string, v string) {
		if !set[name] && v != "" {
			*dst = v
		}
	}
	str("agent-config", &f.agentConfig, m.AgentConfig)
	str("config", &f.sandbox.config, m.SandboxConfig)
	str("base-url", &f.baseURL, m.BaseURL)
	str("tools", &f.tools, m.Tools)
	if !set["mount"] {
		f.sandbox.mounts = m.Mounts
	}
	if !set["output"] && m.Output != "" {
		if st, err := os.Stat(m.Output); err == nil && st.IsDir() {
			f.sandbox.output = m.Output // files there are kept; else a new folder, restored from the store
		}
	}
	if !set["max-turns"] {
		f.maxTurns = m.MaxTurns
	}
	if !set["no-images"] {
		f.noImages = m.NoImages
	}
	if !set["no-figures"] {
		f.noFigures = m.NoFigures
	}
	if !set["no-preload"] {
		f.noPreload = m.NoPreload
	}
	if !set["preload"] {
		f.preload = slices.Clone(m.Preload)
	}
	if !set["reasoning"] && m.Reasoning != "" {
		f.reasoning = m.Reasoning
	}
	if !set["timeout"] {
		f.timeout = m.Timeout
	}
	if !set["max-timeout"] {
		f.maxTimeout = m.MaxTimeout
	}
	if !set["memory"] {
		f.memory = byteSize(m.Memory)
	}
	if !set["output-limit"] {
		f.outputLimit = byteSize(m.OutputLimit)
	}
	if !set["result-budget"] {
		f.resultBudget = byteSize(m.ResultBudget)
	}
}

// systemPrompt is --system, else the config's PROMPT.md, else the built-in
// prompt; AGENTS.md in the current folder is appended.
func systemPrompt(file, fromConfig string) (string, error) {
	prompt := fromConfig
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("system prompt: %w", err)
		}
		prompt = string(b)
	}
	if strings.TrimSpace(prompt) == "" {
		prompt = agent.DefaultSystemPrompt
	}
	if b, err := os.ReadFile("AGENTS.md"); err == nil && len(strings.TrimSpace(string(b))) > 0 {
		prompt = strings.TrimRight(prompt, "\n") + "\n\n# Instructions from AGENTS.md\n\n" + string(b)
	}
	return prompt, nil
}

func first(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

func firstInt(vs ...int) int {
	for _, v := range vs {
		if v != 0 {
			return v
		}
	}
	return 0
}

func absPath(p string) string {
	if p == "" {
		return ""
	}
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// absMounts makes the host part of HOST:GUEST:MODE specs absolute, so that
// a resumed task finds the same folders from anywhere.
func absMounts(specs []string) []string {
	var out []string
	for _, s := range specs {
		if host, rest, ok := strings.Cut(s, ":"); ok && host != "" && !filepath.IsAbs(host) {
			s = absPath(host) + ":" + rest
		}
		out = append(out, s)
	}
	return out
}

func storeName(spec string) string {
	if strings.HasPrefix(spec, "postgres") {
		return "PostgreSQL"
	}
	if spec == "" {
		if d, err := agent.DefaultStoreDir(); err == nil {
			return d
		}
	}
	return spec
}

func humanBytes(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	default:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
}

// agentView shows a run on the terminal: the model's text on stdout as it
// streams, tool activity compactly on stderr.
type agentView struct {
	out, err      io.Writer
	reasoning     bool
	printed       int  // bytes of model text printed
	midLine       bool // stdout is not at the start of a line
	inReasoning   bool
	errIsTerminal bool
}

func newAgentView(out, errw *os.File, reasoning bool) *agentView {
	return &agentView{out: out, err: errw, reasoning: reasoning, errIsTerminal: isTerminal(errw)}
}

func (v *agentView) endLine() {
	if v.midLine {
		fmt.Fprintln(v.out)
		v.midLine = false
	}
}

func (v *agentView) status(format string, a ...any) {
	v.endLine()
	fmt.Fprintf(v.err, "pybox: "+format+"\n", a...)
}

func (v *agentView) dim(s string) string {
	if v.errIsTerminal {
		return "\033[2m" + s + "\033[0m"
	}
	return s
}

func (v *agentView) event(e agent.Event) {
	switch e.Kind {
	case agent.EventText:
		fmt.Fprint(v.out, e.Text)
		v.printed += len(e.Text)
		v.midLine = !strings.HasSuffix(e.Text, "\n")
	case agent.EventReasoning:
		if v.reasoning {
			fmt.Fprint(v.err, v.dim(e.Text))
		}
	case agent.EventToolCall:
		v.endLine()
		fmt.Fprintf(v.err, "▶ %s\n", describeCall(*e.Call))
	case agent.EventToolResult:
		v.endLine()
		mark := "✓"
		if e.Result.IsError {
			mark = "✗"
		}
		lines := strings.Split(strings.TrimRight(e.Result.Text, "\n"), "\n")
		const show = 6
		for i, l := range lines {
			if i == show {
				fmt.Fprintf(v.err, "  %s\n", v.dim(fmt.Sprintf("… %d more lines", len(lines)-show)))
				break
			}
			prefix := "  "
			if i == 0 {
				prefix = mark + " "
			}
			fmt.Fprintf(v.err, "%s%s\n", prefix, v.dim(clipLine(l, 160)))
		}
	case agent.EventNote:
		v.status("%s", e.Text)
	case agent.EventRetry:
		v.status("model request failed (%s); retrying", clipLine(e.Text, 200))
	}
}

// describeCall is one line for a tool call: the tool and its main argument.
func describeCall(c agent.ToolCall) string {
	var a map[string]any
	if json.Unmarshal([]byte(c.Arguments), &a) != nil {
		return fmt.Sprintf("%s %s", c.Name, clipLine(c.Arguments, 100))
	}
	if code, ok := a["code"].(string); ok {
		lines := strings.Split(strings.TrimSpace(code), "\n")
		s := fmt.Sprintf("%s: %s", c.Name, clipLine(lines[0], 100))
		if len(lines) > 1 {
			s += fmt.Sprintf("  (+%d lines)", len(lines)-1)
		}
		if sid, ok := a["session_id"].(string); ok && sid != "" {
			s += " [session " + sid + "]"
		}
		return s
	}
	if content, ok := a["content"].(string); ok {
		a["content"] = fmt.Sprintf("<%d bytes>", len(content))
	}
	b, _ := json.Marshal(a)
	return fmt.Sprintf("%s %s", c.Name, clipLine(string(b), 100))
}

func clipLine(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
