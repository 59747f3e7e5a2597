package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/packages"
	"github.com/pybox-dev/pybox/runtime"
)

// ExecResult is execute_python's structured result (Result.Structured).
type ExecResult struct {
	// Status is how the run ended: ok, exit, error, timeout, canceled,
	// crashed (runtime.Status).
	Status   string `json:"status"`
	ExitCode int    `json:"exit_code"`
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
	// Truncated is set when output beyond the operator's limit was dropped.
	Truncated bool `json:"truncated,omitempty"`
	// Saved maps "stdout", "stderr" or "value" to the sandbox file that
	// holds the whole text, for each that was cut to the result budget.
	Saved map[string]string `json:"saved,omitempty"`
	// Value is repr() of the final expression's value, if not None.
	Value string `json:"value,omitempty"`
	// Error is the uncaught exception, if any.
	Error *ExecError `json:"error,omitempty"`
	// Message explains a status other than ok in one line.
	Message    string  `json:"message,omitempty"`
	DurationMS float64 `json:"duration_ms"`
	// Files are the files the run created or changed in /output.
	Files []File `json:"files,omitempty"`
	// Denials are the sandbox's refusals during the run.
	Denials []string `json:"denials,omitempty"`
	// SessionID is the session the code ran in ("" for a fresh interpreter).
	SessionID string `json:"session_id,omitempty"`
	// SessionRestarted is set when the session had been lost and this call
	// ran in a fresh interpreter.
	SessionRestarted bool `json:"session_restarted,omitempty"`
}

// ExecError is an uncaught Python exception.
type ExecError struct {
	Type      string `json:"type"`
	Message   string `json:"message"`
	Traceback string `json:"traceback,omitempty"`
}

// File is a file in the sandbox reported to the model.
type File struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	MIME   string `json:"mime"`
	SHA256 string `json:"sha256,omitempty"`
}

// executeDescription is execute_python's description; its verbs are a note
// on DataFrame values, the list of installed packages (installedList) and a
// note on figures.
const executeDescription = `Run Python 3.11 code in a sandboxed interpreter (CPython on WebAssembly) and return its stdout, stderr, the value of the last expression (like a notebook cell%s), errors with traceback, and the files it wrote to /output.

Without session_id every call is a fresh interpreter: nothing is kept between calls except files. With a session_id, variables, imports and loaded data persist between calls that use the same id (a new id starts a new session).

Installed besides the standard library: %s; nothing can be pip-installed. There is no network, no subprocess and no threads. Save files for the user in /output (images saved there are shown to you%s); /tmp is scratch space. Read /help or call help for details.`

// executeFallback stands for the package list when no bundle is known
// (Definitions without Config.Bundle).
const executeFallback = "numpy, Pillow (PIL) and the other packages the help tool lists"

var sessionIDPattern = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

func (b *Box) executeTool() Tool {
	return Tool{
		Name:        "execute_python",
		Description: b.executeDescription(),
		Parameters: schema([]string{"code"},
			prop("code", "string", "Python source code to run. The value of the final expression is returned, as in a notebook cell."),
			prop("session_id", "string", "Optional. Run in the persistent session with this id (letters, digits, '.', '_', ':', '-'; up to 128), keeping variables between calls. Omit for a fresh interpreter."),
			prop("timeout_s", "number", fmt.Sprintf("Optional. Wall-clock limit in seconds (default %g, at most %g). On timeout the code gets KeyboardInterrupt and output so far is kept.",
				b.cfg.Limits.Timeout.Seconds(), b.cfg.MaxTimeout.Seconds())),
		),
		Handle: b.execute,
	}
}

// executeDescription fills executeDescription in from Config.Packages,
// Config.Bundle or the engine's bundle.
func (b *Box) executeDescription() string {
	pkgs := b.cfg.Packages
	if pkgs == nil {
		bundle := b.cfg.Bundle
		if bundle == nil && b.cfg.Engine != nil {
			bundle = b.cfg.Engine.Bundle()
		}
		if bundle == nil {
			return fmt.Sprintf(executeDescription, "", executeFallback, "")
		}
		pkgs = packages.BundlePackages(bundle)
	}
	table := ""
	if hasDistribution(pkgs, "pandas") {
		table = "; a pandas DataFrame or Series as a table"
	}
	figures := ""
	if hasDistribution(pkgs, "matplotlib") && !b.cfg.NoFigures && !b.cfg.Policy.NoOutput {
		figures = "; matplotlib figures still open when the code ends, or shown with plt.show(), are saved there as figure-N.png and shown too"
	}
	return fmt.Sprintf(executeDescription, table, installedList(pkgs, b.cfg.UserPackages), figures)
}

