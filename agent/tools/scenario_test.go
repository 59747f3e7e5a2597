package tools_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pybox-dev/pybox/agent/tools"
	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/runtime"
)

// The analyst's task through the tools, as a model does it: a CSV mounted
// read-only, pandas correlations equal to the same numbers computed here, an
// Excel file written to /output that Go reads back, a bar chart that comes
// back as an image without being saved (matplotlib bundles; seaborn if
// bundled too), and a corrupt CSV that raises a pandas error in a session
// that lives on.
func TestAnalystScenario(t *testing.T) {
	needBundled(t, "pandas")
	data, out := t.TempDir(), t.TempDir()
	cols, rows := accidentsCSV(t, filepath.Join(data, "traffic_accidents.csv"))
	if err := os.WriteFile(filepath.Join(data, "corrupt.csv"), []byte("a,b\n1,\"2\n3,4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := tools.New(tools.Config{
		Engine: engine,
		Policy: fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadOnlyMount(data, "/data")}, Output: out, TempDir: t.TempDir()},
		Limits: runtime.Limits{Timeout: 60 * time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	exec := func(code string) *tools.Result {
		t.Helper()
		args, _ := json.Marshal(map[string]string{"code": code, "session_id": "main"})
		return call(t, b, "execute_python", string(args))
	}

	// Correlations with accidents, as pandas computes them and as Go does.
	r := exec(`import json
import pandas as pd
df = pd.read_csv("/data/traffic_accidents.csv")
corr = df.corr()["accidents"].drop("accidents").sort_values(ascending=False)
print(json.dumps(corr.to_dict()))
df.head(3)`)
	if r.IsError {
		t.Fatalf("correlations:\n%s", r.Text())
	}
	er := r.Structured.(*tools.ExecResult)
	var got map[string]float64
	if err := json.Unmarshal([]byte(strings.TrimSpace(er.Stdout)), &got); err != nil {
		t.Fatalf("%v: %s", err, er.Stdout)
	}
	want := map[string]float64{}
	for i, c := range cols[:len(cols)-1] {
		want[c] = pearson(column(rows, i), column(rows, len(cols)-1))
	}
	if len(got) != len(want) {
		t.Fatalf("pandas %v, Go %v", got, want)
	}
	for c, w := range want {
		if math.Abs(got[c]-w) > 1e-12 {
			t.Errorf("corr(%s, accidents): pandas %.15f, Go %.15f", c, got[c], w)
		}
	}
	if !strings.HasPrefix(er.Value, "   hour  speed_limit  rain_mm  traffic_volume  alcohol_involved  accidents\n0 ") ||
		!strings.HasSuffix(er.Value, "\n\n[3 rows x 6 columns]") {
		t.Errorf("df.head(3) value:\n%s", er.Value)
	}

	// An Excel file for the user, read back here.
	r = exec(`corr.to_frame("corr").to_excel("/output/correlations.xlsx", sheet_name="corr")`)
	if r.IsError {
		t.Fatalf("to_excel:\n%s", r.Text())
	}
	cells := readXLSX(t, filepath.Join(out, "correlations.xlsx"))
	for row := 2; row <= len(want)+1; row++ {
		name := cells[fmt.Sprintf("A%d", row)]
		v, err := strconv.ParseFloat(cells[fmt.Sprintf("B%d", row)], 64)
		if w, ok := want[name]; !ok || err != nil || math.Abs(v-w) > 1e-12 {
			t.Errorf("xlsx row %d: %q = %q (%v), want %v", row, name, cells[fmt.Sprintf("B%d", row)], err, w)
		}
	}

	// A corrupt CSV is pandas' error, and the session goes on.
	r = exec(`pd.read_csv("/data/corrupt.csv")`)
	if e := r.Structured.(*tools.ExecResult).Error; !r.IsError || e == nil || e.Type != "ParserError" {
		t.Fatalf("corrupt CSV:\n%s", r.Text())
	}
	r = exec(`len(df)`)
	if v := r.Structured.(*tools.ExecResult).Value; r.IsError || v != strconv.Itoa(len(rows)) {
		t.Fatalf("after the corrupt CSV: %q\n%s", v, r.Text())
	}

	// The chart comes back by itself.
	if !bundledName("matplotlib") {
		t.Log("no matplotlib in the bundle: the chart part is not run")
		return
	}
	chart := `import matplotlib.pyplot as plt
fig, ax = plt.subplots(figsize=(5, 3), dpi=60)
corr.plot.bar(ax=ax, color="tab:blue")
ax.set_title("correlation with accidents")`
	if bundledName("seaborn") {
		chart = `import matplotlib.pyplot as plt, seaborn as sns
fig, ax = plt.subplots(figsize=(5, 3), dpi=60)
sns.barplot(x=corr.index, y=corr.values, ax=ax, color="tab:blue")
ax.set_title("correlation with accidents")`
	}
	r = exec(chart)
	imgs := r.Images()
	if r.IsError || len(imgs) != 1 || imgs[0].Path != "/output/figure-1.png" {
		t.Fatalf("chart: %+v\n%s", imgs, r.Text())
	}
	img, err := png.Decode(bytes.NewReader(imgs[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	// The bars are drawn: some pixels are far from white and grey.
	blue := 0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if b>>8 > 150 && r>>8 < 100 && g>>8 < 160 {
				blue++
			}
		}
	}
	if blue < 100 {
		t.Errorf("chart has %d blue pixels (%v): no bars?", blue, img.Bounds())
	}
}

// bundledName reports whether the engine's bundle lists the package.
func bundledName(name string) bool {
	for _, s := range engine.Bundle().Manifest.Sources {
		if strings.EqualFold(s.Name, name) {
			return true
		}
	}
	return false
}

// accidentsCSV writes a deterministic traffic accidents table and returns
// its columns and rows (accidents last).
func accidentsCSV(t *testing.T, path string) ([]string, [][]float64) {
	t.Helper()
	cols := []string{"hour", "speed_limit", "rain_mm", "traffic_volume", "alcohol_involved", "accidents"}
	rng := rand.New(rand.NewSource(12))
	var b strings.Builder
	b.WriteString(strings.Join(cols, ",") + "\n")
	var rows [][]float64
	for i := 0; i < 2000; i++ {
		hour := float64(rng.Intn(24))
		speed := float64([]int{30, 50, 70, 90, 110}[rng.Intn(5)])
		rain := math.Round(rng.ExpFloat64()*200) / 100
		vol := float64(100 + rng.Intn(4900))
		alc := 0.0
		if rng.Float64() < 0.1 {
			alc = 1
		}
		acc := math.Max(0, math.Round(0.002*vol+0.8*rain+0.03*speed+3*alc+rng.NormFloat64()*1.5))
		row := []float64{hour, speed, rain, vol, alc, acc}
		rows = append(rows, row)
		for j, v := range row {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatFloat(v, 'f', -1, 64))
		}
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return cols, rows
}

func column(rows [][]float64, j int) []float64 {
	out := make([]float64, len(rows))
	for i, r := range rows {
		out[i] = r[j]
	}
	return out
}

// pearson is the sample correlation coefficient, computed as pandas does
// (two passes: means, then centred sums).
func pearson(x, y []float64) float64 {
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(len(x))
	my /= float64(len(y))
	var sxy, sxx, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	return sxy / math.Sqrt(sxx*syy)
}

// readXLSX returns the first worksheet's cells by reference ("B2") as text:
// numbers as written, strings from the shared or inline strings.
func readXLSX(t *testing.T, path string) map[string]string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	read := func(name string) []byte {
		for _, f := range zr.File {
			if f.Name == name {
				rc, err := f.Open()
				if err != nil {
					t.Fatal(err)
				}
				defer rc.Close()
				data, err := io.ReadAll(rc)
				if err != nil {
					t.Fatal(err)
				}
				return data
			}
		}
		return nil
	}
	var shared struct {
		SI []struct {
			T string `xml:"t"`
		} `xml:"si"`
	}
	if data := read("xl/sharedStrings.xml"); data != nil {
		if err := xml.Unmarshal(data, &shared); err != nil {
			t.Fatal(err)
		}
	}
	var sheet struct {
		Rows []struct {
			Cells []struct {
				Ref    string `xml:"r,attr"`
				Type   string `xml:"t,attr"`
				V      string `xml:"v"`
				Inline string `xml:"is>t"`
			} `xml:"c"`
		} `xml:"sheetData>row"`
	}
	data := read("xl/worksheets/sheet1.xml")
	if data == nil {
		t.Fatalf("%s has no xl/worksheets/sheet1.xml", path)
	}
	if err := xml.Unmarshal(data, &sheet); err != nil {
		t.Fatal(err)
	}
	cells := map[string]string{}
	for _, row := range sheet.Rows {
		for _, c := range row.Cells {
			switch c.Type {
			case "s":
				i, err := strconv.Atoi(c.V)
				if err != nil || i >= len(shared.SI) {
					t.Fatalf("cell %s: shared string %q", c.Ref, c.V)
				}
				cells[c.Ref] = shared.SI[i].T
			case "inlineStr":
				cells[c.Ref] = c.Inline
			default:
				cells[c.Ref] = c.V
			}
		}
	}
	return cells
}
