package agent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/pybox-dev/pybox/agent/tools"
	"github.com/pybox-dev/pybox/fsbridge"
)

// DefaultMaxTurns bounds the model requests of a task when Config.MaxTurns
// is zero.
const DefaultMaxTurns = 20

// DefaultSystemPrompt is the system prompt when Config.System is empty.
const DefaultSystemPrompt = `You solve the user's task by writing and running Python code with the execute_python tool, in a sandbox (CPython 3.11 on WebAssembly) with the standard library and the packages execute_python's description lists (numpy and more). The sandbox has no network and no subprocesses; the folders it can read and write are listed by ls("/") and explained by help().

Work in small steps: run code, read its output, fix errors, continue. Save the files the user should get (images, CSV, reports) in /output. Use describe to look at an image you produced before you rely on it. When the task is done, answer in plain text: the result, how you got it in one or two sentences, and the files in /output. Do not call tools after the task is done.`

// Config is one agent run's setup.
type Config struct {
	// Client talks to the model. If nil, one is made from BaseURL and
	// APIKey (OpenAI-compatible Chat Completions, e.g. vLLM's /v1).
	Client  *openai.Client
	BaseURL string
	APIKey  string
	// RequestOptions are added to every model request (headers, retries).
	RequestOptions []option.RequestOption
	// Model names the model. Required for a new task; on resume the
	// task's model is used when empty.
	Model string
	// System is the system prompt (DefaultSystemPrompt if empty). A resumed
	// task keeps the prompt it started with.
	System string
	// MaxTurns bounds the model requests of the whole task, resumes
	// included (DefaultMaxTurns if zero).
	MaxTurns int
	// Box serves the tools; it must not be used by anything else while the
	// agent runs. Required.
	Box *tools.Box
	// Tools restricts the tools offered to the model to these names; empty
	// means all of the Box's tools.
	Tools []string
	// Approver is asked before execute_python, copy_to_sandbox and
	// write_file run. Nil approves everything.
	Approver Approver
	// Store keeps the task's steps; nil keeps them in memory only (no
	// resume after a crash).
	Store Store
	// TaskID names a new task (Run). Empty means a generated id.
	TaskID string
	// Meta is stored with a new task (TaskStart.Meta) for the embedder.
	Meta []byte
	// NoImages keeps images out of the conversation, for models that read
	// text only (e.g. GPT-OSS). Tool results still list the files.
	NoImages bool
	// Reasoning says whether the model's reasoning from turns that called
	// tools is sent back with those turns until the task's answer
	// (ReasoningAuto if empty).
	Reasoning ReasoningMode
	// OnEvent, if set, is called as the run progresses (streamed text,
	// tool calls and results), from the goroutine that called Run.
	OnEvent func(Event)
}

// noImagesNote replaces tools.ImageFollows for models that get no images.
const noImagesNote = "The image is not shown: this model is set up to read text only. Inspect it with execute_python instead (size, colours, text you drew)."

// ReasoningMode says whether reasoning goes back to the model.
type ReasoningMode string

// The reasoning modes.
const (
	// ReasoningAuto sends reasoning back to gpt-oss models (their harmony
	// format expects the analysis of tool-calling turns until the final
	// answer; vLLM reads it from the assistant message's "reasoning"
	// field) and not to others: Qwen3's template, for one, drops the
	// thinking of earlier turns.
	ReasoningAuto ReasoningMode = ""
	// ReasoningSend always sends it back.
	ReasoningSend ReasoningMode = "send"
	// ReasoningDrop never does.
	ReasoningDrop ReasoningMode = "drop"
)

// sendsReasoning applies the mode to a model name.
func (m ReasoningMode) sendsReasoning(model string) bool {
	switch m {
	case ReasoningSend:
		return true
	case ReasoningDrop:
		return false
	}
	name := strings.ToLower(model)
	return strings.Contains(name, "gpt-oss") || strings.Contains(name, "gpt_oss")
}

// EventKind says what an Event reports.
type EventKind string

// The events a run reports through Config.OnEvent.
const (
	// EventTurn: a model request starts (Turn).
	EventTurn EventKind = "turn"
	// EventText: a piece of the model's text as it streams (Text).
	EventText EventKind = "text"
	// EventReasoning: a piece of the model's reasoning, if the server
	// sends it (vLLM's reasoning_content) (Text).
	EventReasoning EventKind = "reasoning"
	// EventToolCall: a tool is about to run, after approval (Call).
	EventToolCall EventKind = "tool_call"
	// EventToolResult: a tool's result, or its denial (Call, Result).
	EventToolResult EventKind = "tool_result"
	// EventNote: something pybox says about the run, e.g. that it was
	// resumed and what was restored (Text).
	EventNote EventKind = "note"
	// EventRetry: a model request failed and is tried again (Text).
	EventRetry EventKind = "retry"
)

