// Package loopguard rewrites a WebAssembly binary so that a guest stuck in a
// loop can be stopped by the host.
//
// pybox runs CPython compiled to wasm32-wasi inside wazero. A guest that spins
// in a C loop never returns to the host, so context cancellation cannot reach
// it unless the runtime is built with wazero's WithCloseOnContextDone, which
// makes every guest call 3-4x slower. Instead, Instrument adds one exported,
// mutable i32 global (by default named "pybox_loop_kill", initial value 0) to
// the module and inserts, at the start of the body of every loop instruction
// of every function body,
//
//	global.get $pybox_loop_kill
//	if
//	  unreachable
//	end
//
// The sequence is stack neutral, so it is valid in any loop, including loops
// with parameters (multi-value). When the host sets the global to a non-zero
// value from another goroutine, for example with
//
//	mod.ExportedGlobal("pybox_loop_kill").(api.MutableGlobal).Set(1)
//
// the next loop iteration anywhere in the guest traps ("unreachable") and the
// wasm call that is in progress returns an error to the host.
//
// Go cannot preempt a goroutine while it runs wazero-compiled code. A guest
// that spins in a loop therefore holds its P, and a garbage collection (or
// any other stop-the-world) that starts meanwhile waits for it forever; the
// goroutine that would set the kill switch is stopped as well, so the whole
// process hangs. With GOMAXPROCS=1 that goroutine never runs in the first
// place. Set Options.YieldEvery (for example to 16384) to make the guarded
// loops leave native code periodically, which avoids both; see its
// documentation. With YieldEvery zero the inserted code is exactly the four
// instructions above.
//
// # Outlined loops and the local countdown
//
// With YieldEvery alone (scripts/loopguard -countdown inline), every loop
// decrements the countdown global in every iteration and calls into Go from
// inside its body. The global access is not what costs: wazero's
// optimizing compiler keeps globals in memory, but a loop that only reads
// the kill global costs nothing measurable. The cost is the call
// (memory.grow) inside the loop body, even on a path taken once in 16384
// iterations: a call clobbers every register, and the values that live
// across it apparently stay in stack slots. On a five-value loop over memory
// (BenchmarkLoopCost) an iteration took 1.43 ns instead of 0.73 ns
// unguarded and 0.78 ns with the kill check alone.
//
// Options.Outline wraps every loop without parameters so that its yield
// path lies outside it:
//
//	block $exit (type of the loop)
//	  loop $outer
//	    block $yield
//	      loop $l (type of the loop)
//	        countdown -= 1; br_if $yield (countdown == 0)
//	        ...the body, with labels outside $l renumbered...
//	      end
//	      br $exit
//	    end
//	    yield as before, setting the countdown to YieldEvery+1
//	    br $outer              ;; re-enters $l, which counts once more
//	  end
//	  unreachable              ;; only when the loop has results
//	end
//
// Re-entering $l from the top is the same as the iteration that was about to
// start, because the check is the first thing in its body, so the guest
// still yields every YieldEvery iterations. Loops with parameters
// (multi-value) and all loops of functions with exception handlers
// (try_table, try; their catch, delegate and rethrow labels would need
// renumbering too) keep the inline check. On BenchmarkLoopCost an iteration
// takes 1.0 ns.
//
// Options.LocalCountdown outlines as well and also keeps the countdown in an
// i32 local $c of each instrumented function: loaded from the global on
// entry, written back before every call, call_indirect, call_ref,
// return_call*, throw, rethrow, throw_ref, return, branch to the function's
// label and the final end, and reloaded after every call that returns,
// except around direct calls to functions that can neither change the
// countdown nor throw (no guarded loop, throw or indirect call, and calling
// only such functions: a fixpoint over the call graph; imports count as
// changing it, since the host may call back into the guest). It is still
// one program-wide countdown, since the global is current whenever another
// function runs. Exceptions are the one way to leave a frame without a
// write-back, and lose nothing: the thrower writes back before it throws,
// and every frame that is unwound wrote back before the call that is
// unwound. The catching frame's $c would be stale, and reloading it at the
// catch target would also run on the ordinary branches to that label, which
// could reset the count forever, so functions with exception handlers keep
// the global countdown. It measured no faster than Outline on the micro
// benchmark (1.02 ns) and slower on python.wasm, where the write-backs
// around calls cost more than the global's load and store in each
// iteration.
//
// On pybox's python.wasm (CPython with numpy and pandas linked in; best of 5
// interleaved runs of scripts/bench/loopguard.sh, ratios to the same build
// without the guard), inline / outlined / local: a numpy element-wise loop
// 1.66x / 1.07x / 1.08x, pandas.read_csv of 1M rows x 10 columns 1.16x /
// 1.08x / 1.11x, the CPU suite (scripts/bench/cpu.py) 1.03x / 1.04x /
// 1.06x, of which regex 1.07x / 1.12x / 1.19x (noise between runs is a
// few percent). python.wasm grows from 40.1 MB (inline, stripped) to 40.8
// MB (outlined) or 43.0 MB (local).
//
// # Batched loops
//
// Even outlined, the global countdown costs a load, a subtract and a store
// of the global (through the module context, itself often reloaded from
// the stack) in every iteration, at the loop header, where register
// pressure is highest. In the tight loops of C libraries this is most of
// what the guard costs: with no guard at all, pybox's regex benchmark took
// 0.75x the time.
//
// Options.Batch (scripts/loopguard -countdown batched, the default there)
// changes the outlined loops. A nest of them (an outlined loop that no
// other outlined loop contains, its root, with all the outlined loops
// inside it) counts in one i32 local of its function, set to Batch+1 when
// the root is entered and decremented at the top of every iteration of
// every loop of the nest. When it reaches zero, the loop whose check it was
// leaves through its yield path, which subtracts Batch from the global
// countdown, yields if that leaves it at zero or below (setting it to
// YieldEvery), sets the local to Batch+1 again, and re-enters the loop. The
// iteration is then one register decrement and a branch. The global stays
// positive, so the loops that still decrement it by one (loops with
// parameters, functions with handlers) reach zero as before. A spinning
// nest takes its iterations from the global exactly, Batch at a time, and
// so yields every YieldEvery iterations (rounded up to a multiple of
// Batch).
//
// The price: a visit to a nest that ends before its local runs out is not
// counted at all, so up to Batch iterations per visit go uncounted. That
// delays the yield but cannot stop it: visits are repeated only by code
// that counts (a loop in a caller, counted in its own batches or on the
// global; CPython's eval loop, which has its own countdown) or by
// recursion, which the stack bounds. The delay compounds along call
// chains: a nest whose short visits call a function whose nest runs
// briefly hides up to Batch iterations of the callee per uncounted
// iteration of its own, so k such levels hide up to about Batch^k
// iterations per counted one. With pybox's 16384 and 64 a spinning loop
// still yields every 16384 iterations, and a guest spinning through one
// level of short visits every million or so (a few milliseconds). Tail
// calls (return_call) can repeat a function without a loop or a stack; a
// cycle of them was never guarded (see Limitations), and batching adds that
// a cycle whose functions loop briefly is not counted either.
//
// Until 2026-11-30 only innermost loops were batched, each in a local set
// on every visit, and the loops around them counted on the global. A short
// visit to an innermost loop was then lost per iteration of the loop around
// it, and that loop paid the global's load and store in every iteration:
// SRE's matcher, whose opcode dispatch is a loop around the matching loops,
// did so once per opcode. With one local per nest, regex_v8 runs 1.2% fewer
// instructions and the other benchmarks of docs/cpu.md the same within
// 1%.
//
// # Counted innermost loops
//
// Many batched loops already count: compilers end loops over arrays with a
// decrement to zero or a step towards a fixed bound, tested by the loop's
// own conditional back edge. Such a loop is cut into chunks of Batch
// iterations by that test (see chunk.go): on entry the count local is set
// to where the chunk ends, the exit test compares with it instead, and a
// fall-through that is only the chunk's end takes the yield path. The
// iteration then runs exactly the unguarded loop's instructions. Yields and
// kills happen after the same iterations as with plain batching (sooner
// where a chunk ends early, near the top of the integer range);
// Stats.ChunkedLoops counts these loops.
//
// Limitations: only loops are guarded. A guest blocked inside a host function
// (a WASI call) stops when that call returns to a loop; unbounded recursion
// without loops is not stopped (it ends with a stack overflow trap instead,
// except through tail calls, which reuse the frame and never overflow);
// the trap leaves the guest's memory in whatever state it was in, so a killed
// module instance must be discarded, not reused.
//
// Instrument decodes every function body instruction by instruction (the
// byte 0x03 of the loop opcode also occurs inside immediates, so scanning for
// it is not an option). It understands the WebAssembly 2.0 instruction set
// (MVP, sign extension, non-trapping float-to-int conversion, bulk memory,
// reference types, multi-value, fixed-width SIMD) plus relaxed SIMD, threads
// (atomics), tail calls, typed function references, exception handling (both
// the legacy try/catch/delegate encoding and try_table), multi-memory memargs
// and memory64 limits. Anything else is reported as an error that names the
// function index and the byte offset in the input rather than producing a
// corrupt module. Sections that the pass does not need to change are copied
// byte for byte and kept in their original order.
package loopguard

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// DefaultGlobalName is the export name of the kill-switch global that
// Instrument adds when Options.GlobalName is empty. The host looks the global
// up by this name to stop the guest.
const DefaultGlobalName = "pybox_loop_kill"

