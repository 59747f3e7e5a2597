package main

import (
	"fmt"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The reference scenarios through the CLI: read a CSV from a read-only
// mount, fetch /network/current-ip from a host fetcher, write /output, and
// be refused writing /etc/hosts or running a command — host files unchanged.
func TestCLISandboxScenario(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/ip" {
			fmt.Fprint(w, "203.0.113.7")
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()

	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	out := filepath.Join(dir, "out")
	for _, d := range []string{data, out} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	csv := "road,accidents\nA1,10\nB2,3\n"
	if err := os.WriteFile(filepath.Join(data, "traffic.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "pybox.toml")
	if err := os.WriteFile(config, []byte(fmt.Sprintf(`
[sandbox]
mounts = ["data:/data:ro"]

[[sandbox.fetch]]
guest = "/network"
timeout = "5s"
[sandbox.fetch.routes]
"current-ip" = "%s/ip"
`, srv.URL)), 0o644); err != nil {
		t.Fatal(err)
	}
	code := `
import csv, subprocess
rows = list(csv.DictReader(open('/data/traffic.csv')))
print('total', sum(int(r['accidents']) for r in rows))
ip = open('/network/current-ip').read()
open('/output/ip.txt', 'w').write(ip)
print('ip', ip)
for attempt in (lambda: open('/etc/hosts', 'w'), lambda: open('/data/traffic.csv', 'a'),
                lambda: subprocess.run(['rm', '-rf', '/'])):
    try:
        attempt()
    except OSError as e:
        print('refused:', e)
`
	r := pybox(t, "", "run", "--config", config, "--output", out, "-c", code)
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"total 13\n", "ip 203.0.113.7\n",
		"write denied: /etc/hosts is outside writable mounts",
		"write denied: /data/traffic.csv is on a read-only mount (/data)",
		"process denied: cannot run ['rm', '-rf', '/']",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "pybox: output /output/ip.txt (11 bytes, text/plain") {
		t.Errorf("stderr does not list the artifact:\n%s", r.stderr)
	}
	if !strings.Contains(r.stderr, "pybox: refused: write denied: /etc/hosts") {
		t.Errorf("stderr does not list the refusal:\n%s", r.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(out, "ip.txt")); err != nil || string(b) != "203.0.113.7" {
		t.Errorf("host output file: %q %v", b, err)
	}
	if b, _ := os.ReadFile(filepath.Join(data, "traffic.csv")); string(b) != csv {
		t.Errorf("read-only host file changed: %q", b)
	}
}

func TestCLICopyToSandbox(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	work := filepath.Join(dir, "work")
	for _, d := range []string{src, work} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(src, "a.txt"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := pybox(t, "", "cp", "--mount", src+":/src:ro", "--mount", work+":/work:rw", filepath.Join(src, "a.txt"), "/work/a.txt")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(work, "a.txt")); err != nil || string(b) != "hello" {
		t.Fatalf("copied file: %q %v", b, err)
	}
	// A host file outside every readable mount is refused.
	outside := filepath.Join(dir, "secret.txt")
	os.WriteFile(outside, []byte("x"), 0o644)
	r = pybox(t, "", "cp", "--mount", src+":/src:ro", "--mount", work+":/work:rw", outside, "/work/s.txt")
	if r.code == 0 || !strings.Contains(r.stderr, "secret.txt") {
		t.Fatalf("copy from outside the read policy: exit %d, stderr %s", r.code, r.stderr)
	}
}

// Reference scenario 1: "find my current IP and make an image of it". The
// host serves /network/current-ip (from a loopback server), the code draws
// it with Pillow into /output/ip_address.png, and the host gets a valid PNG.
func TestCLIScenarioIPImage(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "198.51.100.23\n")
	}))
	defer srv.Close()
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "pybox.toml")
	os.WriteFile(config, []byte(fmt.Sprintf("[sandbox]\n[[sandbox.fetch]]\nguest = \"/network\"\n[sandbox.fetch.routes]\n\"current-ip\" = \"%s/\"\n", srv.URL)), 0o644)
	code := `
from PIL import Image, ImageDraw, ImageFont
ip = open('/network/current-ip').read().strip()
img = Image.new('RGB', (480, 120), 'white')
d = ImageDraw.Draw(img)
d.text((20, 35), f'Your IP: {ip}', font=ImageFont.truetype('DejaVuSans.ttf', 36), fill='black')
img.save('/output/ip_address.png')
print('saved', ip)
`
	r := pybox(t, "", "run", "--config", config, "--output", out, "-c", code)
	if r.code != 0 || !strings.Contains(r.stdout, "saved 198.51.100.23") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "pybox: output /output/ip_address.png (") || !strings.Contains(r.stderr, "image/png") {
		t.Errorf("artifact not reported:\n%s", r.stderr)
	}
	f, err := os.Open(filepath.Join(out, "ip_address.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("not a valid PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 480 || b.Dy() != 120 {
		t.Fatalf("size %v", b)
	}
	// The text was drawn: some pixels are dark.
	dark := 0
	for y := 0; y < 120; y++ {
		for x := 0; x < 480; x++ {
			if r, _, _, _ := img.At(x, y).RGBA(); r < 0x4000 {
				dark++
			}
		}
	}
	if dark < 200 {
		t.Fatalf("only %d dark pixels: no text drawn?", dark)
	}
}
