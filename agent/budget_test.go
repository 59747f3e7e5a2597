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
