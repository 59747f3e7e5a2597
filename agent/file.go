package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/runtime"
)

// FileConfig is an agent configuration file, agent.json, in the spirit of
// tiny-agents' (model, endpoint, a PROMPT.md beside it), plus what pybox
// needs: the tools to offer, the sandbox and the limits. Relative paths are
// relative to the file's folder. Every field is optional.
//
//	{
//	  "model": "Qwen/Qwen3-8B",
//	  "endpointUrl": "http://localhost:8000/v1",
//	  "tools": ["execute_python", "describe", "ls", "read_file", "help"],
//	  "maxTurns": 20,
//	  "images": true,
//	  "limits": {"timeout": "60s", "maxTimeout": "5m", "memory": "1GiB", "output": "1MiB"},
//	  "sandbox": {
//	    "mounts": ["./data:/data:ro", "./work:/work:rw"],
//	    "output": "./output",
//	    "config": "sandbox.toml",
//	    "limits": {"writeBytes": "1GiB", "files": 10000, "fileSize": "256MiB", "openFiles": 256},
//	    "fetch": [{"guest": "/network", "routes": {"current-ip": "http://127.0.0.1:8080/ip"}, "timeout": "5s"}]
//	  }
//	}
//
// The system prompt is "system" (a file name) or else PROMPT.md beside the
// file, if present. "provider" and "servers" (tiny-agents' MCP servers) are
// accepted and ignored: the tools are pybox's own.
type FileConfig struct {
	Model       string   `json:"model"`
	EndpointURL string   `json:"endpointUrl"`
	Provider    string   `json:"provider,omitempty"`
	System      string   `json:"system,omitempty"`
	Tools       []string `json:"tools,omitempty"`
	MaxTurns    int      `json:"maxTurns,omitempty"`
	Images      *bool    `json:"images,omitempty"`
	// Figures false turns off figure capture (tools.Config.NoFigures).
	Figures *bool           `json:"figures,omitempty"`
	Limits  LimitsFile      `json:"limits"`
	Sandbox SandboxFile     `json:"sandbox"`
	Servers json.RawMessage `json:"servers,omitempty"`

	// Path is the file that was read.
	Path string `json:"-"`
	// Prompt is the system prompt read from System or PROMPT.md ("" if
	// neither).
	Prompt string `json:"-"`
}

// LimitsFile bounds each execute_python call. Durations are Go durations
// ("90s", "5m"), sizes have units ("512MiB").
type LimitsFile struct {
	Timeout    string `json:"timeout,omitempty"`
	MaxTimeout string `json:"maxTimeout,omitempty"`
	Memory     string `json:"memory,omitempty"`
	Output     string `json:"output,omitempty"`
}

// SandboxFile is the sandbox policy: the same settings as the [sandbox]
// TOML section (fsbridge.Config), which "config" may also name.
type SandboxFile struct {
	Config string             `json:"config,omitempty"`
	Mounts []string           `json:"mounts,omitempty"`
	Output string             `json:"output,omitempty"`
	Limits SandboxLimitsFile  `json:"limits"`
	Fetch  []SandboxFetchFile `json:"fetch,omitempty"`
}

// SandboxLimitsFile bounds what the guest writes (fsbridge.Limits).
type SandboxLimitsFile struct {
	WriteBytes string `json:"writeBytes,omitempty"`
	Files      int    `json:"files,omitempty"`
	FileSize   string `json:"fileSize,omitempty"`
	OpenFiles  int    `json:"openFiles,omitempty"`
}

// SandboxFetchFile is a virtual folder served over HTTP (fsbridge.FetchConfig).
type SandboxFetchFile struct {
	Guest     string            `json:"guest"`
	Routes    map[string]string `json:"routes"`
	Timeout   string            `json:"timeout,omitempty"`
	MaxBytes  string            `json:"maxBytes,omitempty"`
	Writable  bool              `json:"writable,omitempty"`
	Headers   map[string]string `json:"headers,omitempty"`
	PutMethod string            `json:"putMethod,omitempty"`
}

