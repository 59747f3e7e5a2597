package tools

import (
	"slices"
	"strings"

	"github.com/pybox-dev/pybox/packages"
)

// importNames are the bundled distributions imported under another name.
// Which distributions are installed is read from the bundle; only their
// import names, where the bundle's metadata does not record them (compiled
// packages carry no RECORD), are known here.
var importNames = map[string]string{
	"pillow":          "PIL",
	"pyyaml":          "yaml",
	"beautifulsoup4":  "bs4",
	"python-dateutil": "dateutil",
	"python-docx":     "docx",
}

// analysisFirst are listed first when installed: what a data-analysis
// task reaches for.
var analysisFirst = []string{"numpy", "pandas", "matplotlib", "seaborn"}

// installedList names the bundle's distributions (bundle, as
// packages.BundlePackages lists them) and the user's added ones, from
// userDir, for the model, data-analysis packages first, with
// the import name where it differs: "numpy, pandas, pillow (PIL), ...".
func installedList(bundle []packages.Package, userDir string) string {
	pkgs := slices.Clone(bundle)
	if userDir != "" {
		if user, err := packages.UserPackages(userDir); err == nil {
			pkgs = append(pkgs, user...)
		}
	}
	var names []string
	for _, p := range pkgs {
		if p.Source != "stdlib" && !slices.Contains(names, p.Name) {
			names = append(names, p.Name)
		}
	}
	rank := func(n string) int {
		if i := slices.Index(analysisFirst, n); i >= 0 {
			return i
		}
		return len(analysisFirst)
	}
	slices.SortStableFunc(names, func(a, b string) int { return rank(a) - rank(b) })
	for i, n := range names {
		if imp, ok := importNames[n]; ok {
			names[i] = n + " (" + imp + ")"
		}
	}
	return strings.Join(names, ", ")
}

// hasDistribution reports whether the package list pkgs has the
// distribution name.
func hasDistribution(pkgs []packages.Package, name string) bool {
	return slices.ContainsFunc(pkgs, func(p packages.Package) bool { return p.Name == name })
}