// Options controls Instrument.
type Options struct {
	// GlobalName is the export name of the added mutable i32 global; empty
	// means DefaultGlobalName. It must not already be an export name of the
	// module, since export names have to be unique.
	GlobalName string

	// SkipFunctions lists function names, as recorded in the "name" custom
	// section (function names subsection), whose loops are not instrumented,
	// for example hot loops that are known to terminate and where the check
	// costs too much. Their loops can neither be killed nor yield (see
	// YieldEvery). Names match exactly; every name must match at least one
	// function, so that a typo does not silently leave a function guarded or
	// unguarded. A non-empty list requires a name section.
	SkipFunctions []string

	// StripCustomSections drops every custom section (name, producers,
	// target_features, DWARF .debug_* ...) from the output. It is required
	// when the module carries debug information: DWARF refers to code byte
	// offsets, which the inserted instructions shift.
	StripCustomSections bool

	// YieldEvery, when non-zero, makes the guest leave native code every
	// YieldEvery loop iterations (counted across all loops of a module
	// instance) by executing "memory.grow 0" on memory 0, which wazero's
	// compiler implements as a call into Go. It needs a memory and adds a
	// second, unexported mutable i32 global (index Stats.Global+1) holding
	// the countdown.
	//
	// Without it the kill switch alone can deadlock the whole process: Go
	// cannot preempt a goroutine running wazero-compiled code, so while the
	// guest spins it holds its P. A garbage collection (any stop-the-world)
	// that starts meanwhile waits for that goroutine forever, and the
	// goroutine that would set the kill switch is stopped too; with
	// GOMAXPROCS=1 that goroutine never runs at all. Each exit is a Go
	// function call, where the goroutine can be preempted, so the GC and
	// the scheduler make progress and the kill switch gets set.
	//
	// 16384 is a good value: the interval barely changes the cost, and a
	// smaller one shortens how long a stop-the-world can wait for the guest.
	// Most of the cost is the yield call inside every loop; see Outline.
	YieldEvery uint32

	// LocalCountdown, with YieldEvery, keeps the countdown in a local
	// variable of each instrumented function instead of decrementing the
	// global in every loop iteration, and outlines loops as Outline does
	// (see "Outlined loops and the local countdown" in the package
	// documentation). The global still carries the one shared
	// countdown between functions, so the yield interval is the same; the
	// loop header no longer reads and writes memory. Functions that contain
	// an exception handler (try_table, try) keep the global countdown.
	LocalCountdown bool

	// Outline, with YieldEvery, wraps every loop without parameters so that
	// its yield path (the call into Go) lies outside the loop, and keeps the
	// countdown in the global (see "Outlined loops and the local countdown"
	// in the package documentation). LocalCountdown outlines as well.
	Outline bool

	// Batch, with Outline and YieldEvery, makes every outlined loop count
	// down in an i32 local of its function instead of the global, one
	// local for each nest of outlined loops: the local is set when the
	// nest's outermost loop is entered, decremented in each iteration of
	// any loop of the nest, and when it runs out (after Batch iterations),
	// the loop leaves through its yield path, which takes Batch from the
	// global countdown (yielding if that reaches zero), sets the local
	// again and re-enters the loop. See "Batched loops" in the package
	// documentation. Zero keeps the global countdown in every loop. It
	// cannot be combined with LocalCountdown.
	Batch uint32
}

// Stats describes what Instrument did.
type Stats struct {
	// Functions is the number of function bodies (defined, not imported,
	// functions) in the module.
	Functions int
	// InstrumentedFunctions is the number of function bodies into which at
	// least one check was inserted.
	InstrumentedFunctions int
	// Loops is the number of loop instructions that received a check.
	Loops int
	// Global is the index, in the module's global index space (imported
	// globals first, then defined globals), of the added kill-switch global.
	Global uint32
	// TableWrites counts the instructions in function bodies that change a
	// table (table.set, table.grow, table.fill, table.copy, table.init,
	// elem.drop). pybox restores interpreters from a snapshot of linear
	// memory and globals only, which is sound only if this is zero.
	TableWrites int
	// LocalFunctions is the number of instrumented functions that keep the
	// countdown in a local (Options.LocalCountdown); the others decrement
	// the global directly.
	LocalFunctions int
	// OutlinedLoops is the number of loops of those functions that were
	// wrapped so that their yield path lies outside them; each adds one
	// loop instruction (the one that re-enters it) to the output.
	OutlinedLoops int
	// BatchedLoops is the number of outlined loops that count in a local
	// (their nest's) and take Options.Batch iterations from the global at
	// a time.
	BatchedLoops int
	// ChunkedLoops is the number of those batched loops that count with
	// their own exit test instead (see "Counted innermost loops" in the
	// package documentation).
	ChunkedLoops int
}

// Section ids of the WebAssembly binary format.
const (
	secCustom    = 0
	secType      = 1
	secImport    = 2
	secFunction  = 3
	secTable     = 4
	secMemory    = 5
	secGlobal    = 6
	secExport    = 7
	secStart     = 8
	secElement   = 9
	secCode      = 10
	secData      = 11
	secDataCount = 12
	secTag       = 13 // exception handling
)

// sectionRank gives the position at which a non-custom section must appear
// (0 for custom sections, which may appear anywhere); ids past its end are
// unknown.
var sectionRank = [...]int{
	secCustom:    0,
	secType:      1,
	secImport:    2,
	secFunction:  3,
	secTable:     4,
	secMemory:    5,
	secTag:       6,
	secGlobal:    7,
	secExport:    8,
	secStart:     9,
	secElement:   10,
	secDataCount: 11,
	secCode:      12,
	secData:      13,
}

var sectionNames = [...]string{
	secCustom:    "custom",
	secType:      "type",
	secImport:    "import",
	secFunction:  "function",
	secTable:     "table",
	secMemory:    "memory",
	secGlobal:    "global",
	secExport:    "export",
	secStart:     "start",
	secElement:   "element",
	secCode:      "code",
	secData:      "data",
	secDataCount: "datacount",
	secTag:       "tag",
}

// section is one section of the input, or one added by Instrument.
type section struct {
	id      byte
	name    string // custom sections only
	payload []byte // original payload (for custom sections including the name)
	start   int    // offset of payload in the input
	out     []byte // replacement payload; nil keeps payload
}

func (s *section) bytes() []byte {
	if s.out != nil {
		return s.out
	}
	return s.payload
}

// Instrument returns a copy of the wasm module in which every loop checks the
// kill-switch global described in the package documentation, together with
// statistics about the rewrite. The input is not modified. It returns an
// error, and no module, when the input is not a well-formed core module, uses
// an instruction the decoder does not know (naming the function index and
// the byte offset), already exports the global's name, carries debug
// information while Options.StripCustomSections is false, or when
// Options.SkipFunctions cannot be resolved.
func Instrument(wasm []byte, opts Options) ([]byte, Stats, error) {
	out, st, err := instrument(wasm, opts)
	if err != nil {
		return nil, Stats{}, fmt.Errorf("loopguard: %w", err)
	}
	return out, st, nil
}

var wasmMagic = []byte{0x00, 0x61, 0x73, 0x6d}

