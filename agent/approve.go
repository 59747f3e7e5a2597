package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
)

// ApprovalRequest is a tool call waiting for the user's decision.
type ApprovalRequest struct {
	TaskID string
	Call   ToolCall
	// Code is the Python source for execute_python; for copy_to_sandbox
	// and write_file it is empty and Summary says what would happen.
	Code    string
	Summary string
}

// Decision is the user's answer to an ApprovalRequest.
type Decision struct {
	// Approved lets the call run.
	Approved bool
	// Reason, for a denial, goes back to the model with the refusal.
	Reason string
}

// Approver decides whether a tool call that runs code or changes files may
// run: execute_python, copy_to_sandbox and write_file. A denial (and its
// reason) is the tool's result for the model; the call never runs.
//
// An error stops the run (e.g. nobody is there to answer); the task can be
// resumed, and the call is asked about again.
type Approver interface {
	Approve(ctx context.Context, req ApprovalRequest) (Decision, error)
}

// ApproverFunc adapts a function to Approver.
type ApproverFunc func(ctx context.Context, req ApprovalRequest) (Decision, error)

// Approve calls f.
func (f ApproverFunc) Approve(ctx context.Context, req ApprovalRequest) (Decision, error) {
	return f(ctx, req)
}

// AutoApprove approves every call: unattended runs.
var AutoApprove Approver = ApproverFunc(func(context.Context, ApprovalRequest) (Decision, error) {
	return Decision{Approved: true}, nil
})

// needsApproval lists the tools that run code or change files.
var needsApproval = map[string]bool{"execute_python": true, "copy_to_sandbox": true, "write_file": true}

// newApprovalRequest describes a call for the person deciding.
func newApprovalRequest(task string, c ToolCall) ApprovalRequest {
	req := ApprovalRequest{TaskID: task, Call: c}
	var a map[string]any
	if json.Unmarshal([]byte(c.Arguments), &a) != nil {
		req.Summary = fmt.Sprintf("%s with arguments that are not valid JSON: %s", c.Name, clip(c.Arguments, 200))
		return req
	}
	str := func(k string) string { s, _ := a[k].(string); return s }
	switch c.Name {
	case "execute_python":
		req.Code = str("code")
		req.Summary = "run Python code"
		if s := str("session_id"); s != "" {
			req.Summary += " in session " + s
		}
	case "copy_to_sandbox":
		req.Summary = fmt.Sprintf("copy host %s to %s", str("source"), str("destination"))
	case "write_file":
		req.Summary = fmt.Sprintf("write %d bytes to %s", len(str("content")), str("path"))
	}
	return req
}

// ErrNoAnswer is returned by a TerminalApprover whose input has ended.
var ErrNoAnswer = errors.New("no answer to the confirmation prompt (input closed); approve calls unattended with --yes or PYBOX_AGENT_YES=1")

// TerminalApprover asks on a terminal (or any line-based input): it shows
// the code and reads [a]pprove, [d]eny, deny with [r]eason (then the
// reason on the next line), or approve [all] for the rest of the run.
type TerminalApprover struct {
	in  *bufio.Reader
	out io.Writer

	mu  sync.Mutex
	all bool
}

// NewTerminalApprover asks on out and reads answers from in.
func NewTerminalApprover(in io.Reader, out io.Writer) *TerminalApprover {
	return &TerminalApprover{in: bufio.NewReader(in), out: out}
}

// Approve shows the request and waits for an answer.
func (t *TerminalApprover) Approve(ctx context.Context, req ApprovalRequest) (Decision, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.all {
		return Decision{Approved: true}, nil
	}
	fmt.Fprintf(t.out, "\n── %s: %s ──\n", req.Call.Name, req.Summary)
	if req.Code != "" {
		for i, l := range strings.Split(strings.TrimRight(req.Code, "\n"), "\n") {
			fmt.Fprintf(t.out, "%4d │ %s\n", i+1, l)
		}
	} else if req.Call.Name == "write_file" {
		fmt.Fprintf(t.out, "%s\n", clip(req.Call.Arguments, 2000))
	}
	for {
		fmt.Fprint(t.out, "Run it? [a]pprove, [d]eny, deny with [r]eason, approve [all]: ")
		line, err := t.readLine(ctx)
		if err != nil {
			return Decision{}, err
		}
		switch strings.ToLower(line) {
		case "a", "approve", "y", "yes":
			return Decision{Approved: true}, nil
		case "all":
			t.all = true
			return Decision{Approved: true}, nil
		case "d", "deny", "n", "no":
			return Decision{}, nil
		case "r", "reason":
			fmt.Fprint(t.out, "Reason (sent to the model): ")
			reason, err := t.readLine(ctx)
			if err != nil {
				return Decision{}, err
			}
			return Decision{Reason: reason}, nil
		}
	}
}

// readLine reads one line; ctx cancellation abandons the read.
func (t *TerminalApprover) readLine(ctx context.Context) (string, error) {
	type res struct {
		s   string
		err error
	}
	ch := make(chan res, 1)
	go func() {
		s, err := t.in.ReadString('\n')
		ch <- res{s, err}
	}()
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case r := <-ch:
		if r.err != nil && (r.s == "" || !errors.Is(r.err, io.EOF)) {
			if errors.Is(r.err, io.EOF) {
				return "", ErrNoAnswer
			}
			return "", fmt.Errorf("agent: read answer: %w", r.err)
		}
		return strings.TrimSpace(r.s), nil
	}
}

// clip shortens s to n bytes with an ellipsis.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
