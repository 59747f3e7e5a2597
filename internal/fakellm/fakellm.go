// Package fakellm is a scripted OpenAI-compatible Chat Completions server
// for tests: it answers POST /v1/chat/completions with server-sent events
// shaped like vLLM's (or, when a request has "stream": false, one
// chat.completion JSON object, as the OpenAI Agents SDK's non-streamed
// Runner.run asks for), for Qwen (the hermes tool parser: a tool call's name
// first, then its arguments in pieces) and GPT-OSS (the harmony parser:
// reasoning_content deltas, then each tool call whole), and records every
// request so tests can check what the model was sent.
package fakellm

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Format is the shape of the stream, after the server it imitates.
type Format int

const (
	// Qwen streams like vLLM with --tool-call-parser hermes.
	Qwen Format = iota
	// GPTOSS streams like vLLM serving gpt-oss (harmony): reasoning first,
	// tool calls whole.
	GPTOSS
)

// Call is a tool call in a reply, or in a request's assistant message.
type Call struct {
	ID        string
	Name      string
	Arguments string
}

// Reply is what the scripted model answers to one request.
type Reply struct {
	Format    Format
	Reasoning string
	Content   string
	Calls     []Call
	// Status, if not 0 or 200, fails the request with this HTTP status.
	Status int
	// ErrorBody, with Status, is the failed request's JSON body verbatim
	// (default: an OpenAI-shaped {"error": {...}}). vLLM, for one, sends
	// {"object": "error", "message": ...} without the "error" wrapper.
	ErrorBody string
	// Block holds the request open, without answering, until the client
	// goes away; Blocked is closed first (if set) to tell the test.
	Block   bool
	Blocked chan struct{}
}

// Message is one message of a request, flattened for assertions.
type Message struct {
	Role       string
	Text       string   // text content (parts joined with "\n")
	Images     []string // image_url URLs
	ToolCallID string
	Calls      []Call
	// Reasoning is an assistant message's "reasoning" field, which vLLM
	// reads back for gpt-oss (the harmony analysis channel).
	Reasoning string
}

// Request is one request the server received.
type Request struct {
	Model    string
	Messages []Message
	Tools    []string
	Stream   bool
}

// Script answers request number n (from 0) of the server's life.
type Script func(n int, req *Request) Reply

// Server is the scripted server.
type Server struct {
	*httptest.Server
	script Script

	mu   sync.Mutex
	reqs []*Request
}

// New starts a server on loopback. Close it when done.
func New(script Script) *Server {
	s := &Server{script: script}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	return s
}

// BaseURL is the OpenAI base URL of the server (ending in /v1).
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Requests returns the requests received so far.
func (s *Server) Requests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Request(nil), s.reqs...)
}

type wireRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
		Reasoning  string          `json:"reasoning"`
		ToolCalls  []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