func instrument(wasm []byte, opts Options) ([]byte, Stats, error) {
	var st Stats
	globalName := opts.GlobalName
	if globalName == "" {
		globalName = DefaultGlobalName
	}
	if opts.Batch > 1<<31-2 {
		return nil, st, fmt.Errorf("batch %d is too large (at most %d)", opts.Batch, 1<<31-2)
	}
	if opts.Batch > 0 && opts.LocalCountdown {
		return nil, st, errors.New("Batch and LocalCountdown cannot be combined: a batched loop counts in its own local")
	}
	if !utf8.ValidString(globalName) {
		return nil, st, errors.New("global name is not valid UTF-8")
	}

	if len(wasm) < 8 {
		return nil, st, fmt.Errorf("module is %d bytes, shorter than the 8-byte header", len(wasm))
	}
	if string(wasm[:4]) != string(wasmMagic) {
		return nil, st, fmt.Errorf("bad magic % x, not a WebAssembly binary", wasm[:4])
	}
	if v := wasm[4:8]; v[0] != 1 || v[1] != 0 || v[2] != 0 || v[3] != 0 {
		return nil, st, fmt.Errorf("unsupported binary version % x (want 01 00 00 00, a core module)", v)
	}

	// Split the module into sections.
	var secs []*section
	var seen [len(sectionRank)]bool
	lastRank := 0
	r := &reader{buf: wasm, pos: 8, end: len(wasm)}
	for r.pos < r.end {
		idPos := r.pos
		id, _ := r.readByte()
		size, err := r.u32()
		if err != nil {
			return nil, st, fmt.Errorf("section header at offset 0x%x: %w", idPos, err)
		}
		if int(id) >= len(sectionRank) {
			return nil, st, fmt.Errorf("unknown section id %d at offset 0x%x", id, idPos)
		}
		if uint64(size) > uint64(r.end-r.pos) {
			return nil, st, fmt.Errorf("%s section at offset 0x%x: size %d exceeds the %d remaining bytes", sectionNames[id], idPos, size, r.end-r.pos)
		}
		s := &section{id: id, payload: wasm[r.pos : r.pos+int(size)], start: r.pos}
		if id == secCustom {
			cr := &reader{buf: wasm, pos: r.pos, end: r.pos + int(size)}
			name, err := cr.name()
			if err != nil {
				return nil, st, fmt.Errorf("custom section at offset 0x%x: %w", idPos, err)
			}
			s.name = name
		} else {
			if seen[id] {
				return nil, st, fmt.Errorf("duplicate %s section at offset 0x%x", sectionNames[id], idPos)
			}
			seen[id] = true
			if sectionRank[id] < lastRank {
				return nil, st, fmt.Errorf("%s section at offset 0x%x is out of order", sectionNames[id], idPos)
			}
			lastRank = sectionRank[id]
		}
		secs = append(secs, s)
		r.pos += int(size)
	}
	find := func(id byte) *section {
		for _, s := range secs {
			if s.id == id && id != secCustom {
				return s
			}
		}
		return nil
	}

	// Custom sections that hold code offsets would silently become wrong.
	if !opts.StripCustomSections {
		for _, s := range secs {
			if s.id == secCustom && offsetDependent(s.name) {
				return nil, st, fmt.Errorf("custom section %q refers to code offsets (debug info), which instrumentation would invalidate; set StripCustomSections (-strip) or build without debug info", s.name)
			}
		}
	}

	// Imports: count imported functions and globals.
	var imp imports
	if s := find(secImport); s != nil {
		var err error
		imp, err = parseImports(s.reader(wasm))
		if err != nil {
			return nil, st, fmt.Errorf("import section: %w", err)
		}
	}
	importedFuncs, importedGlobals := imp.funcs, imp.globals

	// Memory 0, for YieldEvery: the first imported memory, else the first
	// defined one.
	haveMemory, memory64 := imp.memories > 0, imp.memory64
	if s := find(secMemory); s != nil {
		mr := s.reader(wasm)
		n, err := mr.vecLen(2)
		if err != nil {
			return nil, st, fmt.Errorf("memory section: %w", err)
		}
		for i := uint32(0); i < n; i++ {
			flags, err := mr.limits()
			if err != nil {
				return nil, st, fmt.Errorf("memory section: memory %d: %w", i, err)
			}
			if !haveMemory {
				haveMemory, memory64 = true, flags&0x04 != 0
			}
		}
		if err := mr.done(); err != nil {
			return nil, st, fmt.Errorf("memory section: %w", err)
		}
	}
	if opts.YieldEvery > 0 && !haveMemory {
		return nil, st, errors.New("YieldEvery needs a memory for memory.grow, but the module has none")
	}
	newGlobals := uint32(1)
	if opts.YieldEvery > 0 {
		newGlobals = 2
	}

	// Function section: number of defined functions and their types.
	var definedFuncs uint32
	var funcTypes []uint32
	if s := find(secFunction); s != nil {
		sr := s.reader(wasm)
		n, err := sr.vecLen(1)
		if err != nil {
			return nil, st, fmt.Errorf("function section: %w", err)
		}
		for i := uint32(0); i < n; i++ {
			ti, err := sr.u32()
			if err != nil {
				return nil, st, fmt.Errorf("function section: %w", err)
			}
			funcTypes = append(funcTypes, ti)
		}
		if err := sr.done(); err != nil {
			return nil, st, fmt.Errorf("function section: %w", err)
		}
		definedFuncs = n
	}

	// Global section: count defined globals and append the kill switch.
	var definedGlobals uint32
	gsec := find(secGlobal)
	if gsec != nil {
		gr := gsec.reader(wasm)
		n, err := gr.vecLen(3)
		if err != nil {
			return nil, st, fmt.Errorf("global section: %w", err)
		}
		entries := gr.pos
		for i := uint32(0); i < n; i++ {
			if err := gr.valType(); err != nil {
				return nil, st, fmt.Errorf("global section: global %d: %w", i, err)
			}
			if mut, err := gr.readByte(); err != nil {
				return nil, st, fmt.Errorf("global section: global %d: %w", i, err)
			} else if mut > 1 {
				return nil, st, fmt.Errorf("global section: global %d: invalid mutability 0x%02x at offset 0x%x", i, mut, gr.pos-1)
			}
			if err := walkExpr(gr, nil); err != nil {
				return nil, st, fmt.Errorf("global section: global %d initializer: %w", i, err)
			}
		}
		if err := gr.done(); err != nil {
			return nil, st, fmt.Errorf("global section: %w", err)
		}
		definedGlobals = n
		if n > ^uint32(0)-newGlobals {
			return nil, st, errors.New("global section: too many globals")
		}
		gsec.out = appendU32(nil, n+newGlobals)
		gsec.out = append(gsec.out, wasm[entries:gr.end]...)
	} else {
		gsec = &section{id: secGlobal, out: appendU32(nil, newGlobals)}
		secs = insertSection(secs, gsec)
	}
	if uint64(importedGlobals)+uint64(definedGlobals)+uint64(newGlobals) > uint64(^uint32(0)) {
		return nil, st, errors.New("too many globals")
	}
	st.Global = importedGlobals + definedGlobals
	// (global i32 (mut) (i32.const 0))
	gsec.out = append(gsec.out, 0x7f, 0x01, 0x41, 0x00, 0x0b)
	if opts.YieldEvery > 0 {
		// (global i32 (mut) (i32.const YieldEvery)): the countdown.
		gsec.out = append(gsec.out, 0x7f, 0x01, 0x41)
		gsec.out = appendS32(gsec.out, int32(opts.YieldEvery))
		gsec.out = append(gsec.out, 0x0b)
	}

	// Export section: append the export of the kill switch.
	esec := find(secExport)
	if esec != nil {
		er := esec.reader(wasm)
		n, err := er.vecLen(3)
		if err != nil {
			return nil, st, fmt.Errorf("export section: %w", err)
		}
		entries := er.pos
		for i := uint32(0); i < n; i++ {
			name, err := er.name()
			if err != nil {
				return nil, st, fmt.Errorf("export section: export %d: %w", i, err)
			}
			if name == globalName {
				return nil, st, fmt.Errorf("the module already exports %q (instrumented twice?)", globalName)
			}
			if kind, err := er.readByte(); err != nil {
				return nil, st, fmt.Errorf("export section: export %d: %w", i, err)
			} else if kind > 4 {
				return nil, st, fmt.Errorf("export section: export %d: unknown kind 0x%02x at offset 0x%x", i, kind, er.pos-1)
			}
			if _, err := er.u32(); err != nil {
				return nil, st, fmt.Errorf("export section: export %d: %w", i, err)
			}
		}
		if err := er.done(); err != nil {
			return nil, st, fmt.Errorf("export section: %w", err)
		}
		if n == ^uint32(0) {
			return nil, st, errors.New("export section: too many exports")
		}
		esec.out = appendU32(nil, n+1)
		esec.out = append(esec.out, wasm[entries:er.end]...)
	} else {
		esec = &section{id: secExport, out: appendU32(nil, 1)}
		secs = insertSection(secs, esec)
	}
	esec.out = appendName(esec.out, globalName)
	esec.out = append(esec.out, 0x03) // export kind global
	esec.out = appendU32(esec.out, st.Global)

	// Function names, for SkipFunctions and for error messages.
	var names map[uint32]string
	var namesErr error
	haveNames := false
	for _, s := range secs {
		if s.id == secCustom && s.name == "name" {
			haveNames = true
			names, namesErr = parseFunctionNames(wasm, s)
			break
		}
	}
	skip := map[uint32]bool{}
	if len(opts.SkipFunctions) > 0 {
		if !haveNames {
			return nil, st, errors.New("SkipFunctions needs function names, but the module has no \"name\" custom section (built without names or stripped?)")
		}
		if namesErr != nil {
			return nil, st, fmt.Errorf("name section: %w", namesErr)
		}
		want := map[string]bool{}
		for _, n := range opts.SkipFunctions {
			want[n] = false
		}
		for idx, n := range names {
			if _, ok := want[n]; ok {
				want[n] = true
				skip[idx] = true
			}
		}
		var missing []string
		for n, found := range want {
			if !found {
				missing = append(missing, n)
			}
		}
		if len(missing) > 0 {
			sort.Strings(missing)
			return nil, st, fmt.Errorf("SkipFunctions names not found in the name section: %q", missing)
		}
	}

	// Type section: parameter counts, to number a new local.
	local := opts.LocalCountdown && opts.YieldEvery > 0
	outline := (opts.Outline || opts.LocalCountdown) && opts.YieldEvery > 0
	var paramCounts []uint32
	if outline {
		if s := find(secType); s != nil {
			var err error
			if paramCounts, err = parseParamCounts(s.reader(wasm)); err != nil {
				return nil, st, fmt.Errorf("type section: %w", err)
			}
		}
	}

	// With a local countdown, a direct call to a function that can neither
	// change the countdown nor throw needs no write-back and no reload.
	var touches []bool
	if local {
		var err error
		if touches, err = countdownCallGraph(wasm, find(secCode), importedFuncs, skip); err != nil {
			return nil, st, err
		}
	}

	// Code section: insert the check after every loop's block type.
	check := checkSequence(st.Global, opts.YieldEvery, memory64)
	ctr := st.Global + 1
	gc := globalCountdown(ctr, st.Global, opts.YieldEvery, memory64)
	csec := find(secCode)
	var codeCount uint32
	if csec != nil {
		cr := csec.reader(wasm)
		n, err := cr.vecLen(2)
		if err != nil {
			return nil, st, fmt.Errorf("code section: %w", err)
		}
		codeCount = n
		if n != definedFuncs {
			return nil, st, fmt.Errorf("code section has %d function bodies but the function section declares %d functions", n, definedFuncs)
		}
		st.Functions = int(n)
		newCode := appendU32(make([]byte, 0, len(csec.payload)+len(csec.payload)/16), n)
		var info exprInfo
		var body []byte
		for i := uint32(0); i < n; i++ {
			funcIdx := importedFuncs + i
			fnErr := func(err error) error {
				if nm, ok := names[funcIdx]; ok {
					return fmt.Errorf("function %d (%q): %w", funcIdx, nm, err)
				}
				return fmt.Errorf("function %d: %w", funcIdx, err)
			}
			entry := cr.pos
			size, err := cr.u32()
			if err != nil {
				return nil, st, fnErr(err)
			}
			if uint64(size) > uint64(cr.end-cr.pos) {
				return nil, st, fnErr(fmt.Errorf("body at offset 0x%x: size %d exceeds the %d remaining bytes of the code section", entry, size, cr.end-cr.pos))
			}
			br := &reader{buf: wasm, pos: cr.pos, end: cr.pos + int(size)}
			cr.pos = br.end
			bodyStart := br.pos
			nLocals, err := br.vecLen(2)
			if err != nil {
				return nil, st, fnErr(fmt.Errorf("locals: %w", err))
			}
			localsStart := br.pos
			var nDeclared uint64
			for j := uint32(0); j < nLocals; j++ {
				cnt, err := br.u32()
				if err != nil {
					return nil, st, fnErr(fmt.Errorf("locals: %w", err))
				}
				nDeclared += uint64(cnt)
				if err := br.valType(); err != nil {
					return nil, st, fnErr(fmt.Errorf("locals: %w", err))
				}
			}
			localsEnd := br.pos
			info.points, info.loops, info.handlers = info.points[:0], 0, false
			rec := &info
			if skip[funcIdx] {
				rec = nil
			}
			if err := walkExpr(br, rec); err != nil {
				return nil, st, fnErr(err)
			}
			if br.pos != br.end {
				return nil, st, fnErr(fmt.Errorf("%d bytes after the final end at offset 0x%x", br.end-br.pos, br.pos))
			}
			st.TableWrites += br.tableWrites
			if info.loops == 0 {
				newCode = append(newCode, wasm[entry:br.end]...)
				continue
			}
			body = body[:0]
			prev := bodyStart
			// Functions with exception handlers keep the inline check on
			// the global: a catch would resume them with a stale local,
			// and outlining them would need their catch, delegate and
			// rethrow labels renumbered too.
			useLocal := local && !info.handlers
			if outline && !info.handlers {
				lc := gc
				prev = bodyStart
				// Walk again, now restructuring loops and renumbering
				// labels.
				info.points, info.loops, info.outline, info.params = info.points[:0], 0, true, paramCounts
				info.batch, info.batchSize, info.batched, info.chunks = opts.Batch > 0, opts.Batch, 0, info.chunks[:0]
				info.nestedChunks = 0
				if err := walkExpr(&reader{buf: wasm, pos: localsEnd, end: br.end}, &info); err != nil {
					return nil, st, fnErr(err)
				}
				info.outline, info.batch = false, false
				var bc batchCode
				var countLocal uint32
				if useLocal || info.batched > 0 {
					// Declare the countdown local after the existing ones
					// (with LocalCountdown, loaded from the global on entry).
					ti := funcTypes[i]
					if ti >= uint32(len(paramCounts)) {
						return nil, st, fnErr(fmt.Errorf("type index %d out of range (%d types)", ti, len(paramCounts)))
					}
					idx := uint64(paramCounts[ti]) + nDeclared
					if idx >= 1<<32-1 || nLocals == ^uint32(0) {
						return nil, st, fnErr(errors.New("too many locals to add the countdown local"))
					}
					countLocal = uint32(idx)
					body = appendU32(body, nLocals+1)
					body = append(body, wasm[localsStart:localsEnd]...)
					if info.nestedChunks > 0 {
						// The chunk bounds of counted loops inside a nest
						// go in a second local (chunkLocal).
						if idx+1 >= 1<<32-1 {
							return nil, st, fnErr(errors.New("too many locals to add the countdown locals"))
						}
						body = append(body, 0x02, 0x7f) // two i32
					} else {
						body = append(body, 0x01, 0x7f) // one i32
					}
					if useLocal {
						lc = localCountdown(uint32(idx), ctr, st.Global, opts.YieldEvery, memory64)
						body = append(body, lc.load...)
					} else {
						bc = batchedCountdown(uint32(idx), ctr, st.Global, opts.YieldEvery, opts.Batch, memory64)
					}
					prev = localsEnd
				}
				st.BatchedLoops += info.batched
				st.ChunkedLoops += len(info.chunks)
				// chunkLocal is the local holding a counted loop's chunk
				// bound.
				chunkLocal := func(chunk int) uint32 {
					if info.chunks[chunk-1].nested {
						return countLocal + 1
					}
					return countLocal
				}
				lastLoad := -1
				for _, p := range info.points {
					body = append(body, wasm[prev:p.at]...)
					prev = p.at
					switch p.kind {
					case pointLoop:
						body = append(body, lc.check...)
					case pointWrap:
						body = append(body, 0x02) // block with the loop's type
						body = append(body, wasm[p.at+1:p.end]...)
						body = append(body, 0x03, 0x40) // loop
						if p.chunk != 0 {
							body = append(body, info.chunks[p.chunk-1].init(chunkLocal(p.chunk), opts.Batch)...)
						} else if p.val == 1 {
							body = append(body, bc.init...) // a nest's root (or a lone loop)
						}
						body = append(body, 0x02, 0x40) // block
					case pointOutLoop:
						if p.chunk != 0 {
							break // the loop's own exit test ends the chunk
						}
						if p.val != 0 {
							body = append(body, bc.outCheck...)
						} else {
							body = append(body, lc.outCheck...)
						}
					case pointChunkLocal:
						body = appendU32(body, chunkLocal(p.chunk))
						prev = p.end
					case pointChunkBound:
						body = appendU32(append(body, opLocalGet), chunkLocal(p.chunk))
						prev = p.end
					case pointChunkExit:
						body = append(body, info.chunks[p.chunk-1].exitTest(1)...) // in $l: $yield is 1
					case pointTail:
						st.OutlinedLoops++
						if p.chunk != 0 && !info.chunks[p.chunk-1].brTail {
							body = append(body, info.chunks[p.chunk-1].exitTest(0)...)
						}
						if p.val&tailNested != 0 {
							body = append(body, bc.tailNested...)
						} else if p.val&tailBatched != 0 {
							body = append(body, bc.tail...)
						} else {
							body = append(body, lc.tail...)
						}
						if p.val&tailResults != 0 {
							body = append(body, 0x00) // unreachable: the outer loop only branches
						}
						body = append(body, 0x0b)
					case pointLabel:
						body = appendU32(body, p.val)
						prev = p.end
					case pointSave:
						if p.val != 0 && p.val-1 < uint32(len(touches)) && !touches[p.val-1] {
							break // a call to a function that leaves the countdown alone
						}
						if lastLoad != p.at { // right after a reload the global is current
							body = append(body, lc.save...)
						}
					case pointLoad:
						if p.val != 0 && p.val-1 < uint32(len(touches)) && !touches[p.val-1] {
							break
						}
						body = append(body, lc.load...)
						lastLoad = p.at
					}
				}
				if useLocal {
					st.LocalFunctions++
				}
			} else {
				for _, p := range info.points {
					if p.kind == pointLoop {
						body = append(body, wasm[prev:p.at]...)
						body = append(body, check...)
						prev = p.at
					}
				}
			}
			body = append(body, wasm[prev:br.end]...)
			newCode = appendU32(newCode, uint32(len(body)))
			newCode = append(newCode, body...)
			st.InstrumentedFunctions++
			st.Loops += info.loops
		}
		if err := cr.done(); err != nil {
			return nil, st, fmt.Errorf("code section: %w", err)
		}
		csec.out = newCode
	}
	if codeCount != definedFuncs {
		return nil, st, fmt.Errorf("function section declares %d functions but there is no code section", definedFuncs)
	}

	// Emit.
	total := 8
	for _, s := range secs {
		total += 1 + 5 + len(s.bytes())
	}
	out := make([]byte, 0, total)
	out = append(out, wasm[:8]...)
	for _, s := range secs {
		if s.id == secCustom && opts.StripCustomSections {
			continue
		}
		p := s.bytes()
		if uint64(len(p)) > uint64(^uint32(0)) {
			return nil, st, fmt.Errorf("%s section would exceed 4 GiB", sectionNames[s.id])
		}
		out = append(out, s.id)
		out = appendU32(out, uint32(len(p)))
		out = append(out, p...)
	}
	return out, st, nil
}