// Event is one thing that happened during a run.
type Event struct {
	Kind   EventKind
	TaskID string
	Turn   int
	Text   string
	Call   *ToolCall
	Result *ToolResult
}

// StopReason says why a task ended.
type StopReason string

// The ways a task ends.
const (
	// StopAnswer: the model answered without calling a tool.
	StopAnswer StopReason = "answer"
	// StopMaxTurns: MaxTurns model requests were made without a final
	// answer.
	StopMaxTurns StopReason = "max_turns"
)

// Outcome is the end of a task.
type Outcome struct {
	TaskID string
	// Answer is the model's final text (for StopMaxTurns, its last text).
	Answer string
	Reason StopReason
	// Turns is the number of model requests over the whole task.
	Turns int
	// Files are the files in /output that the task created or changed.
	Files []File
	// Resumed is set when this call continued a stored task.
	Resumed bool
}

// File is a file the task left in /output.
type File struct {
	Path string `json:"path"`
	// HostPath is where the file is on the host, if known.
	HostPath string `json:"host_path,omitempty"`
	Size     int64  `json:"size"`
	MIME     string `json:"mime,omitempty"`
	SHA256   string `json:"sha256,omitempty"`
}

// ErrTaskExists is returned by Run for a task id that is already stored.
var ErrTaskExists = errors.New("a task with this id already exists (resume it instead)")

// ErrUnknownTask is returned by Resume for a task id with no stored steps.
var ErrUnknownTask = errors.New("no such task in the store")

// Run starts a new task and runs it to its end: a final answer, MaxTurns,
// or ctx being canceled. Every step is stored as it happens (Config.Store),
// so that Resume can continue the task if this process dies.
//
// The error is for the run failing (the model endpoint, the store, pybox);
// the task can then be resumed. A canceled ctx returns ctx's error.
func Run(ctx context.Context, cfg Config, task string) (*Outcome, error) {
	if strings.TrimSpace(task) == "" {
		return nil, errors.New("agent: the task is empty")
	}
	if cfg.Model == "" {
		return nil, errors.New("agent: Config.Model is required")
	}
	id := cfg.TaskID
	if id == "" {
		id = NewTaskID()
	}
	r, unlock, steps, err := open(ctx, cfg, id)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if len(steps) > 0 {
		return nil, fmt.Errorf("agent: task %s: %w", id, ErrTaskExists)
	}
	system := cfg.System
	if system == "" {
		system = DefaultSystemPrompt
	}
	start := &TaskStart{Task: task, System: system, Model: cfg.Model, Tools: r.toolNames(), Meta: cfg.Meta}
	if err := r.append(ctx, Step{Kind: StepTask, Start: start}); err != nil {
		return nil, err
	}
	r.model = cfg.Model
	r.msgs = append(r.msgs, openai.SystemMessage(system), openai.UserMessage(task))
	if _, err := r.tracker.snapshot(); err != nil {
		return nil, err
	}
	return r.loop(ctx)
}

// Resume continues a stored task from its last step, after a crash, a kill
// or a cancellation. Tool calls that completed are never run again: their
// stored results are replayed to the model. A call that had started but not
// completed is not run again either: the model is told it was interrupted
// and may have run partly. Resume never destroys data: files the task wrote
// in /output and in writable mounts that are now missing (a new temporary
// /output, another machine) are written back from the store, but a file
// that exists is never overwritten or deleted. Files that differ from the
// last recorded step (a host edit made while the task was stopped, or the
// partial work of the interrupted call) are left as they are and listed for
// the model. Interpreter sessions are gone; the model is told so.
//
// Resuming a task that had ended returns its stored Outcome.
func Resume(ctx context.Context, cfg Config, taskID string) (*Outcome, error) {
	r, unlock, steps, err := open(ctx, cfg, taskID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if len(steps) == 0 || steps[0].Start == nil {
		return nil, fmt.Errorf("agent: task %s: %w", taskID, ErrUnknownTask)
	}
	r.resumed = true
	final := r.replay(steps)
	if final != nil {
		return r.outcome(final), nil
	}
	if cfg.Model != "" {
		r.model = cfg.Model
	}
	if err := r.prepareResume(ctx); err != nil {
		return nil, err
	}
	return r.loop(ctx)
}

// listSome joins up to max names and says how many more there are.
func listSome(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:max], ", "), len(names)-max)
}