type executeArgs struct {
	Code      string   `json:"code"`
	SessionID string   `json:"session_id"`
	TimeoutS  *float64 `json:"timeout_s"`
}

const executeExample = `{"code": "print(1 + 1)", "session_id": "main", "timeout_s": 30}`

func (b *Box) execute(ctx context.Context, raw json.RawMessage) (*Result, error) {
	var a executeArgs
	if r := decodeArgs("execute_python", raw, &a, executeExample); r != nil {
		return r, nil
	}
	if strings.TrimSpace(a.Code) == "" {
		return errorResult(`execute_python: "code" is missing or empty. Send the Python source to run, e.g. %s.`, executeExample), nil
	}
	if a.SessionID != "" && !sessionIDPattern.MatchString(a.SessionID) {
		return errorResult(`execute_python: session_id %q is not valid: use 1 to 128 letters, digits, '.', '_', ':' or '-', e.g. "main".`, a.SessionID), nil
	}
	limits := b.cfg.Limits
	var note string
	if a.TimeoutS != nil {
		t := *a.TimeoutS
		switch {
		case t == 0:
			// Strict-mode callers send every argument; 0 means "not given".
		case math.IsNaN(t) || t < 0:
			return errorResult("execute_python: timeout_s must be a positive number of seconds, or 0 for the default (got %v).", t), nil
		case t > b.cfg.MaxTimeout.Seconds():
			limits.Timeout = b.cfg.MaxTimeout
			note = fmt.Sprintf("note: timeout_s %g is above the limit; %g s was used.", t, b.cfg.MaxTimeout.Seconds())
		default:
			limits.Timeout = time.Duration(t * float64(time.Second))
		}
	}

	if err := b.lock(); err != nil {
		return nil, err
	}
	defer b.mu.RUnlock()
	// The time limit counts from when the front end received the call:
	// time spent waiting for the workspace's previous call is part of it.
	if at, ok := submittedAt(ctx); ok {
		waited := time.Since(at)
		if waited >= limits.Timeout {
			return WaitedOut(limits.Timeout, waited), nil
		}
		if waited >= 100*time.Millisecond {
			note = strings.TrimSpace(note + "\n" + fmt.Sprintf("note: %.1f s of the %g s limit went waiting for the previous call in this session.", waited.Seconds(), limits.Timeout.Seconds()))
		}
		limits.Timeout -= waited
	}
	run, err := b.sb.StartRun(ctx)
	if err != nil {
		return nil, fmt.Errorf("execute_python: %w", err)
	}
	defer run.End()
	req := runtime.Request{
		Code:   a.Code,
		Limits: limits,
		FS:     run.FS(),
		Stdout: b.cfg.Stdout,
		Stderr: b.cfg.Stderr,
	}
	if !b.cfg.NoFigures && !b.cfg.Policy.NoOutput {
		req.Figures = "/output"
	}
	var res *runtime.Result
	if a.SessionID != "" {
		if !slices.Contains(b.sessions.IDs(), a.SessionID) {
			// Clients that open a new MCP session (a new workspace) per
			// call lose their sessions without knowing why: say so.
			note = strings.TrimSpace(note + "\n" + fmt.Sprintf("note: session %q is new in this workspace: a fresh interpreter was started, without variables from earlier calls "+
				"(sessions live in one workspace, i.e. one MCP session or HTTP workspace, until idle or closed).", a.SessionID))
		}
		var s *runtime.Session
		s, err = b.sessions.Get(ctx, a.SessionID)
		if errors.Is(err, runtime.ErrTooManySessions) {
			return errorResult("execute_python: cannot start session %q: %v. Run without session_id, or wait for another session to finish.", a.SessionID, err), nil
		}
		if err == nil {
			res, err = s.Exec(ctx, req)
		}
	} else {
		res, err = b.cfg.Engine.Run(ctx, req)
	}
	if err != nil {
		return nil, fmt.Errorf("execute_python: %w", err)
	}
	arts, err := run.Artifacts()
	if err != nil {
		return nil, fmt.Errorf("execute_python: list /output: %w", err)
	}
	return b.execResult(a.SessionID, res, arts, run.Denials(), note), nil
}

// submittedKey is the context key of WithSubmitted.
type submittedKey struct{}

