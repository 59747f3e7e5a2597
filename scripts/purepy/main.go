// Command purepy installs pure-Python wheels into a site-packages folder with
// the same checks as "pybox packages add" (packages.AddWheel): used by
// scripts/build-purepy.sh to lay out the runtime bundle's site-packages.
//
//	go run ./scripts/purepy -into DIR WHEEL...
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/pybox-dev/pybox/packages"
)

func main() {
	into := flag.String("into", "", "site-packages `dir` to install into")
	flag.Parse()
	if *into == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: purepy -into DIR WHEEL...")
		os.Exit(2)
	}
	for _, whl := range flag.Args() {
		p, err := packages.AddWheel(*into, whl)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("%s %s\n", p.Name, p.Version)
	}
}
