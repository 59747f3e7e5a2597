package runtime_test

import (
	"bytes"
	"context"
	"io/fs"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

	"github.com/pybox-dev/pybox/runtime"
)

// panickyFS is a guest root whose OpenFile panics for one name, the way a
// bug in a host filesystem would: a slice index out of range.
type panickyFS struct {
	experimentalsys.UnimplementedFS
}

func (panickyFS) OpenFile(p string, _ experimentalsys.Oflag, _ fs.FileMode) (experimentalsys.File, experimentalsys.Errno) {
	if strings.HasSuffix(p, "boom") {
		var s []byte
		i := len(p) // out of range at run time
		_ = s[i]
	}
	return nil, experimentalsys.ENOENT
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A Go panic in a host function ends the run with a plain
// "internal error (id X)" for the caller; the panic, its stack and the
// same id go to the operator's log (Config.Logger).
func TestHostPanicIsAnInternalError(t *testing.T) {
	var log syncBuffer
	eng, err := runtime.NewEngine(context.Background(), runtime.Config{NoSnapshot: true, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(context.Background())
	res, err := eng.Run(context.Background(), runtime.Request{Code: "print('before', flush=True)\nopen('/boom')", FS: panickyFS{}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != runtime.StatusCrashed {
		t.Fatalf("status %s: %s\nstderr:\n%s", res.Status, res.Message, res.Stderr)
	}
	m := regexp.MustCompile(`^internal error \(id ([0-9a-f]{8})\): pybox failed while serving the interpreter, which was stopped$`).FindStringSubmatch(res.Message)
	if m == nil {
		t.Fatalf("Message = %q", res.Message)
	}
	if string(res.Stdout) != "before\n" {
		t.Errorf("stdout = %q", res.Stdout)
	}
	client := res.Message + string(res.Stdout) + string(res.Stderr)
	for _, bad := range []string{"goroutine ", ".go:", "0x", "recovered by wazero", "index out of range", "panic"} {
		if strings.Contains(client, bad) {
			t.Errorf("the caller sees %q:\n%s", bad, client)
		}
	}
	if !strings.Contains(string(res.Stderr), res.Message) {
		t.Errorf("stderr does not say what happened:\n%s", res.Stderr)
	}
	logged := log.String()
	for _, want := range []string{"id=" + m[1], "index out of range", "panic_test.go"} {
		if !strings.Contains(logged, want) {
			t.Errorf("operator log lacks %q:\n%s", want, logged)
		}
	}
}
