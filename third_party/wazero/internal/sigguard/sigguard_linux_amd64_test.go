package sigguard

import (
	"os"
	"os/signal"
	"runtime"
	"sync"
	"syscall"
	"testing"
)

func TestInstallChainsAndStays(t *testing.T) {
	if err := Install(ExitLayout{}); err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		for _, sig := range []syscall.Signal{syscall.SIGSEGV, syscall.SIGBUS} {
			h, err := installedHandler(sig)
			if err != nil {
				t.Fatal(err)
			}
			if h != handlerAddr() {
				t.Fatalf("%s: the %v handler is %#x, not sigguard's %#x", when, sig, h, handlerAddr())
			}
			if chained[sig] == 0 || chained[sig] == handlerAddr() {
				t.Fatalf("%s: chained %v handler %#x", when, sig, chained[sig])
			}
		}
	}
	check("after Install")
	if err := Install(ExitLayout{}); err != nil { // idempotent
		t.Fatal(err)
	}
	check("after a second Install")

	// A nil dereference in Go goes on to Go's handler: a panic.
	func() {
		defer func() {
			if r := recover(); r == nil {
				t.Fatal("no panic")
			}
		}()
		var p *int
		_ = *p
	}()

	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGSEGV, syscall.SIGBUS)
	check("after signal.Notify")
	signal.Reset(syscall.SIGSEGV, syscall.SIGBUS)
	signal.Ignore(syscall.SIGBUS)
	signal.Reset()
	check("after signal.Reset/Ignore")
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread() // not unlocked: the thread exits, new ones start
		}()
	}
	wg.Wait()
	runtime.GC()
	check("after new threads")
}