// checkSequence returns the instructions inserted at the start of each loop
// body. With yieldEvery zero:
//
//	global.get $kill
//	if
//	  unreachable
//	end
//
// and with yieldEvery non-zero, where the kill flag is only read when the
// countdown runs out (so at most yieldEvery iterations after it is set), to
// keep the per-iteration cost to one global read-modify-write and a branch:
//
//	global.get $countdown
//	i32.const 1
//	i32.sub
//	global.set $countdown
//	global.get $countdown
//	i32.eqz
//	if
//	  i32.const yieldEvery
//	  global.set $countdown
//	  i32.const 0          ;; i64.const 0 for a 64-bit memory
//	  memory.grow 0
//	  drop
//	  global.get $kill
//	  if
//	    unreachable
//	  end
//	end
//
// Both are stack neutral.
func checkSequence(kill, yieldEvery uint32, memory64 bool) []byte {
	killCheck := []byte{0x23} // global.get
	killCheck = appendU32(killCheck, kill)
	killCheck = append(killCheck, 0x04, 0x40, 0x00, 0x0b) // if (empty) unreachable end
	if yieldEvery == 0 {
		return killCheck
	}
	ctr := kill + 1
	c := []byte{0x23}
	c = appendU32(c, ctr)
	c = append(c, 0x41, 0x01, 0x6b, 0x24) // i32.const 1, i32.sub, global.set
	c = appendU32(c, ctr)
	c = append(c, 0x23)
	c = appendU32(c, ctr)
	c = append(c, 0x45, 0x04, 0x40, 0x41) // i32.eqz, if (empty), i32.const
	c = appendS32(c, int32(yieldEvery))
	c = append(c, 0x24)
	c = appendU32(c, ctr)
	c = appendYield(c, memory64)
	c = append(c, killCheck...)
	return append(c, 0x0b) // end
}

// appendYield appends the yield: memory.grow 0 on memory 0, its result
// dropped (wazero's compiler makes it a call into Go, see YieldEvery), with
// the memory's index type.
func appendYield(c []byte, memory64 bool) []byte {
	if memory64 {
		c = append(c, 0x42, 0x00) // i64.const 0
	} else {
		c = append(c, 0x41, 0x00) // i32.const 0
	}
	return append(c, 0x40, 0x00, 0x1a) // memory.grow 0, drop
}

// appendResetYield appends the yield itself: set the countdown (set is
// local.set 0x21 or global.set 0x24 of idx) to reset, yield, and trap if
// the kill switch is on.
func appendResetYield(c []byte, set byte, idx, reset, kill uint32, memory64 bool) []byte {
	c = append(c, 0x41) // i32.const
	c = appendS32(c, int32(reset))
	c = append(c, set)
	c = appendU32(c, idx)
	c = appendYield(c, memory64)
	c = append(c, 0x23) // global.get $kill
	c = appendU32(c, kill)
	return append(c, 0x04, 0x40, 0x00, 0x0b) // if unreachable end
}

// localCode holds the sequences inserted into a function that keeps the
// countdown in a local.
type localCode struct {
	load     []byte // global.get $countdown, local.set $c
	save     []byte // local.get $c, global.set $countdown
	check    []byte // the loop check, inline (loops with parameters)
	outCheck []byte // the check of an outlined loop
	tail     []byte // after an outlined loop, up to the final end
}

// localCountdown returns the sequences for a function whose countdown local
// has index loc. The loop check is
//
//	local.get $c
//	i32.const 1
//	i32.sub
//	local.tee $c
//	i32.eqz
//	if
//	  i32.const yieldEvery
//	  local.set $c
//	  i32.const 0          ;; i64.const 0 for a 64-bit memory
//	  memory.grow 0
//	  drop
//	  global.get $kill
//	  if
//	    unreachable
//	  end
//	end
//
// memory.grow runs no guest code, so the global need not be current there.
// All three sequences are stack neutral.
func localCountdown(loc, ctr, kill, yieldEvery uint32, memory64 bool) localCode {
	var lc localCode
	lc.load = appendU32([]byte{0x23}, ctr)
	lc.load = append(lc.load, 0x21)
	lc.load = appendU32(lc.load, loc)
	lc.save = appendU32([]byte{0x20}, loc)
	lc.save = append(lc.save, 0x24)
	lc.save = appendU32(lc.save, ctr)
	c := appendU32([]byte{0x20}, loc)
	c = append(c, 0x41, 0x01, 0x6b, 0x22) // i32.const 1, i32.sub, local.tee
	c = appendU32(c, loc)
	c = append(c, 0x45, 0x04, 0x40) // i32.eqz, if (empty)
	c = appendResetYield(c, 0x21, loc, yieldEvery, kill, memory64)
	lc.check = append(c, 0x0b) // end

	// Outlined (see outlinedLoop).
	c = appendU32([]byte{0x20}, loc)
	c = append(c, 0x41, 0x01, 0x6b, 0x22) // i32.const 1, i32.sub, local.tee
	c = appendU32(c, loc)
	lc.outCheck = append(c, 0x45, 0x0d, 0x01) // i32.eqz, br_if 1 ($yield)
	lc.tail = yieldTail(0x21, loc, kill, yieldEvery, memory64)
	return lc
}

