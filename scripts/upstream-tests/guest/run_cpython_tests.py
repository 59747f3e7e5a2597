"""Run CPython's own unittest-based tests (e.g. test_sqlite3) inside pybox.

    run_cpython_tests.py LIBDIR WORKDIR TEST [TEST ...]

LIBDIR holds CPython's `test` package (Lib/test of the CPython source that
the bundle was built from, mounted read-only): the bundle ships no `test`
package, so LIBDIR goes first on sys.path. The tests run with WORKDIR as the
current directory (their temporary files, e.g. test.support's TESTFN, are
created there). Prints one line per test that did not pass, then one summary
line per module: `SUMMARY name run=N passed=N failed=N errors=N skipped=N
xfail=N xpass=N`, and exits 1 if any failed.
"""
import os
import sys
import time
import unittest


def testcapi_standin():
    """CPython's test-only C module _testcapi is not built into the bundle
    (configure --disable-test-modules). test_sqlite3.test_dbapi imports two
    C limits from it, INT_MAX and ULLONG_MAX: a module with just those
    (computed from the C type sizes) stands in. Anything else imported from
    it still raises ImportError."""
    import struct
    import types
    mod = types.ModuleType("_testcapi", "pybox harness stand-in: INT_MAX and ULLONG_MAX only")
    mod.INT_MAX = 2 ** (8 * struct.calcsize("i") - 1) - 1
    mod.ULLONG_MAX = 2 ** (8 * struct.calcsize("Q")) - 1
    sys.modules["_testcapi"] = mod


def main():
    libdir, workdir, names = sys.argv[1], sys.argv[2], sys.argv[3:]
    try:
        import _testcapi  # noqa: F401
    except ImportError:
        testcapi_standin()
    sys.path.insert(0, libdir)
    os.chdir(workdir)
    import test
    assert os.path.dirname(test.__file__).startswith(libdir), test.__file__
    from test import support
    print("python", sys.version.split()[0], "platform", sys.platform, "is_wasi", support.is_wasi)
    bad = False
    for name in names:
        mod = "test." + name
        suite = unittest.defaultTestLoader.loadTestsFromName(mod)
        result = unittest.TestResult()
        passed = []
        orig_success = result.addSuccess
        result.addSuccess = lambda t: (passed.append(t), orig_success(t))
        t0 = time.monotonic()
        suite.run(result)
        secs = time.monotonic() - t0
        for kind, items in (("FAIL", result.failures), ("ERROR", result.errors)):
            for t, tb in items:
                last = tb.strip().splitlines()[-1]
                print(f"{kind} {t.id()}: {last}")
                print("    " + tb.replace("\n", "\n    "))
        for t, reason in result.skipped:
            print(f"SKIP {t.id()}: {reason}")
        for t, _ in result.expectedFailures:
            print(f"XFAIL {t.id()}")
        for t in result.unexpectedSuccesses:
            print(f"XPASS {t.id()}")
        print(f"SUMMARY {name} run={result.testsRun} passed={len(passed)} failed={len(result.failures)} "
              f"errors={len(result.errors)} skipped={len(result.skipped)} xfail={len(result.expectedFailures)} "
              f"xpass={len(result.unexpectedSuccesses)} seconds={secs:.1f}")
        bad = bad or not result.wasSuccessful()
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
