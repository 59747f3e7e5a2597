package agent_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pybox-dev/pybox/agent"
	"github.com/pybox-dev/pybox/agent/tools"
	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/internal/fakellm"
	"github.com/pybox-dev/pybox/runtime"
)

var engine *runtime.Engine

func TestMain(m *testing.M) {
	ctx := context.Background()
	var err error
	engine, err = runtime.NewEngine(ctx, runtime.Config{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "NewEngine:", err)
		os.Exit(1)
	}
	code := m.Run()
	engine.Close(ctx)
	os.Exit(code)
}

// newBox makes a Box with the given policy (temporary folders under the
// test's temp dir).
func newBox(t *testing.T, p fsbridge.Policy) *tools.Box {
	t.Helper()
	if p.TempDir == "" {
		p.TempDir = t.TempDir()
	}
	b, err := tools.New(tools.Config{Engine: engine, Policy: p, Limits: runtime.Limits{Timeout: 30 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func args(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func py(t *testing.T, code string) string { return args(t, map[string]string{"code": code}) }

func config(srv *fakellm.Server, box *tools.Box) agent.Config {
	return agent.Config{BaseURL: srv.BaseURL(), APIKey: "test", Model: "scripted", Box: box, MaxTurns: 10}
}

func TestToolCallThenAnswer(t *testing.T) {
	for _, format := range []fakellm.Format{fakellm.Qwen, fakellm.GPTOSS} {
		t.Run(fmt.Sprint(format), func(t *testing.T) {
			srv := fakellm.New(func(n int, req *fakellm.Request) fakellm.Reply {
				switch n {
				case 0:
					return fakellm.Reply{Format: format, Reasoning: "I should compute it.", Content: "Let me compute.",
						Calls: []fakellm.Call{{Name: "execute_python", Arguments: py(t, "print('ünïcode', 6 * 7)")}}}
				default:
					res := req.Last("tool")
					return fakellm.Reply{Format: format, Content: "The tool said: " + res.Text}
				}
			})
			defer srv.Close()
			var text, reasoning strings.Builder
			var events []agent.EventKind
			cfg := config(srv, newBox(t, fsbridge.Policy{}))
			cfg.OnEvent = func(e agent.Event) {
				events = append(events, e.Kind)
				switch e.Kind {
				case agent.EventText:
					text.WriteString(e.Text)
				case agent.EventReasoning:
					reasoning.WriteString(e.Text)
				}
			}
			out, err := agent.Run(context.Background(), cfg, "what is 6*7?")
			if err != nil {
				t.Fatal(err)
			}
			if out.Reason != agent.StopAnswer || out.Turns != 2 || !strings.Contains(out.Answer, "ünïcode 42") {
				t.Fatalf("outcome %+v", out)
			}
			if !strings.Contains(text.String(), "Let me compute.The tool said: status: ok") {
				t.Errorf("streamed text %q", text.String())
			}
			if format == fakellm.GPTOSS && reasoning.String() != "I should compute it." {
				t.Errorf("reasoning %q", reasoning.String())
			}
			reqs := srv.Requests()
			if len(reqs) != 2 || len(reqs[0].Tools) != 7 || reqs[0].Messages[0].Role != "system" || reqs[0].Messages[1].Text != "what is 6*7?" {
				t.Fatalf("requests: %+v", reqs)
			}
			asst := reqs[1].Last("assistant")
			if len(asst.Calls) != 1 || reqs[1].ToolResult(asst.Calls[0].ID) == nil || asst.Calls[0].Arguments != py(t, "print('ünïcode', 6 * 7)") {
				t.Fatalf("assistant message / tool result do not match: %+v", reqs[1].Messages)
			}
		})
	}
}

// Parallel tool calls, streamed as vLLM does (interleaved by index for
// Qwen, whole for GPT-OSS): each gets its own result, in order.
func TestParallelToolCalls(t *testing.T) {
	for _, format := range []fakellm.Format{fakellm.Qwen, fakellm.GPTOSS} {
		t.Run(fmt.Sprint(format), func(t *testing.T) {
			srv := fakellm.New(func(n int, req *fakellm.Request) fakellm.Reply {
				if n == 0 {
					return fakellm.Reply{Format: format, Calls: []fakellm.Call{
						{Name: "execute_python", Arguments: py(t, "open('/output/a.txt', 'w').write('A')\nprint('one')")},
						{Name: "execute_python", Arguments: py(t, "print('two', open('/output/a.txt').read())")},
						{Name: "help", Arguments: ""},
					}}
				}
				return fakellm.Reply{Format: format, Content: "done"}
			})
			defer srv.Close()
			out, err := agent.Run(context.Background(), config(srv, newBox(t, fsbridge.Policy{})), "parallel")
			if err != nil {
				t.Fatal(err)
			}
			req := srv.Requests()[1]
			asst := req.Last("assistant")
			if len(asst.Calls) != 3 {
				t.Fatalf("calls: %+v", asst.Calls)
			}
			want := []string{"--- stdout ---\none", "--- stdout ---\ntwo A", "Topics"}
			var toolMsgs []fakellm.Message
			for _, m := range req.Messages {
				if m.Role == "tool" {
					toolMsgs = append(toolMsgs, m)
				}
			}
			for i, c := range asst.Calls {
				if toolMsgs[i].ToolCallID != c.ID || !strings.Contains(toolMsgs[i].Text, want[i]) {
					t.Errorf("tool message %d (%s): %q, want %q", i, c.ID, toolMsgs[i].Text, want[i])
				}
			}
			if len(out.Files) != 1 || out.Files[0].Path != "/output/a.txt" || out.Files[0].Size != 1 {
				t.Errorf("files %+v", out.Files)
			}
		})
	}
}

// Malformed arguments become a tool error the model reads; it then sends a
// good call and finishes.
func TestMalformedArguments(t *testing.T) {
	srv := fakellm.New(func(n int, req *fakellm.Request) fakellm.Reply {
		switch n {
		case 0:
			return fakellm.Reply{Calls: []fakellm.Call{{Name: "execute_python", Arguments: `{"code": "print(1)`}}}
		case 1:
			res := req.Last("tool")
			if !strings.Contains(res.Text, "JSON") {
				return fakellm.Reply{Content: "no error seen: " + res.Text}
			}
			return fakellm.Reply{Calls: []fakellm.Call{{Name: "execute_python", Arguments: py(t, "print('fixed')")}}}
		default:
			return fakellm.Reply{Content: "recovered: " + req.Last("tool").Text}
		}
	})
	defer srv.Close()
	out, err := agent.Run(context.Background(), config(srv, newBox(t, fsbridge.Policy{})), "x")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Answer, "recovered: status: ok") || !strings.Contains(out.Answer, "fixed") {
		t.Fatalf("answer %q", out.Answer)
	}
	// The bad arguments went back in the history as valid JSON.
	bad := srv.Requests()[1].Last("assistant").Calls[0].Arguments
	if !json.Valid([]byte(bad)) || !strings.Contains(bad, `print(1)`) {
		t.Errorf("history arguments %q", bad)
	}
	t.Logf("tool error the model read: %s", srv.Requests()[1].Last("tool").Text)
}

// A Qwen model served without a tool parser writes <tool_call> as text.
func TestHermesToolCallInText(t *testing.T) {
	srv := fakellm.New(func(n int, req *fakellm.Request) fakellm.Reply {
		if n == 0 {
			return fakellm.Reply{Content: "Running.\n<tool_call>\n{\"name\": \"execute_python\", \"arguments\": {\"code\": \"print(2**10)\"}}\n</tool_call>"}
		}
		return fakellm.Reply{Content: req.Last("tool").Text}
	})
	defer srv.Close()
	cfg := config(srv, newBox(t, fsbridge.Policy{}))
	var shown strings.Builder
	cfg.OnEvent = func(e agent.Event) {
		if e.Kind == agent.EventText {
			shown.WriteString(e.Text)
		}
	}
	out, err := agent.Run(context.Background(), cfg, "x")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Answer, "1024") {
		t.Fatalf("answer %q", out.Answer)
	}
	// The call written as text is not shown as if it were the answer.
	if got := shown.String(); !strings.HasPrefix(got, "Running.") || strings.Contains(got, "tool_call") || strings.Contains(got, "print(2**10)") {
		t.Errorf("streamed text %q", got)
	}
}

// An image the code saves is looked at with describe: it comes back as an
// image_url data URL in a user message after the tool message.
func TestDescribeSendsImage(t *testing.T) {
	srv := fakellm.New(func(n int, req *fakellm.Request) fakellm.Reply {
		switch n {
		case 0:
			return fakellm.Reply{Calls: []fakellm.Call{{Name: "execute_python", Arguments: py(t,
				"from PIL import Image\nImage.new('RGB', (40, 30), 'red').save('/output/red.png')")}}}
		case 1:
			return fakellm.Reply{Calls: []fakellm.Call{{Name: "describe", Arguments: `{"path": "/output/red.png", "question": "what colour?"}`}}}
		default:
			return fakellm.Reply{Content: "It is red."}
		}
	})
	defer srv.Close()
	out, err := agent.Run(context.Background(), config(srv, newBox(t, fsbridge.Policy{})), "draw")
	if err != nil {
		t.Fatal(err)
	}
	req := srv.Requests()[2]
	last := req.Messages[len(req.Messages)-1]
	if last.Role != "user" || len(last.Images) != 1 || !strings.Contains(last.Text, "/output/red.png") {
		t.Fatalf("last message %+v", last)
	}
	img := decodeDataPNG(t, last.Images[0])
	if b := img.Bounds(); b.Dx() != 40 || b.Dy() != 30 {
		t.Errorf("image size %v", b)
	}
	if r, g, _, _ := img.At(5, 5).RGBA(); r>>8 != 255 || g != 0 {
		t.Errorf("pixel %v", img.At(5, 5))
	}
	if len(out.Files) != 1 || out.Files[0].MIME != "image/png" || out.Files[0].HostPath == "" {
		t.Errorf("files %+v", out.Files)
	}
	// With NoImages the model gets no image message, and describe does
	// not promise one.
	srv2 := fakellm.New(func(n int, req *fakellm.Request) fakellm.Reply {
		switch n {
		case 0:
			return fakellm.Reply{Calls: []fakellm.Call{{Name: "execute_python", Arguments: py(t,
				"from PIL import Image\nImage.new('RGB', (4, 3)).save('/output/b.png')")}}}
		case 1:
			return fakellm.Reply{Calls: []fakellm.Call{{Name: "describe", Arguments: `{"path": "/output/b.png"}`}}}
		}
		return fakellm.Reply{Content: "ok"}
	})
	defer srv2.Close()
	cfg := config(srv2, newBox(t, fsbridge.Policy{}))
	cfg.NoImages = true
	if _, err := agent.Run(context.Background(), cfg, "draw"); err != nil {
		t.Fatal(err)
	}
	for _, m := range srv2.Requests()[2].Messages {
		if len(m.Images) > 0 {
			t.Errorf("image sent with NoImages")
		}
	}
	if d := srv2.Requests()[2].Last("tool"); d == nil || strings.Contains(d.Text, "image follows") || !strings.Contains(d.Text, "not shown") {
		t.Errorf("describe result with NoImages: %+v", d)
	}
}

func decodeDataPNG(t *testing.T, url string) image.Image {
	t.Helper()
	const prefix = "data:image/png;base64,"
	if !strings.HasPrefix(url, prefix) {
		t.Fatalf("not a PNG data URL: %.40s", url)
	}
	data, err := base64.StdEncoding.DecodeString(url[len(prefix):])
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// Scenario 1 of the mission: find the current IP (served by the host at
// /network/current-ip) and make an image of it with Pillow.
func TestScenarioIPToPNG(t *testing.T) {
	ipServer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "203.0.113.42\n")
	}))
	defer ipServer.Close()
	code := `from PIL import Image, ImageDraw
ip = open('/network/current-ip').read().strip()
img = Image.new('RGB', (360, 80), 'white')
d = ImageDraw.Draw(img)
d.text((20, 30), 'My IP: ' + ip, fill='black')
img.save('/output/ip_address.png')
print(ip)`
	srv := fakellm.New(func(n int, req *fakellm.Request) fakellm.Reply {
		if n == 0 {
			return fakellm.Reply{Format: fakellm.GPTOSS, Reasoning: "Read /network/current-ip, draw it.",
				Calls: []fakellm.Call{{Name: "execute_python", Arguments: py(t, code)}}}
		}
		ip := regexp.MustCompile(`\d+\.\d+\.\d+\.\d+`).FindString(req.Last("tool").Text)
		return fakellm.Reply{Format: fakellm.GPTOSS, Content: "Your IP is " + ip + "; the image is /output/ip_address.png."}
	})
	defer srv.Close()
	box := newBox(t, fsbridge.Policy{Virtual: []fsbridge.VirtualMount{{
		Guest:   "/network",
		Fetcher: &fsbridge.HTTPFetcher{Routes: map[string]string{"current-ip": ipServer.URL}},
	}}})
	cfg := config(srv, box)
	cfg.NoImages = true // GPT-OSS reads text only
	out, err := agent.Run(context.Background(), cfg, "Find my current IP and make an image of it")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Answer, "203.0.113.42") {
		t.Fatalf("answer %q", out.Answer)
	}
	if len(out.Files) != 1 || out.Files[0].Path != "/output/ip_address.png" {
		t.Fatalf("files %+v", out.Files)
	}
	f, err := os.Open(out.Files[0].HostPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 360 || b.Dy() != 80 {
		t.Fatalf("size %v", b)
	}
	dark := 0
	for y := 0; y < 80; y++ {
		for x := 0; x < 360; x++ {
			if r, _, _, _ := img.At(x, y).RGBA(); r < 0x8000 {
				dark++
			}
		}
	}
	if dark < 50 {
		t.Errorf("only %d dark pixels: no text drawn", dark)
	}
}

