#!/usr/bin/env python3
"""A Fortran 77 "compiler" for scipy's meson build on wasm32-wasi: f2c + clang.

There is no Fortran compiler for wasm32-wasi on this toolchain, and scipy 1.17
still has Fortran 77 sources (FITPACK in scipy.interpolate, ODRPACK in
scipy.odr) and f2py's Fortran wrapper files (`*-f2pywrappers.f`). meson is
given this script as its Fortran compiler (cross file, `fortran = [...]`); it
answers meson's probes as a GNU Fortran would and compiles fixed-form `.f`
files by translating them to C with f2c and compiling that C with clang for
wasm32-wasi.

    wasm-f77.py --pybox-config=CONFIG.json [gfortran-style arguments]

CONFIG.json: {"cc": [clang argv...], "cflags": [...], "f2c": "f2c",
"f2c_include": "dir holding f2c.h"}.

What it does with each kind of call:
- `--version`, `-V`, `--help`: a GNU Fortran banner (meson's detection);
- `-E -dM -`: gfortran-like predefined macros;
- `-Wl,...`/`-print-search-dirs`: forwarded to clang / a neutral answer;
- compile (`-c`) of `.f`/`.F`: f2c (automatic locals, no REAL->DOUBLE
  promotion), then clang with CONFIG's flags; Fortran-only flags are ignored;
- compile of free-form sources (`.f90`, meson's flag probes only): a dummy
  object, so every probed flag reads as "supported" and is then ignored;
- link (no `-c`, meson's sanity check only): a trivial program. scipy's
  extension modules are never linked by meson here (build-scipy.sh archives
  the objects).

f2c's conventions match what the rest of the bundle expects: SUBROUTINEs
return `int` (like OpenBLAS's LAPACK after scripts/openblas/int-subroutines.py),
INTEGER and LOGICAL are C `long` (32-bit on wasm32, the same as `int`),
CHARACTER lengths are trailing `ftnlen` (long) arguments, names get one
trailing underscore (none of the translated names contains an underscore,
which f2c would give a second one: checked by build-scipy.sh).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

FIXED_FORM = (".f", ".for", ".F", ".FOR")
FREE_FORM = (".f90", ".F90", ".f95", ".F95", ".f03", ".f08")


def main(argv):
    cfg_args = [a for a in argv if a.startswith("--pybox-config=")]
    argv = [a for a in argv if not a.startswith("--pybox-config=")]
    if not cfg_args:
        sys.exit("wasm-f77: --pybox-config=FILE is required")
    with open(cfg_args[0].split("=", 1)[1]) as f:
        cfg = json.load(f)
    cc = cfg["cc"]

    if any(a in ("--version", "-V", "-v", "--help") for a in argv):
        print("GNU Fortran (pybox f2c + clang for wasm32-wasi) 12.2.0")
        return 0
    if "-E" in argv and "-dM" in argv:
        for k, v in (("__GNUC__", 12), ("__GNUC_MINOR__", 2), ("__GNUC_PATCHLEVEL__", 0),
                     ("__GFORTRAN__", 1), ("__wasm32__", 1), ("__wasm__", 1),
                     ("__ILP32__", 1), ("__SIZEOF_POINTER__", 4)):
            print(f"#define {k} {v}")
        return 0
    if "-print-search-dirs" in argv:
        print("install: /nonexistent/\nprograms: =/nonexistent\nlibraries: =/nonexistent")
        return 0
    if any(a.startswith("-Wl,--version") or a == "--print-prog-name" for a in argv):
        return subprocess.call(cc + argv)

    out, compile_only, incs, defs, srcs = None, False, [], [], []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "-o":
            out = argv[i + 1]; i += 2; continue
        if a == "-c":
            compile_only = True
        elif a in ("-I", "-J", "-MQ", "-MF", "-MT", "-module", "-include"):
            if a == "-I":
                incs.append("-I" + argv[i + 1])
            i += 2; continue
        elif a.startswith("-I"):
            incs.append(a)
        elif a.startswith("-D") or a.startswith("-U"):
            defs.append(a)
        elif not a.startswith("-") and os.path.splitext(a)[1] in FIXED_FORM + FREE_FORM + (".c", ".o", ".a"):
            srcs.append(a)
        i += 1

    with tempfile.TemporaryDirectory(prefix="wasm-f77-") as tmp:
        fixed = [s for s in srcs if s.endswith(FIXED_FORM)]
        if not compile_only or not fixed:
            # meson's sanity check (link) or a flag probe on a free-form file.
            stub = os.path.join(tmp, "stub.c")
            with open(stub, "w") as f:
                f.write("int main(void) { return 0; }\n" if not compile_only else
                        "int pybox_wasm_f77_probe;\n")
            cmd = cc + cfg.get("cflags", []) + (["-c"] if compile_only else []) + [stub]
            return subprocess.call(cmd + (["-o", out] if out else []))
        if len(fixed) != 1 or out is None:
            sys.exit(f"wasm-f77: expected one Fortran source and -o, got {argv}")
        src = fixed[0]
        base = os.path.splitext(os.path.basename(src))[0]
        f77 = src
        if src.endswith((".F", ".FOR")):
            # Preprocessed fixed form: C preprocessor first, as gfortran -cpp.
            f77 = os.path.join(tmp, base + ".f")
            r = subprocess.run(cc + ["-E", "-P", "-traditional-cpp", "-x", "c"] + incs + defs + [src],
                               stdout=subprocess.PIPE)
            if r.returncode:
                return r.returncode
            with open(f77, "wb") as f:
                f.write(r.stdout)
        # `recursive subroutine` (Fortran 90, in FITPACK since scipy made it
        # re-entrant) is unknown to f2c; with -a every local is automatic
        # anyway, which is all the keyword asks for.
        with open(f77, errors="replace") as f:
            text = f.read()
        fixed_text = re.sub(r"(?im)^(\s+)recursive\s+((?:(?:double\s+precision|real|integer|logical)\s+)?(?:subroutine|function))",
                            r"\1\2", text)
        # `function f(...) result(r)` (Fortran 90, four FITPACK functions):
        # the result variable becomes the function's name, `real*8 :: r` an
        # F77 type statement for it.
        m = re.search(r"(?i)function\s+(\w+)\s*\(.*?\)\s*result\s*\(\s*(\w+)\s*\)", fixed_text, re.S)
        if m:
            name, res = m.group(1), m.group(2)
            fixed_text = fixed_text[:m.start()] + m.group(0)[:m.group(0).lower().rfind("result")] + fixed_text[m.end():]
            fixed_text = re.sub(r"(?i)\b%s\b" % re.escape(res), name, fixed_text)
            fixed_text = re.sub(r"(?m)^(\s+[A-Za-z][\w*() ]*?)\s*::\s*", r"\1 ", fixed_text)
        if fixed_text != text:
            f77 = os.path.join(tmp, base + ".f")
            with open(f77, "w") as f:
                f.write(fixed_text)
        # -a: locals are automatic unless SAVEd (as gfortran); -R: REAL
        # expressions and functions stay single precision; -A: ANSI C.
        r = subprocess.run([cfg.get("f2c", "f2c"), "-a", "-A", "-R", "-w", "-Nn802", "-Nx800",
                            "-d", tmp, f77], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        csrc = os.path.join(tmp, base + ".c")
        if r.returncode or not os.path.exists(csrc):
            sys.stderr.write(r.stdout.decode() + r.stderr.decode())
            sys.stderr.write(f"wasm-f77: f2c failed on {src}\n")
            return 1
        keep = cfg.get("keep_c_dir")
        if keep:
            os.makedirs(keep, exist_ok=True)
            with open(csrc) as fi, open(os.path.join(keep, out.replace("/", "_") + ".c"), "w") as fo:
                fo.write(fi.read())
        cmd = cc + cfg.get("cflags", []) + ["-I" + cfg["f2c_include"], "-c", csrc, "-o", out]
        return subprocess.call(cmd)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
