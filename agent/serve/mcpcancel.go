package serve

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
)

// cancelFilter wraps the streamable-HTTP MCP handler so that a request the
// client cancelled (notifications/cancelled) gets no response, as the MCP
// specification asks and as finishingTransport does over stdio. The SDK
// cancels the handler's context but still writes what the handler
// returns, and its HTTP handler offers no hook on the connection; so the
// filter notes the requests each POST carries and the cancellations that
// arrive (keyed by the Mcp-Session-Id header) and drops, from the POST's
// event stream, the response event of a request cancelled meanwhile. The
// stream then ends without it; everything else passes unchanged.
type cancelFilter struct {
	next http.Handler

	mu      sync.Mutex
	pending map[requestKey]*atomic.Bool // requests in flight: cancelled yet?
}

// requestKey names a request within the MCP sessions of the server.
type requestKey struct{ session, id string }

// rpcMessage is what the filter reads of a JSON-RPC message.
type rpcMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		RequestID json.RawMessage `json:"requestId"`
	} `json:"params"`
}

// rawIDKey turns a JSON-RPC id, as JSON, into a comparable key: ids are
// strings or numbers, and 3, 3.0 and "3" are different spellings of two ids.
func rawIDKey(raw json.RawMessage) (string, bool) {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	switch id := v.(type) {
	case string:
		return "s" + id, true
	case float64:
		return "n" + strconv.FormatFloat(id, 'g', -1, 64), true
	}
	return "", false
}

// parseMessages reads a POST body: one JSON-RPC message or a batch.
func parseMessages(body []byte) []rpcMessage {
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '[' {
		var batch []rpcMessage
		if json.Unmarshal(body, &batch) != nil {
			return nil
		}
		return batch
	}
	var m rpcMessage
	if json.Unmarshal(body, &m) != nil {
		return nil
	}
	return []rpcMessage{m}
}

// ServeHTTP implements http.Handler.
func (f *cancelFilter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	session := r.Header.Get("Mcp-Session-Id")
	if r.Method != http.MethodPost || session == "" {
		f.next.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	r.Body.Close()
	// The handler reads the body again (and reports a read error itself).
	r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{err}))
	if err != nil {
		f.next.ServeHTTP(w, r)
		return
	}
	mine := map[string]*atomic.Bool{}
	f.mu.Lock()
	for _, m := range parseMessages(body) {
		switch {
		case m.Method == "notifications/cancelled":
			if id, ok := rawIDKey(m.Params.RequestID); ok {
				if c := f.pending[requestKey{session, id}]; c != nil {
					c.Store(true)
				}
			}
		case m.Method != "":
			if id, ok := rawIDKey(m.ID); ok {
				c := new(atomic.Bool)
				f.pending[requestKey{session, id}] = c
				mine[id] = c
			}
		}
	}
	f.mu.Unlock()
	if len(mine) == 0 {
		f.next.ServeHTTP(w, r)
		return
	}
	defer func() {
		f.mu.Lock()
		for id, c := range mine {
			if f.pending[requestKey{session, id}] == c {
				delete(f.pending, requestKey{session, id})
			}
		}
		f.mu.Unlock()
	}()
	fw := &filteringWriter{ResponseWriter: w, requests: mine}
	f.next.ServeHTTP(fw, r)
	fw.finish()
}

// errReader returns err (io.EOF if nil) on every read.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) {
	if e.err == nil {
		return 0, io.EOF
	}
	return 0, e.err
}

// filteringWriter passes a POST's response through, event by event when it
// is an event stream, leaving out the response events of requests that
// were cancelled.
type filteringWriter struct {
	http.ResponseWriter
	requests map[string]*atomic.Bool // the POST's requests by id key

	checked bool // whether the content type was looked at
	stream  bool // text/event-stream: events are filtered
	buf     []byte
}

// Write implements http.ResponseWriter.
func (w *filteringWriter) Write(p []byte) (int, error) {
	if !w.checked {
		w.checked = true
		ct, _, _ := mime.ParseMediaType(w.Header().Get("Content-Type"))
		w.stream = ct == "text/event-stream"
	}
	if !w.stream {
		return w.ResponseWriter.Write(p)
	}
	w.buf = append(w.buf, p...)
	for {
		end := bytes.Index(w.buf, []byte("\n\n"))
		if end < 0 {
			return len(p), nil
		}
		event := w.buf[:end+2]
		if !w.cancelledResponse(event) {
			if _, err := w.ResponseWriter.Write(event); err != nil {
				return 0, err
			}
		}
		w.buf = w.buf[end+2:]
	}
}

// Flush implements http.Flusher (the event stream flushes each event). The
// writers below may flush only through Unwrap, as ResponseController finds.
func (w *filteringWriter) Flush() {
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the connection.
func (w *filteringWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish writes what is left of an unterminated event.
func (w *filteringWriter) finish() {
	if len(w.buf) > 0 {
		w.ResponseWriter.Write(w.buf)
		w.buf = nil
	}
}

// cancelledResponse reports whether event (one server-sent event) carries
// the response to one of the POST's requests that was cancelled.
func (w *filteringWriter) cancelledResponse(event []byte) bool {
	var data []byte
	for _, line := range bytes.Split(event, []byte("\n")) {
		if rest, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			data = append(data, bytes.TrimPrefix(rest, []byte(" "))...)
			data = append(data, '\n')
		}
	}
	if len(data) == 0 {
		return false
	}
	var m rpcMessage
	if json.Unmarshal(data, &m) != nil || m.Method != "" {
		return false
	}
	id, ok := rawIDKey(m.ID)
	if !ok {
		return false
	}
	c := w.requests[id]
	return c != nil && c.Load()
}
