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

Two deliberate deviations from regrtest, both on by default (see
docs/upstream-tests.md, issue 14):

- The module-level `support.requires_working_socket(module=True)` check is
  lifted: with it, test_asyncio skips itself as a whole on WASI, although
  pybox's event loop runs. Tests marked as needing sockets
  (`requires_working_socket()` on a test or class) still skip themselves.
  OPTIONS "module-socket-check-on" keeps CPython's check.
- Capability skips, only where the interpreter is CPython for WASI (inside
  pybox; natively nothing changes): while the module's tests and fixtures
  run, the entry points through which a test reaches for what the sandbox
  refuses by design -- creating a socket or socket pair, resolving a name,
  opening a connection or server (socket and asyncio), starting a process
  (subprocess, os.system/popen, asyncio) or starting a thread -- raise an
  exception that is both the sandbox's refusal (PermissionError or
  RuntimeError, as pybox raises it) and unittest.SkipTest, with the reason
  "needs sockets (...): ...", "needs subprocesses (...): ..." or "needs
  threads (...): ...". Code that handles the refusal (a fallback, assertRaises
  OSError) behaves exactly as without the harness; a refusal that escapes
  the test makes it skip, as CPython's requires_working_socket(),
  requires_subprocess() and requires_working_threading() decorators would
  have, had the test been marked. Any other failure is still a failure.
  OPTIONS "capability-skips-off" turns this off.
  ("module-socket-check-off", which lifted the check before it was the
  default, is accepted and changes nothing.)

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


class NeedsSockets(unittest.SkipTest, PermissionError):
    """The sandbox refused a socket: a skip, and the refusal it replaces."""


class NeedsSubprocesses(unittest.SkipTest, PermissionError):
    """The sandbox refused a process: a skip, and the refusal it replaces."""


class NeedsThreads(unittest.SkipTest, RuntimeError):
    """The sandbox refused a thread: a skip, and the refusal it replaces."""


# How pybox's runner (runtime/guest/runner.py) words each refusal: the
# start of the message, and the skip that replaces it.
REFUSALS = [
    ("network denied:", NeedsSockets, "needs sockets"),
    ("process denied:", NeedsSubprocesses, "needs subprocesses"),
    ("thread denied:", NeedsThreads, "needs threads"),
]


class CapabilitySkips:
    """Wraps the entry points through which a test reaches for sockets,
    processes or threads. While active (the module's tests and fixtures are
    running), a refusal of pybox's that comes out of one of them (a
    PermissionError or RuntimeError whose message starts as in REFUSALS) is
    re-raised as an exception that is the same kind of error, with the same
    message, and also a unittest.SkipTest. Anything else passes through
    unchanged.
    """

    def __init__(self):
        self.active = False
        # pybox's runner patches these modules as they are imported.
        import socket
        import subprocess
        import threading
        import _thread
        for name in ("__init__",):
            self.wrap(socket.socket, name)
        for name in ("socketpair", "create_connection", "getaddrinfo", "getnameinfo",
                     "gethostbyname", "gethostbyname_ex", "gethostbyaddr"):
            self.wrap(socket, name)
        self.wrap(subprocess.Popen, "__init__")
        for name in ("system", "popen"):
            self.wrap(os, name)
        self.wrap(threading, "_start_new_thread")
        for name in ("start_new_thread", "start_new"):
            self.wrap(_thread, name)
        try:
            import asyncio
            import asyncio.base_events
            import asyncio.streams
            import asyncio.subprocess
        except ImportError:
            return
        for m in (asyncio, asyncio.streams):
            for name in ("open_connection", "start_server", "open_unix_connection",
                         "start_unix_server"):
                self.wrap(m, name)
        for m in (asyncio, asyncio.subprocess):
            for name in ("create_subprocess_exec", "create_subprocess_shell"):
                self.wrap(m, name)
        for name in ("create_connection", "create_server", "create_datagram_endpoint",
                     "create_unix_connection", "create_unix_server", "subprocess_exec",
                     "subprocess_shell"):
            self.wrap(asyncio.base_events.BaseEventLoop, name)

    def wrap(self, owner, name):
        real = owner.__dict__.get(name) if isinstance(owner, type) else getattr(owner, name, None)
        if real is None:
            return
        caps = self

        def wrapper(*args, **kwargs):
            try:
                return real(*args, **kwargs)
            except (PermissionError, RuntimeError) as e:
                if not caps.active or isinstance(e, unittest.SkipTest):
                    raise
                msg = str(e)
                for start, kind, need in REFUSALS:
                    if msg.startswith(start):
                        raise kind("%s (refused by the pybox sandbox by design): %s"
                                   % (need, msg)) from e
                raise
        wrapper.__name__ = getattr(real, "__name__", name)
        wrapper.__qualname__ = getattr(real, "__qualname__", name)
        wrapper.__doc__ = getattr(real, "__doc__", None)
        wrapper.__wrapped__ = real
        setattr(owner, name, wrapper)


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
    if "module-socket-check-on" not in options:
        check = support.requires_working_socket

        def requires_working_socket(*, module=False):
            if not module:
                return check()
        support.requires_working_socket = requires_working_socket

    capabilities = None
    if sys.platform == "wasi" and "capability-skips-off" not in options:
        capabilities = CapabilitySkips()

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
        if capabilities is not None:
            capabilities.active = True
        try:
            unittest.TestSuite(tests).run(result)
        finally:
            if capabilities is not None:
                capabilities.active = False

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
