#!/usr/bin/env python3
"""Declare Fortran subroutines as returning int in scipy's C/C++ sources.

    int-subroutines.py [--names SYMBOLS.txt] FILE_OR_DIR...

On this target every Fortran subroutine returns int: OpenBLAS's BLAS and C
LAPACK were made so for numpy (scripts/openblas/int-subroutines.py, the f2c
convention), and f2c translates scipy's own Fortran (FITPACK, ODRPACK, f2py's
wrappers) the same way. scipy declares them `void`. wasm checks function
types: a direct call through a declaration of another type is linked to a
trap, an indirect one traps when made. This rewrites

    [extern] void BLAS_FUNC(name)(...);      -> [extern] int BLAS_FUNC(name)(...);
    [extern] void F_FUNC(name,NAME)(...);    -> ... (also F_WRAPPEDFUNC)
    void (*f2py_func)(...)                   -> int (*f2py_func)(...)   (f2py)
    static void f2py_setup_X(char *a) {...}  -> static int ... { ...; return 0; }
    ...F_FUNC(f2pyinitX,F2PYINITX)(void(*)(char*))  -> (int(*)(char*))
        (f2py's COMMON block hooks: the Fortran f2pyinitX, translated by
        f2c, calls the setup function it is passed as an int subroutine;
        as void it trapped at import, "indirect call type mismatch")
    void dgemm_(...);  void CURFIT(...);     -> int ...   (with --names FILE:
        plain declarations of the Fortran symbols listed in FILE, one per
        line, e.g. `dgemm_`, by that name or its upper-case macro `DGEMM`)

Declarations only: a `void` definition (a body follows) is left alone, since
making it int needs return statements (scripts/scipy/patches/ does those).
Prints how many it changed per file; exits non-zero if nothing changed at all.
"""
import os
import re
import sys

DECL = re.compile(r"\bvoid(\s+)((?:BLAS_FUNC|F_FUNC|F_WRAPPEDFUNC)\s*\()")
F2PY_PTR = re.compile(r"\bvoid \(\*f2py_func\)\(")
F2PY_SETUP = re.compile(r"\bstatic void (f2py_setup_\w+)\(([^)]*)\)\s*\{")
F2PY_INIT_ARG = re.compile(r"(F_FUNC\(f2pyinit\w+,\s*F2PYINIT\w+\)\s*\()void(\s*\(\s*\*\s*\)\s*\()")
EXTS = (".c", ".h", ".cc", ".hh", ".cpp", ".hpp", ".cxx")


def close_paren(text, i):
    """Index just past the parenthesis closing the one at text[i]."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
            if depth == 0:
                return j + 1
    return -1


def fix(text, decl=DECL):
    out, pos, n = [], 0, 0
    for m in decl.finditer(text):
        if m.group(2).rstrip().endswith("("):  # BLAS_FUNC(name)(...)
            name_open = m.end() - 1
            after_name = close_paren(text, name_open)
            if after_name < 0:
                continue
            k = after_name
        else:  # plain name: the parameter list follows
            k = m.end()
        while k < len(text) and text[k] in " \t\\\n":
            k += 1
        if k >= len(text) or text[k] != "(":
            continue
        after_params = close_paren(text, k)
        if after_params < 0:
            continue
        k = after_params
        while k < len(text) and text[k] in " \t\\\n":
            k += 1
        if k < len(text) and text[k] == ";":
            out.append(text[pos:m.start()])
            out.append("int" + m.group(1) + m.group(2))
            pos = m.end()
            n += 1
    out.append(text[pos:])
    text = "".join(out)
    text, k = F2PY_PTR.subn("int (*f2py_func)(", text)
    text, s = fix_setup(text)
    return text, n + k + s


def fix_setup(text):
    """f2py's COMMON block setup functions return int (see the docstring)."""
    out, pos, n = [], 0, 0
    for m in F2PY_SETUP.finditer(text):
        depth, j = 0, m.end() - 1
        for j in range(m.end() - 1, len(text)):
            if text[j] == "{":
                depth += 1
            elif text[j] == "}":
                depth -= 1
                if depth == 0:
                    break
        if depth != 0:
            continue
        out.append(text[pos:m.start()])
        out.append(text[m.start():m.end()].replace("static void", "static int", 1))
        out.append(text[m.end():j] + "  return 0;\n")
        pos = j
        n += 1
    out.append(text[pos:])
    text, k = F2PY_INIT_ARG.subn(r"\1int\2", "".join(out))
    return text, n + k


def files(paths):
    for p in paths:
        if os.path.isdir(p):
            for d, _, names in os.walk(p):
                for name in sorted(names):
                    if name.endswith(EXTS):
                        yield os.path.join(d, name)
        else:
            yield p


def main():
    args = sys.argv[1:]
    decls = [DECL]
    if args[:1] == ["--names"]:
        names = set()
        for line in open(args[1]):
            sym = line.strip()
            if sym.endswith("_") and re.fullmatch(r"[a-z][a-z0-9_]*_", sym):
                names.add(sym)
                names.add(sym[:-1].upper())
        args = args[2:]
        if names:
            alt = "|".join(sorted(map(re.escape, names), key=len, reverse=True))
            decls.append(re.compile(r"\bvoid(\s+)(%s)\b(?=\s*\()" % alt))
    total = 0
    for f in files(args):
        with open(f, encoding="utf-8", errors="surrogateescape") as fh:
            text = fh.read()
        new, n = text, 0
        for d in decls:
            new, k = fix(new, d)
            n += k
        if n:
            with open(f, "w", encoding="utf-8", errors="surrogateescape") as fh:
                fh.write(new)
            print(f"{n:5d} {f}")
            total += n
    if total == 0:
        sys.exit("int-subroutines: nothing changed")


if __name__ == "__main__":
    main()
