package agent

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"

	"github.com/pybox-dev/pybox/agent/tools"
)

// ErrModel marks errors of the model endpoint (connection, HTTP status):
// errors.Is(err, ErrModel) tells them from pybox's own.
var ErrModel = errors.New("model request failed")

// modelRetries is how often a failed model request is tried again.
const modelRetries = 2

// callModel asks the model for the next message, streaming, and retries
// requests that failed for reasons that may pass (network, 5xx, 429). A
// failed request has no effects, so retrying is safe.
func (r *runner) callModel(ctx context.Context) (*ModelMessage, error) {
	params := openai.ChatCompletionNewParams{
		Model:    r.model,
		Messages: r.msgs,
		Tools:    r.params,
	}
	for attempt := 0; ; attempt++ {
		m, err := r.stream(ctx, params)
		if err == nil {
			return m, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		detail := serverDetail(err)
		if contextOverflow(err, detail) {
			if budget, ok := r.shrinkToolMessages(); ok {
				r.emit(Event{Kind: EventRetry, Text: fmt.Sprintf("the conversation is too long for the model (%s); tool results cut to %d bytes each and the request sent again", detail, budget)})
				params.Messages = r.msgs
				attempt--
				continue
			}
			return nil, fmt.Errorf("agent: %w: the conversation does not fit the model's context even with every tool result cut short: %w%s", ErrModel, err, detail)
		}
		if attempt >= modelRetries || !retryable(err) {
			return nil, fmt.Errorf("agent: %w: %w%s", ErrModel, err, detail)
		}
		r.emit(Event{Kind: EventRetry, Text: err.Error()})
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(attempt+1) * time.Second):
		}
	}
}

// serverDetail is what the model server said about a failed request (the
// message of its JSON error body, or the start of the body), as ": ..." to
// append to the error; "" if it said nothing. openai-go's error text holds
// only the status, and "400 Bad Request" alone tells the user nothing.
func serverDetail(err error) string {
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) || apiErr.Response == nil || apiErr.Response.Body == nil {
		return ""
	}
	body, rerr := io.ReadAll(io.LimitReader(apiErr.Response.Body, 64<<10))
	apiErr.Response.Body = io.NopCloser(bytes.NewReader(body))
	if rerr != nil || len(bytes.TrimSpace(body)) == 0 {
		return ""
	}
	var shapes struct {
		Message string `json:"message"`
		Detail  any    `json:"detail"`
		Error   any    `json:"error"`
	}
	msg := ""
	if json.Unmarshal(body, &shapes) == nil {
		switch e := shapes.Error.(type) {
		case string:
			msg = e
		case map[string]any:
			if m, ok := e["message"].(string); ok {
				msg = m
			}
		}
		if msg == "" {
			msg = shapes.Message
		}
		if msg == "" {
			if d, ok := shapes.Detail.(string); ok {
				msg = d
			}
		}
	}
	if msg == "" {
		msg = strings.TrimSpace(string(body))
	}
	if len(msg) > 2000 {
		msg = msg[:2000] + "..."
	}
	return ": " + msg
}

// contextOverflowText matches what OpenAI, vLLM, llama.cpp, Ollama and
// similar servers say when a request is longer than the model's context.
var contextOverflowText = regexp.MustCompile(`(?i)context[ _-]?(length|window)|maximum context|too many tokens|prompt is too long|input is too long|reduce the length|exceeds? the (maximum|max)`)

// contextOverflow reports whether a request failed because the
// conversation does not fit the model's context.
func contextOverflow(err error, detail string) bool {
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) {
		return false
	}
	if apiErr.StatusCode != http.StatusBadRequest && apiErr.StatusCode != http.StatusRequestEntityTooLarge {
		return false
	}
	return apiErr.Code == "context_length_exceeded" || contextOverflowText.MatchString(detail)
}

// shrinkToolMessages halves the longest tool results in the conversation
// (head and tail kept, with a marker), so that a conversation too long for
// the model's context can be sent again. It returns the new per-result
// budget, or false when the tool results are already as short as they get.
// Only the request is changed: the stored steps keep the whole results.
func (r *runner) shrinkToolMessages() (int, bool) {
	longest := 0
	for _, m := range r.msgs {
		if m.OfTool != nil {
			longest = max(longest, len(m.OfTool.Content.OfString.Value))
		}
	}
	budget := longest / 2
	if budget < minToolMessage {
		return 0, false
	}
	for i, m := range r.msgs {
		if m.OfTool == nil || len(m.OfTool.Content.OfString.Value) <= budget {
			continue
		}
		text := tools.CutMiddle(m.OfTool.Content.OfString.Value, budget, "")
		r.msgs[i] = openai.ToolMessage(text, m.OfTool.ToolCallID)
	}
	return budget, true
}

// minToolMessage is the shortest a tool result is cut to when the
// conversation does not fit the model's context.
const minToolMessage = 1024

func retryable(err error) bool {
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		s := apiErr.StatusCode
		return s == http.StatusRequestTimeout || s == http.StatusConflict || s == http.StatusTooManyRequests || s >= 500
	}
	return true
}