// NewTaskID returns a fresh task id: the time and random hex.
func NewTaskID() string {
	var b [4]byte
	rand.Read(b[:])
	return time.Now().UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// runner is one Run or Resume in progress.
type runner struct {
	cfg     Config
	id      string
	client  openai.Client
	model   string
	store   Store
	box     *tools.Box
	tracker *tracker
	enabled map[string]bool
	params  []openai.ChatCompletionToolUnionParam

	msgs      []openai.ChatCompletionMessageParamUnion
	next      int // next step number
	turns     int
	lastText  string
	images    []Image               // images of the current batch of tool results
	pending   []ToolCall            // tool calls of the last model message not yet done
	callIDs   map[string]bool       // every tool call id of the task
	started   map[string]bool       // call ids with a tool_start record
	done      map[string]bool       // call ids with a tool_done record
	outFiles  map[string]FileChange // /output files the task changed, by path
	wantFiles map[string]FileChange // last recorded state of every tracked file the task changed
	hostPaths map[string]File       // /output artifacts seen in this process
	sessions  map[string]bool       // session ids the model used
	resumed   bool
	lastStep  time.Time // when the last stored step was written (replay)
	note      string    // a note to add before the next model request
}

func open(ctx context.Context, cfg Config, id string) (*runner, func(), []Step, error) {
	if cfg.Box == nil {
		return nil, nil, nil, errors.New("agent: Config.Box is required")
	}
	if !ValidTaskID(id) {
		return nil, nil, nil, fmt.Errorf("agent: invalid task id %q: use letters, digits, '.', '_' and '-'", id)
	}
	if cfg.MaxTurns <= 0 {
		cfg.MaxTurns = DefaultMaxTurns
	}
	if cfg.Store == nil {
		cfg.Store = NewMemoryStore()
	}
	r := &runner{
		cfg: cfg, id: id, store: cfg.Store, box: cfg.Box,
		callIDs: map[string]bool{}, started: map[string]bool{}, done: map[string]bool{},
		outFiles: map[string]FileChange{}, wantFiles: map[string]FileChange{},
		hostPaths: map[string]File{}, sessions: map[string]bool{},
	}
	if cfg.Client != nil {
		r.client = *cfg.Client
	} else {
		opts := []option.RequestOption{option.WithAPIKey(cfg.APIKey)}
		if cfg.BaseURL != "" {
			opts = append(opts, option.WithBaseURL(cfg.BaseURL))
		}
		r.client = openai.NewClient(opts...)
	}
	all := map[string]bool{}
	for _, t := range cfg.Box.Tools() {
		all[t.Name] = true
	}
	r.enabled = map[string]bool{}
	for _, n := range cfg.Tools {
		if !all[n] {
			return nil, nil, nil, fmt.Errorf("agent: unknown tool %q in Config.Tools", n)
		}
		r.enabled[n] = true
	}
	for _, t := range cfg.Box.Tools() {
		if len(cfg.Tools) > 0 && !r.enabled[t.Name] {
			continue
		}
		r.enabled[t.Name] = true
		var params map[string]any
		if err := json.Unmarshal(t.Parameters, &params); err != nil {
			return nil, nil, nil, fmt.Errorf("agent: tool %s: schema: %w", t.Name, err)
		}
		r.params = append(r.params, openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{
			Name: t.Name, Description: openai.String(t.Description), Parameters: params,
		}))
	}
	r.tracker = newTracker(cfg.Box.Sandbox().FS(), trackedRoots(cfg.Box.Policy()), trackBudget(cfg.Box.Policy()))
	unlock, err := r.store.Lock(ctx, id)
	if err != nil {
		return nil, nil, nil, err
	}
	steps, err := r.store.Steps(ctx, id)
	if err != nil {
		unlock()
		return nil, nil, nil, err
	}
	return r, unlock, steps, nil
}

func (r *runner) toolNames() []string {
	var names []string
	for _, t := range r.box.Tools() {
		if r.enabled[t.Name] {
			names = append(names, t.Name)
		}
	}
	return names
}

func (r *runner) emit(e Event) {
	if r.cfg.OnEvent != nil {
		e.TaskID = r.id
		if e.Turn == 0 {
			e.Turn = r.turns
		}
		r.cfg.OnEvent(e)
	}
}

