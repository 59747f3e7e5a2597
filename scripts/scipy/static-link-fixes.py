#!/usr/bin/env python3
"""Make scipy's extension modules linkable into one binary (build-scipy.sh).

Natively each module is its own shared library, so two modules may define
the same global name. Statically linked into python.wasm, those are
duplicate symbols (or, where an archive member is picked by name, the wrong
definition). Found by `check` (below) on scipy 1.17.1:

  xsf (scipy.special's C++ header library) defines non-template functions
      and two variable-template specializations in headers without `inline`
      (cephes' k1e, psi, rgamma, ...; Faddeeva's erf, w, Dawson, ...;
      numpy.h's ufunc(), gufunc(), set_error_check_fpe(),
      wrap_PyUFunc_getfperr()): four modules
      compiled them. `headers` adds `inline` to those definitions, as C++
      wants for definitions in headers; the copies then fold into one.
  wrap_PyUFunc_getfperr (Cython `cdef public` in _ufuncs_extra_code_common
      .pxi) is defined by four special modules: renamed in all but
      scipy.special._ufuncs, the module `import scipy.special` loads first,
      whose copy sf_error.cc then calls (each copy reads its own module's
      numpy ufunc API table, set when that module is imported).
  scipy.optimize.cython_optimize._zeros #includes the root finders'
      C files (bisect, ridder, brenth, brentq) that scipy.optimize._zeros
      links from librootfind: renamed in cython_optimize._zeros.
  SuperLU's c_abs/z_abs are also OpenBLAS's (its f2c'ed LAPACK):
      renamed in SuperLU and scipy.sparse.linalg._dsolve._superlu.
  SuperLU's input_error is replaced by scipy's (_superlu_utils.c) in the
      native link (an object wins over an archive member): SuperLU's
      SRC/input_error.c is left out (`inputs`).
  scipy.stats' libnpyrandom (a copy of numpy's random distributions:
      random_standard_normal, random_interval, logfactorial, ...) is left
      out: numpy's own definitions, already in python.wasm, are used.

Usage:
  static-link-fixes.py headers SRCDIR
  static-link-fixes.py ninja BUILD.NINJA
  static-link-fixes.py inputs BUILDDIR < targets > objects   (libraries expanded)
  static-link-fixes.py check BUILDDIR INPUTS LIB.a...   (exit 1 on duplicates
                                                        or atomic instructions)
"""
import collections
import os
import re
import subprocess
import sys

NM = "llvm-nm-19"


TYPE = r"(?:double|float|int|long|bool|void|std::complex<(?:double|float)>)"


def plain_definitions(t):
    """`inline` before non-template function definitions that start a line
    with a plain return type (not a template's: the line before is not a
    template header)."""
    out, pos, n = [], 0, 0
    for m in re.finditer(r"^( {0,8})(%s \**\w+\()" % TYPE, t, re.M):
        prev = t[:m.start()].rstrip().rsplit("\n", 1)[-1].strip()
        if prev.startswith("template") or prev.endswith(","):
            continue
        head = re.match(r"[^;{]*", t[m.end():]).group(0)
        if m.end() + len(head) >= len(t) or t[m.end() + len(head)] != "{":
            continue
        out.append(t[pos:m.start()] + m.group(1) + "inline " + m.group(2))
        pos = m.end()
        n += 1
    out.append(t[pos:])
    return "".join(out), n


def headers(src):
    """Add `inline` to xsf's function definitions in headers."""
    root = os.path.join(src, "subprojects", "xsf", "include", "xsf")
    n = 0
    for dirpath, _, files in os.walk(root):
        for name in files:
            if not name.endswith((".h", ".hpp")):
                continue
            path = os.path.join(dirpath, name)
            s = open(path).read()
            out, pos = [], 0
            for m in re.finditer(r"XSF_HOST_DEVICE ", s):
                line_start = s.rfind("\n", 0, m.start()) + 1
                if s[line_start:m.start()].lstrip().startswith("#"):
                    continue  # the macro's own #define
                rest = s[m.end():]
                head = re.match(r"[^;{]*", rest).group(0)
                if "inline" in head.split("(")[0] or "constexpr" in head.split("(")[0]:
                    continue
                end = len(head)
                if end >= len(rest) or rest[end] != "{":
                    continue  # a declaration: defined elsewhere
                out.append(s[pos:m.end()] + "inline ")
                pos = m.end()
                n += 1
            out.append(s[pos:])
            t = "".join(out)
            if name == "faddeeva.h":
                # namespace Faddeeva: plain functions, declared and defined
                # at column 0.
                t, k = re.subn(r"^(std::complex<double>|double) (\w+\()", r"inline \1 \2", t, flags=re.M)
                n += k
            # Other non-template definitions without XSF_HOST_DEVICE at
            # namespace scope (struve.h's `double struve_h(double v, ...)
            # { ... }`).
            t, k = plain_definitions(t)
            n += k
            if name == "numbers.h":
                t, k = re.subn(r"(template <>\s*\n\s*)(std::complex<(?:float|double)> i_v<)", r"\1inline \2", t)
                n += k
            if name == "numpy.h" and os.path.basename(dirpath) == "xsf":
                for a, b in [('extern "C" int wrap_PyUFunc_getfperr()', 'extern "C" inline int wrap_PyUFunc_getfperr()'),
                             ("\n    void set_error_check_fpe(", "\n    inline void set_error_check_fpe("),
                             ("\n    PyObject *ufunc(", "\n    inline PyObject *ufunc("),
                             ("\n    PyObject *gufunc(", "\n    inline PyObject *gufunc(")]:
                    k = t.count(a)
                    if k == 0 and b not in t:
                        sys.exit(f"{path}: {a.strip()!r} not found: revisit static-link-fixes.py")
                    t = t.replace(a, b)
                    n += k
            if t != s:
                open(path, "w").write(t)
    print(f"xsf: inline added to {n} definitions", file=sys.stderr)


