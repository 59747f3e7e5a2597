package fsbridge_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/runtime"
)

// An operator exposes a read-only data folder and a host function at
// /network/current-ip, runs Python, and gets back what it wrote to /output
// and what it was refused.
func Example() {
	data, _ := os.MkdirTemp("", "data")
	defer os.RemoveAll(data)
	os.WriteFile(filepath.Join(data, "hello.txt"), []byte("hello"), 0o644)

	sb, err := fsbridge.New(fsbridge.Policy{
		Mounts: []fsbridge.Mount{fsbridge.ReadOnlyMount(data, "/data")},
		Virtual: []fsbridge.VirtualMount{{
			Guest: "/network",
			Fetcher: fsbridge.FetcherFunc(func(ctx context.Context, name string) ([]byte, error) {
				return []byte("203.0.113.7"), nil // e.g. ask a service the guest cannot reach
			}),
		}},
		Limits: fsbridge.Limits{FileSize: 10 << 20},
	})
	if err != nil {
		panic(err)
	}
	defer sb.Close() // removes the temporary /output: read artifacts first

	ctx := context.Background()
	sb.BeginRun(ctx)
	res, err := engine.Run(ctx, runtime.Request{FS: sb.FS(), Code: `
ip = open('/network/current-ip').read()
with open('/output/ip.txt', 'w') as f:
    f.write(ip + '\n')
try:
    open('/data/hello.txt', 'w')
except OSError as e:
    print(type(e).__name__)
`})
	if err != nil {
		panic(err)
	}
	fmt.Print(string(res.Stdout))
	arts, _ := sb.Artifacts()
	for _, a := range arts {
		fmt.Println(a.Path, a.Size, a.MIME)
	}
	for _, d := range sb.Denials() {
		fmt.Println(d.Message)
	}
	// Output:
	// OSError
	// /output/ip.txt 12 text/plain; charset=utf-8
	// write denied: /data/hello.txt is on a read-only mount (/data)
}
