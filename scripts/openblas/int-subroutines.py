#!/usr/bin/env python3
"""Make every Fortran-callable subroutine of OpenBLAS return int.

Usage: int-subroutines.py OPENBLAS_SOURCE_DIR

wasm checks function signatures at link time: a call through a declaration
whose type differs from the definition's is linked by wasm-ld to a stub that
traps ("function signature mismatch"). OpenBLAS declares the same
subroutine `void` in one file and `int` in another (lapack-netlib's C
translation mostly says void, OpenBLAS's own LAPACK in interface/lapack/
says int, its BLAS in interface/*.c says void), and numpy and scipy declare
subroutines as returning int (the f2c convention). Here all of them become
int:

- lapack-netlib (SRC, SRC/DEPRECATED, TESTING/MATGEN, INSTALL):
  `/* Subroutine */ void` and `extern void name_(` declarations;
- interface/*.c and interface/lapack/*.c: the Fortran entry points
  `void NAME(` (the cblas_* entry points, CNAME, stay void as cblas.h and
  numpy declare them);
- common_interface.h (installed as f77blas.h): `void BLASFUNC(`;
- lapack/laed3: its declarations of LAED4, LACPY, LASET.

Also, some lapack-netlib files (xGEDMD, xGEQP3RK, the deprecated xGELQS and
xGEQRS) declare and call xerbla_ without the hidden
string length every other caller passes (and OpenBLAS's xerbla takes): the
length is added.

The bodies keep their bare `return;`, compiled with -Wno-return-mismatch and
-Wno-return-type (build-openblas.sh); no caller reads the value. Files are
only rewritten when they change. Prints what it changed; fails if a rule
matched nothing (the source moved: review this script).
"""
import glob
import os
import re
import sys


def rewrite(paths, rules):
    counts = [0] * len(rules)
    for path in paths:
        with open(path, encoding="latin-1") as f:
            old = f.read()
        new = old
        for i, (pattern, repl) in enumerate(rules):
            new, n = pattern.subn(repl, new)
            counts[i] += n
        if new != old:
            with open(path, "w", encoding="latin-1") as f:
                f.write(new)
    return counts


def main():
    src = sys.argv[1]
    g = lambda *parts: sorted(glob.glob(os.path.join(src, *parts)))
    netlib = (g("lapack-netlib", "SRC", "*.c") + g("lapack-netlib", "SRC", "DEPRECATED", "*.c")
              + g("lapack-netlib", "TESTING", "MATGEN", "*.c") + g("lapack-netlib", "INSTALL", "*.c"))
    report = {}
    report["lapack-netlib"] = rewrite(netlib, [
        (re.compile(r"/\* Subroutine \*/ void "), "/* Subroutine */ int "),
        (re.compile(r"(?m)^(\s*)extern void ([a-z][a-z0-9_]*_)\("), r"\1extern int \2("),
        (re.compile(r"xerbla_\(\s*char\s*\*,\s*integer\s*\*\s*\)"), "xerbla_(char *, integer *, ftnlen)"),
        (re.compile(r'xerbla_\("([A-Z0-9_]+)", (&[a-z0-9_]+)\)'),
         lambda m: f'xerbla_("{m[1]}", {m[2]}, (ftnlen){len(m[1])})'),
    ])
    report["interface"] = rewrite(g("interface", "*.c") + g("interface", "lapack", "*.c"), [
        (re.compile(r"(?m)^void(\s+NAME\s*\()"), r"int\1"),
    ])
    report["common_interface.h"] = rewrite([os.path.join(src, "common_interface.h")], [
        (re.compile(r"(?m)^void(\s+BLASFUNC)"), r"int \1"),
    ])
    report["lapack/laed3"] = rewrite(g("lapack", "laed3", "*.c"), [
        (re.compile(r"(?m)^void ((LAED4|LACPY|LASET)\()"), r"int \1"),
    ])
    for where, counts in report.items():
        print(f"int-subroutines: {where}: {counts}", file=sys.stderr)
    # A second run changes nothing; on a fresh tree every rule must match.
    if os.environ.get("INT_SUBROUTINES_FRESH") == "1" and not all(c for cs in report.values() for c in cs):
        sys.exit("int-subroutines: a rule matched nothing; the OpenBLAS source changed")


main()
