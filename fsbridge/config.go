package fsbridge

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// Config is the policy as written in a configuration file, in the
// [sandbox] section (TOML). Embed it in a larger configuration struct with
// the tag `toml:"sandbox"`, or read a whole file with LoadConfig.
//
//	[sandbox]
//	mounts = ["/srv/data:/data:ro", "./work:/work:rw", "/home/me/proj:/src:cow"]
//	output = "/var/pybox/output"      # empty: a temporary folder
//
//	[[sandbox.mount]]                  # the long form of a mount
//	host = "/srv/more"
//	guest = "/more"
//	mode = "cow"
//	upper = "/var/pybox/more-changes"
//
//	[sandbox.limits]
//	write_bytes = "1GiB"
//	files = 10000
//	file_size = "256MiB"
//	open_files = 256
//
//	[[sandbox.fetch]]                  # a virtual folder served over HTTP
//	guest = "/network"
//	timeout = "5s"
//	max_bytes = "10MiB"
//	writable = false
//	[sandbox.fetch.routes]
//	"current-ip" = "http://127.0.0.1:8080/ip"
//	"whois/{ip}" = "http://127.0.0.1:8080/whois?ip={ip}"   # {name}: one segment
//	"files/{path}" = "https://files.example.com/{path}"     # {path}: the rest
//
// Relative host paths are relative to the configuration file's folder.
type Config struct {
	// Mounts are HOST:GUEST:MODE specs (see ParseMountSpec).
	Mounts []string `toml:"mounts"`
	// Mount is the long form of Mounts.
	Mount []MountConfig `toml:"mount"`
	// Output is the host folder behind /output.
	Output string `toml:"output"`
	// NoOutput and NoTmp remove /output and /tmp.
	NoOutput bool `toml:"no_output"`
	NoTmp    bool `toml:"no_tmp"`
	// TempDir is where temporary folders go.
	TempDir string `toml:"temp_dir"`
	// Limits, see Limits.
	Limits LimitsConfig `toml:"limits"`
	// Fetch are virtual folders served by an HTTPFetcher.
	Fetch []FetchConfig `toml:"fetch"`
}

// MountConfig is one [[sandbox.mount]] table.
type MountConfig struct {
	Host  string `toml:"host"`
	Guest string `toml:"guest"`
	Mode  string `toml:"mode"` // ro (default), rw, cow
	Upper string `toml:"upper"`
}

// LimitsConfig is the [sandbox.limits] table. Sizes are integers (bytes)
// or strings with a unit: "512KiB", "10MB", "1GiB".
type LimitsConfig struct {
	WriteBytes ByteSize `toml:"write_bytes"`
	Files      int      `toml:"files"`
	FileSize   ByteSize `toml:"file_size"`
	OpenFiles  int      `toml:"open_files"`
}

// FetchConfig is one [[sandbox.fetch]] table: a VirtualMount served by an
// HTTPFetcher.
type FetchConfig struct {
	Guest    string            `toml:"guest"`
	Routes   map[string]string `toml:"routes"`
	Timeout  Duration          `toml:"timeout"`
	MaxBytes ByteSize          `toml:"max_bytes"`
	Writable bool              `toml:"writable"`
	// Headers are added to every request (e.g. credentials the guest
	// never sees).
	Headers map[string]string `toml:"headers"`
	// PutMethod is PUT (default) or POST.
	PutMethod string `toml:"put_method"`
}

// ByteSize is a size in bytes that reads from TOML as an integer or a
// string with a unit (B, KB, MB, GB, KiB, MiB, GiB).
type ByteSize int64

// UnmarshalTOML implements toml.Unmarshaler.
func (b *ByteSize) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case int64:
		*b = ByteSize(x)
		return nil
	case string:
		n, err := ParseByteSize(x)
		*b = ByteSize(n)
		return err
	}
	return fmt.Errorf("size must be an integer or a string like \"10MiB\", not %T", v)
}

// ParseByteSize parses "1048576", "512KiB", "10MB", "1 GiB".
func ParseByteSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := len(t)
	for i > 0 && (t[i-1] < '0' || t[i-1] > '9') {
		i--
	}
	num, unit := strings.TrimSpace(t[:i]), strings.ToLower(strings.TrimSpace(t[i:]))
	n, err := strconv.ParseFloat(num, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("bad size %q: use a number with an optional unit, e.g. 256MiB, 1GiB, 500MB", s)
	}
	mult := map[string]int64{"": 1, "b": 1, "k": 1 << 10, "kb": 1000, "kib": 1 << 10, "m": 1 << 20, "mb": 1000 * 1000,
		"mib": 1 << 20, "g": 1 << 30, "gb": 1000 * 1000 * 1000, "gib": 1 << 30}[unit]
	if mult == 0 {
		return 0, fmt.Errorf("bad size unit in %q: use B, KB, MB, GB, KiB, MiB or GiB", s)
	}
	return int64(n * float64(mult)), nil
}

