package runtime

import (
	"os"
	"regexp"
	"testing"
)

// The marker of a compiled runtime (Compiled) names the fork's cache
// version: when the fork changes it (its compiled code changed), the
// marker must change too, or pybox would take a stale cache for a ready one.
func TestForkCacheVersion(t *testing.T) {
	src, err := os.ReadFile("../third_party/wazero/internal/engine/wazevo/engine.go")
	if err != nil {
		t.Skipf("the fork's source is not here: %v", err)
	}
	m := regexp.MustCompile(`const cacheVersionSuffix = "([^"]*)"`).FindSubmatch(src)
	if m == nil {
		t.Fatal("the fork's engine.go no longer defines cacheVersionSuffix")
	}
	if string(m[1]) != forkCacheVersion {
		t.Fatalf("forkCacheVersion is %q, the fork's cacheVersionSuffix %q: update runtime/compiled.go", forkCacheVersion, m[1])
	}
}
