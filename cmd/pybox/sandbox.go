package main

import (
	"flag"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/pybox-dev/pybox/fsbridge"
)

// sandboxFlags are the filesystem-policy flags shared by run and cp.
type sandboxFlags struct {
	config string
	mounts multiFlag
	output string
	// noOutput is set by openSandbox when the policy has no /output.
	noOutput bool
}

func (f *sandboxFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.config, "config", "", "read the sandbox policy from the [sandbox] section of this TOML `file`: mounts, limits, and\n"+
		"[[sandbox.fetch]] folders such as /network whose files the host fetches over HTTP from an allowlist of routes\n"+
		"(\"current-ip\" = \"http://.../ip\", \"whois/{ip}\" = \"http://...?ip={ip}\", \"files/{path}\" = \"https://.../{path}\"; see README)")
	fs.Var(&f.mounts, "mount", "mount a host folder: `HOST:GUEST:MODE`, MODE ro, rw, cow or cow=UPPERDIR (repeatable)")
	fs.StringVar(&f.output, "output", "", "host `dir` behind the guest's /output (default: a new temporary folder, kept if files are written)")
}

// multiFlag collects a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

// policy builds the operator's policy from the config file and flags; flags
// add to what the file says.
func (f *sandboxFlags) policy() (fsbridge.Policy, error) {
	var p fsbridge.Policy
	if f.config != "" {
		var err error
		if p, err = fsbridge.LoadConfig(f.config); err != nil {
			return p, err
		}
	}
	for _, spec := range f.mounts {
		m, err := fsbridge.ParseMountSpec(spec)
		if err != nil {
			return p, err
		}
		if path.Clean(m.Guest) == "/output" {
			// /output is the sandbox's own output folder, not a mount;
			// "--mount DIR:/output:rw" can only mean --output DIR.
			if m.Mode != fsbridge.ReadWrite || m.Upper != "" {
				return p, fmt.Errorf("mount %q: /output is the sandbox's output folder and is always writable; choose its host folder with --output %s", spec, m.Host)
			}
			if f.output != "" && f.output != m.Host {
				return p, fmt.Errorf("mount %q: /output is already --output %s; give one of the two", spec, f.output)
			}
			f.output = m.Host
			continue
		}
		p.Mounts = append(p.Mounts, m)
	}
	if f.output != "" {
		p.Output = f.output
	}
	return p, p.Validate()
}

// openSandbox creates the sandbox for one CLI invocation. Without an
// explicit output folder, /output is a fresh temporary folder that is kept
// only if the run leaves files in it; cleanup removes it otherwise.
func (f *sandboxFlags) openSandbox() (sb *fsbridge.Sandbox, cleanup func(), err error) {
	p, err := f.policy()
	if err != nil {
		return nil, nil, err
	}
	f.noOutput = p.NoOutput
	tempOut := ""
	if p.Output == "" && !p.NoOutput {
		if tempOut, err = os.MkdirTemp("", "pybox-output-"); err != nil {
			return nil, nil, fmt.Errorf("create output folder: %w", err)
		}
		p.Output = tempOut
	}
	sb, err = fsbridge.New(p)
	if err != nil {
		if tempOut != "" {
			os.RemoveAll(tempOut)
		}
		return nil, nil, err
	}
	return sb, func() {
		sb.Close()
		if tempOut != "" {
			if ents, err := os.ReadDir(tempOut); err == nil && len(ents) == 0 {
				os.Remove(tempOut)
			}
		}
	}, nil
}

// report prints what the run left in /output and what it was refused.
// Refused reads of the script's own name (noise: Python's traceback looks
// for the source of a script the guest cannot open) are left out.
func report(sb *fsbridge.Sandbox, scriptName ...string) {
	arts, err := sb.Artifacts()
	if err != nil {
		fmt.Fprintf(os.Stderr, "pybox: list /output: %v\n", err)
	}
	for _, a := range arts {
		fmt.Fprintf(os.Stderr, "pybox: output %s (%d bytes, %s) saved as %s\n", a.Path, a.Size, a.MIME, a.HostPath)
	}
	for _, d := range sb.Denials() {
		if (d.Op == "read" || d.Op == "stat" || d.Op == "open") && slices.Contains(scriptName, d.Path) {
			continue
		}
		fmt.Fprintf(os.Stderr, "pybox: refused: %s\n", d.Message)
	}
}

const cpHelp = `Usage: pybox cp [flags] HOST_SOURCE GUEST_DEST

Copies a host file or folder that the sandbox policy lets the guest read into
a writable place of the sandbox (a rw mount, a cow mount or /output), the way
the agent's copy_to_sandbox tool does. The policy comes from --config and
--mount, as for run.

Flags:
`

func cmdCp(args []string) int {
	fs := flag.NewFlagSet("cp", flag.ContinueOnError)
	var sf sandboxFlags
	sf.register(fs)
	if code, ok := parseFlagSet(fs, "cp", cpHelp, args); !ok {
		return code
	}
	if fs.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "pybox cp: need HOST_SOURCE and GUEST_DEST")
		return 2
	}
	sb, cleanup, err := sf.openSandbox()
	if err != nil {
		fmt.Fprintf(os.Stderr, "pybox cp: %v\n", err)
		return 2
	}
	defer cleanup()
	dst, err := sb.CopyToSandbox(fs.Arg(0), fs.Arg(1))
	if err != nil {
		fmt.Fprintf(os.Stderr, "pybox cp: %v\n", err)
		return 1
	}
	fmt.Printf("copied %s to %s\n", fs.Arg(0), dst)
	return 0
}
