package tools

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/pybox-dev/pybox/packages"
	"github.com/pybox-dev/pybox/runtime"
)

// helpFiles are the manuals written for the model, one topic per file.
//
//go:embed help/*.md
var helpFiles embed.FS

// manuals returns every manual by file name ("index.md", ...), adding
// packages.md, which lists what this engine's bundle (and the user's added
// packages) can import.
func manuals(eng *runtime.Engine, userDir string) map[string][]byte {
	out := map[string][]byte{}
	ents, _ := fs.ReadDir(helpFiles, "help")
	for _, e := range ents {
		data, err := helpFiles.ReadFile("help/" + e.Name())
		if err == nil {
			out[e.Name()] = data
		}
	}
	if eng == nil {
		out["packages.md"] = nil // named for the topic list only (Definitions)
	} else {
		out["packages.md"] = []byte(packagesManual(eng, userDir))
		if hasDistribution(packages.BundlePackages(eng.Bundle()), "matplotlib") {
			out["images.md"] = []byte(matplotlibManual + strings.Replace(string(out["images.md"]),
				"Pillow (`PIL`) and numpy are installed. matplotlib is not.", "Pillow (`PIL`) is there for pictures:", 1))
		}
	}
	return out
}

func packagesManual(eng *runtime.Engine, userDir string) string {
	var b strings.Builder
	b.WriteString("# Importable packages\n\n")
	b.WriteString("The Python 3.11 standard library is complete except for what needs processes, threads or sockets ")
	b.WriteString("(see `limits`). Besides it, these distributions are installed (import names can differ: ")
	b.WriteString("pillow → `PIL`, beautifulsoup4 → `bs4`, pyyaml → `yaml`, python-dateutil → `dateutil`, python-docx → `docx`):\n\n")
	b.WriteString("| distribution | version |\n|---|---|\n")
	pkgs := packages.BundlePackages(eng.Bundle())
	if userDir != "" {
		if user, err := packages.UserPackages(userDir); err == nil {
			pkgs = append(pkgs, user...)
		}
	}
	for _, p := range pkgs {
		if p.Source == "stdlib" {
			continue
		}
		fmt.Fprintf(&b, "| %s | %s |\n", p.Name, p.Version)
	}
	b.WriteString("\nNothing else can be installed from inside the sandbox (there is no pip and no network). ")
	b.WriteString("If a package is missing, write the code with what is here: numpy covers linear algebra, FFT, statistics and random numbers; ")
	charts := "charts are drawn with Pillow (see `images`)"
	if hasDistribution(packages.BundlePackages(eng.Bundle()), "matplotlib") {
		charts = "charts are drawn with matplotlib, and figures left open come back as images (see `images`)"
	}
	b.WriteString("`csv`, `json` and `sqlite3` (SQLite 3.40 with its JSON functions and FTS5 full-text search) are in the standard library; " + charts + ".\n")
	return b.String()
}

// matplotlibManual opens the images manual when the bundle has matplotlib.
const matplotlibManual = `# Charts with matplotlib

matplotlib is installed (Agg backend). Figures come back by themselves, as in
a notebook: every figure still open when your code ends, and every figure open
at ` + "`plt.show()`" + `, is saved as ` + "`/output/figure-N.png`" + ` (a name no file has yet)
and shown to you, then closed:

` + "```python" + `
import matplotlib.pyplot as plt
fig, ax = plt.subplots(figsize=(6, 4))
ax.bar(["a", "b", "c"], [3, 5, 2])
ax.set_title("counts")
` + "```" + `

To give a chart your own name, ` + "`fig.savefig(\"/output/counts.png\")`" + ` and
` + "`plt.close(fig)`" + `. Keep figures small (a few inches at 100 dpi): a figure
too large to render is reported on stderr and closed.

`

// helpFetcher serves the manuals as the read-only /help folder.
type helpFetcher map[string][]byte

func (h helpFetcher) Fetch(_ context.Context, name string) ([]byte, error) {
	if data, ok := h[name]; ok {
		return data, nil
	}
	return nil, fmt.Errorf("/help/%s: no such manual (ls /help lists them): %w", name, fs.ErrNotExist)
}

func (h helpFetcher) List(context.Context) ([]string, error) {
	names := make([]string, 0, len(h))
	for n := range h {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, nil
}

func (b *Box) helpTool() Tool {
	return Tool{
		Name: "help",
		Description: "Read pybox's manuals for you: how the sandbox's folders work, which packages exist, how to make and check images, " +
			"sessions and timeouts, and what is refused. Without a topic, returns the overview and the list of topics. " +
			"The same manuals are files in /help.",
		Parameters: schema(nil, prop("topic", "string", "Optional. One of: "+strings.Join(b.topics(), ", ")+".")),
		Handle:     b.help,
	}
}

// topics lists the manual names without ".md", overview first.
func (b *Box) topics() []string {
	var out []string
	for n := range b.manuals {
		if n != "index.md" {
			out = append(out, strings.TrimSuffix(n, ".md"))
		}
	}
	sort.Strings(out)
	return out
}

func (b *Box) help(_ context.Context, raw json.RawMessage) (*Result, error) {
	var a struct {
		Topic string `json:"topic"`
	}
	if r := decodeArgs("help", raw, &a, `{"topic": "files"}`); r != nil {
		return r, nil
	}
	topic := strings.ToLower(strings.TrimSpace(a.Topic))
	topic = strings.TrimSuffix(path.Base(topic), ".md")
	if topic == "" || topic == "." || topic == "/" || topic == "index" || topic == "help" {
		return textResult(string(b.manuals["index.md"])), nil
	}
	if data, ok := b.manuals[topic+".md"]; ok {
		return textResult(string(data)), nil
	}
	return errorResult("help: there is no topic %q. Topics: %s.", a.Topic, strings.Join(b.topics(), ", ")), nil
}