// Scenario 2: a CSV in a read-only folder, a numpy correlation.
func TestScenarioCSVCorrelation(t *testing.T) {
	dir := t.TempDir()
	var csv strings.Builder
	csv.WriteString("speed_limit,rain_mm,accidents\n")
	var xs, ys []float64
	for i := 0; i < 200; i++ {
		speed := float64(30 + (i*7)%90)
		rain := float64((i * 13) % 40)
		acc := 0.05*speed + 0.02*rain + float64((i*31)%11)/3
		fmt.Fprintf(&csv, "%g,%g,%.4f\n", speed, rain, acc)
		xs = append(xs, speed)
		ys = append(ys, math.Round(acc*1e4)/1e4)
	}
	if err := os.WriteFile(filepath.Join(dir, "traffic_accidents.csv"), []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	want := pearson(xs, ys)
	code := `import csv, numpy as np
rows = list(csv.DictReader(open('/data/traffic_accidents.csv')))
acc = np.array([float(r['accidents']) for r in rows])
for col in ('speed_limit', 'rain_mm'):
    x = np.array([float(r[col]) for r in rows])
    print(col, round(float(np.corrcoef(x, acc)[0, 1]), 4))`
	srv := fakellm.New(func(n int, req *fakellm.Request) fakellm.Reply {
		if n == 0 {
			return fakellm.Reply{Calls: []fakellm.Call{{Name: "execute_python", Arguments: py(t, code)}}}
		}
		m := regexp.MustCompile(`speed_limit (-?[0-9.]+)`).FindStringSubmatch(req.Last("tool").Text)
		if m == nil {
			return fakellm.Reply{Content: "failed: " + req.Last("tool").Text}
		}
		return fakellm.Reply{Content: "Speed limit correlates most with accidents (r = " + m[1] + ")."}
	})
	defer srv.Close()
	box := newBox(t, fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadOnlyMount(dir, "/data")}})
	out, err := agent.Run(context.Background(), config(srv, box), "Use traffic_accidents.csv: what factors contribute most to accident frequency?")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Answer, fmt.Sprintf("r = %.4f", want)) {
		t.Fatalf("answer %q, want r = %.4f", out.Answer, want)
	}
}

