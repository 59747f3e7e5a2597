// Command newpy runs a WASI command module (a plain CPython python.wasm,
// entry point _start) under pybox's wazero fork, compiled as pybox compiles
// its interpreter: the optimizing compiler, guarded memory (no bounds checks;
// runtime/memory.go) and a compilation cache, so that a run loads compiled
// code instead of compiling. scripts/bench/newpy.sh uses it to time two
// CPython versions on the same engine (docs/cpu.md, "A newer CPython").
//
//	newpy -wasm python.wasm -cache DIR -compile-only
//	newpy -wasm python.wasm -cache DIR -dir HOST:GUEST... -- ARGV0 ARGS...
//
// Directories are preopened read-write at GUEST. The guest gets the host's
// clocks, crypto/rand, stdout and stderr; its exit status is the process's.
package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"
	"golang.org/x/sys/unix"
)

type dirs []string

func (d *dirs) String() string     { return strings.Join(*d, ",") }
func (d *dirs) Set(s string) error { *d = append(*d, s); return nil }

func main() {
	wasmPath := flag.String("wasm", "", "the WASI command module")
	cacheDir := flag.String("cache", "", "wazero compilation cache folder")
	compileOnly := flag.Bool("compile-only", false, "compile (filling the cache) and exit")
	var mounts dirs
	flag.Var(&mounts, "dir", "HOST:GUEST directory to preopen (repeatable)")
	flag.Parse()
	if *wasmPath == "" {
		flag.Usage()
		os.Exit(2)
	}
	os.Exit(run(*wasmPath, *cacheDir, *compileOnly, mounts, flag.Args()))
}

func run(wasmPath, cacheDir string, compileOnly bool, mounts []string, args []string) int {
	ctx := context.Background()
	rc := wazero.NewRuntimeConfigCompiler().WithCoreFeatures(api.CoreFeaturesV2)
	if cacheDir != "" {
		cache, err := wazero.NewCompilationCacheWithDir(cacheDir)
		if err != nil {
			fmt.Fprintf(os.Stderr, "newpy: open compilation cache %s: %v\n", cacheDir, err)
			return 1
		}
		rc = rc.WithCompilationCache(cache)
	}
	r := wazero.NewRuntimeWithConfig(ctx, rc)
	defer r.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, r)

	bin, err := os.ReadFile(wasmPath)
	if err != nil {
		fmt.Fprintf(os.Stderr, "newpy: %v\n", err)
		return 1
	}
	compiled, err := r.CompileModule(experimental.WithGuardedMemory(ctx), bin)
	if err != nil {
		fmt.Fprintf(os.Stderr, "newpy: compile %s: %v\n", wasmPath, err)
		return 1
	}
	if compileOnly {
		return 0
	}

	fs := wazero.NewFSConfig()
	for _, m := range mounts {
		host, guest, ok := strings.Cut(m, ":")
		if !ok {
			fmt.Fprintf(os.Stderr, "newpy: -dir %q: want HOST:GUEST\n", m)
			return 2
		}
		fs = fs.WithDirMount(host, guest)
	}
	mc := wazero.NewModuleConfig().
		WithArgs(args...).
		WithFSConfig(fs).
		WithStdout(os.Stdout).WithStderr(os.Stderr).WithStdin(os.Stdin).
		WithSysWalltime().WithSysNanotime().WithSysNanosleep().
		WithRandSource(rand.Reader)
	ictx := experimental.WithMemoryAllocator(ctx, experimental.MemoryAllocatorFunc(reserve))
	mod, err := r.InstantiateModule(ictx, compiled, mc)
	if mod != nil {
		mod.Close(ctx)
	}
	var exit *sys.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return int(exit.ExitCode())
	default:
		fmt.Fprintf(os.Stderr, "newpy: %v\n", err)
		return 1
	}
}

// reserve backs the guest's linear memory with a fixed reservation of
// experimental.GuardedMemoryReservation bytes, PROT_NONE past the current
// size, as guarded-memory code requires (pybox's runtime/memory.go does the
// same with limits on top).
func reserve(capacity, max uint64) experimental.LinearMemory {
	size := uint64(experimental.GuardedMemoryReservation)
	if max > size {
		size = max
	}
	m, err := unix.Mmap(-1, 0, int(size), unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANON|unix.MAP_NORESERVE)
	if err != nil {
		panic(fmt.Sprintf("reserve guest memory: %v", err))
	}
	return &guarded{mapping: m}
}

type guarded struct {
	mapping []byte
	enabled uint64
}

func (g *guarded) Reallocate(size uint64) []byte {
	if size > uint64(len(g.mapping)) {
		return nil
	}
	if size > g.enabled {
		page := uint64(unix.Getpagesize())
		end := min((size+page-1)/page*page, uint64(len(g.mapping)))
		if err := unix.Mprotect(g.mapping[g.enabled:end], unix.PROT_READ|unix.PROT_WRITE); err != nil {
			return nil
		}
		g.enabled = end
	}
	return g.mapping[:size:size]
}

func (g *guarded) Reserved() uint64 { return uint64(len(g.mapping)) }

func (g *guarded) Free() {
	if g.mapping != nil {
		_ = unix.Munmap(g.mapping)
		g.mapping = nil
	}
}
