"""Counts and failure classes from run.sh's results (one JSON line per test).

    python3 tally.py RESULTS_DIR [SUBSET...]          # the tables
    python3 tally.py RESULTS_DIR --list [SUBSET...]   # every non-pass, classified

A failure (failed, error, collect-error, crashed) gets the first class in
RULES whose pattern matches "outcome | nodeid | reason | where". The rules were written
after reading the tracebacks in RESULTS_DIR/SUBSET.log; a failure that no rule
matches is printed as "unclassified" -- i.e. not yet understood, possibly a
real bug in the build.
"""

import collections
import json
import os
import re
import sys

# (class, regex over "outcome | nodeid | reason | where"), first match wins.
RULES = [
    ("matplotlib's baseline images were drawn with FreeType 2.6.1 (its test "
     "builds pin it); the bundle has 2.12.1 (Debian's, shared with Pillow): "
     "glyph shapes and text extents differ, so images with text are not close",
     r"ImageComparisonFailure: images not close"),
    ("matplotlib's test_large_image draws a 2**24-row image (512 MiB RGBA "
     "arrays) after ~170 tests in the same interpreter: MemoryError at the "
     "run's 2 GiB limit (wasm memory never shrinks); passes run alone",
     r"test_image\.py::test_large_image\[.*"
     r"(Unable to allocate|DID NOT WARN)"),
    ("pandas vs numpy's int64 default integer on wasm32: an int64 array "
     "reached an intp_t buffer the function writes through (not converted by "
     "scripts/pandas/cython-intp-buffers.patch) or a safe int64 -> int32 cast",
     r"Buffer dtype mismatch, expected '(const )?intp_t' but got 'long long'"
     r"|Cannot cast array data from dtype\('int64'\) to dtype\('int32'\) according to the rule 'safe'"),
    ("pandas' test builds its expected index with dtype intp (int32 here) where "
     "pandas gives the default integer (int64, as on 64-bit Linux)",
     r"Attribute \"dtype\" are different \[left\]: int64 \[right\]: int32"),
    ("bundle bug: pandas' Jinja templates (pandas/io/formats/templates/*.tpl) "
     "are not shipped (build-pandas.sh copies only .py files), so "
     "DataFrame.style and to_latex fail",
     r"TemplateNotFound: '[a-z_]+\.tpl'"),
    ("pandas' test expects a 32-bit platform's result (IS64 is False on wasm32) "
     "where pandas gives the 64-bit default integer's, as on 64-bit Linux",
     r"Attribute \"dtype\" are different \[left\]: U?Int64 \[right\]: U?Int32"
     r"|XPASS\(strict\)\] Passes int32 values to DatetimeArray in make_na_array"),
    ("network test: pytest-localserver's httpserver fixture is not installed "
     "(and WASI has no sockets)", r"fixture 'httpserver' not found"),
    ("pandas test data file not in the pandas sdist",
     r"Could not find file /pandas-src/.*--no-strict-data-files"),
    ("bundle bug: scipy.stats hands its integrands' data to LowLevelCallable "
     "as a ctypes pointer (studentized_range, so tukey_hsd; genhyperbolic; "
     "geninvgauss) and WASI has no ctypes; fixed for the next bundle by "
     "scripts/scipy/patches/wasi-stats-capsule-user-data.patch",
     r"\| scipy/stats/.*'NoneType' object has no attribute 'c_void_p'"),
    ("no processes in WASI: scipy's workers=N / a process pool (before the "
     "runner's refusal: 'forkserver start method not available')",
     r"forkserver start method not available|process denied: cannot start"),
    ("wasm32: C long is 32-bit, so scipy.special's integer-argument loops "
     "('dld->d', bdtr/bdtrc/bdtri) do not take numpy's int64 default "
     "integer; numpy picks the float loop, which warns 'non-integer arg n "
     "is deprecated' (same result); with warnings as errors the test fails",
     r"non-integer arg n is deprecated"),
    ("scipy's test data generated at build time (boost.npz, gsl.npz, "
     "local.npz) is in the wheels, not in the sdist",
     r"No such file or directory: '/scipy-src/.*\.npz'"),
    ("needs a scipy test-only C module (not built into the bundle)",
     r"scipy\.special\._test_internal|'_test_internal' from 'scipy\.special'"
     r"|scipy\.integrate\._test_multivariate"
     r"|'_ctest' from 'scipy\.ndimage'"),
    ("statsmodels' power solver near alpha=0: Boost's non-central t CDF is "
     "unstable in its far left tail (natively too: nan at t=-8, -11, -12 for "
     "df=29, nc=sqrt(30)); wasm32's long double is 128-bit, not x87's 80-bit, "
     "so it lands on nan at another point and the bracketing solver fails",
     r"TTPowerOneS1::test_roots.*key: alpha"),
    ("pybox bug, fixed after this run: threading.get_native_id was missing "
     "(CPython for WASI has no native thread ids; the runner now gives the "
     "process id)",
     r"has no attribute 'get_native_id'"),
    ("numpy bug on wasm32: a C method defined with the wrong parameter count "
     "(numpy scalars' __copy__, so copy.copy(np.float64(1)); private "
     "_get_castingimpl; a test dtype's __reduce__); the indirect call traps",
     r"^crashed \| numpy/_core/tests/(test_arraymethod\.py|test_casting_unittests\.py"
     r"|test_custom_dtypes\.py::TestSFloat::test_np_save_load"
     r"|test_regression\.py::TestRegression::test_scalar_copy)"),
    ("Pillow bug on wasm32: __arrow_c_schema__/__arrow_c_array__ (C) take 1 "
     "parameter but are registered METH_VARARGS; the indirect call traps",
     r"^crashed \| Tests/test_arrow\.py"),
    ("needs a numpy test-only C module (not built into the bundle)",
     r"test-only C module|<absent numpy\._core\.|_add_newdoc_ufunc.*Absent"
     r"|\| numpy/_core/tests/test_extint128\.py::"
     r"|test_third_party_scalar_type"),
    ("numpy file I/O through a file descriptor (np.save/np.load of .npy, tofile, "
     "fromfile): numpy os.dup()s the fd and WASI has no dup -- bundle bug",
     r"Errno 58\] Not supported.*(_format_impl|tofile|fromfile|npyio)"
     r"|test_format\.py.*Errno 58|test_longdouble\.py::TestFileBased::"
     r"|(fromfile|tofile).*Errno 58\] Not supported"),
    ("bundle bug: `import numpy.testing` fails (build-numpy.sh leaves out "
     "numpy/testing/_private/extbuild.py)", r"cannot import name 'extbuild'"),
    ("pybox bug: reading past the end of a file in /tmp raises EIO instead of "
     "returning b'' (afero MemMapFs gives io.ErrUnexpectedEOF)",
     r"Errno 29\] I/O error.*PcdImagePlugin|test_file_tga\.py.*Errno 29"),
    ("pybox bug: open('') raises IsADirectoryError, not FileNotFoundError",
     r"Is a directory: ''"),
    ("numpy's test assumes the default integer is intp (here int64 while intp "
     "stays 32-bit, by design: scripts/numpy/default-int64.patch)",
     r"\| numpy/_core/tests/(test_array_api_info\.py::test_default_dtypes"
     r"|test_stringdtype\.py::test_arrfuncs_zeros\[(argmax|argmin|nonzero))"),
    ("no ctypes: CPython for WASI has no _ctypes (no libffi)",
     r"_ctypes|no ctypes|<absent ctypes|'NoneType' object has no attribute 'c_(void_p|ulong)'"),
    ("no mmap module in CPython for WASI (so also no PDF plugin in Pillow, "
     "no read-only mapped images)",
     r"'mmap'|no mmap|<absent mmap|_core/memmap\.py|test_memmap\.py::.*'Absent'"
     r"|KeyError: 'PDF'"
     r"|test_save_without_changing_readonly"),
    ("no threads in WASI", r"can't start new thread|[Cc]annot start thread"
     r"|std::thread: no threads on wasm32"),
    ("no subprocesses in WASI",
     r"subprocess|_posixsubprocess|os\.fork|spawn|Popen|processes are not supported|No module named '_multiprocessing'"),
    ("no signals in WASI", r"[Ss]ignal"),
    ("no floating-point exception flags in wasm (np.errstate cannot warn or raise)",
     r"FloatingPointError|DID NOT WARN.*RuntimeWarning|No warnings of type.*RuntimeWarning"),
    ("statically linked extension modules have no __file__ (pybox design)",
     r"has no attribute '__file__'"),
]


