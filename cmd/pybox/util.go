package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

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

// durationFlag is a flag.Value for durations that refuses negative values
// and says what to write when the unit is missing ("--timeout 2").
type durationFlag time.Duration

// durationVar defines a durationFlag with a default value.
func durationVar(fs *flag.FlagSet, p *time.Duration, name string, value time.Duration, usage string) {
	*p = value
	fs.Var((*durationFlag)(p), name, usage)
}

func (d *durationFlag) Set(s string) error {
	v, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		if _, nerr := strconv.ParseFloat(strings.TrimSpace(s), 64); nerr == nil {
			return fmt.Errorf("%q has no unit: write %ss for seconds (or e.g. 500ms, 2m)", s, strings.TrimSpace(s))
		}
		return fmt.Errorf("invalid duration %q: use e.g. 30s, 2m, 1h", s)
	}
	if v < 0 {
		return fmt.Errorf("%s is negative: give a duration such as 30s, or 0 for none", s)
	}
	*d = durationFlag(v)
	return nil
}

func (d *durationFlag) String() string {
	if d == nil {
		return "0s"
	}
	return time.Duration(*d).String()
}

// Bounds of --memory: below minMemory the interpreter cannot start (its
// initial memory, the 8 MiB stack and static data, is about 19 MiB, and it
// needs room to boot; about 9 MiB are left for the code at 32 MiB); above
// maxMemory a 32-bit guest could not use it.
const (
	minMemory = 32 << 20
	maxMemory = 4 << 30
)

// memoryFlag is a byteSize flag for the interpreter's memory limit, within
// minMemory and maxMemory; a bare number is taken as bytes and refused
// when too small, with the unit to use.
type memoryFlag byteSize

func (m *memoryFlag) Set(s string) error {
	var b byteSize
	if err := b.Set(s); err != nil {
		return err
	}
	switch {
	case b == 0:
		// 0: the default
	case b < minMemory:
		return fmt.Errorf("%s is too small: the interpreter needs at least 32MiB (e.g. 256MiB; a bare number is bytes)", s)
	case b > maxMemory:
		return fmt.Errorf("%s is more than the interpreter can address: at most 4GiB (it is a 32-bit WebAssembly guest)", s)
	}
	*m = memoryFlag(b)
	return nil
}

func (m *memoryFlag) String() string { return (*byteSize)(m).String() }

// parseFlagSet parses a command's flags. A mistake prints the flag
// package's one-line error and a pointer to -h (not the whole flag list,
// which buried the error); -h prints help and the flags. When ok is false
// the command is over with exit status code (0 for -h, 2 for a mistake).
func parseFlagSet(fs *flag.FlagSet, name, help string, args []string) (code int, ok bool) {
	wantHelp := false
	for _, a := range args {
		if a == "--" {
			break
		}
		switch a {
		case "-h", "-help", "--help", "--h":
			wantHelp = true
		}
	}
	fs.Usage = func() {
		if wantHelp {
			fmt.Fprint(fs.Output(), help)
			fs.PrintDefaults()
			return
		}
		fmt.Fprintf(fs.Output(), "Run 'pybox %s -h' for its flags.\n", name)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, false
		}
		return 2, false
	}
	// --cache-dir chooses the whole cache folder, as $PYBOX_CACHE_DIR does:
	// the extracted bundle as well as the compiled interpreter. Without
	// this the bundle went to the default folder, so `pybox setup
	// --cache-dir D` left the first run with PYBOX_CACHE_DIR=D seconds of
	// extraction to do, and a background compile started with --cache-dir
	// extracted into a folder the caller never chose.
	if f := fs.Lookup("cache-dir"); f != nil && f.Value.String() != "" {
		if err := os.Setenv(packages.CacheDirEnv, f.Value.String()); err != nil {
			fmt.Fprintf(os.Stderr, "pybox %s: --cache-dir: %v\n", name, err)
			return 2, false
		}
	}
	return 0, true
}

// moduleList is a flag of comma-separated Python module names (--preload):
// each is a dotted name of identifiers, as `import` takes it. Setting it
// again adds to the list.
type moduleList []string

// preloadUsage is the help of --preload, shared by serve, mcp and agent.
const preloadUsage = "also import these `modules` (comma-separated, e.g. scipy.stats,sklearn.ensemble) into every interpreter ahead of its call: " +
	"their import then costs nothing, but each interpreter starts with their memory (scipy.stats, sklearn.ensemble and statsmodels.formula.api: ~46 MiB of --memory) " +
	"and the server's first interpreter takes longer to boot; modules that fail to import are logged"

func (m *moduleList) Set(s string) error {
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if err := checkModuleName(name); err != nil {
			return err
		}
		if !slices.Contains(*m, name) {
			*m = append(*m, name)
		}
	}
	return nil
}

func (m *moduleList) String() string { return strings.Join(*m, ",") }

// checkModuleName reports whether name is a module name import accepts:
// identifiers joined by dots.
func checkModuleName(name string) error {
	for _, part := range strings.Split(name, ".") {
		ok := part != ""
		for i, r := range part {
			if !(r == '_' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r))) {
				ok = false
			}
		}
		if !ok {
			return fmt.Errorf("%q is not a Python module name (dotted identifiers such as scipy.stats; separate several with commas)", name)
		}
	}
	return nil
}