# (object path regex in build.ninja, extra compiler arguments)
RENAMES = [
    (r"scipy/optimize/cython_optimize/_zeros\.[^:]*\.so\.p/",
     "-Dbisect=scipy_cyopt_bisect -Dridder=scipy_cyopt_ridder -Dbrenth=scipy_cyopt_brenth -Dbrentq=scipy_cyopt_brentq"),
    (r"scipy/special/(_ellip_harm_2|_ufuncs_cxx|cython_special)\.[^:]*\.so\.p/meson-generated_",
     "-Dwrap_PyUFunc_getfperr=wrap_PyUFunc_getfperr__{1}"),
    (r"scipy/sparse/linalg/_dsolve/(libsuperlu_lib\.a|_superlu\.[^:]*\.so)\.p/",
     "-Dc_abs=scipy_superlu_c_abs -Dz_abs=scipy_superlu_z_abs"),
    # xsf/numpy.h's now-shared functions call numpy through its API tables:
    # one shared pair of table pointers (scripts/scipy/xsf_shared_api.h).
    (r"scipy/special/(_special_ufuncs|_gufuncs|_ufuncs)\.[^:]*\.so\.p/[^:]*\.(cpp|cc)\.o$",
     "-DPY_ARRAY_UNIQUE_SYMBOL=pybox_scipy_xsf_ARRAY_API -DPY_UFUNC_UNIQUE_SYMBOL=pybox_scipy_xsf_UFUNC_API"
     " -include " + os.path.join(os.path.dirname(os.path.abspath(__file__)), "xsf_shared_api.h")),
]


def ninja(path):
    lines = open(path).read().split("\n")
    cur, counts = None, collections.Counter()
    for i, line in enumerate(lines):
        if line.startswith("build "):
            cur = None
            target = line[6:].split(":", 1)[0]
            if not target.endswith(".o"):
                continue
            for k, (rx, args) in enumerate(RENAMES):
                m = re.match(rx, target)
                if m:
                    cur = (k, args.replace("{1}", m.group(1) if m.groups() else ""))
        elif cur and line.startswith(" ARGS = "):
            if cur[1] not in line:
                lines[i] = line + " " + cur[1]
            counts[cur[0]] += 1
            cur = None
    for k in range(len(RENAMES)):
        if counts[k] == 0:
            sys.exit(f"{path}: no objects for {RENAMES[k][0]}: revisit static-link-fixes.py")
    open(path, "w").write("\n".join(lines))
    print("renames: " + ", ".join(f"{counts[k]} objects" for k in range(len(RENAMES))), file=sys.stderr)


DROP = [r"SuperLU_SRC_input_error\.c\.o$", r"libnpyrandom_(distributions|logfactorial)\.c\.o$"]


def static_libs(builddir):
    """meson's static libraries and their objects, from build.ninja."""
    text = open(os.path.join(builddir, "build.ninja")).read().replace("$\n", "")
    libs = {}
    for m in re.finditer(r"^build (\S+\.a): STATIC_LINKER\S* ([^\n]*)", text, re.M):
        libs[m.group(1)] = [x for x in m.group(2).split(" | ")[0].split(" || ")[0].split() if x.endswith(".o")]
    return libs


def inputs(builddir):
    libs = static_libs(builddir)
    dropped = collections.Counter()
    for line in sys.stdin:
        kind, path = line.split()
        if kind == "lib" and path not in libs:
            sys.exit(f"{path}: no static library rule in build.ninja: revisit static-link-fixes.py")
        for item in [path] if kind == "obj" else libs[path]:
            rx = next((rx for rx in DROP if re.search(rx, item)), None)
            if rx:
                dropped[rx] += 1
                continue
            print("obj", item)
    for rx in DROP:
        if dropped[rx] == 0:
            sys.exit(f"no input matched {rx}: revisit static-link-fixes.py")


def defined(path):
    out = subprocess.run([NM, "--extern-only", "--defined-only", path], capture_output=True, text=True).stdout
    for line in out.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in "TDBR":
            yield p[2]


def check(builddir, inputs_path, libs):
    where = collections.defaultdict(list)
    atomics = []
    for line in open(inputs_path):
        path = line.split()[1]
        for sym in defined(os.path.join(builddir, path)):
            where[sym].append(path)
        # The target_features section lists "+atomics" (prefix '+', name
        # length 7) when the object uses atomic instructions: wazero runs
        # python.wasm without the threads proposal, so it would not load.
        with open(os.path.join(builddir, path), "rb") as f:
            if b"+\x07atomics" in f.read():
                atomics.append(path)
    if atomics:
        sys.exit(f"{len(atomics)} objects use wasm atomics (compiled with -pthread?), e.g. {atomics[0]}")
    bad = [(s, p) for s, p in where.items() if len(p) > 1]
    for lib in libs:
        for sym in set(defined(lib)) & set(where):
            bad.append((sym, where[sym] + [os.path.basename(lib)]))
    for sym, paths in sorted(bad)[:40]:
        print(f"duplicate symbol {sym}: {' '.join(paths)}", file=sys.stderr)
    if bad:
        sys.exit(f"{len(bad)} symbols defined twice: python.wasm would not link (see static-link-fixes.py)")


def main():
    cmd = sys.argv[1]
    if cmd == "headers":
        headers(sys.argv[2])
    elif cmd == "ninja":
        ninja(sys.argv[2])
    elif cmd == "inputs":
        inputs(sys.argv[2])
    elif cmd == "check":
        check(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        sys.exit(__doc__)


main()