// stream makes one streaming request and assembles the message from its
// deltas: content, reasoning (vLLM's reasoning_content or reasoning field)
// and tool calls, which arrive in pieces keyed by index (several at once
// for parallel calls).
func (r *runner) stream(ctx context.Context, params openai.ChatCompletionNewParams) (*ModelMessage, error) {
	s := r.client.Chat.Completions.NewStreaming(ctx, params, r.cfg.RequestOptions...)
	defer s.Close()
	var m ModelMessage
	var content, reasoning strings.Builder
	shown := 0 // bytes of content emitted as EventText
	calls := map[int64]*ToolCall{}
	var order []int64
	for s.Next() {
		chunk := s.Current()
		for _, ch := range chunk.Choices {
			if ch.Index != 0 {
				continue
			}
			d := ch.Delta
			if d.Content != "" {
				content.WriteString(d.Content)
				// Text that may be the start of a tool call written as
				// text (<tool_call>...) is held back until it is known
				// not to be one: it is not the answer.
				if safe := shownText(content.String()); safe > shown {
					r.emit(Event{Kind: EventText, Text: content.String()[shown:safe]})
					shown = safe
				}
			}
			for _, key := range []string{"reasoning_content", "reasoning"} {
				if f, ok := d.JSON.ExtraFields[key]; ok {
					var t string
					if json.Unmarshal([]byte(f.Raw()), &t) == nil && t != "" {
						reasoning.WriteString(t)
						r.emit(Event{Kind: EventReasoning, Text: t})
						break
					}
				}
			}
			for _, tc := range d.ToolCalls {
				idx := max(tc.Index, 0)
				c, ok := calls[idx]
				if !ok {
					c = &ToolCall{}
					calls[idx] = c
					order = append(order, idx)
				}
				if tc.ID != "" && c.ID == "" {
					c.ID = tc.ID
				}
				if tc.Function.Name != "" && c.Name == "" {
					c.Name = tc.Function.Name
				}
				c.Arguments += tc.Function.Arguments
			}
			if ch.FinishReason != "" {
				m.FinishReason = ch.FinishReason
			}
		}
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	m.Content = content.String()
	m.Reasoning = reasoning.String()
	for _, idx := range order {
		m.ToolCalls = append(m.ToolCalls, *calls[idx])
	}
	if len(m.ToolCalls) == 0 {
		m.Content, m.ToolCalls = textToolCalls(m.Content)
	}
	// Emit what was held back and turned out not to be a tool call (text
	// after a call, or a "<tool_call>" that did not parse).
	if held := content.String()[:shown]; strings.HasPrefix(m.Content, held) && len(m.Content) > len(held) {
		r.emit(Event{Kind: EventText, Text: m.Content[len(held):]})
	}
	// Ids must exist and be distinct over the whole task: each tool
	// message answers one, and a stored result is found by its id (some
	// servers number calls call_0, call_1... in every response).
	seen := map[string]bool{}
	for i := range m.ToolCalls {
		c := &m.ToolCalls[i]
		if c.ID == "" || seen[c.ID] || r.callIDs[c.ID] {
			c.ID = fmt.Sprintf("pybox_call_%d_%d", r.turns, i)
		}
		seen[c.ID] = true
	}
	return &m, nil
}

// shownText is how much of streamed content can be shown as the model's
// text: everything before a "<tool_call>" tag, and before a tail that could
// still grow into one.
func shownText(content string) int {
	const tag = "<tool_call>"
	if i := strings.Index(content, tag); i >= 0 {
		return i
	}
	for n := min(len(tag)-1, len(content)); n > 0; n-- {
		if strings.HasSuffix(content, tag[:n]) {
			return len(content) - n
		}
	}
	return len(content)
}

// hermesCall matches a tool call a Qwen model wrote as text, which vLLM
// leaves in the content when it runs without a tool-call parser:
// <tool_call>{"name": ..., "arguments": {...}}</tool_call>.
var hermesCall = regexp.MustCompile(`(?s)<tool_call>\s*(.*?)\s*</tool_call>`)

// textToolCalls takes tool calls written as text out of content.
func textToolCalls(content string) (string, []ToolCall) {
	if !strings.Contains(content, "<tool_call>") {
		return content, nil
	}
	var calls []ToolCall
	rest := hermesCall.ReplaceAllStringFunc(content, func(s string) string {
		body := hermesCall.FindStringSubmatch(s)[1]
		var c struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if json.Unmarshal([]byte(body), &c) != nil || c.Name == "" {
			return s
		}
		args := string(c.Arguments)
		var str string
		if json.Unmarshal(c.Arguments, &str) == nil {
			args = str // arguments given as a JSON string
		}
		calls = append(calls, ToolCall{Name: c.Name, Arguments: args})
		return ""
	})
	if len(calls) == 0 {
		return content, nil
	}
	return strings.TrimSpace(rest), calls
}

func dataURL(mime string, data []byte) string {
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data)
}