// countdownCallGraph returns, for every function index, whether a call to
// it may change the countdown global or unwind the caller's frame: imported
// functions (the host may call back into the guest), functions with a
// guarded loop, functions that throw or call indirectly, and functions that
// call any of these. Decoding errors are left to the main pass.
func countdownCallGraph(wasm []byte, csec *section, importedFuncs uint32, skip map[uint32]bool) ([]bool, error) {
	if csec == nil {
		return nil, nil
	}
	cr := csec.reader(wasm)
	n, err := cr.vecLen(2)
	if err != nil {
		return nil, nil
	}
	total := uint64(importedFuncs) + uint64(n)
	touches := make([]bool, total)
	callers := make([][]uint32, total) // reverse edges
	for i := uint32(0); i < importedFuncs; i++ {
		touches[i] = true
	}
	var info exprInfo
	for i := uint32(0); i < n; i++ {
		size, err := cr.u32()
		if err != nil || uint64(size) > uint64(cr.end-cr.pos) {
			return nil, nil
		}
		br := &reader{buf: wasm, pos: cr.pos, end: cr.pos + int(size)}
		cr.pos = br.end
		nLocals, err := br.vecLen(2)
		if err != nil {
			return nil, nil
		}
		for j := uint32(0); j < nLocals; j++ {
			if _, err := br.u32(); err != nil {
				return nil, nil
			}
			if err := br.valType(); err != nil {
				return nil, nil
			}
		}
		info = exprInfo{points: info.points[:0], callees: info.callees[:0]}
		if err := walkExpr(br, &info); err != nil {
			return nil, nil
		}
		f := importedFuncs + i
		if (info.loops > 0 && !skip[f]) || info.throws || info.indirect {
			touches[f] = true
		}
		for _, c := range info.callees {
			if uint64(c) >= total {
				touches[f] = true
				continue
			}
			callers[c] = append(callers[c], f)
		}
	}
	var work []uint32
	for f, t := range touches {
		if t {
			work = append(work, uint32(f))
		}
	}
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		for _, c := range callers[f] {
			if !touches[c] {
				touches[c] = true
				work = append(work, c)
			}
		}
	}
	return touches, nil
}

// blockTypeHasParams reports whether the encoded block type bt is a type
// index whose type has parameters.
func blockTypeHasParams(bt []byte, params []uint32) bool {
	if len(bt) == 0 || bt[0] == 0x40 || bt[0]&0xc0 == 0x40 || bt[0] == 0x63 || bt[0] == 0x64 {
		return false // empty, or a single value type
	}
	r := &reader{buf: bt, end: len(bt)}
	idx, err := r.sleb(33)
	if err != nil || idx < 0 || idx >= int64(len(params)) {
		return true // leave it inline; validation rejects it anyway
	}
	return params[idx] > 0
}

// globalCountdown returns the sequences for an outlined function that keeps
// the countdown in the global: nothing around calls, the inline check for
// loops with parameters, and for the others
//
//	global.get $countdown, i32.const 1, i32.sub, global.set $countdown,
//	global.get $countdown, i32.eqz, br_if $yield
//
// with the yield path setting the global to yieldEvery+1.
func globalCountdown(ctr, kill, yieldEvery uint32, memory64 bool) localCode {
	var lc localCode
	lc.check = checkSequence(kill, yieldEvery, memory64)
	c := appendU32([]byte{0x23}, ctr)
	c = append(c, 0x41, 0x01, 0x6b, 0x24) // i32.const 1, i32.sub, global.set
	c = appendU32(c, ctr)
	c = append(c, 0x23) // global.get
	c = appendU32(c, ctr)
	lc.outCheck = append(c, 0x45, 0x0d, 0x01) // i32.eqz, br_if 1 ($yield)
	lc.tail = yieldTail(0x24, ctr, kill, yieldEvery, memory64)
	return lc
}

// yieldTail returns the code after an outlined loop's end up to the end of
// $outer; set is local.set (0x21) or global.set (0x24) of the countdown idx.
func yieldTail(set byte, idx, kill, yieldEvery uint32, memory64 bool) []byte {
	reset := yieldEvery
	if reset < 1<<31-1 {
		reset++ // re-entering the loop counts once more
	}
	c := []byte{0x0c, 0x02, 0x0b} // br 2 ($exit), end ($yield)
	c = appendResetYield(c, set, idx, reset, kill, memory64)
	return append(c, 0x0c, 0x00, 0x0b) // br 0 ($outer), end ($outer)
}

// batchCode holds the sequences of a batched loop (Options.Batch).
type batchCode struct {
	init     []byte // in $outer, before $yield: local.set $c to the batch
	outCheck []byte // the check at the start of the loop body
	tail     []byte // after the loop's end, up to the end of $outer
	// tailNested is tail for a loop inside another batched loop, which
	// shares its nest's count local: the yield path sets the local again
	// before it re-enters the loop, since entering does not.
	tailNested []byte
}

// batchedCountdown returns the sequences for the batched loops of a function
// whose count local has index loc. Around the loop (compare outlinedLoop):
//
//	block $exit (type of the loop)
//	  loop $outer
//	    i32.const batch+1
//	    local.set $c
//	    block $yield
//	      loop $l (type of the loop)
//	        local.get $c
//	        i32.const 1
//	        i32.sub
//	        local.tee $c
//	        i32.eqz
//	        br_if $yield
//	        ...the body...
//	      end
//	      br $exit
//	    end
//	    global.get $countdown
//	    i32.const batch
//	    i32.sub
//	    global.set $countdown
//	    global.get $countdown
//	    i32.const 0
//	    i32.le_s
//	    if
//	      i32.const yieldEvery
//	      global.set $countdown
//	      yield and kill check as in checkSequence
//	    end
//	    br $outer
//	  end
//	end
//
// That is a nest's root (or a loop alone). A loop inside another batched
// loop shares its nest's $c: it leaves out the i32.const and local.set at
// the top of $outer, and its yield path sets $c to batch+1 before br
// $outer instead (tailNested). The global stays positive, so loops that
// decrement it by one still reach zero.
func batchedCountdown(loc, ctr, kill, yieldEvery, batch uint32, memory64 bool) batchCode {
	var bc batchCode
	// batch+1: the check that runs out leaves before the body and
	// re-entering repeats it, so each batch runs batch bodies.
	bc.init = appendS32([]byte{0x41}, int32(batch)+1) // i32.const
	bc.init = append(bc.init, 0x21)                   // local.set
	bc.init = appendU32(bc.init, loc)
	c := appendU32([]byte{0x20}, loc)
	c = append(c, 0x41, 0x01, 0x6b, 0x22) // i32.const 1, i32.sub, local.tee
	c = appendU32(c, loc)
	bc.outCheck = append(c, 0x45, 0x0d, 0x01) // i32.eqz, br_if 1 ($yield)
	c = []byte{0x0c, 0x02, 0x0b, 0x23}        // br 2 ($exit), end ($yield), global.get
	c = appendU32(c, ctr)
	c = append(c, 0x41) // i32.const
	c = appendS32(c, int32(batch))
	c = append(c, 0x6b, 0x24) // i32.sub, global.set
	c = appendU32(c, ctr)
	c = append(c, 0x23) // global.get
	c = appendU32(c, ctr)
	c = append(c, 0x41, 0x00, 0x4c, 0x04, 0x40) // i32.const 0, i32.le_s, if (empty)
	c = appendResetYield(c, 0x24, ctr, yieldEvery, kill, memory64)
	c = append(c, 0x0b)                   // end (if)
	bc.tail = append(c, 0x0c, 0x00, 0x0b) // br 0 ($outer), end ($outer)
	c = append(c[:len(c):len(c)], bc.init...)
	bc.tailNested = append(c, 0x0c, 0x00, 0x0b)
	return bc
}

// parseParamCounts returns the number of parameters of each type in the type
// section. Only function types (0x60) are understood.
func parseParamCounts(r *reader) ([]uint32, error) {
	n, err := r.vecLen(3)
	if err != nil {
		return nil, err
	}
	counts := make([]uint32, 0, n)
	for i := uint32(0); i < n; i++ {
		at := r.pos
		form, err := r.readByte()
		if err != nil {
			return nil, err
		}
		if form != 0x60 {
			return nil, fmt.Errorf("type %d at offset 0x%x: form 0x%02x is not a function type (only 0x60 is supported with a local countdown)", i, at, form)
		}
		for k := 0; k < 2; k++ { // params, results
			m, err := r.vecLen(1)
			if err != nil {
				return nil, fmt.Errorf("type %d: %w", i, err)
			}
			for j := uint32(0); j < m; j++ {
				if err := r.valType(); err != nil {
					return nil, fmt.Errorf("type %d: %w", i, err)
				}
			}
			if k == 0 {
				counts = append(counts, m)
			}
		}
	}
	return counts, r.done()
}

// offsetDependent reports whether a custom section with this name refers to
// byte offsets in the code section.
func offsetDependent(name string) bool {
	return strings.HasPrefix(name, ".debug_") ||
		strings.HasPrefix(name, "reloc.") ||
		name == "sourceMappingURL" ||
		name == "external_debug_info"
}

// insertSection inserts a new non-custom section before the first non-custom
// section that must come after it.
func insertSection(secs []*section, s *section) []*section {
	rank := sectionRank[s.id]
	at := len(secs)
	for i, o := range secs {
		if o.id != secCustom && sectionRank[o.id] > rank {
			at = i
			break
		}
	}
	secs = append(secs, nil)
	copy(secs[at+1:], secs[at:])
	secs[at] = s
	return secs
}