// WithSubmitted returns ctx carrying the moment a front end received a
// tool call. execute_python's time limit then counts from it, so that a call
// queued behind the workspace's previous one cannot outlive its timeout_s.
func WithSubmitted(ctx context.Context, at time.Time) context.Context {
	return context.WithValue(ctx, submittedKey{}, at)
}

func submittedAt(ctx context.Context) (time.Time, bool) {
	at, ok := ctx.Value(submittedKey{}).(time.Time)
	return at, ok
}

// CallTimeout is the time limit a call of tool name with these arguments
// gets (0 for tools without one): a front end bounds the wait for the
// workspace by it.
func (b *Box) CallTimeout(name string, args json.RawMessage) time.Duration {
	if name != "execute_python" {
		return 0
	}
	var a executeArgs
	if decodeArgs(name, args, &a, "") != nil || a.TimeoutS == nil || *a.TimeoutS <= 0 || math.IsNaN(*a.TimeoutS) {
		return b.cfg.Limits.Timeout
	}
	return min(time.Duration(*a.TimeoutS*float64(time.Second)), b.cfg.MaxTimeout)
}

// CallSession is the interpreter session (session_id) a call of tool name
// with these arguments runs in, "" for none: calls in one session run one
// after another, others concurrently, so a front end queues a call behind
// its session's previous one only.
func (b *Box) CallSession(name string, args json.RawMessage) string {
	if name != "execute_python" {
		return ""
	}
	var a executeArgs
	if decodeArgs(name, args, &a, "") != nil {
		return ""
	}
	return a.SessionID
}

// WaitedOut is execute_python's result when its whole time limit (limit)
// went waiting for the previous call in its session: the code did not run.
func WaitedOut(limit, waited time.Duration) *Result {
	msg := fmt.Sprintf("timed out after %g s waiting for the previous call in this session to end; this code did not run. Run it again, or use another session_id", limit.Seconds())
	return &Result{
		IsError:    true,
		Content:    []Content{{Type: ContentText, Text: "status: timeout — " + msg}},
		Structured: &ExecResult{Status: string(runtime.StatusTimeout), ExitCode: runtime.ExitCodeTimeout, Message: msg, DurationMS: float64(waited.Microseconds()) / 1000},
	}
}

// execResult turns a run into what the model reads: one text block with
// the status, output, value, files and refusals, then the images in /output.
func (b *Box) execResult(session string, res *runtime.Result, arts []fsbridge.Artifact, denials []fsbridge.Denial, note string) *Result {
	er := &ExecResult{
		Status:           string(res.Status),
		ExitCode:         res.ExitCode,
		Stdout:           string(res.Stdout),
		Stderr:           string(res.Stderr),
		Truncated:        res.Truncated,
		Value:            res.Value,
		Message:          res.Message,
		DurationMS:       float64(res.Duration.Microseconds()) / 1000,
		SessionID:        session,
		SessionRestarted: res.SessionRestarted,
	}
	if res.Exception != nil {
		er.Error = &ExecError{Type: res.Exception.Type, Message: res.Exception.Message, Traceback: res.Exception.Traceback}
	}
	for _, a := range arts {
		er.Files = append(er.Files, File{Path: a.Path, Size: a.Size, MIME: a.MIME, SHA256: a.SHA256})
	}
	for _, d := range denials {
		er.Denials = append(er.Denials, d.Message)
	}

	var t strings.Builder
	switch res.Status {
	case runtime.StatusOK:
		fmt.Fprintf(&t, "status: ok (%.2f s)", res.Duration.Seconds())
	case runtime.StatusError:
		fmt.Fprintf(&t, "status: error")
		if er.Error != nil {
			fmt.Fprintf(&t, ": %s: %s", er.Error.Type, er.Error.Message)
		}
	case runtime.StatusExit:
		fmt.Fprintf(&t, "status: exited with code %d", res.ExitCode)
	default:
		fmt.Fprintf(&t, "status: %s", res.Status)
	}
	if res.Message != "" && res.Status != runtime.StatusError {
		fmt.Fprintf(&t, " — %s", res.Message)
	}
	t.WriteByte('\n')
	if res.SessionRestarted {
		fmt.Fprintf(&t, "session %q had been lost and was restarted: variables from earlier calls are gone.\n", session)
	}
	if note != "" {
		t.WriteString(note + "\n")
	}
	section := func(name, body string) {
		if body == "" {
			return
		}
		fmt.Fprintf(&t, "--- %s ---\n%s", name, body)
		if !strings.HasSuffix(body, "\n") {
			t.WriteByte('\n')
		}
	}
	b.budgetOutput(er)
	section("stdout", er.Stdout)
	section("stderr", er.Stderr)
	section("value", er.Value)
	if res.Truncated {
		t.WriteString("(output was cut at the sandbox's limit; write large results to a file in /output and read parts of it with read_file)\n")
	}
	out := &Result{Structured: er, IsError: res.Status != runtime.StatusOK}
	var images []Content
	if len(arts) > 0 {
		t.WriteString("--- files written to /output ---\n")
		for _, a := range arts {
			fmt.Fprintf(&t, "%s (%s, %s)\n", a.Path, a.MIME, humanSize(a.Size))
			if c, ok := b.inlineImage(a.Path, a.MIME, a.Size); ok {
				images = append(images, c)
			} else {
				images = append(images, Content{Type: ContentFile, Path: a.Path, MIME: a.MIME, Size: a.Size})
			}
		}
	}
	// Refusals explain a failure; when the code succeeded they were
	// handled by it (a font search, a probe for an optional file) and
	// listing them would only suggest a problem that is not there. They
	// stay in the structured result.
	if len(denials) > 0 && res.Status != runtime.StatusOK {
		t.WriteString("--- refused by the sandbox ---\n")
		for _, d := range er.Denials {
			t.WriteString(d + "\n")
		}
	}
	out.Content = append([]Content{{Type: ContentText, Text: strings.TrimRight(t.String(), "\n")}}, images...)
	return out
}

