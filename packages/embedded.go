package packages

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/pybox-dev/pybox/assets"
)

// EmbeddedPackages returns BundlePackages of the bundle embedded in this
// binary without decoding or unpacking it: from the list committed beside
// it (assets.Packages).
func EmbeddedPackages() ([]Package, error) {
	var pkgs []Package
	if err := json.Unmarshal(assets.Packages, &pkgs); err != nil {
		return nil, fmt.Errorf("embedded package list (assets/runtime-packages.json): %w", err)
	}
	return pkgs, nil
}

// DefaultPackages returns BundlePackages(Default()) without unpacking the
// embedded bundle (EmbeddedPackages). Only a bundle named by $PYBOX_BUNDLE
// is loaded (Default) to list it.
func DefaultPackages() ([]Package, error) {
	if os.Getenv(BundleEnv) == "" {
		return EmbeddedPackages()
	}
	b, err := Default()
	if err != nil {
		return nil, err
	}
	return BundlePackages(b), nil
}