func (s *section) reader(wasm []byte) *reader {
	return &reader{buf: wasm, pos: s.start, end: s.start + len(s.payload)}
}

type imports struct {
	funcs, globals, memories uint32
	memory64                 bool // the first imported memory is 64-bit
}

// parseImports counts the imported functions, globals and memories.
func parseImports(r *reader) (imp imports, err error) {
	n, err := r.vecLen(4)
	if err != nil {
		return imp, err
	}
	for i := uint32(0); i < n; i++ {
		if err := r.skipName(); err != nil {
			return imp, fmt.Errorf("import %d: %w", i, err)
		}
		if err := r.skipName(); err != nil {
			return imp, fmt.Errorf("import %d: %w", i, err)
		}
		kind, err := r.readByte()
		if err != nil {
			return imp, fmt.Errorf("import %d: %w", i, err)
		}
		switch kind {
		case 0: // function: type index
			_, err = r.u32()
			imp.funcs++
		case 1: // table: reftype, limits
			if err = r.valType(); err == nil {
				_, err = r.limits()
			}
		case 2: // memory: limits
			var flags byte
			flags, err = r.limits()
			if imp.memories == 0 {
				imp.memory64 = flags&0x04 != 0
			}
			imp.memories++
		case 3: // global: valtype, mutability
			if err = r.valType(); err == nil {
				var mut byte
				if mut, err = r.readByte(); err == nil && mut > 1 {
					err = fmt.Errorf("invalid global mutability 0x%02x at offset 0x%x", mut, r.pos-1)
				}
			}
			imp.globals++
		case 4: // tag: attribute, type index
			if _, err = r.readByte(); err == nil {
				_, err = r.u32()
			}
		default:
			err = fmt.Errorf("unknown import kind 0x%02x at offset 0x%x", kind, r.pos-1)
		}
		if err != nil {
			return imp, fmt.Errorf("import %d: %w", i, err)
		}
	}
	return imp, r.done()
}

// parseFunctionNames decodes subsection 1 (function names) of the "name"
// custom section.
func parseFunctionNames(wasm []byte, s *section) (map[uint32]string, error) {
	r := s.reader(wasm)
	if err := r.skipName(); err != nil { // the section's own name, "name"
		return nil, err
	}
	names := map[uint32]string{}
	for r.pos < r.end {
		id, _ := r.readByte()
		size, err := r.u32()
		if err != nil {
			return nil, err
		}
		if uint64(size) > uint64(r.end-r.pos) {
			return nil, fmt.Errorf("subsection %d at offset 0x%x: size %d exceeds the section", id, r.pos, size)
		}
		sub := &reader{buf: wasm, pos: r.pos, end: r.pos + int(size)}
		r.pos = sub.end
		if id != 1 {
			continue
		}
		n, err := sub.vecLen(2)
		if err != nil {
			return nil, err
		}
		for i := uint32(0); i < n; i++ {
			idx, err := sub.u32()
			if err != nil {
				return nil, err
			}
			name, err := sub.name()
			if err != nil {
				return nil, err
			}
			names[idx] = name
		}
		if err := sub.done(); err != nil {
			return nil, err
		}
	}
	return names, nil
}

// Immediate kinds of single-byte opcodes. The zero value marks an opcode the
// decoder does not know.
const (
	immInvalid  = iota
	immNone     // no immediate
	immBlock    // block type; opens a block (block, if, try)
	immLoop     // block type; opens a loop
	immEnd      // closes a block
	immU32      // one u32 index
	immU32x2    // two u32 indices
	immBrTable  // vec(label) label
	immSelectT  // vec(valtype)
	immMemarg   // memarg
	immMemIdx   // memory index (memory.size, memory.grow)
	immI32      // signed LEB128, 32 bits
	immI64      // signed LEB128, 64 bits
	immF32      // 4 raw bytes
	immF64      // 8 raw bytes
	immHeapType // heap type, s33
	immTryTable // block type, vec(catch clause); opens a block
	immDelegate // label; closes a legacy try block
	immPrefixFC // misc prefix
	immPrefixFD // SIMD prefix
	immPrefixFE // threads prefix
)

var opImm = func() (t [256]uint8) {
	set := func(lo, hi int, k uint8) {
		for op := lo; op <= hi; op++ {
			t[op] = k
		}
	}
	set(0x00, 0x01, immNone)   // unreachable, nop
	t[0x02] = immBlock         // block
	t[0x03] = immLoop          // loop
	t[0x04] = immBlock         // if
	t[0x05] = immNone          // else
	t[0x06] = immBlock         // try (legacy exception handling)
	t[0x07] = immU32           // catch tag (legacy)
	t[0x08] = immU32           // throw tag
	t[0x09] = immU32           // rethrow label (legacy)
	t[0x0a] = immNone          // throw_ref
	t[0x0b] = immEnd           // end
	set(0x0c, 0x0d, immU32)    // br, br_if
	t[0x0e] = immBrTable       // br_table
	t[0x0f] = immNone          // return
	t[0x10] = immU32           // call
	t[0x11] = immU32x2         // call_indirect type table
	t[0x12] = immU32           // return_call
	t[0x13] = immU32x2         // return_call_indirect
	set(0x14, 0x15, immU32)    // call_ref, return_call_ref
	t[0x18] = immDelegate      // delegate (legacy)
	t[0x19] = immNone          // catch_all (legacy)
	set(0x1a, 0x1b, immNone)   // drop, select
	t[0x1c] = immSelectT       // select t*
	t[0x1f] = immTryTable      // try_table
	set(0x20, 0x24, immU32)    // local.get/set/tee, global.get/set
	set(0x25, 0x26, immU32)    // table.get, table.set
	set(0x28, 0x3e, immMemarg) // loads and stores
	set(0x3f, 0x40, immMemIdx) // memory.size, memory.grow
	t[0x41] = immI32           // i32.const
	t[0x42] = immI64           // i64.const
	t[0x43] = immF32           // f32.const
	t[0x44] = immF64           // f64.const
	set(0x45, 0xc4, immNone)   // numeric and sign-extension operators
	t[0xd0] = immHeapType      // ref.null
	t[0xd1] = immNone          // ref.is_null
	t[0xd2] = immU32           // ref.func
	t[0xd4] = immNone          // ref.as_non_null
	set(0xd5, 0xd6, immU32)    // br_on_null, br_on_non_null
	t[0xfc] = immPrefixFC
	t[0xfd] = immPrefixFD
	t[0xfe] = immPrefixFE
	return t
}()

// SIMD (0xFD prefix) immediate kinds, indexed by sub-opcode.
const (
	simdInvalid = iota
	simdNone
	simdMemarg
	simdBytes16
	simdLane
	simdMemargLane
)

var simdImm = func() (t [0x114]uint8) {
	set := func(lo, hi int, k uint8) {
		for op := lo; op <= hi; op++ {
			t[op] = k
		}
	}
	set(0x00, 0x0b, simdMemarg)     // v128.load*, v128.store
	set(0x0c, 0x0d, simdBytes16)    // v128.const, i8x16.shuffle
	set(0x0e, 0x14, simdNone)       // swizzle, splats
	set(0x15, 0x22, simdLane)       // extract_lane / replace_lane
	set(0x23, 0x53, simdNone)       // comparisons, bitwise, any_true
	set(0x54, 0x5b, simdMemargLane) // load*_lane, store*_lane
	set(0x5c, 0x5d, simdMemarg)     // v128.load32_zero, v128.load64_zero
	set(0x5e, 0xff, simdNone)       // arithmetic and conversions
	set(0x100, 0x113, simdNone)     // relaxed SIMD
	for _, op := range []int{0x9a, 0xa2, 0xa5, 0xa6, 0xaf, 0xb0, 0xb2, 0xb3, 0xb4, 0xbb, 0xc2, 0xc5, 0xc6, 0xcf, 0xd0, 0xd2, 0xd3, 0xd4, 0xe2, 0xee} {
		t[op] = simdInvalid // unassigned
	}
	return t
}()

// Kinds of insertion points that walkExpr records.
const (
	pointLoop       = iota // start of a loop body: the check goes here
	pointSave              // before an instruction that leaves the function or calls: write the countdown local back to the global
	pointLoad              // after a call: reload the countdown local from the global
	pointWrap              // before an outlined loop: open the blocks around it
	pointOutLoop           // start of an outlined loop's body: the check
	pointTail              // after an outlined loop's end: the yield path, closing the blocks
	pointLabel             // a label immediate (bytes at..end) to replace by val
	pointChunkLocal        // a local index immediate (bytes at..end) to replace by the count local's
	pointChunkBound        // an instruction (bytes at..end) to replace by local.get of the count local
	pointChunkExit         // before the branch that ends a counted loop's body: the chunk's tail test
)

// point is an insertion point: an offset in the input and what goes there.
// At equal offsets, points are recorded in the order they must be emitted.
type point struct {
	at   int
	kind uint8
	end  int    // pointLabel, pointChunkLocal, pointChunkBound: end of the bytes replaced; pointWrap: end of the block type
	val  uint32 // pointLabel: the new label; pointTail: tailResults, tailBatched; pointWrap, pointOutLoop: 1 if batched
	// chunk is, for the pointWrap, pointOutLoop, pointTail and
	// pointChunk* points of a counted loop, 1 + its index in
	// exprInfo.chunks; 0 otherwise.
	chunk int
}

// insertPoint inserts p into points, which are sorted by offset, after
// every point at or before p's offset: points recorded earlier at the same
// offset are emitted first.
func insertPoint(points []point, p point) []point {
	i := sort.Search(len(points), func(i int) bool { return points[i].at > p.at })
	points = append(points, point{})
	copy(points[i+1:], points[i:])
	points[i] = p
	return points
}

// Bits of a pointTail's val.
const (
	tailResults = 1 << iota // the loop has results
	tailBatched             // a loop counting in a local (Options.Batch)
	tailNested              // batched inside another batched loop: its yield path sets the nest's local again
)

// wrapNested is the val of the pointWrap of a batched loop inside another:
// unlike its nest's root, it does not set the count local on entry.
const wrapNested = 2

// frame is an open block during walkExpr in outlining mode.
type frame struct {
	extra uint32 // labels added around it (3 for an outlined loop)
	bt    int    // outlined loop: offset of its block type
	loop  bool   // a loop, outlined or not
	inner bool   // a loop that contains another loop
	// nested marks an outlined loop inside another outlined loop: in batch
	// mode it counts in the local of its nest, which its root sets.
	nested bool
	wrap   int // outlined loop: index of its pointWrap in exprInfo.points
}

