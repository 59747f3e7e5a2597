package runtime_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pybox-dev/pybox/runtime"
)

// blockingStdin is a standard input that ignores everything until the test
// releases it, as an embedder's interactive stdin (a terminal nobody types
// into) does: a guest reading it is stuck in a host call that no kill can
// reach.
type blockingStdin struct {
	reading chan struct{} // closed when the guest first reads
	release chan struct{} // closed by the test: the read returns
	data    string
}

func (b *blockingStdin) Read(p []byte) (int, error) {
	select {
	case <-b.reading:
	default:
		close(b.reading)
	}
	<-b.release
	n := copy(p, b.data)
	b.data = b.data[n:]
	return n, nil
}

// TestCloseWithAbandonedGuestDoesNotFreeItsMemory closes an Engine while one
// of its interpreters is still inside a host call long after it was killed
// (the run gave up on it: Stop.Abandoned). Closing must not take the memory
// and code away from under that guest: when the host call returns, the guest
// writes the bytes it read into its memory and runs on to its end. Before
// the fix, Engine.Close closed the wazero runtime at once, unmapping both,
// and the process died with a segmentation fault when the read returned.
func TestCloseWithAbandonedGuestDoesNotFreeItsMemory(t *testing.T) {
	ctx := context.Background()
	e, err := runtime.NewEngine(ctx, runtime.Config{})
	if err != nil {
		t.Fatalf("NewEngine: %v", err)
	}
	in := &blockingStdin{reading: make(chan struct{}), release: make(chan struct{}), data: strings.Repeat("x", 1<<16)}
	res, err := e.Run(ctx, runtime.Request{
		Code:   "import sys\ndata = sys.stdin.buffer.read(1 << 16)\nprint(len(data))\nwhile True:\n    pass\n",
		Stdin:  in,
		Limits: runtime.Limits{Timeout: 200 * time.Millisecond, KillAfter: 50 * time.Millisecond},
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	select {
	case <-in.reading:
	default:
		t.Fatalf("the guest never read stdin: %+v", res)
	}
	if res.Stop == nil || !res.Stop.Abandoned {
		t.Fatalf("expected the run to abandon its guest stuck in a read; Stop = %+v", res.Stop)
	}
	closed := make(chan error, 1)
	go func() { closed <- e.Close(ctx) }()
	var closeErr error
	select {
	case closeErr = <-closed:
	case <-time.After(time.Minute):
		t.Fatal("Engine.Close did not return while a guest was stuck in a host call")
	}
	if closeErr == nil || !strings.Contains(closeErr.Error(), "still running") {
		t.Errorf("Close = %v, want an error saying an interpreter is still running", closeErr)
	}
	// The read returns into the guest: its memory and code must still be
	// there. The guest then sees it was killed and ends; the engine's
	// resources go with it.
	close(in.release)
	select {
	case <-e.Released():
	case <-time.After(time.Minute):
		t.Fatal("the engine's resources were not released after its last guest ended")
	}
}
