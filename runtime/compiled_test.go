package runtime

import (
	"os"
	"regexp"
	"testing"
)

// The marker of a compiled runtime (Compiled) names the fork's cache
// version: when the fork changes it (its compiled code changed), the
// marker must change too, or pybox would take a stale cache for a ready one.
// The same for the layout of its entries (patch 0005).
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
	src, err = os.ReadFile("../third_party/wazero/internal/engine/wazevo/engine_cache.go")
	if err != nil {
		t.Fatal(err)
	}
	m = regexp.MustCompile(`const cacheEntryLayout = "([^"]*)"`).FindSubmatch(src)
	if m == nil {
		t.Fatal("the fork's engine_cache.go no longer defines cacheEntryLayout")
	}
	if string(m[1]) != forkCacheLayout {
		t.Fatalf("forkCacheLayout is %q, the fork's cacheEntryLayout %q: update runtime/compiled.go", forkCacheLayout, m[1])
	}
}
