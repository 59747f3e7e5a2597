package runtime

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
)

// The runner protocol (guest/runner.py is the other side).
//
// Messages between host and runner ("job" replies and "done" payloads) are
// sequences of fields, each a key and a value, both length-prefixed:
//
//	u32le len(key) | key | u32le len(value) | value
//
// A value is taken by its length, never by scanning for a separator, so no
// byte sequence in the user's code, file name or arguments can become a key
// (the NUL-separated format this replaced let "code\x00...\x00mode\x00once"
// turn a session's job into a one-off's).
//
// The host does not trust the guest for anything it accounts: guest code can
// reach the runner's host interface (see docs/RATIONALE.md, "The runner
// protocol"), so every call is checked against where the guest is in the
// protocol, and a call out of place ends the instance (protocolError).

// appendField appends one length-prefixed key/value field to b.
func appendField(b []byte, key, value string) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(key)))
	b = append(b, key...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(value)))
	return append(b, value...)
}

// field is one decoded key/value pair.
type field struct{ key, value string }

// parseFields decodes a sequence of fields written by appendField (or the
// runner's _encode).
func parseFields(b []byte) ([]field, error) {
	var out []field
	next := func() (string, error) {
		if len(b) < 4 {
			return "", errors.New("truncated length")
		}
		n := binary.LittleEndian.Uint32(b)
		b = b[4:]
		if uint64(n) > uint64(len(b)) {
			return "", fmt.Errorf("length %d past the end (%d bytes left)", n, len(b))
		}
		s := string(b[:n])
		b = b[n:]
		return s, nil
	}
	for len(b) > 0 {
		k, err := next()
		if err != nil {
			return nil, err
		}
		v, err := next()
		if err != nil {
			return nil, err
		}
		out = append(out, field{k, v})
	}
	return out, nil
}

// encodeJob is the payload of the "job" reply for req.
func encodeJob(req *Request, once bool) []byte {
	var b []byte
	b = appendField(b, "code", req.Code)
	mode := "session"
	if once {
		mode = "once"
	}
	b = appendField(b, "mode", mode)
	b = appendField(b, "filename", req.filename())
	for _, a := range req.Args {
		b = appendField(b, "argv", a)
	}
	if req.Figures != "" {
		b = appendField(b, "figures", req.Figures)
	}
	return b
}

// parseOutcome decodes the payload of the runner's "done" call: the fields
// kind (exit, error or interrupt), exit, type, message, traceback and value,
// each at most once.
func parseOutcome(b []byte) (outcome, error) {
	fs, err := parseFields(b)
	if err != nil {
		return outcome{}, fmt.Errorf("malformed outcome: %w", err)
	}
	var o outcome
	seen := map[string]bool{}
	for _, f := range fs {
		if seen[f.key] {
			return outcome{}, fmt.Errorf("malformed outcome: field %q twice", f.key)
		}
		seen[f.key] = true
		switch f.key {
		case "kind":
			switch f.value {
			case "exit", "error", "interrupt":
			default:
				return outcome{}, fmt.Errorf("malformed outcome: kind %q", f.value)
			}
			o.kind = f.value
		case "exit":
			n, err := strconv.Atoi(f.value)
			if err != nil {
				return outcome{}, fmt.Errorf("malformed outcome: exit code %q", f.value)
			}
			o.exitCode = n
		case "type":
			o.excType = f.value
		case "message":
			o.excMsg = f.value
		case "traceback":
			o.traceback = f.value
		case "value":
			o.value = f.value
		default:
			return outcome{}, fmt.Errorf("malformed outcome: unknown field %q", f.key)
		}
	}
	if o.kind == "" {
		return outcome{}, errors.New("malformed outcome: no kind")
	}
	return o, nil
}

// protocolError ends an instance whose guest broke the runner protocol: a
// host call out of place (done twice, done with no job, job before the
// running one was reported, an unknown operation, a malformed message).
// Only guest code that reached the runner's host interface can cause it.
// The host function panics with it, which makes the guest's pybox_serve call
// return it as an error: the instance is over, and Result says why.
type protocolError struct{ msg string }

func (e *protocolError) Error() string {
	return "the guest broke the pybox runner protocol: " + e.msg
}

// errKilledWaiting ends a guest that was killed while it waited for a job:
// it has no code running that could trap on the kill flags.
var errKilledWaiting = errors.New("killed while waiting for a job")

// Where the guest is in the protocol (instance.phase).
const (
	phaseSetup    = iota // booting, or restored and not yet asking for a job
	phaseWaiting         // inside the "job" call
	phaseRunning         // took a job, has not reported it
	phaseReported        // reported its job ("done"), not yet back in "job"
)