// append stores a step. It is not canceled with ctx: what happened must be
// recorded even when the user interrupts.
func (r *runner) append(ctx context.Context, s Step) error {
	s.TaskID, s.N, s.Time = r.id, r.next, time.Now().UTC()
	if err := r.store.Append(context.WithoutCancel(ctx), s); err != nil {
		return err
	}
	r.next++
	return nil
}

// loop runs pending tool calls and model turns until the task ends.
func (r *runner) loop(ctx context.Context) (*Outcome, error) {
	for {
		for len(r.pending) > 0 {
			c := r.pending[0]
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if err := r.runCall(ctx, c); err != nil {
				return nil, err
			}
			r.pending = r.pending[1:]
		}
		r.flushImages()
		if r.note != "" {
			note := r.note
			r.note = ""
			if err := r.append(ctx, Step{Kind: StepNote, Note: note}); err != nil {
				return nil, err
			}
			r.msgs = append(r.msgs, openai.UserMessage(note))
		}
		if r.turns >= r.cfg.MaxTurns {
			return r.finish(ctx, &Final{Answer: r.lastText, Reason: StopMaxTurns})
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r.turns++
		r.emit(Event{Kind: EventTurn})
		m, err := r.callModel(ctx)
		if err != nil {
			return nil, err
		}
		if err := r.append(ctx, Step{Kind: StepModel, Model: m}); err != nil {
			return nil, err
		}
		r.addModelMessage(m)
		if len(m.ToolCalls) == 0 {
			return r.finish(ctx, &Final{Answer: m.Content, Reason: StopAnswer})
		}
	}
}

// addModelMessage appends an assistant message to the conversation.
func (r *runner) addModelMessage(m *ModelMessage) {
	r.flushImages()
	a := openai.ChatCompletionAssistantMessageParam{}
	if m.Content != "" {
		a.Content.OfString = openai.String(m.Content)
		r.lastText = m.Content
	}
	for _, c := range m.ToolCalls {
		r.callIDs[c.ID] = true
		args := c.Arguments
		if strings.TrimSpace(args) == "" {
			args = "{}"
		} else if !json.Valid([]byte(args)) {
			// Servers re-parse history arguments; keep the model's text
			// visible without sending invalid JSON back.
			b, _ := json.Marshal(map[string]string{"invalid_json": args})
			args = string(b)
		}
		a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
			OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
				ID:       c.ID,
				Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: args},
			},
		})
	}
	if m.Reasoning != "" && len(m.ToolCalls) > 0 && r.cfg.Reasoning.sendsReasoning(r.model) {
		a.SetExtraFields(map[string]any{"reasoning": m.Reasoning})
	}
	r.msgs = append(r.msgs, openai.ChatCompletionMessageParamUnion{OfAssistant: &a})
	r.pending = append([]ToolCall(nil), m.ToolCalls...)
}

// addToolResult appends a tool message and keeps its images for the user
// message that follows the batch.
func (r *runner) addToolResult(s Step) {
	text := s.Result.Text
	if r.cfg.NoImages && len(s.Result.Images) > 0 {
		text = strings.ReplaceAll(text, tools.ImageFollows, noImagesNote)
	}
	r.msgs = append(r.msgs, openai.ToolMessage(text, s.Call.ID))
	r.images = append(r.images, s.Result.Images...)
	r.done[s.Call.ID] = true
	for _, f := range s.Files {
		r.wantFiles[f.Path] = f
		if strings.HasPrefix(f.Path, "/output/") {
			r.outFiles[f.Path] = f
		}
	}
	if s.Call.Name == "execute_python" {
		var a struct {
			SessionID string `json:"session_id"`
		}
		if json.Unmarshal([]byte(s.Call.Arguments), &a) == nil && a.SessionID != "" {
			r.sessions[a.SessionID] = true
		}
	}
}

// flushImages sends the images of the last tool results as one user
// message: Chat Completions tool messages carry text only.
func (r *runner) flushImages() {
	imgs := r.images
	r.images = nil
	if len(imgs) == 0 || r.cfg.NoImages {
		return
	}
	var names []string
	for _, im := range imgs {
		names = append(names, im.Path)
	}
	parts := []openai.ChatCompletionContentPartUnionParam{
		openai.TextContentPart(fmt.Sprintf("The image(s) from the tool results above, in order: %s.", strings.Join(names, ", "))),
	}
	for _, im := range imgs {
		parts = append(parts, openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{
			URL: dataURL(im.MIME, im.Data),
		}))
	}
	r.msgs = append(r.msgs, openai.UserMessage(parts))
}

