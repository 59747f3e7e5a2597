"""One CPython test module, one JSON line per test: for run-cpython-compat.sh.

    cpython_compat.py LIBDIR WORKDIR RESULTS MODULE [LAST_EXIT [OPTIONS]]

Runs the same way inside pybox and under a native python3.11, so the two
result files can be matched test by test. LIBDIR holds CPython's `test`
package (Lib/test of the 3.11.2 source, read-only) and goes first on
sys.path; the tests run with WORKDIR as the current directory. As under
regrtest without -u, no test resource (network, cpu, largefile, decimal,
tzdata, ...) is enabled.

RESULTS gets, flushed as they happen:
  {"ev": "start", "id"}                     a test is about to run
  {"ev": "test", "id", "outcome", "reason", "sub"}
      outcome: passed, failed, error, skipped, xfail, xpass, crashed.
      A subtest's result is recorded under its test's id (sub = the
      subtest's description); compare_cpython.py keeps the worst.
  {"ev": "holder", "id", "prefix", "outcome", "reason"}
      a module or class fixture (setUpModule, setUpClass, ...) or a
      test module that could not be imported or skipped itself as a whole
      (unittest.loader._FailedTest / ModuleSkipped): its tests never ran,
      prefix says which ids it covers.
  {"ev": "done"}                            the module finished

OPTIONS, comma-separated: "module-socket-check-off" lifts only the
module-level `support.requires_working_socket(module=True)` check (with which
test_asyncio skips itself as a whole on WASI), so the package's tests run;
tests marked as needing sockets still skip themselves.

If RESULTS already has lines (an earlier run of this module died: a wasm
trap, a timeout), the test that started and never finished is recorded as
crashed (reason: LAST_EXIT, how the earlier run ended), and only the tests
not yet in the file run.
"""
import importlib
import json
import os
import re
import sys
import traceback
import unittest

LOADER_ERROR = re.compile(r"^unittest\.loader\.(?:_FailedTest|ModuleSkipped|ModuleImportFailure)\.(.+)$")
FIXTURE = re.compile(r"^(\w+) \((.+)\)$")   # "setUpClass (test.test_x.Cls)"


def last_line(text):
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


class Recorder(unittest.TestResult):
    """A TestResult that writes every outcome to a file at once."""

    def __init__(self, out):
        super().__init__()
        self.out = out

    def write(self, rec):
        self.out.write(json.dumps(rec) + "\n")
        self.out.flush()

    def startTest(self, test):
        super().startTest(test)
        self.write({"ev": "start", "id": test.id()})

    def record(self, test, outcome, reason="", tb=""):
        tid = test.id()
        if isinstance(test, unittest.case._SubTest):
            rec = {"ev": "test", "id": test.test_case.id(), "outcome": outcome,
                   "reason": reason, "sub": test._subDescription()}
        elif isinstance(test, unittest.suite._ErrorHolder):
            m = FIXTURE.match(tid)
            prefix = (m.group(2) + ".") if m else tid
            rec = {"ev": "holder", "id": tid, "prefix": prefix, "outcome": outcome, "reason": reason}
        else:
            m = LOADER_ERROR.match(tid)
            if m:
                rec = {"ev": "holder", "id": tid, "prefix": m.group(1) + ".",
                       "outcome": outcome, "reason": reason}
            else:
                rec = {"ev": "test", "id": tid, "outcome": outcome, "reason": reason}
        if tb:
            rec["tb"] = tb[-3000:]
        self.write(rec)

    def err_text(self, test, err):
        try:
            return self._exc_info_to_string(err, test)
        except Exception:  # a broken exception must not stop the run
            return "".join(traceback.format_exception_only(err[0], err[1]))

    def addSuccess(self, test):
        super().addSuccess(test)
        self.record(test, "passed")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        tb = self.err_text(test, err)
        self.record(test, "failed", last_line(tb), tb)

    def addError(self, test, err):
        super().addError(test, err)
        tb = self.err_text(test, err)
        self.record(test, "error", last_line(tb), tb)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.record(test, "skipped", str(reason))

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.record(test, "xfail")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.record(test, "xpass")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is None:
            return
        tb = self.err_text(subtest, err)
        kind = "failed" if issubclass(err[0], test.failureException) else "error"
        self.record(subtest, kind, last_line(tb), tb)


def flatten(suite):
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            yield from flatten(t)
        else:
            yield t


def main():
    libdir, workdir, results, name = sys.argv[1:5]
    last_exit = (sys.argv[5] if len(sys.argv) > 5 else "") or "the interpreter died"
    options = set(filter(None, (sys.argv[6] if len(sys.argv) > 6 else "").split(",")))
    if name == "test_sqlite3":
        # test_sqlite3.test_dbapi imports INT_MAX and ULLONG_MAX from
        # CPython's test-only C module, which the bundle does not build.
        try:
            import _testcapi  # noqa: F401
        except ImportError:
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            from run_cpython_tests import testcapi_standin
            testcapi_standin()
    sys.path.insert(0, libdir)
    os.chdir(workdir)
    import test
    assert os.path.dirname(test.__file__).startswith(libdir), test.__file__
    from test import support
    support.use_resources = []   # regrtest's default: no -u resources
    if "module-socket-check-off" in options:
        check = support.requires_working_socket

        def requires_working_socket(*, module=False):
            if not module:
                return check()
        support.requires_working_socket = requires_working_socket

    done, started = set(), None
    if os.path.exists(results):
        with open(results) as f:
            for line in f:
                try:
                    rec = json.loads(line)
                except ValueError:
                    continue   # a line cut off by the crash
                if rec["ev"] == "start":
                    started = rec["id"]
                elif rec["ev"] in ("test", "holder"):
                    done.add(rec["id"])
                    if rec["id"] == started:
                        started = None
    out = open(results, "a")
    result = Recorder(out)
    if started is not None and started not in done:
        result.write({"ev": "test", "id": started, "outcome": "crashed",
                      "reason": last_exit})
        done.add(started)

    def run(suite):
        tests = [t for t in flatten(suite) if t.id() not in done]
        unittest.TestSuite(tests).run(result)

    def holder(outcome, reason, tb=""):
        result.write({"ev": "holder", "id": "import test." + name, "prefix": "test.%s." % name,
                      "outcome": outcome, "reason": reason, "tb": tb[-3000:]})

    try:
        module = importlib.import_module("test." + name)
    except unittest.SkipTest as e:   # the module skipped itself as a whole
        holder("skipped", str(e))
    except BaseException:
        tb = traceback.format_exc()
        holder("error", last_line(tb), tb)
    else:
        if hasattr(module, "test_main"):
            # As regrtest does: the module's test_main sets things up
            # (test_decimal: the C and Python modules; test_xml_etree: which
            # ElementTree) and hands its suite to support.run_unittest.
            support._run_suite = run
            module.test_main()
        else:
            run(unittest.defaultTestLoader.loadTestsFromModule(module))
    result.write({"ev": "done"})
    out.close()


if __name__ == "__main__":
    main()
