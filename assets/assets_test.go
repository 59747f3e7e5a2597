package assets

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// The committed checksum is the embedded bundle's: rebuilding the bundle
// without writing runtime.tar.zst.sha256 (scripts/build-runtime.sh does)
// fails here rather than reusing another bundle's extracted files.
func TestRuntimeSHA256(t *testing.T) {
	sum := sha256.Sum256(Runtime)
	if got := hex.EncodeToString(sum[:]); got != RuntimeSHA256 {
		t.Fatalf("runtime.tar.zst.sha256 says %s, the embedded bundle hashes to %s: run sha256sum assets/runtime.tar.zst", RuntimeSHA256, got)
	}
}
