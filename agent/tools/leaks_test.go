package tools_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copy_to_sandbox tells the model nothing about the host: a source outside
// the mounts gets one answer whether it exists or not, and no answer names
// the operator's host folders.
func TestCopyToSandboxToolHidesHost(t *testing.T) {
	b, data := newBox(t, nil)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("s"), 0o600); err != nil {
		t.Fatal(err)
	}
	answer := func(src string) string {
		r := call(t, b, "copy_to_sandbox", fmt.Sprintf(`{"source": %q, "destination": "/tmp/"}`, src))
		if !r.IsError {
			t.Fatalf("copy of %s succeeded: %s", src, r.Text())
		}
		text := strings.ReplaceAll(r.Text(), src, "SRC")
		for _, h := range []string{data, outside, filepath.Dir(data)} {
			if strings.Contains(text, h) {
				t.Errorf("answer names host folder %s: %s", h, r.Text())
			}
		}
		return text
	}
	exists := answer(filepath.Join(outside, "secret.txt"))
	missing := answer(filepath.Join(outside, "nope.txt"))
	if exists != missing {
		t.Errorf("existing and missing sources get different answers:\n  %s\n  %s", exists, missing)
	}
	// The tool takes sandbox paths: a host path is just a sandbox path that
	// does not exist, and the answer says what paths are.
	if !strings.Contains(exists, "Paths are sandbox paths: ls / shows the folders") {
		t.Errorf("answer = %q", exists)
	}
}