// LoadFile reads an agent configuration: path is agent.json, or a folder
// holding agent.json. Unknown fields are errors (they are typos).
func LoadFile(path string) (*FileConfig, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, "agent.json")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("agent config: %w", err)
	}
	var f FileConfig
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("agent config %s: %w", path, err)
	}
	if f.Path, err = filepath.Abs(path); err != nil {
		return nil, fmt.Errorf("agent config: %w", err)
	}
	dir := filepath.Dir(f.Path)
	prompt := filepath.Join(dir, "PROMPT.md")
	if f.System != "" {
		prompt = f.rel(f.System)
	}
	switch b, err := os.ReadFile(prompt); {
	case err == nil:
		f.Prompt = string(b)
	case f.System != "" || !errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("agent config %s: system prompt: %w", path, err)
	}
	if _, _, err := f.RunLimits(); err != nil {
		return nil, err
	}
	if _, err := f.Policy(); err != nil {
		return nil, err
	}
	return &f, nil
}

// rel resolves a path relative to the file's folder.
func (f *FileConfig) rel(p string) string {
	if p == "" || filepath.IsAbs(p) || f.Path == "" {
		return p
	}
	return filepath.Join(filepath.Dir(f.Path), p)
}

// RunLimits returns the limits of execute_python and the longest timeout
// the model may ask for (zero values: defaults).
func (f *FileConfig) RunLimits() (runtime.Limits, time.Duration, error) {
	var l runtime.Limits
	var maxT time.Duration
	var err error
	parseD := func(name, s string, d *time.Duration) {
		if s != "" && err == nil {
			if *d, err = time.ParseDuration(s); err != nil {
				err = fmt.Errorf("agent config: limits.%s: %w", name, err)
			}
		}
	}
	parseS := func(name, s string, n *int64) {
		if s != "" && err == nil {
			if *n, err = fsbridge.ParseByteSize(s); err != nil {
				err = fmt.Errorf("agent config: limits.%s: %w", name, err)
			}
		}
	}
	parseD("timeout", f.Limits.Timeout, &l.Timeout)
	parseD("maxTimeout", f.Limits.MaxTimeout, &maxT)
	parseS("memory", f.Limits.Memory, &l.Memory)
	parseS("output", f.Limits.Output, &l.Output)
	return l, maxT, err
}

// Policy returns the sandbox policy the file describes: the TOML file named
// by sandbox.config, if any, with the other sandbox fields added.
func (f *FileConfig) Policy() (fsbridge.Policy, error) {
	var p fsbridge.Policy
	s := f.Sandbox
	if s.Config != "" {
		var err error
		if p, err = fsbridge.LoadConfig(f.rel(s.Config)); err != nil {
			return p, fmt.Errorf("agent config: sandbox.config: %w", err)
		}
	}
	c := fsbridge.Config{Mounts: s.Mounts, Output: s.Output,
		Limits: fsbridge.LimitsConfig{Files: s.Limits.Files, OpenFiles: s.Limits.OpenFiles}}
	var err error
	size := func(name, v string, out *fsbridge.ByteSize) {
		if v != "" && err == nil {
			var n int64
			if n, err = fsbridge.ParseByteSize(v); err != nil {
				err = fmt.Errorf("agent config: sandbox.%s: %w", name, err)
			}
			*out = fsbridge.ByteSize(n)
		}
	}
	size("limits.writeBytes", s.Limits.WriteBytes, &c.Limits.WriteBytes)
	size("limits.fileSize", s.Limits.FileSize, &c.Limits.FileSize)
	for _, fe := range s.Fetch {
		fc := fsbridge.FetchConfig{Guest: fe.Guest, Routes: fe.Routes, Writable: fe.Writable, Headers: fe.Headers, PutMethod: fe.PutMethod}
		if fe.Timeout != "" && err == nil {
			var d time.Duration
			if d, err = time.ParseDuration(fe.Timeout); err != nil {
				err = fmt.Errorf("agent config: sandbox.fetch %s timeout: %w", fe.Guest, err)
			}
			fc.Timeout = fsbridge.Duration(d)
		}
		size("fetch "+fe.Guest+" maxBytes", fe.MaxBytes, &fc.MaxBytes)
		c.Fetch = append(c.Fetch, fc)
	}
	if err != nil {
		return p, err
	}
	dir := "."
	if f.Path != "" {
		dir = filepath.Dir(f.Path)
	}
	q, err := c.Policy(dir)
	if err != nil {
		return p, fmt.Errorf("agent config: sandbox: %w", err)
	}
	p.Mounts = append(p.Mounts, q.Mounts...)
	p.Virtual = append(p.Virtual, q.Virtual...)
	if q.Output != "" {
		p.Output = q.Output
	}
	if c.Limits != (fsbridge.LimitsConfig{}) {
		p.Limits = q.Limits
	}
	return p, nil
}
