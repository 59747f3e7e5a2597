package serve_test

import (
	"context"
	"log"
	"net"
	"os"
	"os/signal"

	"github.com/pybox-dev/pybox/agent/serve"
	"github.com/pybox-dev/pybox/agent/tools"
	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/runtime"
)

// A server for MCP clients and HTTP callers, with a read-only data folder,
// shut down gracefully on Ctrl-C.
func Example() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	eng, err := runtime.NewEngine(ctx, runtime.Config{WarmPool: 2})
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close(context.Background())
	srv, err := serve.New(serve.Config{
		Box: tools.Config{
			Engine: eng,
			Policy: fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadOnlyMount("/srv/data", "/data")}},
		},
		Token: os.Getenv("PYBOX_TOKEN"),
	})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := serve.CheckAddr(serve.DefaultAddr, os.Getenv("PYBOX_TOKEN") != ""); err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", serve.DefaultAddr)
	if err != nil {
		log.Fatal(err)
	}
	// MCP at /mcp, the JSON API at /v1, /openapi.json.
	if err := srv.Serve(ctx, ln); err != nil {
		log.Fatal(err)
	}
}

// MCP over standard input and output, as `pybox mcp` does.
func ExampleServer_ServeStdio() {
	ctx := context.Background()
	eng, err := runtime.NewEngine(ctx, runtime.Config{})
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close(ctx)
	srv, err := serve.New(serve.Config{Box: tools.Config{Engine: eng}})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := srv.ServeStdio(ctx, os.Stdin, os.Stdout); err != nil {
		log.Fatal(err)
	}
}
