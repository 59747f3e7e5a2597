package packages

import "testing"

func TestWheelNamesAndTags(t *testing.T) {
	tests := []struct {
		file    string
		name    string
		version string
		pure    bool
		bad     bool
	}{
		{"tabulate-0.10.0-py3-none-any.whl", "tabulate", "0.10.0", true, false},
		{"six-1.17.0-py2.py3-none-any.whl", "six", "1.17.0", true, false},
		{"pkg-1.0-1build-py3-none-any.whl", "pkg", "1.0", true, false},
		{"markupsafe-3.0.4-cp311-cp311-manylinux2014_x86_64.whl", "markupsafe", "3.0.4", false, false},
		{"old-1.0-py2-none-any.whl", "old", "1.0", false, false},
		{"abi3-1.0-cp311-abi3-any.whl", "abi3", "1.0", false, false},
		{"notawheel.zip", "", "", false, true},
		{"too-few.whl", "", "", false, true},
	}
	for _, tc := range tests {
		name, version, tags, err := parseWheelName(tc.file)
		if (err != nil) != tc.bad {
			t.Errorf("%s: err %v", tc.file, err)
			continue
		}
		if tc.bad {
			continue
		}
		if name != tc.name || version != tc.version || pureTags(tags) != tc.pure {
			t.Errorf("%s: %s %s %s pure=%v", tc.file, name, version, tags, pureTags(tags))
		}
	}
}