// exprInfo collects what walkExpr finds in a function body.
type exprInfo struct {
	points []point
	loops  int
	// handlers is set when the body contains an exception handler
	// (try_table, or a legacy try), where control can resume in the
	// function after a callee threw.
	handlers bool

	// outline (input) restructures every loop without parameters so that
	// its yield path lies outside it (see outlinedLoop); params (input)
	// holds the parameter count of each type, for block types.
	outline bool
	params  []uint32
	frames  []frame
	// batch (input), with outline, marks outlined loops as batched (the
	// val of their pointWrap, pointOutLoop and pointTail; wrapNested and
	// tailNested for those inside another); batched counts them.
	batch        bool
	batchSize    uint32
	batched      int
	nestedChunks int // counted loops inside another batched loop
	// scan follows the innermost outlined loop being walked, in batch
	// mode, so that its end can tell whether it is a counted loop; chunks
	// holds the counted loops found (see chunkLoop).
	scan   loopScan
	chunks []chunkLoop

	// For the call graph: direct callees (call, return_call), whether the
	// body calls indirectly, whether it throws.
	callees  []uint32
	indirect bool
	throws   bool
}

// walkExpr decodes instructions from r.pos up to and including the end that
// closes the expression, leaving r.pos just after it. When info is not nil,
// it records in it the input offset just after each loop's block type (where
// the check goes) and the points around calls, returns, throws and branches
// out of the function where a countdown kept in a local must be written back
// to its global or reloaded from it.
func walkExpr(r *reader, info *exprInfo) error {
	start := r.pos
	depth := 1
	add := func(at int, kind uint8) {
		if info != nil {
			info.points = append(info.points, point{at: at, kind: kind})
		}
	}
	outline := info != nil && info.outline
	if outline {
		info.frames = append(info.frames[:0], frame{})
	}
	// label renumbers a label immediate at lebStart..r.pos for the labels
	// that outlining adds between the branch and its target.
	label := func(l uint32, lebStart, lebEnd int) {
		if !outline || uint64(l) >= uint64(len(info.frames)) {
			return
		}
		top := len(info.frames) - 1
		nl := l
		for j := top; j > top-int(l); j-- {
			nl += info.frames[j].extra
		}
		if nl != l {
			info.points = append(info.points, point{at: lebStart, kind: pointLabel, end: lebEnd, val: nl})
		}
	}
	for {
		if r.pos >= r.end {
			return fmt.Errorf("expression starting at offset 0x%x is not terminated by end", start)
		}
		at := r.pos
		op := r.buf[at]
		r.pos++
		// scanning: the instruction is inside the loop followed by
		// info.scan (see chunkLoop); imm is its immediate, if one number.
		scanning := outline && info.batch && info.scan.active
		var imm int64
		if op == 0x26 { // table.set
			r.tableWrites++
		}
		switch op {
		case 0x08, 0x09, 0x0a, // throw, rethrow, throw_ref
			0x0f,             // return
			0x12, 0x13, 0x15: // return_call, return_call_indirect, return_call_ref
			add(at, pointSave)
		case 0x10, 0x11, 0x14: // call, call_indirect, call_ref
			add(at, pointSave)
		case 0x06, 0x1f: // try, try_table
			if info != nil {
				info.handlers = true
			}
		}
		if info != nil {
			switch op {
			case 0x08, 0x09, 0x0a:
				info.throws = true
			case 0x11, 0x13, 0x14, 0x15:
				info.indirect = true
			}
		}
		var err error
		switch opImm[op] {
		case immNone:
		case immBlock:
			err = r.blockType()
			depth++
			if outline {
				info.frames = append(info.frames, frame{})
			}
		case immLoop:
			bt := r.pos
			err = r.blockType()
			depth++
			if info != nil && err == nil {
				info.loops++
				if outline {
					// The nearest enclosing loop is not innermost.
					for j := len(info.frames) - 1; j >= 0; j-- {
						if info.frames[j].loop {
							info.frames[j].inner = true
							break
						}
					}
				}
				info.scan.active = false
				if outline && !blockTypeHasParams(r.buf[bt:r.pos], info.params) {
					if info.batch {
						info.scan.start(depth)
					}
					nested := false
					for j := len(info.frames) - 1; j >= 0; j-- {
						if info.frames[j].extra != 0 {
							nested = true
							break
						}
					}
					info.frames = append(info.frames, frame{extra: 3, bt: bt, loop: true, wrap: len(info.points), nested: nested})
					info.points = append(info.points, point{at: at, kind: pointWrap, end: r.pos})
					info.points = append(info.points, point{at: r.pos, kind: pointOutLoop})
				} else {
					info.points = append(info.points, point{at: r.pos, kind: pointLoop})
					if outline {
						info.frames = append(info.frames, frame{loop: true})
					}
				}
			}
		case immEnd:
			depth--
			if depth == 0 {
				add(at, pointSave) // falling off the end returns
				return nil
			}
			if outline && len(info.frames) > 1 {
				f := info.frames[len(info.frames)-1]
				info.frames = info.frames[:len(info.frames)-1]
				if f.extra != 0 {
					val := uint32(0)
					if r.buf[f.bt] != 0x40 {
						val = tailResults
					}
					chunk := 0
					if info.batch {
						val |= tailBatched
						info.points[f.wrap].val = 1
						info.points[f.wrap+1].val = 1
						info.batched++
						if f.nested {
							// Counts in its nest's local, set by the root.
							info.points[f.wrap].val = wrapNested
							val |= tailNested
						}
						if !f.inner && r.buf[f.bt] == 0x40 && info.scan.active && info.scan.depth == depth+1 {
							if cl, repl, ok := info.scan.match(info.batchSize); ok {
								// A counted loop keeps its own chunk
								// bound; inside a nest, in a second
								// local, since the nest's count lives
								// on around it.
								cl.nested = f.nested
								if f.nested {
									info.nestedChunks++
									val &^= tailNested
								}
								info.chunks = append(info.chunks, cl)
								chunk = len(info.chunks)
								info.points[f.wrap].chunk = chunk
								info.points[f.wrap+1].chunk = chunk
								for _, p := range repl {
									p.chunk = chunk
									info.points = insertPoint(info.points, p)
								}
							}
						}
					}
					info.scan.active = false
					info.points = append(info.points, point{at: r.pos, kind: pointTail, val: val, chunk: chunk})
				}
			}
		case immU32:
			var idx uint32
			lebStart := r.pos
			idx, err = r.u32()
			imm = int64(idx)
			switch op {
			case 0x0c, 0x0d, 0xd5, 0xd6: // br, br_if, br_on_null, br_on_non_null
				if err == nil && idx == uint32(depth-1) { // the function's label: returns
					add(at, pointSave)
				}
				if scanning {
					info.scan.branch(depth, idx)
				}
				if err == nil {
					label(idx, lebStart, r.pos)
				}
			case opLocalGet, opLocalSet, opLocalTee:
				if scanning {
					info.scan.locals = append(info.scan.locals, scanLocal{idx: idx, write: op != opLocalGet})
				}
			case 0x10: // call: tag its points with the callee
				if info != nil && err == nil {
					info.points[len(info.points)-1].val = idx + 1
					info.points = append(info.points, point{at: r.pos, kind: pointLoad, val: idx + 1})
					info.callees = append(info.callees, idx)
				}
			case 0x12: // return_call
				if info != nil && err == nil {
					info.callees = append(info.callees, idx)
				}
			case 0x14: // call_ref
				add(r.pos, pointLoad)
			}
		case immU32x2:
			if _, err = r.u32(); err == nil {
				_, err = r.u32()
			}
			if op == 0x11 { // call_indirect
				add(r.pos, pointLoad)
			}
		case immBrTable:
			var n uint32
			out := false
			var targets [][3]int // label, start, end of each immediate
			if n, err = r.vecLen(1); err == nil {
				for i := uint32(0); i <= n && err == nil; i++ { // n targets + default
					var l uint32
					lebStart := r.pos
					if l, err = r.u32(); err == nil {
						out = out || l == uint32(depth-1)
						if scanning {
							info.scan.branch(depth, l)
						}
						if outline {
							targets = append(targets, [3]int{int(l), lebStart, r.pos})
						}
					}
				}
			}
			if err == nil {
				if out {
					add(at, pointSave)
				}
				for _, tg := range targets {
					label(uint32(tg[0]), tg[1], tg[2])
				}
			}
		case immSelectT:
			var n uint32
			if n, err = r.vecLen(1); err == nil {
				for i := uint32(0); i < n && err == nil; i++ {
					err = r.valType()
				}
			}
		case immMemarg:
			err = r.memarg()
		case immMemIdx:
			_, err = r.u32()
		case immI32:
			imm, err = r.sleb(32)
		case immI64:
			_, err = r.sleb(64)
		case immF32:
			err = r.skip(4)
		case immF64:
			err = r.skip(8)
		case immHeapType:
			_, err = r.sleb(33)
		case immTryTable:
			if err = r.blockType(); err == nil {
				var n uint32
				if n, err = r.vecLen(2); err == nil {
					for i := uint32(0); i < n && err == nil; i++ {
						var kind byte
						if kind, err = r.readByte(); err != nil {
							break
						}
						switch kind {
						case 0x00, 0x01: // catch, catch_ref: tag label
							if _, err = r.u32(); err == nil {
								_, err = r.u32()
							}
						case 0x02, 0x03: // catch_all, catch_all_ref: label
							_, err = r.u32()
						default:
							err = fmt.Errorf("unknown try_table catch kind 0x%02x at offset 0x%x", kind, r.pos-1)
						}
					}
				}
			}
			depth++
			if outline {
				info.frames = append(info.frames, frame{})
			}
		case immDelegate:
			_, err = r.u32()
			depth--
			if outline && len(info.frames) > 1 {
				info.frames = info.frames[:len(info.frames)-1]
			}
			if depth == 0 && err == nil {
				err = fmt.Errorf("delegate at offset 0x%x closes the function body", at)
			}
		case immPrefixFC:
			err = r.prefixFC(at)
		case immPrefixFD:
			err = r.prefixFD(at)
		case immPrefixFE:
			err = r.prefixFE(at)
		default:
			return fmt.Errorf("unknown opcode 0x%02x at offset 0x%x", op, at)
		}
		if err != nil {
			return err
		}
		if scanning && info.scan.active {
			info.scan.add(scanInstr{op: op, at: at, end: r.pos, immStart: at + 1, imm: imm})
		}
	}
}

