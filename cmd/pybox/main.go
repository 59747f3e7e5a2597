// Command pybox runs untrusted Python (CPython compiled to WebAssembly) inside
// this process, with no containers and no kernel sandbox: the interpreter can
// only touch what the host hands it.
//
//	pybox run script.py [args...]    run a file
//	pybox run -c CODE [args...]      run a string
//	pybox run - [args...]            run code read from standard input
//	pybox repl                       an interactive persistent session
//	pybox cp HOST_SRC GUEST_DEST     copy a host file into the sandbox
//	pybox serve                      MCP (streamable HTTP) and a JSON API
//	pybox mcp                        MCP over stdio
//	pybox tools --format openai      print the tools' schemas
//	pybox agent "task"               a model solves the task with the tools
//	pybox version                    print versions of pybox and the bundle
//
// Run `pybox help` or `pybox run -h` for flags.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	os.Exit(mainWithCode(os.Args[1:]))
}

func mainWithCode(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(args) == 0 {
		usage()
		return 2
	}
	switch args[0] {
	case "run":
		return cmdRun(ctx, args[1:])
	case "repl":
		return cmdRepl(ctx, args[1:])
	case "cp":
		return cmdCp(args[1:])
	case "packages":
		return cmdPackages(ctx, args[1:])
	case "serve":
		return cmdServe(ctx, args[1:])
	case "mcp":
		return cmdMCP(ctx, args[1:])
	case "tools":
		return cmdTools(ctx, args[1:])
	case "agent":
		return cmdAgent(ctx, args[1:])
	case "setup":
		return cmdSetup(ctx, args[1:])
	case "version", "--version":
		return cmdVersion(args[1:])
	case "help", "-h", "--help":
		if len(args) > 1 && args[0] == "help" && args[1] != "help" {
			// "pybox help run" is "pybox run -h".
			return mainWithCode([]string{args[1], "-h"})
		}
		usage()
		return 0
	}
	fmt.Fprintf(os.Stderr, "pybox: unknown command %q\n\n", args[0])
	usage()
	return 2
}

func usage() {
	fmt.Fprint(os.Stderr, `pybox runs Python code in a WebAssembly sandbox inside this process.

Usage:
  pybox run [flags] script.py [args...]   run a Python file
  pybox run [flags] -c CODE [args...]     run a string of code
  pybox run [flags] - [args...]           run code read from standard input
  pybox repl [flags]                      an interactive persistent session
  pybox cp [flags] HOST_SRC GUEST_DEST     copy a readable host file into the sandbox
  pybox packages [add FILE.whl...]         list importable packages, add pure-Python wheels
  pybox serve [flags]                     MCP at /mcp and a JSON API on 127.0.0.1:8765
  pybox mcp [flags]                       MCP over stdio (for clients that start pybox)
  pybox tools [--format openai|mcp|json]  print the tools' JSON schemas
  pybox agent [flags] "task"              a model solves the task with Python (pybox agent -h)
  pybox setup [--cache-dir DIR]           compile the runtime ahead of the first run (installers)
  pybox version [-v]                      show versions (-v: the bundle's manifest)

Run "pybox COMMAND -h" (or "pybox help COMMAND") for a command's flags.
`)
}
