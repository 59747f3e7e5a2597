#!/usr/bin/env python3
"""List what numpy's extension modules are made of, from meson's build.ninja.

Usage: collect_objects.py BUILDDIR MODULE...   (e.g. numpy/fft/_pocketfft_umath)

Prints one line per input of the wanted extension modules' link steps:
"obj PATH" for object files and "lib PATH" for meson static libraries,
paths relative to BUILDDIR. The same source compiled for two modules of one
directory (numpy/linalg's lapack_lite f2c files) is listed once: statically
linked into one binary, the two copies would define the same symbols.
"""
import re
import shlex
import sys


def main():
    builddir, wanted = sys.argv[1], sys.argv[2:]
    edges = {}
    with open(f"{builddir}/build.ninja") as f:
        lines = f.read().replace("$\n", "").splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"build (\S+\.so): \S*LINKER(?:_RSP)? (.*)", line)
        if not m:
            continue
        explicit = m.group(2).split(" | ")[0].split(" || ")[0].split()
        args = []
        for nxt in lines[i + 1:]:
            if not nxt.startswith(" "):
                break
            if nxt.strip().startswith("LINK_ARGS ="):
                args = shlex.split(nxt.split("=", 1)[1])
        edges[m.group(1)] = explicit + args
    seen = set()
    for mod in wanted:
        target = next((t for t in edges if t.startswith(mod + ".cpython-")), None)
        if target is None:
            sys.exit(f"collect_objects: no link step for {mod}")
        moddir = mod.rsplit("/", 1)[0]
        for item in edges[target]:
            if item.endswith(".o"):
                key = (moddir, item.rsplit("/", 1)[1])
                kind = "obj"
            elif item.endswith(".a") and not item.startswith("/"):
                key, kind = item, "lib"
            else:
                continue  # system libraries (libm), linker flags
            if key not in seen:
                seen.add(key)
                print(kind, item)


main()