// runCall asks for approval, runs one tool call and stores its result.
func (r *runner) runCall(ctx context.Context, c ToolCall) error {
	if r.done[c.ID] {
		return nil
	}
	args := c.Arguments
	if strings.TrimSpace(args) == "" {
		args = "{}"
	}
	if !r.enabled[c.Name] {
		res := &ToolResult{IsError: true, Text: fmt.Sprintf("There is no tool named %q here. The tools are: %s.", c.Name, strings.Join(r.toolNames(), ", "))}
		return r.recordDone(ctx, c, res, nil)
	}
	if needsApproval[c.Name] && r.cfg.Approver != nil && json.Valid([]byte(args)) {
		d, err := r.cfg.Approver.Approve(ctx, newApprovalRequest(r.id, c))
		if err != nil {
			return fmt.Errorf("agent: approval of %s: %w", c.Name, err)
		}
		if !d.Approved {
			text := "The user denied this call; it did not run."
			if d.Reason != "" {
				text = fmt.Sprintf("The user denied this call; it did not run. Their reason: %s", d.Reason)
			}
			text += " Do not repeat the same call: change your approach, or ask the user."
			return r.recordDone(ctx, c, &ToolResult{Text: text, IsError: true, Denied: true}, nil)
		}
	}
	if err := r.append(ctx, Step{Kind: StepToolStart, Call: &c}); err != nil {
		return err
	}
	r.started[c.ID] = true
	r.emit(Event{Kind: EventToolCall, Call: &c})
	res, err := r.box.Call(ctx, c.Name, json.RawMessage(args))
	if err != nil {
		// pybox failed: the call stays started and not done, so a resume
		// reports it as interrupted rather than running it twice.
		return fmt.Errorf("agent: tool %s: %w", c.Name, err)
	}
	tr := &ToolResult{Text: res.Text(), IsError: res.IsError}
	for _, im := range res.Images() {
		tr.Images = append(tr.Images, Image{Path: im.Path, MIME: im.MIME, Data: im.Data})
	}
	var changes []FileChange
	if needsApproval[c.Name] { // the tools that change files
		if changes, err = r.tracker.snapshot(); err != nil {
			return err
		}
		r.noteArtifacts()
	}
	return r.recordDone(ctx, c, tr, changes)
}

func (r *runner) recordDone(ctx context.Context, c ToolCall, res *ToolResult, files []FileChange) error {
	s := Step{Kind: StepToolDone, Call: &c, Result: res, Files: files}
	if err := r.append(ctx, s); err != nil {
		return err
	}
	r.addToolResult(s)
	r.emit(Event{Kind: EventToolResult, Call: &c, Result: res})
	return nil
}

// noteArtifacts remembers where /output files are on the host.
func (r *runner) noteArtifacts() {
	arts, err := r.box.Sandbox().Artifacts()
	if err != nil {
		return
	}
	for _, a := range arts {
		r.hostPaths[a.Path] = File{Path: a.Path, HostPath: a.HostPath, Size: a.Size, MIME: a.MIME, SHA256: a.SHA256}
	}
}

func (r *runner) finish(ctx context.Context, f *Final) (*Outcome, error) {
	f.Files = r.files()
	if err := r.append(ctx, Step{Kind: StepFinal, Final: f}); err != nil {
		return nil, err
	}
	return r.outcome(f), nil
}

func (r *runner) outcome(f *Final) *Outcome {
	files := f.Files
	// Host paths are of this process (a resumed task may have a new /output).
	for i := range files {
		if hp, ok := r.hostPaths[files[i].Path]; ok {
			files[i].HostPath = hp.HostPath
		} else if out := r.box.Policy().Output; out != "" {
			files[i].HostPath = path.Join(out, strings.TrimPrefix(files[i].Path, "/output/"))
		}
	}
	return &Outcome{TaskID: r.id, Answer: f.Answer, Reason: f.Reason, Turns: r.turns, Files: files, Resumed: r.resumed}
}