// budgetOutput cuts stdout, stderr and value to the Box's result budget
// (long ones share what short ones leave) and saves each cut text whole in
// /tmp/pybox-output/ so the model can read it in pages. If the file cannot
// be written the marker says so and the text is only cut.
func (b *Box) budgetOutput(er *ExecResult) {
	budget := b.cfg.ResultBudget
	if budget < 0 {
		return
	}
	texts := []*string{&er.Stdout, &er.Stderr, &er.Value}
	names := []string{"stdout", "stderr", "value"}
	sizes := make([]int, len(texts))
	total := 0
	for i, t := range texts {
		sizes[i] = len(*t)
		total += sizes[i]
	}
	if total <= budget {
		return
	}
	allow := shareBudget(sizes, budget)
	n := b.nresults.Add(1)
	for i, t := range texts {
		if len(*t) <= max(allow[i], minSectionBudget) {
			continue
		}
		p := fmt.Sprintf("%s/call-%d-%s.txt", savedOutputDir, n, names[i])
		where := p
		if err := b.saveText(p, *t); err != nil {
			where = ""
		} else {
			if er.Saved == nil {
				er.Saved = map[string]string{}
			}
			er.Saved[names[i]] = p
		}
		*t = CutMiddle(*t, allow[i], where)
	}
}

// savedOutputDir is the sandbox folder for whole outputs that a result cut.
const savedOutputDir = "/tmp/pybox-output"

// saveText writes text to a sandbox file, creating savedOutputDir.
func (b *Box) saveText(p, text string) error {
	fsys := b.sb.FS()
	if errno := fsys.Mkdir(savedOutputDir, 0o755); errno != 0 && errno != experimentalsys.EEXIST {
		return errno
	}
	f, errno := fsys.OpenFile(p, experimentalsys.O_WRONLY|experimentalsys.O_CREAT|experimentalsys.O_TRUNC, 0o644)
	if errno != 0 {
		return errno
	}
	data := []byte(text)
	for len(data) > 0 {
		n, errno := f.Write(data)
		if errno != 0 {
			f.Close()
			return errno
		}
		data = data[n:]
	}
	if errno := f.Close(); errno != 0 {
		return errno
	}
	return nil
}

// inlineImage reads an image in /output to carry it in a result, if it is
// an image format models read and not too big.
func (b *Box) inlineImage(guestPath, mime string, size int64) (Content, bool) {
	if !modelImage(mime) || size > b.cfg.ImageLimit {
		return Content{}, false
	}
	data, err := b.sb.ReadArtifact(guestPath)
	if err != nil {
		return Content{}, false
	}
	return Content{Type: ContentImage, Path: guestPath, MIME: mime, Size: int64(len(data)), Data: data}, true
}

// modelImage reports whether models accept images of this type.
func modelImage(mime string) bool {
	switch mime {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		return true
	}
	return false
}

// humanSize formats a byte count for the model.
func humanSize(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	default:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
}
