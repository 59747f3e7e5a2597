//go:build linux && amd64

// The tests run wazero's released spec tests (core 2.0) with
// experimental.WithGuardedMemory, every memory from a guarded allocator, so
// that every load and store relies on the guard region and the fault handler
// (pybox patch 0012). The test data is that of the released module in the Go
// module cache (go mod download fetches it; the fork does not copy 48 MB of
// it).

package guarded

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/internal/integration_test/spectest"
	"github.com/tetratelabs/wazero/internal/sigguard"
)

// guardedMemory reserves experimental.GuardedMemoryReservation bytes
// PROT_NONE and makes a prefix read-write as the memory grows.
type guardedMemory struct {
	mapping []byte
	enabled uint64
}

func (m *guardedMemory) Reallocate(size uint64) []byte {
	if size > m.enabled {
		if err := syscall.Mprotect(m.mapping[m.enabled:size], syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
			return nil
		}
		m.enabled = size
	}
	return m.mapping[:size:size]
}

func (m *guardedMemory) Free() {
	if m.mapping != nil {
		_ = syscall.Munmap(m.mapping)
		m.mapping = nil
	}
}

func (m *guardedMemory) Reserved() uint64 { return uint64(len(m.mapping)) }

func allocate(_, _ uint64) experimental.LinearMemory {
	b, err := syscall.Mmap(-1, 0, experimental.GuardedMemoryReservation, syscall.PROT_NONE,
		syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		panic(err)
	}
	return &guardedMemory{mapping: b}
}

func releasedSpecTests(t *testing.T, suite string) string {
	out, err := exec.Command("go", "mod", "download", "-json", "github.com/tetratelabs/wazero@v1.12.0").Output()
	if err != nil {
		t.Skipf("the released wazero module is not available: %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, `"Dir": "`) {
			return filepath.Join(strings.TrimSuffix(strings.TrimPrefix(line, `"Dir": "`), `",`),
				"internal", "integration_test", "spectest", suite)
		}
	}
	t.Fatalf("no Dir in go mod download output: %s", out)
	return ""
}

func TestSpecGuarded(t *testing.T) {
	dir := releasedSpecTests(t, "v2")
	ctx := experimental.WithGuardedMemory(context.Background())
	ctx = experimental.WithMemoryAllocator(ctx, experimental.MemoryAllocatorFunc(allocate))
	before := sigguard.Faults()
	spectest.Run(t, os.DirFS(dir).(spectest.TestDataFS), ctx,
		wazero.NewRuntimeConfigCompiler().WithCoreFeatures(api.CoreFeaturesV2))
	// memory_trap, address, simd_address... trap through faults.
	if n := sigguard.Faults() - before; n < 100 {
		t.Errorf("only %d guarded faults in the spec tests", n)
	} else {
		t.Logf("%d out-of-bounds accesses trapped through the fault handler", n)
	}
}

// TestSpecGuardedThreads runs the threads proposal's tests: shared memories
// from the guarded allocator; atomics keep their bounds checks.
func TestSpecGuardedThreads(t *testing.T) {
	dir := releasedSpecTests(t, "threads")
	ctx := experimental.WithGuardedMemory(context.Background())
	ctx = experimental.WithMemoryAllocator(ctx, experimental.MemoryAllocatorFunc(allocate))
	spectest.Run(t, os.DirFS(dir).(spectest.TestDataFS), ctx,
		wazero.NewRuntimeConfigCompiler().WithCoreFeatures(api.CoreFeaturesV2|experimental.CoreFeaturesThreads))
}
