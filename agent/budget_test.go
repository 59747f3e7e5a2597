package agent_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/pybox-dev/pybox/agent"
	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/internal/fakellm"
)

// vllmTooLong is the body vLLM sends for a request longer than the
// model's context (no "error" wrapper).
const vllmTooLong = `{"object":"error","message":"This model's maximum context length is 4096 tokens. However, you requested 9000 tokens in the messages. Please reduce the length of the messages.","type":"BadRequestError","param":null,"code":400}`

// A huge print does not make a task that can never finish: the tool result
// carries the head and tail of the output within the Box's budget, and when
// even that is too long for the model's context, the agent cuts the tool
// results further and sends the request again instead of failing.
func TestHugeOutputFitsTheModel(t *testing.T) {
	const contextChars = 6000 // the scripted model's "context"
	var sizes []int
	srv := fakellm.New(func(n int, req *fakellm.Request) fakellm.Reply {
		total := 0
		for _, m := range req.Messages {
			total += len(m.Text)
		}
		sizes = append(sizes, total)
		if total > contextChars {
			return fakellm.Reply{Status: http.StatusBadRequest, ErrorBody: vllmTooLong}
		}
		if req.Last("tool") == nil {
			return fakellm.Reply{Calls: []fakellm.Call{{Name: "execute_python", Arguments: py(t,
				"for i in range(20000): print('line', i, 'x' * 40)")}}}
		}
		return fakellm.Reply{Content: "answer: " + req.Last("tool").Text}
	})
	defer srv.Close()
	box := newBox(t, fsbridge.Policy{})
	var retries []string
	cfg := config(srv, box)
	cfg.OnEvent = func(e agent.Event) {
		if e.Kind == agent.EventRetry {
			retries = append(retries, e.Text)
		}
	}
	out, err := agent.Run(context.Background(), cfg, "print a lot")
	if err != nil {
		t.Fatalf("run: %v (request sizes %v)", err, sizes)
	}
	for _, want := range []string{"line 0 ", "line 19999 ", "bytes cut here"} {
		if !strings.Contains(out.Answer, want) {
			t.Errorf("the model's view of the result lacks %q:\n%.2000s", want, out.Answer)
		}
	}
	if len(retries) == 0 || !strings.Contains(retries[0], "maximum context length is 4096 tokens") {
		t.Errorf("retries %q: want one that quotes the server's message", retries)
	}
	// The whole output is in the sandbox, readable in pages.
	res, err := box.Call(context.Background(), "read_file", []byte(`{"path": "/tmp/pybox-output/call-1-stdout.txt", "offset": 19990, "limit": 20}`))
	if err != nil || res.IsError || !strings.Contains(res.Text(), "line 19999 ") {
		t.Fatalf("saved stdout: %v %+v", err, res)
	}
}

// A request the server refuses for good shows what the server said, not
// only the status line.
func TestModelErrorShowsServerMessage(t *testing.T) {
	for name, body := range map[string]string{
		"vllm":   `{"object":"error","message":"model 'x' does not exist","type":"NotFoundError","code":404}`,
		"openai": `{"error":{"message":"model 'x' does not exist","type":"invalid_request_error"}}`,
		"plain":  `model 'x' does not exist`,
	} {
		t.Run(name, func(t *testing.T) {
			srv := fakellm.New(func(int, *fakellm.Request) fakellm.Reply {
				return fakellm.Reply{Status: http.StatusNotFound, ErrorBody: body}
			})
			defer srv.Close()
			_, err := agent.Run(context.Background(), config(srv, newBox(t, fsbridge.Policy{})), "x")
			if !errors.Is(err, agent.ErrModel) || !strings.Contains(err.Error(), "model 'x' does not exist") {
				t.Fatalf("err = %v", err)
			}
		})
	}
	// A context overflow that no cutting can fix ends the task clearly.
	srv := fakellm.New(func(int, *fakellm.Request) fakellm.Reply {
		return fakellm.Reply{Status: http.StatusBadRequest, ErrorBody: vllmTooLong}
	})
	defer srv.Close()
	_, err := agent.Run(context.Background(), config(srv, newBox(t, fsbridge.Policy{})), "x")
	if !errors.Is(err, agent.ErrModel) || !strings.Contains(err.Error(), "does not fit the model's context") {
		t.Fatalf("err = %v", fmt.Sprint(err))
	}
}

// gpt-oss (harmony) expects the reasoning of turns that called tools back
// until the final answer; vLLM reads it from the assistant message's
// "reasoning" field. Qwen3's template drops earlier thinking, so nothing is
// sent there; an explicit mode overrides the guess from the model's name.
func TestReasoningSentBack(t *testing.T) {
	tests := []struct {
		model string
		mode  agent.ReasoningMode
		want  bool
	}{
		{"openai/gpt-oss-20b", agent.ReasoningAuto, true},
		{"Qwen/Qwen3-32B", agent.ReasoningAuto, false},
		{"Qwen/Qwen3-32B", agent.ReasoningSend, true},
		{"gpt-oss-120b", agent.ReasoningDrop, false},
	}
	for _, tc := range tests {
		t.Run(tc.model+"/"+string(tc.mode), func(t *testing.T) {
			var got []string
			srv := fakellm.New(func(n int, req *fakellm.Request) fakellm.Reply {
				for _, m := range req.Messages {
					if m.Role == "assistant" {
						got = append(got, m.Reasoning)
					}
				}
				switch n {
				case 0:
					return fakellm.Reply{Format: fakellm.GPTOSS, Reasoning: "Compute it first.", Calls: []fakellm.Call{{Name: "execute_python", Arguments: py(t, "print(6*7)")}}}
				case 1:
					return fakellm.Reply{Format: fakellm.GPTOSS, Reasoning: "Now check it.", Calls: []fakellm.Call{{Name: "execute_python", Arguments: py(t, "print(42 == 6*7)")}}}
				}
				return fakellm.Reply{Format: fakellm.GPTOSS, Reasoning: "Done.", Content: "42"}
			})
			defer srv.Close()
			cfg := config(srv, newBox(t, fsbridge.Policy{}))
			cfg.Model, cfg.Reasoning = tc.model, tc.mode
			if _, err := agent.Run(context.Background(), cfg, "6*7?"); err != nil {
				t.Fatal(err)
			}
			// Request 2 carries the assistant turns of requests 0 and 1.
			want := []string{"", "", ""}
			if tc.want {
				want = []string{"Compute it first.", "Compute it first.", "Now check it."}
			}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("reasoning sent back %q, want %q", got, want)
			}
		})
	}
}
