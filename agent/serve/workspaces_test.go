package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/internal/manualclock"
)

// testIdle is the idle timeout of the tests below. They move their own
// clock; the wall-clock reaper ticks once a minute at this timeout and
// decides on the same clock, so it cannot change what they see.
const testIdle = time.Hour

// parking is a test server with one concurrency slot and a hand-moved
// clock, whose slot a call can be made to hold: a call that reads
// /block/NAME waits in the host until free is called. A request on another
// workspace then waits for the slot, after its lookup and before its use.
type parking struct {
	s       *Server
	a       *api
	clock   *manualclock.Clock
	entered chan string   // a call began reading /block/NAME
	queued  chan struct{} // a request began waiting for the slot
	taken   chan string   // a workspace was taken out of the set
	release chan struct{}
	once    sync.Once
}

func newParking(t *testing.T) *parking {
	p := &parking{
		clock:   manualclock.New(time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)),
		entered: make(chan string),
		queued:  make(chan struct{}, 16),
		taken:   make(chan string, 16),
		release: make(chan struct{}),
	}
	block := fsbridge.FetcherFunc(func(ctx context.Context, name string) ([]byte, error) {
		select {
		case p.entered <- name:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		select {
		case <-p.release:
			return []byte("unblocked"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	p.s = newServer(t, func(c *Config) {
		c.MaxConcurrent, c.QueueTimeout = 1, callBudget(t, 90)
		c.IdleTimeout, c.clock = testIdle, p.clock.Now
		c.Box.Policy.Virtual = []fsbridge.VirtualMount{{Guest: "/block", Fetcher: block}}
		c.onQueue = func() { p.queued <- struct{}{} }
		c.onTake = func(id string) { p.taken <- id }
	})
	p.a = newAPI(t, p.s)
	t.Cleanup(p.free) // a failed test must not leave a call blocked
	return p
}

// free lets the calls reading /block go on.
func (p *parking) free() { p.once.Do(func() { close(p.release) }) }

// hold starts a call in workspace id that holds the only slot until free.
func (p *parking) hold(id string) <-chan reply {
	c := p.send("POST", "/v1/execute", `{"code": "open('/block/x').read()", "workspace": "`+id+`"}`)
	<-p.entered
	return c
}

// reply is an HTTP answer received off the test goroutine.
type reply struct {
	status int
	body   string
	err    error
}

// send makes a request off the test goroutine; its answer comes on the
// channel.
func (p *parking) send(method, path, body string) <-chan reply {
	c := make(chan reply, 1)
	go func() {
		req, err := http.NewRequest(method, p.a.url+path, strings.NewReader(body))
		if err != nil {
			c <- reply{err: err}
			return
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			c <- reply{err: err}
			return
		}
		defer res.Body.Close()
		data, err := io.ReadAll(res.Body)
		c <- reply{res.StatusCode, string(data), err}
	}()
	return c
}

// open reports whether workspace id is open, without using it (the list
// holds none).
func (p *parking) open(id string) bool {
	return slices.ContainsFunc(p.s.ws.list(), func(w *workspace) bool { return w.id == id })
}

// A request that has looked its workspace up holds it until it is over:
// the idle reaper does not close it meanwhile, however long it was idle
// before, and closes it on a later pass once it is idle again. Each request
// here waits for the only slot after its lookup while the reaper runs.
// (Before, the reaper closed the workspace under a download, which then
// answered 404 for a file that was there; a call that had not yet
// registered got "the workspace was closed".)
func TestWorkspaceHeldByARequestIsNotReaped(t *testing.T) {
	for _, c := range []struct {
		name, method, path, body string
		want                     string // in the answer's body
	}{
		{"download", "GET", "/v1/workspaces/a/files/output/f.txt", "", "kept"},
		{"execute", "POST", "/v1/execute", `{"code": "open('/output/f.txt').read()", "workspace": "a"}`, `"value":"'kept'"`},
		{"ls", "GET", "/v1/workspaces/a/ls?path=/output", "", "f.txt"},
		{"read", "GET", "/v1/workspaces/a/read?path=/output/f.txt", "", "kept"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := newParking(t)
			p.a.json("POST", "/v1/execute", ExecuteRequest{Code: "open('/output/f.txt', 'w').write('kept')", Workspace: "a"}, 200, nil)
			blocker := p.hold("busy")
			got := p.send(c.method, c.path, c.body)
			<-p.queued // looked up, waiting for the slot

			p.clock.Advance(2 * testIdle)
			p.s.ws.reapIdle()
			if !p.open("a") {
				t.Errorf("the reaper closed workspace a while a request held it")
			}
			p.free()
			if r := <-got; r.err != nil || r.status != 200 || !strings.Contains(r.body, c.want) {
				t.Fatalf("%s %s: %d %v %s, want 200 with %s", c.method, c.path, r.status, r.err, r.body, c.want)
			}
			if r := <-blocker; r.status != 200 {
				t.Fatalf("the blocking call: %d %v %s", r.status, r.err, r.body)
			}

			// Idle again from the request's end: reaped after IdleTimeout.
			p.clock.Advance(testIdle)
			p.s.ws.reapIdle()
			if !p.open("a") {
				t.Fatalf("workspace a closed IdleTimeout after its request ended, not after")
			}
			p.clock.Advance(time.Millisecond)
			p.s.ws.reapIdle()
			if p.open("a") {
				t.Fatalf("workspace a still open past IdleTimeout after its last request")
			}
		})
	}
}

// A workspace looked up for a call is held for it: the reaper, run between
// the lookup and the call, leaves it open and the call runs. (Before, the
// call failed: "the workspace was closed".)
func TestWorkspaceLookupHoldsItForTheCall(t *testing.T) {
	p := newParking(t)
	p.a.json("POST", "/v1/execute", ExecuteRequest{Code: "x = 1", Workspace: "a"}, 200, nil)
	w, err := p.s.ws.get("a", "http", false)
	if err != nil {
		t.Fatal(err)
	}
	p.clock.Advance(2 * testIdle)
	p.s.ws.reapIdle()
	res, err := p.s.call(context.Background(), w, "execute_python", json.RawMessage(`{"code": "6 * 7"}`))
	w.release()
	if err != nil {
		t.Fatalf("call on a workspace looked up before the reaper ran: %v", err)
	}
	if er := res.Text(); !strings.Contains(er, "42") {
		t.Fatalf("result: %s", er)
	}
}

// Every request addressed to a workspace counts as a use and restarts its
// idle time: a GET of its status, sessions or files as well as a tool call.
// Listing all workspaces uses none.
func TestGetRefreshesWorkspaceIdle(t *testing.T) {
	for _, c := range []struct {
		name, path string
		use        bool
	}{
		{"status", "/v1/workspaces/a", true},
		{"sessions", "/v1/workspaces/a/sessions", true},
		{"download", "/v1/workspaces/a/files/output/f.txt", true},
		{"ls", "/v1/workspaces/a/ls?path=/output", true},
		{"read", "/v1/workspaces/a/read?path=/output/f.txt", true},
		{"list", "/v1/workspaces", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := newParking(t)
			p.a.json("POST", "/v1/execute", ExecuteRequest{Code: "open('/output/f.txt', 'w').write('x')", Workspace: "a"}, 200, nil)
			p.clock.Advance(testIdle) // idle exactly IdleTimeout: not yet reaped
			p.a.json("GET", c.path, nil, 200, nil)
			p.clock.Advance(time.Millisecond)
			p.s.ws.reapIdle()
			if open := p.open("a"); open != c.use {
				t.Fatalf("GET %s, then IdleTimeout+1ms after the last call: open %v, want %v", c.path, open, c.use)
			}
			if !c.use {
				return
			}
			p.clock.Advance(testIdle - time.Millisecond)
			p.s.ws.reapIdle()
			if !p.open("a") {
				t.Fatalf("closed IdleTimeout after GET %s, not after", c.path)
			}
			p.clock.Advance(time.Millisecond)
			p.s.ws.reapIdle()
			if p.open("a") {
				t.Fatalf("still open past IdleTimeout after GET %s", c.path)
			}
		})
	}
}

// An explicit DELETE wins over requests that hold the workspace: a call
// already running finishes (the DELETE waits for it), a request that has
// not started its call fails with workspace_closed naming the workspace, a
// download being sent goes on to its end. Once the workspace is taken out,
// before the DELETE has even returned, no request finds it.
func TestDeleteWorkspaceDuringARequest(t *testing.T) {
	// wait turns a request's answer channel into the wait for it.
	wait := func(c <-chan reply) func() reply { return func() reply { return <-c } }
	for _, c := range []struct {
		name string
		// start begins the request on workspace a and returns once it
		// holds it at the point the case is about; finish waits for its
		// answer, after the DELETE.
		start      func(t *testing.T, p *parking) (finish func() reply)
		wantStatus int
		want       string // in the answer's body
	}{
		{"execute running", func(t *testing.T, p *parking) func() reply {
			r := p.send("POST", "/v1/execute", `{"code": "print(open('/block/x').read())", "workspace": "a"}`)
			<-p.entered
			return wait(r)
		}, 200, `"stdout":"unblocked\n"`},
		{"execute waiting for a slot", func(t *testing.T, p *parking) func() reply {
			p.hold("busy")
			r := p.send("POST", "/v1/execute", `{"code": "1", "workspace": "a"}`)
			<-p.queued
			return wait(r)
		}, 410, "workspace a was closed"},
		{"download waiting for a slot", func(t *testing.T, p *parking) func() reply {
			p.hold("busy")
			r := p.send("GET", "/v1/workspaces/a/files/output/f.txt", "")
			<-p.queued
			return wait(r)
		}, 410, "workspace a was closed"},
		{"download being sent", func(t *testing.T, p *parking) func() reply {
			const size = 64 << 20
			p.a.json("POST", "/v1/execute", ExecuteRequest{Code: fmt.Sprintf("open('/output/big.bin', 'wb').truncate(%d)", size), Workspace: "a"}, 200, nil)
			res, err := http.Get(p.a.url + "/v1/workspaces/a/files/output/big.bin")
			if err != nil {
				t.Fatal(err)
			}
			if res.StatusCode != 200 || res.ContentLength != size {
				res.Body.Close()
				t.Fatalf("download: %d, %d bytes announced", res.StatusCode, res.ContentLength)
			}
			// The headers are out: the file is open and its body is being
			// sent. The client reads it once the DELETE has returned.
			return func() reply {
				defer res.Body.Close()
				n, err := io.Copy(io.Discard, res.Body)
				return reply{res.StatusCode, fmt.Sprintf("%d bytes", n), err}
			}
		}, 200, fmt.Sprintf("%d bytes", 64<<20)},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := newParking(t)
			p.a.json("POST", "/v1/execute", ExecuteRequest{Code: "open('/output/f.txt', 'w').write('x')", Workspace: "a"}, 200, nil)
			finish := c.start(t, p)
			deleted := p.send("DELETE", "/v1/workspaces/a", "")
			if id := <-p.taken; id != "a" {
				t.Fatalf("workspace %s taken out, want a", id)
			}
			// Taken out: no request finds it, even while the DELETE
			// waits for a running call.
			p.a.json("GET", "/v1/workspaces/a", nil, 404, nil)
			p.free()
			if r := <-deleted; r.status != 204 {
				t.Fatalf("DELETE: %d %v %s", r.status, r.err, r.body)
			}
			r := finish()
			if r.err != nil || r.status != c.wantStatus || !strings.Contains(r.body, c.want) {
				t.Fatalf("the request: %d %v %s, want %d with %q", r.status, r.err, r.body, c.wantStatus, c.want)
			}
			if c.wantStatus == 410 && !strings.Contains(r.body, `"workspace_closed"`) {
				t.Errorf("the request's error code: %s", r.body)
			}
			// After the DELETE: nothing of a is left to use.
			for _, path := range []string{"/v1/workspaces/a", "/v1/workspaces/a/files/output/f.txt", "/v1/workspaces/a/sessions"} {
				st, _, data := p.a.do("GET", path, nil)
				if st != 404 || errorCode(t, data) != "no_workspace" {
					t.Errorf("GET %s after the DELETE: %d %s", path, st, data)
				}
			}
		})
	}
}
