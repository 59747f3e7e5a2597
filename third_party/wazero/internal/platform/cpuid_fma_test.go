//go:build linux && amd64

package platform

import (
	"os"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero/internal/testing/require"
)

// TestCpuFeatureAmd64FMA checks the FMA flag against the CPU flags Linux
// reports (pybox patch: relaxed SIMD): set when the CPU has both FMA and AVX
// (whose state the kernel saves, as it does wherever it lists avx).
func TestCpuFeatureAmd64FMA(t *testing.T) {
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skip(err)
	}
	var flags []string
	for _, line := range strings.Split(string(info), "\n") {
		if strings.HasPrefix(line, "flags") {
			flags = strings.Fields(line[strings.Index(line, ":")+1:])
			break
		}
	}
	has := func(f string) bool {
		for _, x := range flags {
			if x == f {
				return true
			}
		}
		return false
	}
	require.Equal(t, has("fma") && has("avx"), CpuFeatures.Has(CpuFeatureAmd64FMA))
}
