package fakellm

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestReplyShapes: a request with "stream": true gets server-sent events, one
// with "stream": false (or none) one chat.completion object holding the same
// reply, as the OpenAI Agents SDK's non-streamed Runner.run expects.
func TestReplyShapes(t *testing.T) {
	reply := Reply{Format: GPTOSS, Reasoning: "think", Content: "hello",
		Calls: []Call{{ID: "call-1", Name: "execute_python", Arguments: `{"code":"print(6*7)"}`}}}
	srv := New(func(int, *Request) Reply { return reply })
	defer srv.Close()

	tests := []struct {
		name, body, contentType string
		stream                  bool
	}{
		{"stream true", `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`, "text/event-stream", true},
		{"stream false", `{"model":"m","stream":false,"messages":[{"role":"user","content":"hi"}]}`, "application/json", false},
		{"stream absent", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`, "application/json", false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := http.Post(srv.BaseURL()+"/chat/completions", "application/json", strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			data, _ := io.ReadAll(res.Body)
			if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, tt.contentType) {
				t.Fatalf("Content-Type %q, want %q; body:\n%s", ct, tt.contentType, data)
			}
			if got := srv.Requests()[i].Stream; got != tt.stream {
				t.Errorf("recorded Stream %v, want %v", got, tt.stream)
			}
			if tt.stream {
				if !strings.HasPrefix(string(data), "data: ") || !strings.HasSuffix(string(data), "data: [DONE]\n\n") {
					t.Fatalf("not an event stream:\n%s", data)
				}
				return
			}
			var c struct {
				Object  string `json:"object"`
				Model   string `json:"model"`
				Choices []struct {
					FinishReason string `json:"finish_reason"`
					Message      struct {
						Role             string `json:"role"`
						Content          string `json:"content"`
						ReasoningContent string `json:"reasoning_content"`
						ToolCalls        []struct {
							ID       string `json:"id"`
							Type     string `json:"type"`
							Function struct {
								Name      string `json:"name"`
								Arguments string `json:"arguments"`
							} `json:"function"`
						} `json:"tool_calls"`
					} `json:"message"`
				} `json:"choices"`
			}
			if err := json.Unmarshal(data, &c); err != nil {
				t.Fatalf("not one JSON object: %v\n%s", err, data)
			}
			if c.Object != "chat.completion" || c.Model != "m" || len(c.Choices) != 1 {
				t.Fatalf("completion %+v", c)
			}
			ch := c.Choices[0]
			m := ch.Message
			if ch.FinishReason != "tool_calls" || m.Role != "assistant" || m.Content != "hello" || m.ReasoningContent != "think" {
				t.Errorf("choice %+v", ch)
			}
			if len(m.ToolCalls) != 1 || m.ToolCalls[0].ID != "call-1" || m.ToolCalls[0].Type != "function" ||
				m.ToolCalls[0].Function.Name != "execute_python" || m.ToolCalls[0].Function.Arguments != reply.Calls[0].Arguments {
				t.Errorf("tool calls %+v", m.ToolCalls)
			}
		})
	}
}
