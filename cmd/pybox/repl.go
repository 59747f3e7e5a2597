package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/pybox-dev/pybox/runtime"
)

const replHelp = `Usage: pybox repl [flags]

An interactive Python session in the sandbox: variables and imports persist
between inputs. A line that opens a block (ends with ":"), leaves brackets
open or ends with "\" continues until an empty line. Ctrl-C interrupts the
running code (the session keeps its state); Ctrl-D or :quit leaves; :reset
starts over with a fresh interpreter.

Flags:
`

func cmdRepl(ctx context.Context, args []string) int {
	var f runFlags
	rest, code, ok := parseFlags("repl", replHelp, f.register, args)
	if !ok {
		return code
	}
	if f.code != "" || len(rest) > 0 {
		fmt.Fprintln(os.Stderr, "pybox repl: it takes no code or script (type at the prompt); to run code once use pybox run -c CODE or pybox run script.py")
		return 2
	}
	sb, eng, cleanup, code, ok := f.start(ctx, "repl")
	if !ok {
		return code
	}
	defer cleanup()
	sess, err := eng.NewSession(ctx, runtime.SessionConfig{Memory: int64(f.memory), FS: sb.FS()})
	if err != nil {
		fmt.Fprintf(os.Stderr, "pybox: %v\n", err)
		return runtime.ExitCodeInternal
	}
	defer sess.Close()
	return repl(sess, sb, &f, os.Stdin, os.Stdout, os.Stderr)
}

// repl reads inputs and runs them in the session until EOF or :quit.
func repl(sess *runtime.Session, sb interface{ BeginRun(context.Context) error }, f *runFlags, in io.Reader, out, errw io.Writer) int {
	// Ctrl-C interrupts the input being run, not pybox.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)

	fmt.Fprintf(errw, "pybox repl: Python 3.11 in a WebAssembly sandbox. :quit or Ctrl-D to leave, :reset for a fresh interpreter.\n")
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for {
		code, ok := readInput(sc, out)
		if !ok {
			fmt.Fprintln(out)
			return 0
		}
		switch strings.TrimSpace(code) {
		case "":
			continue
		case ":quit", ":q", "exit()", "quit()":
			return 0
		case ":reset":
			if err := sess.Reset(context.Background()); err != nil {
				fmt.Fprintf(errw, "pybox: reset: %v\n", err)
			} else {
				fmt.Fprintln(errw, "pybox: fresh interpreter")
			}
			continue
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			select {
			case <-sigs:
				cancel()
			case <-done:
			}
		}()
		if err := sb.BeginRun(ctx); err != nil {
			fmt.Fprintf(errw, "pybox: %v\n", err)
		}
		res, err := sess.Exec(ctx, runtime.Request{
			Code: code, Filename: "<stdin>", Stdout: out, Stderr: errw,
			Limits: runtime.Limits{Timeout: f.timeout, Output: int64(f.output), KillAfter: f.killAfter},
		})
		close(done)
		cancel()
		if err != nil {
			fmt.Fprintf(errw, "pybox: %v\n", err)
			continue
		}
		if res.SessionRestarted || res.SessionLost {
			fmt.Fprintf(errw, "pybox: %s\n", res.Message)
		}
		if res.Value != "" {
			fmt.Fprintln(out, res.Value)
		}
	}
}

// readInput reads one input: a line, or a block that continues until an
// empty line when the first line opens one.
func readInput(sc *bufio.Scanner, out io.Writer) (string, bool) {
	fmt.Fprint(out, ">>> ")
	if !sc.Scan() {
		return "", false
	}
	first := sc.Text()
	if !continues(first) {
		return first, true
	}
	lines := []string{first}
	for {
		fmt.Fprint(out, "... ")
		if !sc.Scan() {
			break
		}
		l := sc.Text()
		if strings.TrimSpace(l) == "" {
			break
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "\n") + "\n", true
}

// continues reports whether a first line needs more lines: it opens a
// block, leaves a bracket open, or ends with a backslash or an open
// triple-quoted string. (A heuristic: the host has no Python parser.)
func continues(line string) bool {
	t := strings.TrimSpace(line)
	if strings.HasPrefix(t, "@") || strings.HasSuffix(t, ":") || strings.HasSuffix(t, "\\") {
		return true
	}
	if strings.Count(t, `"""`)%2 == 1 || strings.Count(t, "'''")%2 == 1 {
		return true
	}
	depth := 0
	for _, r := range t {
		switch r {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		}
	}
	return depth > 0
}
