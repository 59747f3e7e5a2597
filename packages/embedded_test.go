package packages

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pybox-dev/pybox/assets"
)

var update = flag.Bool("update", false, "rewrite assets/runtime-packages.json from the embedded bundle")

// TestEmbeddedPackages: the package list committed beside the embedded
// bundle is the one read from the bundle. After rebuilding the bundle:
// go test ./packages -run TestEmbeddedPackages -update
func TestEmbeddedPackages(t *testing.T) {
	b, err := Decode(bytes.NewReader(assets.Runtime))
	if err != nil {
		t.Fatal(err)
	}
	want := BundlePackages(b)
	if *update {
		data, err := json.MarshalIndent(want, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("..", "assets", "runtime-packages.json"), append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := EmbeddedPackages()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("assets/runtime-packages.json does not list the embedded bundle's packages: run go test ./packages -run TestEmbeddedPackages -update\nhave %v\nwant %v", got, want)
	}
	if len(got) < 2 {
		t.Fatalf("the embedded bundle lists no distributions: %v", got)
	}
}
