// Package incident turns failures of pybox itself (a recovered Go panic, a
// host I/O error) into what a client may see, an opaque
// "internal error (id 1a2b3c4d)", and what the operator needs, the whole
// detail (error, panic value, stack) in the operator's log under the same
// id.
//
// Clients (API callers, models, guest code) must never read Go stacks,
// build paths, heap addresses or host paths: they reveal the host and help
// an attacker. The operator must still be able to find out what happened,
// which is what the id is for.
package incident

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
)

// Error is a failure as a client sees it: only an id. It deliberately does
// not unwrap to its cause.
type Error struct {
	// ID names the failure in the operator's log.
	ID string
}

// Error returns "internal error (id ID)".
func (e *Error) Error() string { return "internal error (id " + e.ID + ")" }

// Panic is a recovered panic with the stack of the goroutine that
// panicked. Its message carries only the panic value; Stack is for the
// operator's log.
type Panic struct {
	Value any
	Stack []byte
}

// Error returns "panic: VALUE".
func (p *Panic) Error() string { return fmt.Sprintf("panic: %v", p.Value) }

// Recovered wraps the value of recover() (called in the same deferred
// function) with the current stack, or returns nil for nil.
func Recovered(v any) *Panic {
	if v == nil {
		return nil
	}
	return &Panic{Value: v, Stack: debug.Stack()}
}

// NewID returns a fresh random id, 8 hex digits.
func NewID() string {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "00000000"
	}
	return hex.EncodeToString(b[:])
}

// Report logs err under a fresh id at error level, with the stack if err
// is or wraps a *Panic, and returns the *Error to hand the client. log nil
// means slog.Default(). what says where it happened, e.g. "tool
// execute_python".
func Report(log *slog.Logger, what string, err error) *Error {
	return ReportDetail(log, what, err, "")
}

// ReportDetail is Report with extra detail (e.g. a stack already rendered
// into a string by someone else).
func ReportDetail(log *slog.Logger, what string, err error, detail string) *Error {
	if log == nil {
		log = slog.Default()
	}
	id := NewID()
	args := []any{"id", id, "where", what}
	if err != nil {
		args = append(args, "err", err.Error())
	}
	var p *Panic
	if errors.As(err, &p) {
		args = append(args, "stack", string(p.Stack))
	}
	if detail != "" {
		args = append(args, "detail", detail)
	}
	log.Error("internal error", args...)
	return &Error{ID: id}
}
