package runtime_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/pybox-dev/pybox/runtime"
)

// outOfBoundsCode makes the interpreter itself read guest memory at target
// (mod 2^32): a code object whose LOAD_CONST index (built with EXTENDED_ARG)
// points from its consts tuple's items to target. CPython does not check
// the index, and in wasm32 the address arithmetic wraps at 4 GiB. With a
// guarded memory (on linux/amd64 python.wasm has no bounds checks for plain
// loads and stores) the read faults in the guard region and must come back
// as wazero's out-of-bounds trap, ending only this run.
func outOfBoundsCode(target uint32) string {
	return fmt.Sprintf(`
def f():
    return None
c = (1,)
idx = ((%d - (id(c) + 12)) %% 2**32) // 4
b = idx.to_bytes(4, "big")
code = bytes([0x97, 0, 0x90, b[0], 0x90, b[1], 0x90, b[2], 0x64, b[3], 0x53, 0])
g = type(f)(f.__code__.replace(co_code=code, co_consts=c, co_stacksize=2), {})
print("before", flush=True)
g()
print("after")
`, target)
}

func TestGuestOutOfBoundsReadTraps(t *testing.T) {
	// Far past the end, just below 4 GiB, and just past 2 GiB (the memory
	// limit keeps the guest well below that).
	for _, target := range []uint32{0xFFFFFFF0, 0xFFFFFFFC, 0x80000000, 0xC0000000} {
		res := run(t, runtime.Request{Code: outOfBoundsCode(target), Limits: runtime.Limits{Memory: 256 << 20}})
		if res.Status != runtime.StatusCrashed || !strings.Contains(string(res.Stderr), "out of bounds memory access") {
			t.Fatalf("target %#x: status %s stdout %q stderr %s", target, res.Status, res.Stdout, tail(res.Stderr))
		}
		if string(res.Stdout) != "before\n" {
			t.Errorf("target %#x: stdout %q", target, res.Stdout)
		}
		res = run(t, runtime.Request{Code: "print('still fine')"})
		if res.Status != runtime.StatusOK || string(res.Stdout) != "still fine\n" {
			t.Fatalf("run after the trap: %s %q", res.Status, res.Stdout)
		}
	}
}

func TestGuestOutOfBoundsReadsConcurrently(t *testing.T) {
	const n = 8
	var wg sync.WaitGroup
	errs := make(chan error, 2*n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			res, err := engine.Run(context.Background(), runtime.Request{Code: outOfBoundsCode(0xFFFFFF00 - uint32(i)*4096)})
			if err != nil {
				errs <- err
				return
			}
			if res.Status != runtime.StatusCrashed || !strings.Contains(string(res.Stderr), "out of bounds memory access") {
				errs <- fmt.Errorf("run %d: status %s stderr %s", i, res.Status, tail(res.Stderr))
			}
			res, err = engine.Run(context.Background(), runtime.Request{Code: fmt.Sprintf("print(sum(range(%d)))", i*1000)})
			if err != nil {
				errs <- err
				return
			}
			if want := fmt.Sprintf("%d\n", (i*1000)*(i*1000-1)/2); res.Status != runtime.StatusOK || string(res.Stdout) != want && i > 0 {
				errs <- fmt.Errorf("run %d after the trap: %s %q want %q", i, res.Status, res.Stdout, want)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