func (r *reader) subOpcode(at int, prefix byte) (uint32, error) {
	sub, err := r.u32()
	if err != nil {
		return 0, fmt.Errorf("opcode 0x%02x at offset 0x%x: %w", prefix, at, err)
	}
	return sub, nil
}

func unknownSub(prefix byte, sub uint32, at int) error {
	return fmt.Errorf("unknown opcode 0x%02x %d (0x%x) at offset 0x%x", prefix, sub, sub, at)
}

// prefixFC decodes the immediates of a 0xFC-prefixed instruction: saturating
// float-to-int conversions and bulk memory / table operations.
func (r *reader) prefixFC(at int) error {
	sub, err := r.subOpcode(at, 0xfc)
	if err != nil {
		return err
	}
	var n int // number of u32 immediates
	switch {
	case sub <= 7: // i32/i64.trunc_sat_f32/f64_s/u
		n = 0
	case sub == 8: // memory.init data mem
		n = 2
	case sub == 9: // data.drop data
		n = 1
	case sub == 10: // memory.copy mem mem
		n = 2
	case sub == 11: // memory.fill mem
		n = 1
	case sub == 12: // table.init elem table
		n = 2
	case sub == 13: // elem.drop elem
		n = 1
	case sub == 14: // table.copy table table
		n = 2
	case sub >= 15 && sub <= 17: // table.grow, table.size, table.fill
		n = 1
	default:
		return unknownSub(0xfc, sub, at)
	}
	if sub >= 12 && sub <= 17 && sub != 16 { // every table op but table.size
		r.tableWrites++
	}
	for i := 0; i < n; i++ {
		if _, err := r.u32(); err != nil {
			return err
		}
	}
	return nil
}

// prefixFD decodes the immediates of a 0xFD-prefixed (SIMD) instruction.
func (r *reader) prefixFD(at int) error {
	sub, err := r.subOpcode(at, 0xfd)
	if err != nil {
		return err
	}
	kind := uint8(simdInvalid)
	if int(sub) < len(simdImm) {
		kind = simdImm[sub]
	}
	switch kind {
	case simdNone:
		return nil
	case simdMemarg:
		return r.memarg()
	case simdBytes16:
		return r.skip(16)
	case simdLane:
		return r.skip(1)
	case simdMemargLane:
		if err := r.memarg(); err != nil {
			return err
		}
		return r.skip(1)
	default:
		return unknownSub(0xfd, sub, at)
	}
}

// prefixFE decodes the immediates of a 0xFE-prefixed (threads) instruction.
func (r *reader) prefixFE(at int) error {
	sub, err := r.subOpcode(at, 0xfe)
	if err != nil {
		return err
	}
	switch {
	case sub <= 0x02, sub >= 0x10 && sub <= 0x4e: // notify, wait32/64, atomic loads, stores, rmw
		return r.memarg()
	case sub == 0x03: // atomic.fence, reserved byte
		return r.skip(1)
	default:
		return unknownSub(0xfe, sub, at)
	}
}

// reader decodes buf[pos:end]. Offsets in errors are offsets in buf, which
// is always the whole input module.
type reader struct {
	buf []byte
	pos int
	end int
	// tableWrites counts table-changing instructions walkExpr decoded.
	tableWrites int
}

func (r *reader) eof() error {
	return fmt.Errorf("unexpected end of data at offset 0x%x", r.pos)
}

func (r *reader) done() error {
	if r.pos != r.end {
		return fmt.Errorf("%d unexpected bytes at offset 0x%x", r.end-r.pos, r.pos)
	}
	return nil
}

func (r *reader) readByte() (byte, error) {
	if r.pos >= r.end {
		return 0, r.eof()
	}
	b := r.buf[r.pos]
	r.pos++
	return b, nil
}

func (r *reader) skip(n int) error {
	if r.end-r.pos < n {
		r.pos = r.end
		return r.eof()
	}
	r.pos += n
	return nil
}

// uleb decodes an unsigned LEB128 number of at most bits bits.
func (r *reader) uleb(bits uint) (uint64, error) {
	start := r.pos
	var v uint64
	for shift := uint(0); ; shift += 7 {
		if r.pos >= r.end {
			return 0, fmt.Errorf("truncated LEB128 number at offset 0x%x", start)
		}
		b := r.buf[r.pos]
		r.pos++
		if shift+7 >= bits { // last byte that may be present
			if b&0x80 != 0 || uint64(b)>>(bits-shift) != 0 {
				return 0, fmt.Errorf("LEB128 number at offset 0x%x is too long or exceeds %d bits", start, bits)
			}
			return v | uint64(b)<<shift, nil
		}
		v |= uint64(b&0x7f) << shift
		if b&0x80 == 0 {
			return v, nil
		}
	}
}

// sleb decodes a signed LEB128 number of at most bits bits.
func (r *reader) sleb(bits uint) (int64, error) {
	start := r.pos
	var v int64
	for shift := uint(0); ; shift += 7 {
		if r.pos >= r.end {
			return 0, fmt.Errorf("truncated LEB128 number at offset 0x%x", start)
		}
		b := r.buf[r.pos]
		r.pos++
		if shift+7 >= bits { // last byte that may be present
			rest := bits - shift   // significant bits in this byte, 1..7
			top := b >> (rest - 1) // sign bit and the unused bits above it
			if b&0x80 != 0 || (top != 0 && top != 0x7f>>(rest-1)) {
				return 0, fmt.Errorf("LEB128 number at offset 0x%x is too long or exceeds %d bits", start, bits)
			}
			v |= int64(b&0x7f) << shift
			if b&0x40 != 0 && shift+7 < 64 {
				v |= -1 << (shift + 7)
			}
			return v, nil
		}
		v |= int64(b&0x7f) << shift
		if b&0x80 == 0 {
			if b&0x40 != 0 {
				v |= -1 << (shift + 7)
			}
			return v, nil
		}
	}
}

func (r *reader) u32() (uint32, error) {
	v, err := r.uleb(32)
	return uint32(v), err
}

// vecLen reads a vector length and checks it against the bytes left, given
// the minimum encoded size of one element, so that corrupt input cannot make
// a loop run for billions of iterations.
func (r *reader) vecLen(minSize int) (uint32, error) {
	at := r.pos
	n, err := r.u32()
	if err != nil {
		return 0, err
	}
	if uint64(n)*uint64(minSize) > uint64(r.end-r.pos) {
		return 0, fmt.Errorf("vector length %d at offset 0x%x exceeds the remaining %d bytes", n, at, r.end-r.pos)
	}
	return n, nil
}

func (r *reader) name() (string, error) {
	at := r.pos
	n, err := r.u32()
	if err != nil {
		return "", err
	}
	if uint64(n) > uint64(r.end-r.pos) {
		return "", fmt.Errorf("name at offset 0x%x: length %d exceeds the remaining %d bytes", at, n, r.end-r.pos)
	}
	s := string(r.buf[r.pos : r.pos+int(n)])
	r.pos += int(n)
	return s, nil
}

func (r *reader) skipName() error {
	at := r.pos
	n, err := r.u32()
	if err != nil {
		return err
	}
	if uint64(n) > uint64(r.end-r.pos) {
		return fmt.Errorf("name at offset 0x%x: length %d exceeds the remaining %d bytes", at, n, r.end-r.pos)
	}
	r.pos += int(n)
	return nil
}

// valType decodes a value type: a number, vector or reference type, where a
// reference type is a one-byte shorthand or 0x63/0x64 followed by a heap
// type.
func (r *reader) valType() error {
	at := r.pos
	b, err := r.readByte()
	if err != nil {
		return err
	}
	switch b {
	case 0x7f, 0x7e, 0x7d, 0x7c, // i32, i64, f32, f64
		0x7b,             // v128
		0x70, 0x6f, 0x69: // funcref, externref, exnref
		return nil
	case 0x63, 0x64: // (ref null ht), (ref ht)
		_, err := r.sleb(33)
		return err
	default:
		return fmt.Errorf("unknown value type 0x%02x at offset 0x%x", b, at)
	}
}

// blockType decodes a block type: 0x40 (empty), a value type, or a
// non-negative s33 type index.
func (r *reader) blockType() error {
	if r.pos >= r.end {
		return r.eof()
	}
	b := r.buf[r.pos]
	if b == 0x40 {
		r.pos++
		return nil
	}
	if b&0xc0 == 0x40 { // one-byte negative s33: a value type
		return r.valType()
	}
	at := r.pos
	idx, err := r.sleb(33)
	if err != nil {
		return err
	}
	if idx < 0 {
		return fmt.Errorf("invalid block type %d at offset 0x%x", idx, at)
	}
	return nil
}

// memarg decodes alignment (with bit 6 announcing a memory index, as in the
// multi-memory proposal) and offset (u64 to allow memory64).
func (r *reader) memarg() error {
	align, err := r.u32()
	if err != nil {
		return err
	}
	if align&0x40 != 0 {
		if _, err := r.u32(); err != nil {
			return err
		}
	}
	_, err = r.uleb(64)
	return err
}

// limits decodes table or memory limits and returns their flags. Flag bits:
// 0 has maximum, 1 shared, 2 64-bit, 3 custom page size.
func (r *reader) limits() (byte, error) {
	at := r.pos
	flags, err := r.readByte()
	if err != nil {
		return 0, err
	}
	if flags > 0x0f {
		return 0, fmt.Errorf("unknown limits flags 0x%02x at offset 0x%x", flags, at)
	}
	bits := uint(32)
	if flags&0x04 != 0 {
		bits = 64
	}
	if _, err := r.uleb(bits); err != nil {
		return 0, err
	}
	if flags&0x01 != 0 {
		if _, err := r.uleb(bits); err != nil {
			return 0, err
		}
	}
	if flags&0x08 != 0 {
		if _, err := r.u32(); err != nil {
			return 0, err
		}
	}
	return flags, nil
}

func appendU32(b []byte, v uint32) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func appendS32(b []byte, v int32) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func appendName(b []byte, s string) []byte {
	b = appendU32(b, uint32(len(s)))
	return append(b, s...)
}
