package runtime

import (
	"bytes"
	"fmt"
	"io"
	"sync"
)

// DefaultOutputLimit caps the stdout+stderr a run may produce when
// Limits.Output is zero.
const DefaultOutputLimit = 1 << 20

// outputBudget is shared by a run's stdout and stderr: together they may
// write at most limit bytes. Past it, each stream gets one marker line and
// further output is dropped, while the code keeps running.
type outputBudget struct {
	mu        sync.Mutex
	remaining int64
	limit     int64
}

// stream captures one guest output stream and forwards it live.
type stream struct {
	budget    *outputBudget
	buf       bytes.Buffer
	live      io.Writer
	liveErr   error
	truncated bool
}

func truncationMarker(limit int64) string {
	return fmt.Sprintf("\n[pybox: output limit of %d bytes reached; further output was dropped]\n", limit)
}

// Write implements io.Writer. It never fails: the guest must not see host
// I/O errors, and a broken live writer only stops forwarding.
func (s *stream) Write(p []byte) (int, error) {
	b := s.budget
	b.mu.Lock()
	defer b.mu.Unlock()
	n := int64(len(p))
	if n > b.remaining {
		n = b.remaining
	}
	b.remaining -= n
	s.emit(p[:n])
	if n < int64(len(p)) && !s.truncated {
		s.truncated = true
		s.emit([]byte(truncationMarker(b.limit)))
	}
	return len(p), nil
}

func (s *stream) emit(p []byte) {
	if len(p) == 0 {
		return
	}
	s.buf.Write(p)
	if s.live != nil && s.liveErr == nil {
		_, s.liveErr = s.live.Write(p)
	}
}

// note appends a host message (such as the timeout notice) to the stream,
// outside the budget so it is never lost.
func (s *stream) note(msg string) {
	s.budget.mu.Lock()
	defer s.budget.mu.Unlock()
	s.emit([]byte(msg))
}

func (s *stream) bytes() []byte {
	s.budget.mu.Lock()
	defer s.budget.mu.Unlock()
	return append([]byte(nil), s.buf.Bytes()...)
}
