package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// finishingTransport wraps an MCP transport so that a connection keeps the
// promises of the protocol that the SDK leaves to it:
//
//   - when the input ends (stdin closed) while requests are still being
//     served, they are answered before the end is passed on, so
//     `printf '...' | pybox mcp` gets an answer to every request;
//   - a request the client cancelled (notifications/cancelled) gets no
//     response: the specification says the receiver should not send one,
//     and the SDK writes whatever the handler returns.
type finishingTransport struct {
	mcp.Transport
	conn *finishingConn // set by Connect
}

// Connect implements mcp.Transport.
func (t *finishingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	t.conn = &finishingConn{Connection: c, inflight: map[string]bool{}, cancelled: map[string]bool{}, idle: make(chan struct{})}
	return t.conn, nil
}

// finishingConn is a connection of finishingTransport.
type finishingConn struct {
	mcp.Connection

	mu        sync.Mutex
	inflight  map[string]bool // ids of requests read and not answered
	cancelled map[string]bool // of those, the ones the client cancelled
	idle      chan struct{}   // closed when inflight becomes empty; replaced when it fills
}

// idKey makes request ids comparable across their JSON forms (a number
// in a cancellation's params decodes as float64, an id as int64).
func idKey(v any) string {
	switch n := v.(type) {
	case float64:
		if n == float64(int64(n)) {
			return fmt.Sprint(int64(n))
		}
	}
	return fmt.Sprint(v)
}

// Read implements mcp.Connection.
func (c *finishingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err != nil {
		// The input is over. Let the calls still running answer first.
		if werr := c.waitIdle(ctx); werr != nil {
			return nil, werr
		}
		return nil, err
	}
	if req, ok := msg.(*jsonrpc.Request); ok {
		c.mu.Lock()
		switch {
		case req.ID.IsValid():
			if len(c.inflight) == 0 {
				c.idle = make(chan struct{})
			}
			c.inflight[idKey(req.ID.Raw())] = true
		case req.Method == "notifications/cancelled":
			var p struct {
				RequestID any `json:"requestId"`
			}
			if json.Unmarshal(req.Params, &p) == nil && p.RequestID != nil && c.inflight[idKey(p.RequestID)] {
				c.cancelled[idKey(p.RequestID)] = true
			}
		}
		c.mu.Unlock()
	}
	return msg, nil
}

// Write implements mcp.Connection.
func (c *finishingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if res, ok := msg.(*jsonrpc.Response); ok {
		key := idKey(res.ID.Raw())
		c.mu.Lock()
		drop := c.cancelled[key]
		delete(c.cancelled, key)
		if c.inflight[key] {
			delete(c.inflight, key)
			if len(c.inflight) == 0 {
				close(c.idle)
			}
		}
		c.mu.Unlock()
		if drop {
			return nil
		}
	}
	return c.Connection.Write(ctx, msg)
}

// waitIdle waits until every request read so far has been answered.
func (c *finishingConn) waitIdle(ctx context.Context) error {
	c.mu.Lock()
	if len(c.inflight) == 0 {
		c.mu.Unlock()
		return nil
	}
	idle := c.idle
	c.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
