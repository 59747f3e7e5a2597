package runtime_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/packages"
	"github.com/pybox-dev/pybox/runtime"
)

// Run a snippet with a timeout and memory limit, streaming its output.
func ExampleEngine_Run() {
	ctx := context.Background()
	eng, err := runtime.NewEngine(ctx, runtime.Config{})
	if err != nil {
		fmt.Println("engine:", err)
		return
	}
	defer eng.Close(ctx)

	res, err := eng.Run(ctx, runtime.Request{
		Code:   "import statistics\nprint(statistics.mean([1, 2, 3, 4]))",
		Stdout: os.Stdout,
		Limits: runtime.Limits{Timeout: 5 * time.Second, Memory: 256 << 20},
	})
	if err != nil {
		fmt.Println("pybox could not run the code:", err)
		return
	}
	fmt.Println(res.Status, res.ExitCode)
	// Output:
	// 2.5
	// ok 0
}

// A runaway loop is interrupted: the partial output is kept and the result
// says why the run stopped.
func ExampleEngine_Run_timeout() {
	ctx := context.Background()
	eng, err := runtime.NewEngine(ctx, runtime.Config{})
	if err != nil {
		fmt.Println("engine:", err)
		return
	}
	defer eng.Close(ctx)

	res, _ := eng.Run(ctx, runtime.Request{
		Code:   "print('working', flush=True)\nwhile True:\n    pass\n",
		Limits: runtime.Limits{Timeout: 200 * time.Millisecond},
	})
	fmt.Printf("%s %q %s\n", res.Status, res.Stdout, res.Exception.Type)
	fmt.Println(res.Message)
	// Output:
	// timeout "working\n" KeyboardInterrupt
	// timed out after 200ms; output up to the interrupt is kept
}

// An engine for a model's data analysis: numpy, pandas and matplotlib are
// imported once, into the snapshot every run starts from, and the figures a
// run leaves open are saved into the sandbox's /output as PNG files (the
// policy's output folder on the host), as a notebook would show them.
// (Not run as a test: it needs a bundle with pandas and matplotlib.)
func ExampleRequest_figures() {
	ctx := context.Background()
	eng, err := runtime.NewEngine(ctx, runtime.Config{PreloadAnalysis: true, WarmPool: 2})
	if err != nil {
		fmt.Println("engine:", err)
		return
	}
	defer eng.Close(ctx)
	out, _ := os.MkdirTemp("", "figures")
	defer os.RemoveAll(out)
	sb, err := fsbridge.New(fsbridge.Policy{Output: out})
	if err != nil {
		fmt.Println("sandbox:", err)
		return
	}
	defer sb.Close()
	if err := sb.BeginRun(ctx); err != nil { // Artifacts lists what the run then changes
		fmt.Println("sandbox:", err)
		return
	}

	res, _ := eng.Run(ctx, runtime.Request{
		Code: `import pandas as pd
df = pd.DataFrame({"city": ["Oslo", "Lima"], "rain_mm": [763, 16]})
df.plot.bar(x="city", y="rain_mm")
df`,
		FS:      sb.FS(),
		Figures: "/output",
	})
	fmt.Println(res.Value) // the DataFrame as a table
	arts, _ := sb.Artifacts()
	for _, a := range arts {
		fmt.Println(a.Path, a.MIME) // /output/figure-1.png image/png
	}
}

// A desktop app shows the one-time compile of the runtime: Compiled says
// whether this start will compile (a minute or more, gigabytes of memory),
// and Progress is called when the compile starts and ends. (Not run as a
// test: its output depends on the state of the cache.)
func ExampleCompiled() {
	ctx := context.Background()
	bundle, err := packages.Default()
	if err != nil {
		fmt.Println("bundle:", err)
		return
	}
	if done, _ := runtime.Compiled("", bundle); !done {
		fmt.Println("first start: preparing Python, once")
	}
	eng, err := runtime.NewEngine(ctx, runtime.Config{
		Bundle: bundle,
		Progress: func(msg string) {
			if msg != "" {
				fmt.Println("status bar:", msg)
			}
		},
	})
	if err != nil {
		fmt.Println("engine:", err)
		return
	}
	defer eng.Close(ctx)
}