def load(path):
    """nodeid -> final record (tests and collection errors). Tests that the
    first run collected and no run recorded come back as "not run"."""
    recs, collected = {}, []
    with open(path) as f:
        for line in f:
            try:
                rec = json.loads(line)
            except ValueError:
                continue  # a line cut by a crash
            if rec["ev"] in ("test", "collect"):
                recs[rec["nodeid"]] = rec
            elif rec["ev"] == "collected" and not collected:
                collected = rec["nodeids"]
    for nodeid in collected:
        if nodeid not in recs:
            recs[nodeid] = {"nodeid": nodeid, "outcome": "not run", "reason": ""}
    return recs


def classify(rec):
    text = (f'{rec["outcome"]} | {rec["nodeid"]} | {rec.get("reason", "")}'
            f' | {rec.get("where", "")}')
    for name, pattern in RULES:
        if re.search(pattern, text):
            return name
    return "unclassified"


BAD = ("failed", "error", "collect-error", "crashed")
COLS = ["passed", "failed", "error", "skipped", "xfailed", "xpassed",
        "crashed", "collect-error", "skipped-file", "not run"]


def main():
    args = sys.argv[1:]
    listing = "--list" in args
    args = [a for a in args if a != "--list"]
    results, subsets = args[0], args[1:]
    if not subsets:
        subsets = sorted(f[:-6] for f in os.listdir(results) if f.endswith(".jsonl"))

    table, classes, skips, bad = [], collections.Counter(), collections.Counter(), []
    per_subset_classes = collections.defaultdict(collections.Counter)
    for s in subsets:
        path = os.path.join(results, s + ".jsonl")
        if not os.path.exists(path):
            continue
        recs = load(path)
        c = collections.Counter(r["outcome"] for r in recs.values())
        secs = runs = "?"
        tpath = os.path.join(results, s + ".time")
        if os.path.exists(tpath):
            secs, runs, _ = open(tpath).read().split()
        table.append((s, c, secs, runs))
        for r in recs.values():
            if r["outcome"] in BAD:
                k = classify(r)
                classes[k] += 1
                per_subset_classes[s][k] += 1
                bad.append((s, k, r))
            elif r["outcome"] in ("skipped", "skipped-file"):
                skips[re.sub(r"\d+", "N", r["reason"])[:90]] += 1

    if listing:
        for s, k, r in sorted(bad, key=lambda x: (x[1], x[0], x[2]["nodeid"])):
            print(f'{k}\t{s}\t{r["outcome"]}\t{r["nodeid"]}\t{r["reason"]}')
        return

    print("| subset | " + " | ".join(COLS) + " | total | seconds | pybox runs |")
    print("|---" * (len(COLS) + 4) + "|")
    tot = collections.Counter()
    tsecs = 0
    for s, c, secs, runs in table:
        tot.update(c)
        tsecs += int(secs) if secs.isdigit() else 0
        print(f"| {s} | " + " | ".join(str(c[k]) for k in COLS)
              + f" | {sum(c.values())} | {secs} | {runs} |")
    print("| **total** | " + " | ".join(f"**{tot[k]}**" for k in COLS)
          + f" | **{sum(tot.values())}** | **{tsecs}** | |")

    print("\nFailures (failed + error + collect-error + crashed) by reason:\n")
    print("| reason | " + " | ".join(s for s, *_ in table) + " | total |")
    print("|---" * (len(table) + 2) + "|")
    for k, n in classes.most_common():
        print(f"| {k} | " + " | ".join(str(per_subset_classes[s][k]) for s, *_ in table)
              + f" | {n} |")

    print("\nMost common skip reasons (digits as N):\n")
    for k, n in skips.most_common(25):
        print(f"  {n:6d}  {k}")


if __name__ == "__main__":
    main()