func pearson(x, y []float64) float64 {
	n := float64(len(x))
	var sx, sy, sxx, syy, sxy float64
	for i := range x {
		sx += x[i]
		sy += y[i]
		sxx += x[i] * x[i]
		syy += y[i] * y[i]
		sxy += x[i] * y[i]
	}
	return (n*sxy - sx*sy) / math.Sqrt((n*sxx-sx*sx)*(n*syy-sy*sy))
}

// Confirmation: a denial with a reason reaches the model as the tool
// result, and the code does not run.
func TestDenyWithReason(t *testing.T) {
	work := t.TempDir()
	srv := fakellm.New(func(n int, req *fakellm.Request) fakellm.Reply {
		switch n {
		case 0:
			return fakellm.Reply{Calls: []fakellm.Call{{Name: "execute_python", Arguments: py(t, "open('/work/ran', 'w').write('x')")}}}
		case 1:
			return fakellm.Reply{Calls: []fakellm.Call{{Name: "ls", Arguments: `{"path": "/work"}`}}}
		default:
			return fakellm.Reply{Content: "I was told: " + req.Messages[len(req.Messages)-3].Text}
		}
	})
	defer srv.Close()
	var asked []agent.ApprovalRequest
	cfg := config(srv, newBox(t, fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadWriteMount(work, "/work")}}))
	cfg.Approver = agent.ApproverFunc(func(_ context.Context, req agent.ApprovalRequest) (agent.Decision, error) {
		asked = append(asked, req)
		return agent.Decision{Reason: "do not write files in /work"}, nil
	})
	out, err := agent.Run(context.Background(), cfg, "x")
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) != 1 || !strings.Contains(asked[0].Code, "/work/ran") {
		t.Fatalf("approver asked %+v (ls needs no approval)", asked)
	}
	if !strings.Contains(out.Answer, "The user denied this call; it did not run. Their reason: do not write files in /work") {
		t.Fatalf("answer %q", out.Answer)
	}
	if _, err := os.Stat(filepath.Join(work, "ran")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("denied code ran: %v", err)
	}
}