// Duration reads from TOML as a string like "5s" or "250ms".
type Duration time.Duration

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	*d = Duration(v)
	return err
}

// ParseConfig reads a TOML document and returns the Config of its
// [sandbox] section (empty if there is none). Unknown keys in the section
// are errors, so that typos do not silently widen or narrow the policy.
func ParseConfig(data []byte) (Config, error) {
	var doc struct {
		Sandbox Config `toml:"sandbox"`
	}
	md, err := toml.Decode(string(data), &doc)
	if err != nil {
		return Config{}, err
	}
	for _, k := range md.Undecoded() {
		if len(k) > 0 && k[0] == "sandbox" {
			return Config{}, fmt.Errorf("unknown key %s in the sandbox configuration", k)
		}
	}
	return doc.Sandbox, nil
}

// LoadConfig reads the [sandbox] section of a TOML file and turns it into
// a Policy, with relative host paths taken from the file's folder.
func LoadConfig(file string) (Policy, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return Policy{}, err
	}
	c, err := ParseConfig(data)
	if err != nil {
		return Policy{}, fmt.Errorf("%s: %w", file, err)
	}
	dir, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		return Policy{}, err
	}
	p, err := c.Policy(dir)
	if err != nil {
		return Policy{}, fmt.Errorf("%s: %w", file, err)
	}
	return p, nil
}

// Policy turns the configuration into a Policy. Relative host paths are
// joined to baseDir (empty: the working directory). It does not check the
// host folders; New (or Policy.Validate) does.
func (c Config) Policy(baseDir string) (Policy, error) {
	abs := func(p string) string {
		if p == "" || filepath.IsAbs(p) || baseDir == "" {
			return p
		}
		return filepath.Join(baseDir, p)
	}
	p := Policy{
		Output: abs(c.Output), NoOutput: c.NoOutput, NoTmp: c.NoTmp, TempDir: abs(c.TempDir),
		Limits: Limits{
			WriteBytes: int64(c.Limits.WriteBytes), Files: c.Limits.Files,
			FileSize: int64(c.Limits.FileSize), OpenFiles: c.Limits.OpenFiles,
		},
	}
	for _, spec := range c.Mounts {
		m, err := ParseMountSpec(spec)
		if err != nil {
			return Policy{}, err
		}
		m.Host, m.Upper = abs(m.Host), abs(m.Upper)
		p.Mounts = append(p.Mounts, m)
	}
	for _, mc := range c.Mount {
		mode := ReadOnly
		if mc.Mode != "" {
			var err error
			if mode, err = ParseMode(mc.Mode); err != nil {
				return Policy{}, fmt.Errorf("mount %s: %w", mc.Guest, err)
			}
		}
		if mc.Host == "" || mc.Guest == "" {
			return Policy{}, fmt.Errorf("mount: host and guest are both required (got host %q, guest %q)", mc.Host, mc.Guest)
		}
		p.Mounts = append(p.Mounts, Mount{Host: abs(mc.Host), Guest: mc.Guest, Mode: mode, Upper: abs(mc.Upper)})
	}
	for _, fc := range c.Fetch {
		if fc.Guest == "" {
			return Policy{}, fmt.Errorf("fetch: guest is required")
		}
		if len(fc.Routes) == 0 {
			return Policy{}, fmt.Errorf("fetch %s: routes is empty", fc.Guest)
		}
		for k, u := range fc.Routes {
			if err := CheckRoute(k, u); err != nil {
				return Policy{}, fmt.Errorf("fetch %s: %w", fc.Guest, err)
			}
		}
		h := &HTTPFetcher{Routes: fc.Routes, Timeout: time.Duration(fc.Timeout), MaxBytes: int64(fc.MaxBytes), PutMethod: fc.PutMethod}
		if len(fc.Headers) > 0 {
			h.Header = map[string][]string{}
			for k, v := range fc.Headers {
				h.Header.Set(k, v)
			}
		}
		p.Virtual = append(p.Virtual, VirtualMount{Guest: fc.Guest, Fetcher: h, Writable: fc.Writable})
	}
	return p, nil
}
