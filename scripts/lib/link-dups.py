#!/usr/bin/env python3
"""Fail when two bundled packages' archives define the same global name.

    link-dups.py Modules/Setup.local

python.wasm links every package's static archive (the `_pybox_ext_<pkg>`
lines of Setup.local: -L dirs and -l libraries). wasm-ld resolves an
undefined name from the first archive that defines it and loads no other
member for it, so a name two packages define is not always an error: it can
silently bind one package's module to another's code (scipy.spatial._qhull
and matplotlib._qhull both had PyInit__qhull; scipy and pandas both had
PyInit__cyutility). This lists the strong global definitions (llvm-nm types
T, D, B, R) of each archive named on a package line and exits non-zero,
naming the symbol and both archives, when one is defined by two different
archives. Weak definitions (C++ inline functions and templates, W/V) are
allowed: the linker keeps one by design. Archives named on several lines
(libc++, libz, OpenBLAS, ...) count once. ALLOWED lists the intended
overrides, each with the archive whose copy must win (come first).
"""
import collections
import os
import re
import subprocess
import sys


# name -> archive (file name) that must come first and whose copy is used.
ALLOWED = {
    # numpy's python_xerbla (raises ValueError on an illegal LAPACK argument)
    # replaces OpenBLAS's, which would print and return.
    "xerbla_": "libnumpy.a",
}


def archives(setup_local):
    seen, out = set(), []
    for line in open(setup_local):
        words = line.split()
        if not words or not words[0].startswith("_pybox_ext_"):
            continue
        dirs = []
        for w in words[1:]:
            if w.startswith("-L"):
                dirs.append(w[2:])
            elif w.startswith("-l"):
                for d in dirs:
                    p = os.path.join(d, f"lib{w[2:]}.a")
                    if os.path.exists(p):
                        real = os.path.realpath(p)
                        if real not in seen:
                            seen.add(real)
                            out.append((words[0], p))
                        break
                else:
                    # A system library (wasi-libc's -lc-printscan-long-double).
                    pass
    return out


def strong_globals(archive):
    res = subprocess.run(["llvm-nm-19", "--defined-only", "--extern-only", archive],
                         capture_output=True, text=True, check=True)
    names = set()
    for line in res.stdout.splitlines():
        m = re.match(r"^[0-9a-fA-F]*\s+([TDBR])\s+(\S+)$", line)
        if m:
            names.add(m.group(2))
    return names


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    where = collections.defaultdict(list)
    libs = archives(sys.argv[1])
    for pkg, a in libs:
        for name in strong_globals(a):
            where[name].append(f"{a} ({pkg})")
    dups = {}
    for n, w in where.items():
        if len(w) < 2:
            continue
        if n in ALLOWED and os.path.basename(w[0].split(" ")[0]) == ALLOWED[n]:
            continue
        dups[n] = w
    print(f"link-dups: {len(libs)} archives, {len(where)} strong global names", file=sys.stderr)
    if dups:
        for n in sorted(dups)[:50]:
            print(f"{n}: defined by {' and '.join(dups[n])}", file=sys.stderr)
        sys.exit(f"link-dups: {len(dups)} names defined by two archives (first 50 above)")


if __name__ == "__main__":
    main()