func TestMaxTurns(t *testing.T) {
	srv := fakellm.New(func(n int, req *fakellm.Request) fakellm.Reply {
		return fakellm.Reply{Content: fmt.Sprintf("turn %d", n), Calls: []fakellm.Call{{Name: "help", Arguments: "{}"}}}
	})
	defer srv.Close()
	cfg := config(srv, newBox(t, fsbridge.Policy{}))
	cfg.MaxTurns = 3
	out, err := agent.Run(context.Background(), cfg, "loop forever")
	if err != nil {
		t.Fatal(err)
	}
	if out.Reason != agent.StopMaxTurns || out.Turns != 3 || out.Answer != "turn 2" || len(srv.Requests()) != 3 {
		t.Fatalf("outcome %+v, %d requests", out, len(srv.Requests()))
	}
}

// A failing endpoint: 500s are retried, a 400 is not.
func TestModelErrors(t *testing.T) {
	var n atomic.Int32
	srv := fakellm.New(func(i int, req *fakellm.Request) fakellm.Reply {
		n.Add(1)
		if i == 0 {
			return fakellm.Reply{Status: 503}
		}
		return fakellm.Reply{Content: "ok"}
	})
	defer srv.Close()
	cfg := config(srv, newBox(t, fsbridge.Policy{}))
	cfg.RequestOptions = nil
	out, err := agent.Run(context.Background(), cfg, "x")
	if err != nil || out.Answer != "ok" {
		t.Fatalf("%v %+v", err, out)
	}
	bad := fakellm.New(func(int, *fakellm.Request) fakellm.Reply { return fakellm.Reply{Status: 400} })
	defer bad.Close()
	_, err = agent.Run(context.Background(), config(bad, newBox(t, fsbridge.Policy{})), "x")
	if err == nil || !strings.Contains(err.Error(), "400") {
		t.Fatalf("err %v", err)
	}
}

