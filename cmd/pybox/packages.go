package main

import (
	"context"
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/pybox-dev/pybox/fsbridge"
	"github.com/pybox-dev/pybox/packages"
	"github.com/pybox-dev/pybox/runtime"
)

const packagesHelp = `Usage:
  pybox packages                 list what the sandbox can import, with versions
  pybox packages add FILE.whl... add pure-Python wheels (py3-none-any), offline

Added packages go to $PYBOX_PACKAGES_DIR (default: pybox/site-packages in the
user config dir), are compiled to bytecode once, and are importable in every
later run, repl and session. Wheels with compiled code are refused: they are
built for a native platform, and pybox runs Python on WebAssembly.
`

func cmdPackages(ctx context.Context, args []string) int {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		fmt.Print(packagesHelp)
		return 0
	}
	dir, err := packages.UserDir()
	if err != nil {
		fmt.Fprintf(os.Stderr, "pybox packages: %v\n", err)
		return runtime.ExitCodeInternal
	}
	if len(args) == 0 || args[0] == "list" {
		return listPackages(dir)
	}
	if args[0] != "add" || len(args) < 2 {
		fmt.Fprint(os.Stderr, packagesHelp)
		return 2
	}
	code := 0
	added := 0
	for _, whl := range args[1:] {
		p, err := packages.AddWheel(dir, whl)
		if err != nil {
			fmt.Fprintf(os.Stderr, "pybox packages add: %v\n", err)
			code = 1
			continue
		}
		added++
		fmt.Printf("added %s %s to %s\n", p.Name, p.Version, dir)
		if b, err := packages.Default(); err == nil {
			for _, bp := range packages.BundlePackages(b) {
				if bp.Name == p.Name {
					fmt.Fprintf(os.Stderr, "pybox packages add: warning: %s %s is also built into the runtime bundle, which comes first on sys.path: "+
						"import %s gets the bundled %s, not the %s just added\n", p.Name, bp.Version, p.Name, bp.Version, p.Version)
				}
			}
		}
	}
	if added > 0 {
		if err := compileUserPackages(ctx, dir); err != nil {
			fmt.Fprintf(os.Stderr, "pybox packages add: %v\n", err)
			return 1
		}
	}
	return code
}

func listPackages(dir string) int {
	b, err := packages.Default()
	if err != nil {
		fmt.Fprintf(os.Stderr, "pybox packages: %v\n", err)
		return runtime.ExitCodeInternal
	}
	user, err := packages.UserPackages(dir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pybox packages: %s: %v\n", dir, err)
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tVERSION\tFROM\tLICENSE")
	for _, p := range append(packages.BundlePackages(b), user...) {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", p.Name, p.Version, p.Source, p.License)
	}
	w.Flush()
	return 0
}

// compileUserPackages compiles the added sources to bytecode with pybox's own
// interpreter (the only one whose bytecode matches), through a sandbox that
// mounts the folder read-write at the path runs will see it.
func compileUserPackages(ctx context.Context, dir string) error {
	sb, err := fsbridge.New(fsbridge.Policy{Mounts: []fsbridge.Mount{fsbridge.ReadWriteMount(dir, packages.UserSitePath)}, NoOutput: true})
	if err != nil {
		return err
	}
	defer sb.Close()
	// No read-only user-site mount here: the sandbox mounts the same guest
	// path read-write so the bytecode can be written.
	eng, err := startEngine(ctx, runtime.Config{}, false)
	if err != nil {
		return err
	}
	defer eng.Close(context.Background())
	if err := sb.BeginRun(ctx); err != nil {
		return err
	}
	res, err := eng.Run(ctx, runtime.Request{
		Code: "import compileall, sys\nsys.exit(0 if compileall.compile_dir(" + fmt.Sprintf("%q", packages.UserSitePath) + ", quiet=1) else 1)\n",
		FS:   sb.FS(),
	})
	if err != nil {
		return err
	}
	if res.Status != runtime.StatusOK {
		return fmt.Errorf("compiling the added packages to bytecode failed (%s); they still import, more slowly:\n%s%s", res.Message, res.Stdout, res.Stderr)
	}
	return nil
}
