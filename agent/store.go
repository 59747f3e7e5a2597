package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"
)

// StepKind says what a Step records.
type StepKind string

// The kinds of steps, in the order a task produces them.
const (
	// StepTask opens a task: the task text, system prompt, model, tools
	// (Step.Start). It is always step 0.
	StepTask StepKind = "task"
	// StepModel is one model response: its text and tool calls (Step.Model).
	StepModel StepKind = "model"
	// StepToolStart is written just before a tool runs (Step.Call).
	StepToolStart StepKind = "tool_start"
	// StepToolDone is a tool's result and the file changes it made
	// (Step.Call, Step.Result, Step.Files).
	StepToolDone StepKind = "tool_done"
	// StepNote is a message pybox added to the conversation, e.g. that the
	// run was resumed (Step.Note).
	StepNote StepKind = "note"
	// StepFinal ends a task (Step.Final).
	StepFinal StepKind = "final"
)

// Step is one durable record of a task, stored under (task id, step number).
// Numbers start at 0 and have no gaps.
type Step struct {
	TaskID string    `json:"task_id"`
	N      int       `json:"step"`
	Kind   StepKind  `json:"kind"`
	Time   time.Time `json:"time"`

	Start  *TaskStart    `json:"start,omitempty"`
	Model  *ModelMessage `json:"model,omitempty"`
	Call   *ToolCall     `json:"call,omitempty"`
	Result *ToolResult   `json:"result,omitempty"`
	Files  []FileChange  `json:"files,omitempty"`
	Note   string        `json:"note,omitempty"`
	Final  *Final        `json:"final,omitempty"`
}

// TaskStart is what a task was started with.
type TaskStart struct {
	Task   string   `json:"task"`
	System string   `json:"system,omitempty"`
	Model  string   `json:"model,omitempty"`
	Tools  []string `json:"tools,omitempty"`
	// Meta is the embedder's own record of how the task was configured
	// (the CLI keeps its flags there so that --resume needs none).
	Meta []byte `json:"meta,omitempty"`
}

// ModelMessage is one assistant message as the model produced it.
type ModelMessage struct {
	Content      string     `json:"content,omitempty"`
	Reasoning    string     `json:"reasoning,omitempty"`
	ToolCalls    []ToolCall `json:"tool_calls,omitempty"`
	FinishReason string     `json:"finish_reason,omitempty"`
}

// ToolCall is one tool call the model asked for.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ToolResult is what went back to the model for a tool call.
type ToolResult struct {
	// Text is the tool message's content.
	Text    string `json:"text"`
	IsError bool   `json:"is_error,omitempty"`
	// Images follow the tool messages as a user message (Chat Completions
	// tool messages carry text only).
	Images []Image `json:"images,omitempty"`
	// Denied is set when the approver refused the call; it never ran.
	Denied bool `json:"denied,omitempty"`
	// Interrupted is set when the call had started but pybox stopped before
	// it finished; on resume it is reported, never run again.
	Interrupted bool `json:"interrupted,omitempty"`
}

// Image is an image shown to the model.
type Image struct {
	Path string `json:"path,omitempty"`
	MIME string `json:"mime"`
	Data []byte `json:"data"`
}

// FileChange is the state of one tracked file (in /output or a writable
// mount) after a tool call changed it.
type FileChange struct {
	Path    string `json:"path"`
	Deleted bool   `json:"deleted,omitempty"`
	Size    int64  `json:"size,omitempty"`
	SHA256  string `json:"sha256,omitempty"`
	// Content is the file's bytes, unless the file is larger than
	// MaxStoredFile (then only its digest is kept and it cannot be
	// restored).
	Content []byte `json:"content,omitempty"`
	// Omitted marks a file too big to store.
	Omitted bool `json:"omitted,omitempty"`
}

// Final is how a task ended.
type Final struct {
	Answer string     `json:"answer"`
	Reason StopReason `json:"reason"`
	Files  []File     `json:"files,omitempty"`
}