// Servers that number tool calls call_0, call_1 in every response: each
// call still runs, and gets its own result.
func TestRepeatedCallIDs(t *testing.T) {
	srv := fakellm.New(func(n int, req *fakellm.Request) fakellm.Reply {
		if n < 2 {
			return fakellm.Reply{Calls: []fakellm.Call{{ID: "call_0", Name: "execute_python", Arguments: py(t, fmt.Sprintf("print('run %d')", n))}}}
		}
		var texts []string
		for _, m := range req.Messages {
			if m.Role == "tool" {
				texts = append(texts, m.ToolCallID+"="+strings.Split(m.Text, "\n")[2])
			}
		}
		return fakellm.Reply{Content: strings.Join(texts, ";")}
	})
	defer srv.Close()
	out, err := agent.Run(context.Background(), config(srv, newBox(t, fsbridge.Policy{})), "x")
	if err != nil {
		t.Fatal(err)
	}
	if out.Answer != "call_0=run 0;pybox_call_2_0=run 1" {
		t.Fatalf("answer %q", out.Answer)
	}
}

// A matplotlib figure left open by execute_python reaches the model as an
// image, without describe.
func TestFigureReachesModel(t *testing.T) {
	found := false
	for _, s := range engine.Bundle().Manifest.Sources {
		found = found || strings.EqualFold(s.Name, "matplotlib")
	}
	if !found {
		t.Skip("the runtime bundle's manifest lists no matplotlib: nothing to test (set PYBOX_BUNDLE to a bundle with it)")
	}
	srv := fakellm.New(func(n int, req *fakellm.Request) fakellm.Reply {
		if n == 0 {
			return fakellm.Reply{Calls: []fakellm.Call{{Name: "execute_python", Arguments: py(t,
				"import matplotlib.pyplot as plt\nplt.figure(figsize=(2, 1.5), dpi=40)\nplt.plot([1, 3, 2])")}}}
		}
		return fakellm.Reply{Content: "A line."}
	})
	defer srv.Close()
	out, err := agent.Run(context.Background(), config(srv, newBox(t, fsbridge.Policy{})), "plot")
	if err != nil {
		t.Fatal(err)
	}
	req := srv.Requests()[1]
	last := req.Messages[len(req.Messages)-1]
	if last.Role != "user" || len(last.Images) != 1 || !strings.Contains(last.Text, "/output/figure-1.png") {
		t.Fatalf("last message %+v", last)
	}
	decodeDataPNG(t, last.Images[0])
	if len(out.Files) != 1 || out.Files[0].Path != "/output/figure-1.png" || out.Files[0].HostPath == "" {
		t.Errorf("files %+v", out.Files)
	}
}
