package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pybox-dev/pybox/packages"
	"github.com/pybox-dev/pybox/runtime"
)

// stepResult is what a test's engine preparation step hands back.
type stepResult struct {
	eng *runtime.Engine
	err error
}

// mcpInProcess serves `pybox mcp` in this process over pipes, with the
// engine's background preparation replaced by a step that reports it has
// begun (began) and then waits for finish to say how it ends. It returns
// a client that has initialized.
func mcpInProcess(t *testing.T) (cs *mcp.ClientSession, began <-chan struct{}, finish chan<- func() stepResult, progress <-chan *mcp.ProgressNotificationParams) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	beganc := make(chan struct{})
	finishc := make(chan func() stepResult, 1)
	var f serveFlags
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	f.register(fs, false)
	if err := fs.Parse(nil); err != nil {
		t.Fatal(err)
	}
	f.noPreload, f.quiet = true, true
	f.start = func(ctx context.Context, rc runtime.Config, quiet bool) (*runtime.Engine, error) {
		close(beganc)
		select {
		case step := <-finishc:
			r := step()
			return r.eng, r.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	s, cleanup, err := f.server(ctx, "mcp", slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- s.ServeStdio(ctx, inR, outW) }()
	prog := make(chan *mcp.ProgressNotificationParams, 100)
	c := mcp.NewClient(&mcp.Implementation{Name: "mcpstart-test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			select {
			case prog <- req.Params:
			default:
			}
		},
	})
	cs, err = c.Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil) // initialize
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
		<-served
		cleanup()
	})
	return cs, beganc, finishc, prog
}

// `pybox mcp` answers initialize and tools/list on an empty cache folder
// while the engine's preparation has begun and not finished (the step
// below waits for the test), with the bundle's packages in the
// descriptions and nothing unpacked into the cache folder for them. A tool
// call then waits, with progress notifications, and gets the error that
// ended the preparation.
func TestMCPAnswersWhilePreparing(t *testing.T) {
	cache := t.TempDir()
	t.Setenv(packages.CacheDirEnv, cache)
	t.Setenv(packages.BundleEnv, "")
	cs, began, finish, progress := mcpInProcess(t)
	tl, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	desc := ""
	for _, tool := range tl.Tools {
		if tool.Name == "execute_python" {
			desc = tool.Description
		}
	}
	if !strings.Contains(desc, "standard library: numpy, pandas, ") {
		t.Errorf("execute_python's description lacks the bundle's packages:\n%s", desc)
	}
	<-began // the preparation is under way, and waits for this test
	if ents, _ := os.ReadDir(cache); len(ents) != 0 {
		t.Errorf("the cache folder was written before the tools were listed: %v", ents)
	}
	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		params := &mcp.CallToolParams{Name: "execute_python", Arguments: map[string]any{"code": "print(6*7)"}}
		params.SetProgressToken("first")
		res, err := cs.CallTool(context.Background(), params)
		if err != nil {
			res = &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "protocol error: " + err.Error()}}}
		}
		done <- res
	}()
	if p := <-progress; p.ProgressToken != "first" || !strings.Contains(p.Message, "Python runtime") {
		t.Errorf("progress while waiting: %+v", p)
	}
	finish <- func() stepResult {
		return stepResult{err: errors.New("unpack the runtime bundle: no space left on device")}
	}
	res := <-done
	if msg := resultText(res); !res.IsError || !strings.Contains(msg, "the Python runtime could not be started") || !strings.Contains(msg, "no space left on device") {
		t.Errorf("call after the preparation failed: %s", msg)
	}
}

// A tool call made while the engine is being prepared waits for it and
// then runs.
func TestMCPCallWaitsForTheEngine(t *testing.T) {
	cs, began, finish, progress := mcpInProcess(t)
	<-began
	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		params := &mcp.CallToolParams{Name: "execute_python", Arguments: map[string]any{"code": "print(6*7)"}}
		params.SetProgressToken("waits")
		res, err := cs.CallTool(context.Background(), params)
		if err != nil {
			res = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
		}
		done <- res
	}()
	<-progress // the call is waiting
	finish <- func() stepResult {
		// The real preparation, on the tests' warm cache folder.
		eng, err := startEngine(context.Background(), runtime.Config{NoSnapshot: true}, true)
		return stepResult{eng, err}
	}
	res := <-done
	if res.IsError || !strings.Contains(resultText(res), "42") {
		t.Fatalf("call after the engine came: %s", resultText(res))
	}
}

func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