func parse(body []byte) (*Request, error) {
	var w wireRequest
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, err
	}
	req := &Request{Model: w.Model, Stream: w.Stream}
	for _, t := range w.Tools {
		req.Tools = append(req.Tools, t.Function.Name)
	}
	for _, m := range w.Messages {
		msg := Message{Role: m.Role, ToolCallID: m.ToolCallID, Reasoning: m.Reasoning}
		var s string
		if json.Unmarshal(m.Content, &s) == nil {
			msg.Text = s
		} else {
			var parts []struct {
				Type     string `json:"type"`
				Text     string `json:"text"`
				ImageURL struct {
					URL string `json:"url"`
				} `json:"image_url"`
			}
			json.Unmarshal(m.Content, &parts)
			var texts []string
			for _, p := range parts {
				switch p.Type {
				case "text":
					texts = append(texts, p.Text)
				case "image_url":
					msg.Images = append(msg.Images, p.ImageURL.URL)
				}
			}
			msg.Text = strings.Join(texts, "\n")
		}
		for _, c := range m.ToolCalls {
			msg.Calls = append(msg.Calls, Call{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
		}
		req.Messages = append(req.Messages, msg)
	}
	return req, nil
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	body, _ := io.ReadAll(r.Body)
	req, err := parse(body)
	if err != nil {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	n := len(s.reqs)
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()
	rep := s.script(n, req)
	if rep.Block {
		if rep.Blocked != nil {
			close(rep.Blocked)
		}
		<-r.Context().Done()
		return
	}
	if rep.Status != 0 && rep.Status != http.StatusOK {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rep.Status)
		if rep.ErrorBody != "" {
			io.WriteString(w, rep.ErrorBody)
			return
		}
		fmt.Fprintf(w, `{"error":{"message":"scripted failure","type":"server_error","code":%d}}`, rep.Status)
		return
	}
	id := "chatcmpl-" + randHex(16)
	created := time.Now().Unix()
	if !req.Stream {
		writeCompletion(w, id, created, req.Model, rep)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	send := func(delta map[string]any, finish any) {
		chunk := map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}},
		}
		b, _ := json.Marshal(chunk)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	send(map[string]any{"role": "assistant", "content": ""}, nil)
	if rep.Format == GPTOSS {
		for _, piece := range pieces(rep.Reasoning, 12) {
			send(map[string]any{"reasoning_content": piece}, nil)
		}
	}
	for _, piece := range pieces(rep.Content, 7) {
		send(map[string]any{"content": piece}, nil)
	}
	for i, c := range rep.Calls {
		cid := c.ID
		if cid == "" {
			cid = "chatcmpl-tool-" + randHex(16)
		}
		head := map[string]any{"index": i, "id": cid, "type": "function", "function": map[string]any{"name": c.Name, "arguments": ""}}
		if rep.Format == GPTOSS {
			head["function"] = map[string]any{"name": c.Name, "arguments": c.Arguments}
			send(map[string]any{"tool_calls": []any{head}}, nil)
			continue
		}
		send(map[string]any{"tool_calls": []any{head}}, nil)
		for _, piece := range pieces(c.Arguments, 9) {
			send(map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": piece}}}}, nil)
		}
	}
	finish := "stop"
	if len(rep.Calls) > 0 {
		finish = "tool_calls"
	}
	send(map[string]any{}, finish)
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// writeCompletion answers a non-streaming request with one chat.completion
// object, the same reply vLLM would stream, assembled.
func writeCompletion(w http.ResponseWriter, id string, created int64, model string, rep Reply) {
	msg := map[string]any{"role": "assistant", "content": rep.Content}
	if rep.Format == GPTOSS && rep.Reasoning != "" {
		msg["reasoning_content"] = rep.Reasoning
	}
	finish := "stop"
	if len(rep.Calls) > 0 {
		finish = "tool_calls"
		var calls []any
		for _, c := range rep.Calls {
			cid := c.ID
			if cid == "" {
				cid = "chatcmpl-tool-" + randHex(16)
			}
			calls = append(calls, map[string]any{"id": cid, "type": "function",
				"function": map[string]any{"name": c.Name, "arguments": c.Arguments}})
		}
		msg["tool_calls"] = calls
	}
	body := map[string]any{
		"id": id, "object": "chat.completion", "created": created, "model": model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "logprobs": nil, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(body)
}

// pieces cuts s into chunks of about n bytes, on rune boundaries.
func pieces(s string, n int) []string {
	var out []string
	for len(s) > 0 {
		k := min(n, len(s))
		for k < len(s) && !utf8Start(s[k]) {
			k++
		}
		out = append(out, s[:k])
		s = s[k:]
	}
	return out
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

func randHex(n int) string {
	b := make([]byte, n/2)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Last returns the last message of a request with this role, or nil.
func (r *Request) Last(role string) *Message {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == role {
			return &r.Messages[i]
		}
	}
	return nil
}

// ToolResult returns the tool message answering call id, or nil.
func (r *Request) ToolResult(id string) *Message {
	for i := range r.Messages {
		if r.Messages[i].Role == "tool" && r.Messages[i].ToolCallID == id {
			return &r.Messages[i]
		}
	}
	return nil
}

func (f Format) String() string {
	if f == GPTOSS {
		return "gpt-oss"
	}
	return "qwen"
}