// files lists the /output files the task changed that are still there.
func (r *runner) files() []File {
	var out []File
	for p, c := range r.outFiles {
		if c.Deleted {
			continue
		}
		f := File{Path: p, Size: c.Size, SHA256: c.SHA256}
		if hp, ok := r.hostPaths[p]; ok {
			f.MIME = hp.MIME
		} else {
			head := c.Content
			if len(head) > 512 {
				head = head[:512]
			}
			f.MIME = fsbridge.DetectMIME(p, head)
		}
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// replay rebuilds the conversation and the run's state from stored steps.
// It returns the task's Final if it had ended.
func (r *runner) replay(steps []Step) *Final {
	for _, s := range steps {
		switch s.Kind {
		case StepTask:
			r.model = s.Start.Model
			if s.Start.System != "" {
				r.msgs = append(r.msgs, openai.SystemMessage(s.Start.System))
			}
			r.msgs = append(r.msgs, openai.UserMessage(s.Start.Task))
		case StepModel:
			r.turns++
			r.addModelMessage(s.Model)
		case StepToolStart:
			r.started[s.Call.ID] = true
		case StepToolDone:
			r.addToolResult(s)
		case StepNote:
			r.flushImages()
			r.msgs = append(r.msgs, openai.UserMessage(s.Note))
		case StepFinal:
			return s.Final
		}
		r.next = s.N + 1
		r.lastStep = s.Time
	}
	var left []ToolCall
	for _, c := range r.pending {
		if !r.done[c.ID] {
			left = append(left, c)
		}
	}
	r.pending = left
	return nil
}

// prepareResume restores files, settles interrupted calls and prepares the
// note that tells the model what happened.
func (r *runner) prepareResume(ctx context.Context) error {
	var note strings.Builder
	note.WriteString("[pybox] This task was interrupted (pybox stopped or was killed) and has been resumed from its last stored step. Tool calls that had completed were not run again; their results above are the stored ones.")
	rep, err := r.tracker.restore(ctx, r.box.Sandbox(), r.wantFiles)
	if err != nil {
		return err
	}
	r.noteArtifacts()
	var interrupted []string
	for _, c := range r.pending {
		if r.started[c.ID] {
			interrupted = append(interrupted, c.Name)
		}
	}
	if len(rep.Restored) > 0 {
		fmt.Fprintf(&note, " Files the task had written that were missing were written back from the stored steps: %s.", strings.Join(rep.Restored, ", "))
	}
	if len(rep.Changed) > 0 {
		by := "outside this task while it was stopped"
		if len(interrupted) > 0 {
			by = "by the interrupted call (" + strings.Join(interrupted, ", ") + ") or outside this task while it was stopped"
		}
		fmt.Fprintf(&note, " Files that differ from what the task last recorded, changed %s: %s. They were left exactly as they are; read them before relying on them.", by, strings.Join(rep.Changed, ", "))
	}
	if len(rep.Problems) > 0 {
		fmt.Fprintf(&note, " Files that could not be written back: %s.", strings.Join(rep.Problems, "; "))
	}
	if !r.lastStep.IsZero() {
		fresh, err := r.tracker.modifiedSince(r.lastStep, r.wantFiles)
		if err != nil {
			return err
		}
		if len(fresh) > 0 {
			by := "outside this task while it was stopped"
			if len(interrupted) > 0 {
				by = "by the interrupted call or outside this task"
			}
			fmt.Fprintf(&note, " Files created or modified after the last recorded step (%s), left as they are: %s.", by, listSome(fresh, 30))
		}
	}
	if _, err := r.tracker.snapshot(); err != nil {
		return err
	}
	// A call that started but did not finish is never run again: it may
	// have had effects. The model decides what to do about it.
	var left []ToolCall
	for _, c := range r.pending {
		if !r.started[c.ID] {
			left = append(left, c)
			continue
		}
		res := &ToolResult{IsError: true, Interrupted: true, Text: "This call was interrupted: pybox stopped while it was running, and the task was resumed later. " +
			"It was NOT run again, because it may have had effects; it may have run partly. Whatever it changed was left as it is " +
			"(files it was writing may be incomplete; the resume note lists files that differ from the last recorded step). " +
			"Check its effects (ls, read_file) and run again only what is still needed."}
		if err := r.recordDone(ctx, c, res, nil); err != nil {
			return err
		}
	}
	r.pending = left
	if len(r.sessions) > 0 {
		ids := make([]string, 0, len(r.sessions))
		for id := range r.sessions {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		fmt.Fprintf(&note, " The interpreter sessions (%s) were lost: variables, imports and data loaded in them are gone; files are kept. Re-create what you still need.", strings.Join(ids, ", "))
	} else {
		note.WriteString(" Interpreter state from before is gone; files are kept.")
	}
	r.note = note.String()
	r.emit(Event{Kind: EventNote, Text: r.note})
	return nil
}