// Store keeps the steps of tasks durably. Implementations: NewFileStore
// (embedded, the default), NewPostgresStore, NewMemoryStore (tests, and
// embedders that need no durability). OpenStore picks one from a string.
type Store interface {
	// Append stores one step. Its number must be the next one for its task;
	// storing a number twice is an error (two processes running one task).
	// It returns only once the step is durable.
	Append(ctx context.Context, s Step) error
	// Steps returns a task's steps in order; none (and no error) for an
	// unknown task.
	Steps(ctx context.Context, taskID string) ([]Step, error)
	// Lock claims a task for this process until unlock is called (or the
	// process dies). It fails at once if another process holds it.
	Lock(ctx context.Context, taskID string) (unlock func(), err error)
	// Close releases the store.
	Close() error
}

// ErrLocked is returned by Store.Lock when another process runs the task.
var ErrLocked = errors.New("the task is being run by another process")

var taskIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)

// ValidTaskID reports whether id can name a task: 1 to 100 letters, digits,
// '.', '_' or '-', starting with a letter or digit.
func ValidTaskID(id string) bool { return taskIDPattern.MatchString(id) }

// OpenStore opens the store named by spec: "postgres://..." or
// "postgresql://..." is PostgreSQL, "memory" an in-memory store, anything
// else a folder for the embedded file store. Empty means DefaultStoreDir.
func OpenStore(ctx context.Context, spec string) (Store, error) {
	switch {
	case strings.HasPrefix(spec, "postgres://"), strings.HasPrefix(spec, "postgresql://"):
		return NewPostgresStore(ctx, spec)
	case spec == "memory":
		return NewMemoryStore(), nil
	case spec == "":
		dir, err := DefaultStoreDir()
		if err != nil {
			return nil, err
		}
		spec = dir
	}
	return NewFileStore(spec)
}

// DefaultStoreDir is where the embedded store keeps tasks:
// $PYBOX_AGENT_STORE if set, else $XDG_STATE_HOME/pybox/agent, else
// ~/.local/state/pybox/agent (Linux) or ~/Library/Application
// Support/pybox/agent (macOS).
func DefaultStoreDir() (string, error) {
	if d := os.Getenv("PYBOX_AGENT_STORE"); d != "" {
		return d, nil
	}
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "pybox", "agent"), nil
	}
	if runtime.GOOS == "darwin" {
		d, err := os.UserConfigDir()
		if err != nil {
			return "", fmt.Errorf("agent: find a folder for the task store: %w", err)
		}
		return filepath.Join(d, "pybox", "agent"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("agent: find a folder for the task store: %w", err)
	}
	return filepath.Join(home, ".local", "state", "pybox", "agent"), nil
}

// memoryStore keeps steps in memory: no durability.
type memoryStore struct {
	mu     sync.Mutex
	steps  map[string][]Step
	locked map[string]bool
}

// NewMemoryStore returns a Store that keeps steps in memory only, for tests
// and embedders that do not need to resume after a crash.
func NewMemoryStore() Store {
	return &memoryStore{steps: map[string][]Step{}, locked: map[string]bool{}}
}

func (m *memoryStore) Append(_ context.Context, s Step) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if n := len(m.steps[s.TaskID]); s.N != n {
		return fmt.Errorf("agent: store step %d of task %s: the next step is %d", s.N, s.TaskID, n)
	}
	m.steps[s.TaskID] = append(m.steps[s.TaskID], s)
	return nil
}

func (m *memoryStore) Steps(_ context.Context, id string) ([]Step, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Step(nil), m.steps[id]...), nil
}

func (m *memoryStore) Lock(_ context.Context, id string) (func(), error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.locked[id] {
		return nil, fmt.Errorf("agent: task %s: %w", id, ErrLocked)
	}
	m.locked[id] = true
	return func() {
		m.mu.Lock()
		delete(m.locked, id)
		m.mu.Unlock()
	}, nil
}

func (m *memoryStore) Close() error { return nil }
