package tools_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pybox-dev/pybox/agent/tools"
	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/runtime"
)

// modelingResult is the JSON line modelingCode prints.
type modelingResult struct {
	Importances map[string]float64 `json:"importances"`
	Params      map[string]float64 `json:"params"`
	RSquared    float64            `json:"rsquared"`
	PearsonR    float64            `json:"pearson_r"`
	PearsonP    float64            `json:"pearson_p"`
	Corrcoef    float64            `json:"corrcoef"`
}

// The modelling half of the analyst's task through the tools (issue 15):
// the regression's coefficients and R² equal a least-squares fit computed
// here, scipy's Pearson r equals numpy's and Go's, and the forest's
// importances and the p-value equal native scikit-learn's and scipy's on
// the same file (testdata/modeling_native.json; testdata/modeling.py says
// how to write it).
func TestModelingScenario(t *testing.T) {
	data := t.TempDir()
	csv := filepath.Join(data, "traffic_accidents.csv")
	cols, rows := accidentsCSV(t, csv)
	if dst := os.Getenv("PYBOX_WRITE_ACCIDENTS_CSV"); dst != "" {
		// For regenerating testdata/modeling_native.json natively.
		b, err := os.ReadFile(csv)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	needBundled(t, "pandas", "scipy", "scikit-learn", "statsmodels")
	b, err := tools.New(tools.Config{
		Engine: engine,
		Policy: fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadOnlyMount(data, "/data")}, Output: t.TempDir(), TempDir: t.TempDir()},
		Limits: runtime.Limits{Timeout: 5 * time.Minute},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	code, err := os.ReadFile(filepath.Join("testdata", "modeling.py"))
	if err != nil {
		t.Fatal(err)
	}
	args, _ := json.Marshal(map[string]string{"code": string(code)})
	r := call(t, b, "execute_python", string(args))
	if r.IsError {
		t.Fatalf("modelling:\n%s", r.Text())
	}
	stdout := r.Structured.(*tools.ExecResult).Stdout
	first, summary, _ := strings.Cut(stdout, "\n")
	var got modelingResult
	if err := json.Unmarshal([]byte(first), &got); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	for _, want := range []string{"OLS Regression Results", "R-squared:", "traffic_volume", "Durbin-Watson:"} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}

	// OLS: the same fit computed here.
	names := append([]string{"Intercept"}, cols[:len(cols)-1]...)
	coef, r2 := leastSquares(rows)
	for i, n := range names {
		if !near(got.Params[n], coef[i], 1e-8) {
			t.Errorf("OLS %s: statsmodels %.12g, Go %.12g", n, got.Params[n], coef[i])
		}
	}
	if !near(got.RSquared, r2, 1e-10) {
		t.Errorf("R²: statsmodels %.15g, Go %.15g", got.RSquared, r2)
	}

	// Pearson: scipy, numpy and Go agree.
	goR := pearson(column(rows, 2), column(rows, len(cols)-1))
	if math.Abs(got.PearsonR-got.Corrcoef) > 1e-12 || math.Abs(got.PearsonR-goR) > 1e-12 {
		t.Errorf("pearson r: scipy %.15f, numpy %.15f, Go %.15f", got.PearsonR, got.Corrcoef, goR)
	}

	// The forest: the factor the data was made from most ranks first, and
	// every number equals native scikit-learn's.
	if s := sum(got.Importances); !near(s, 1, 1e-12) {
		t.Errorf("importances sum to %v: %v", s, got.Importances)
	}
	if top := ranked(got.Importances)[0]; top != "traffic_volume" {
		t.Errorf("most important factor %s, want traffic_volume: %v", top, got.Importances)
	}
	raw, err := os.ReadFile(filepath.Join("testdata", "modeling_native.json"))
	if err != nil {
		t.Fatal(err)
	}
	var native modelingResult
	if err := json.Unmarshal(raw, &native); err != nil {
		t.Fatal(err)
	}
	for n, w := range native.Importances {
		if !near(got.Importances[n], w, 1e-9) {
			t.Errorf("importance of %s: pybox %.15f, native %.15f", n, got.Importances[n], w)
		}
	}
	if !near(got.PearsonP, native.PearsonP, 1e-9) {
		t.Errorf("pearson p: pybox %.15g, native %.15g", got.PearsonP, native.PearsonP)
	}
	for n, w := range native.Params {
		if !near(got.Params[n], w, 1e-9) {
			t.Errorf("OLS %s: pybox %.15g, native %.15g", n, got.Params[n], w)
		}
	}
}

// near reports whether a and b agree within a relative tolerance (an
// absolute one near zero).
func near(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

func sum(m map[string]float64) float64 {
	var s float64
	for _, v := range m {
		s += v
	}
	return s
}

// ranked lists m's keys, largest value first.
func ranked(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] })
	return keys
}

// leastSquares fits the last column of rows on the others plus an
// intercept and returns the coefficients (intercept first) and R². The
// columns are centred first, which keeps the normal equations well
// conditioned (traffic volume is in the thousands, alcohol 0 or 1); the
// small system is solved by Gaussian elimination with partial pivoting.
func leastSquares(rows [][]float64) ([]float64, float64) {
	n, k := float64(len(rows)), len(rows[0])-1
	mean := make([]float64, k+1)
	for _, r := range rows {
		for j, v := range r {
			mean[j] += v / n
		}
	}
	a := make([][]float64, k)
	for i := range a {
		a[i] = make([]float64, k+1)
	}
	for _, r := range rows {
		for i := 0; i < k; i++ {
			di := r[i] - mean[i]
			for j := 0; j < k; j++ {
				a[i][j] += di * (r[j] - mean[j])
			}
			a[i][k] += di * (r[k] - mean[k])
		}
	}
	for c := 0; c < k; c++ {
		p := c
		for i := c + 1; i < k; i++ {
			if math.Abs(a[i][c]) > math.Abs(a[p][c]) {
				p = i
			}
		}
		a[c], a[p] = a[p], a[c]
		for i := c + 1; i < k; i++ {
			f := a[i][c] / a[c][c]
			for j := c; j <= k; j++ {
				a[i][j] -= f * a[c][j]
			}
		}
	}
	beta := make([]float64, k)
	for i := k - 1; i >= 0; i-- {
		s := a[i][k]
		for j := i + 1; j < k; j++ {
			s -= a[i][j] * beta[j]
		}
		beta[i] = s / a[i][i]
	}
	intercept := mean[k]
	for j := 0; j < k; j++ {
		intercept -= beta[j] * mean[j]
	}
	var ssRes, ssTot float64
	for _, r := range rows {
		fit := intercept
		for j := 0; j < k; j++ {
			fit += beta[j] * r[j]
		}
		ssRes += (r[k] - fit) * (r[k] - fit)
		ssTot += (r[k] - mean[k]) * (r[k] - mean[k])
	}
	return append([]float64{intercept}, beta...), 1 - ssRes/ssTot
}
