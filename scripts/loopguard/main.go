// Command loopguard instruments a WebAssembly module so that the host can stop
// a guest stuck in a loop by setting an exported global (see package
// internal/loopguard for how and why).
//
// Usage:
//
//	go run ./scripts/loopguard -in python.wasm -out python.guarded.wasm [-skip name1,name2] [-strip] [-yield N] [-countdown batched|outlined|local|inline] [-batch N] [-global pybox_loop_kill]
//
// -yield N (default 16384) makes guarded loops leave native code every N
// iterations so that Go's GC and scheduler can preempt a spinning guest;
// -yield 0 turns that off and inserts only the kill-switch check, in which
// case a garbage collection that starts while the guest spins hangs the host
// process (see loopguard.Options.YieldEvery). Yielding needs a memory.
//
// -countdown outlined moves each loop's yield call out of the loop;
// -countdown batched (the default) does the same, and each nest of loops
// counts in a local, taking -batch N (default 64) iterations from the shared
// countdown at a time; -countdown local also keeps the countdown in a local variable of each
// instrumented function, synchronised with the shared global around calls and
// returns; -countdown inline is the original check (see loopguard.Options
// Outline, Batch and LocalCountdown, and scripts/bench/loopguard.sh).
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/pybox-dev/pybox/internal/loopguard"
)

func main() {
	in := flag.String("in", "", "input .wasm file (required)")
	out := flag.String("out", "", "output .wasm file (required)")
	skip := flag.String("skip", "", "comma-separated function names (from the name section) whose loops are not instrumented")
	strip := flag.Bool("strip", false, "drop all custom sections (name, producers, DWARF debug info) from the output")
	global := flag.String("global", loopguard.DefaultGlobalName, "export name of the added kill-switch global")
	yield := flag.Uint("yield", 16384, "leave native code every N loop iterations (memory.grow 0) so the Go GC/scheduler can preempt a spinning guest; 0 = off (unsafe: a GC during a spin hangs the host)")
	countdown := flag.String("countdown", "batched", "how loops count down to the next yield: batched (outlined, and each nest of loops counts in a local, taking -batch iterations from the global at a time), outlined (the global, with the yield call moved out of the loop), local (outlined, and the count in a local of each function, synced with the global around calls) or inline (the global, the yield call inside the loop)")
	batch := flag.Uint("batch", 64, "with -countdown batched: iterations a nest of loops counts in its local before it takes them from the shared countdown")
	flag.Parse()
	if *in == "" || *out == "" || flag.NArg() != 0 || *yield > 1<<31-1 || *batch < 1 || *batch > 1<<31-2 ||
		(*countdown != "batched" && *countdown != "local" && *countdown != "outlined" && *countdown != "inline") {
		fmt.Fprintln(os.Stderr, "usage: loopguard -in IN.wasm -out OUT.wasm [-skip name1,name2] [-strip] [-yield N] [-countdown batched|outlined|local|inline] [-batch N] [-global NAME]")
		flag.PrintDefaults()
		os.Exit(2)
	}

	opts := loopguard.Options{GlobalName: *global, StripCustomSections: *strip, YieldEvery: uint32(*yield), LocalCountdown: *countdown == "local", Outline: *countdown == "outlined" || *countdown == "batched"}
	if *countdown == "batched" {
		opts.Batch = uint32(*batch)
	}
	for _, name := range strings.Split(*skip, ",") {
		if name = strings.TrimSpace(name); name != "" {
			opts.SkipFunctions = append(opts.SkipFunctions, name)
		}
	}

	wasm, err := os.ReadFile(*in)
	if err != nil {
		fail(err)
	}
	guarded, st, err := loopguard.Instrument(wasm, opts)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", *in, err) // err starts with "loopguard: "
		os.Exit(1)
	}
	if err := os.WriteFile(*out, guarded, 0o644); err != nil {
		fail(err)
	}
	fmt.Printf("%s -> %s (%d -> %d bytes)\n", *in, *out, len(wasm), len(guarded))
	fmt.Printf("functions:              %d\n", st.Functions)
	fmt.Printf("instrumented functions: %d\n", st.InstrumentedFunctions)
	fmt.Printf("loops:                  %d\n", st.Loops)
	name := opts.GlobalName
	if name == "" {
		name = loopguard.DefaultGlobalName
	}
	fmt.Printf("global:                 %q (index %d)\n", name, st.Global)
	if len(opts.SkipFunctions) > 0 {
		fmt.Printf("skipped:                %s\n", strings.Join(opts.SkipFunctions, ","))
	}
	// pybox snapshots interpreters as linear memory and globals: a module
	// that changes its tables at run time cannot be snapshotted that way.
	fmt.Printf("table writes:           %d\n", st.TableWrites)
	if opts.YieldEvery > 0 {
		fmt.Printf("yield every:            %d iterations (countdown global %d)\n", opts.YieldEvery, st.Global+1)
		fmt.Printf("countdown:              %s (%d loops outlined, %d functions keep it in a local, %d loops batched by %d, %d of them counted by their own exit test)\n", *countdown, st.OutlinedLoops, st.LocalFunctions, st.BatchedLoops, opts.Batch, st.ChunkedLoops)
	} else {
		fmt.Fprintln(os.Stderr, "loopguard: warning: -yield 0: a GC that starts while the guest spins will hang the host (see -help)")
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "loopguard:", err)
	os.Exit(1)
}
