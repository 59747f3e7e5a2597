package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/packages"
)

// byteSize is a flag.Value for sizes such as 256MiB, 1GiB, 512M or 1048576.
type byteSize int64

func (b *byteSize) Set(s string) error {
	v, err := fsbridge.ParseByteSize(s)
	if err != nil {
		return fmt.Errorf("invalid size %q: use a number with an optional unit, e.g. 256MiB, 1GiB, 500MB", s)
	}
	*b = byteSize(v)
	return nil
}

func (b *byteSize) String() string {
	if b == nil {
		return "0"
	}
	v := int64(*b)
	switch {
	case v >= 1<<30 && v%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", v>>30)
	case v >= 1<<20 && v%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", v>>20)
	case v >= 1<<10 && v%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", v>>10)
	}
	return strconv.FormatInt(v, 10)
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// spinner shows a progress message with elapsed seconds on a terminal.
type spinner struct {
	out  *os.File
	mu   sync.Mutex
	stop chan struct{}
	done chan struct{}
}

func newSpinner(out *os.File) *spinner { return &spinner{out: out} }

// progress implements runtime.Config.Progress.
func (s *spinner) progress(msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stop != nil {
		close(s.stop)
		<-s.done
		s.stop = nil
	}
	if msg == "" {
		return
	}
	s.stop, s.done = make(chan struct{}), make(chan struct{})
	go func(stop, done chan struct{}) {
		defer close(done)
		start := time.Now()
		frames := `|/-\`
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for i := 0; ; i++ {
			fmt.Fprintf(s.out, "\r%c pybox: %s... %.1fs ", frames[i%len(frames)], msg, time.Since(start).Seconds())
			select {
			case <-stop:
				fmt.Fprintf(s.out, "\r\033[Kpybox: %s: done in %.1fs\n", msg, time.Since(start).Seconds())
				return
			case <-t.C:
			}
		}
	}(s.stop, s.done)
}

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func cmdVersion(args []string) int {
	b, err := packages.Default()
	if err != nil {
		fmt.Fprintf(os.Stderr, "pybox: %v\n", err)
		return 125
	}
	fmt.Printf("pybox %s\nPython %s (wasm32-wasi), bundle %s\n", version, b.Manifest.Python, b.ID[:12])
	if len(args) > 0 && args[0] == "-v" {
		var pretty any
		if json.Unmarshal(b.Manifest.Raw, &pretty) == nil {
			out, _ := json.MarshalIndent(pretty, "", "  ")
			fmt.Println(string(out))
		}
	}
	return 0
}
