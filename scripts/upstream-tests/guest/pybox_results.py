"""pytest plugin: one JSON line per test, written and flushed as it happens.

Loaded inside pybox by run_pytest.py (``-p pybox_results``). The results file
(``--pybox-results``, under /output) survives a crash of the interpreter or a
timeout: every finished test is already on disk. A test that was started and
never reported is the one that killed the run; on the next run (same file)
it is recorded as ``crashed`` with the host's exit status (``--pybox-last-exit``)
and every test already in the file is deselected, so run.sh simply starts
pytest again until a run ends normally.

Record kinds (``ev``):
  start    {"ev": "start", "nodeid"}
  test     {"ev": "test", "nodeid", "outcome", "reason", "where", "duration"}
           outcome: passed, failed, error (setup/teardown), skipped,
           xfailed, xpassed, crashed
  collect  {"ev": "collect", "nodeid", "outcome", "reason"}: a file that
           failed to import (collect-error), skipped itself (skipped-file)
           or crashed the interpreter while imported (crashed)
  collectstart {"ev": "collectstart", "nodeid"}: a test file is being
           imported; if that is the last line, the import killed the run
           (run_pytest.py records it as a crashed file and --ignores it)
  collected {"ev": "collected", "nodeids": [...]}  every test of the first
           run's collection (later runs only collect the files still to do,
           see run_pytest.py; tally.py counts what never ran as "not run")
"""

import json
import os
import sys
import zlib

import pytest

_MAX_REASON = 400


def pytest_addoption(parser):
    group = parser.getgroup("pybox")
    group.addoption("--pybox-results", default=None,
                    help="append one JSON line per test to this file")
    group.addoption("--pybox-sample", type=int, default=1,
                    help="run only the tests whose node id's CRC-32 is a "
                         "multiple of N (a fixed 1-in-N sample; the 1-in-2N "
                         "sample is part of the 1-in-N one)")


def _short(text):
    text = " ".join(str(text).split())
    return text if len(text) <= _MAX_REASON else text[:_MAX_REASON] + "..."


class Recorder:
    def __init__(self, path):
        self.done = set()
        self.collect_errors = set()
        self.have_collected = False
        if os.path.exists(path):
            with open(path) as f:
                for line in f:
                    try:
                        rec = json.loads(line)
                    except ValueError:
                        continue  # a line cut by a crash
                    if rec["ev"] == "test":
                        self.done.add(rec["nodeid"])
                    elif rec["ev"] == "collect":
                        self.collect_errors.add(rec["nodeid"])
                    elif rec["ev"] == "collected":
                        self.have_collected = True
        self.f = open(path, "a")
        self.current = {}

    def write(self, **rec):
        self.f.write(json.dumps(rec) + "\n")
        self.f.flush()

    # -- hooks -------------------------------------------------------------
    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config, items):
        # pytest's capfd fixture redirects file descriptors with os.dup,
        # which WASI lacks; a failed capfd setup also leaves pytest's capture
        # manager broken, so every later test would error too.
        for item in items:
            if {"capfd", "capfdbinary"} & set(getattr(item, "fixturenames", ())):
                item.add_marker(pytest.mark.skip(
                    reason="pybox: needs pytest's capfd (os.dup), not in WASI"))
        n = config.getoption("pybox_sample")
        if n > 1:
            keep = [i for i in items if zlib.crc32(i.nodeid.encode()) % n == 0]
            drop = [i for i in items if zlib.crc32(i.nodeid.encode()) % n != 0]
            if drop:
                config.hook.pytest_deselected(items=drop)
                items[:] = keep
        if not self.have_collected:
            self.have_collected = True
            self.write(ev="collected", nodeids=[item.nodeid for item in items])
        if not self.done:
            return
        keep, drop = [], []
        for item in items:
            (drop if item.nodeid in self.done else keep).append(item)
        if drop:
            config.hook.pytest_deselected(items=drop)
            items[:] = keep

    def pytest_collectreport(self, report):
        if report.nodeid in self.collect_errors:
            return
        if report.failed:
            self.collect_errors.add(report.nodeid)
            reason, where = _failure(report)
            self.write(ev="collect", nodeid=report.nodeid,
                       outcome="collect-error", reason=reason, where=where)
        elif report.skipped:  # a whole file skipped (importorskip, skip(allow_module_level))
            self.collect_errors.add(report.nodeid)
            lr = report.longrepr
            self.write(ev="collect", nodeid=report.nodeid, outcome="skipped-file",
                       reason=_short(lr[2] if isinstance(lr, tuple) else lr), where="")

    def pytest_collectstart(self, collector):
        # Importing a test file can kill the interpreter too; run_pytest.py
        # reads this back when it is the last line of the file.
        if isinstance(collector, pytest.Module):
            self.write(ev="collectstart", nodeid=collector.nodeid)

    def pytest_runtest_logstart(self, nodeid, location):
        self.write(ev="start", nodeid=nodeid)
        self.current[nodeid] = {"outcome": None, "reason": "", "where": "",
                                "duration": 0.0}

    def pytest_runtest_logreport(self, report):
        cur = self.current.setdefault(report.nodeid, {
            "outcome": None, "reason": "", "where": "", "duration": 0.0})
        cur["duration"] += getattr(report, "duration", 0.0) or 0.0
        wasxfail = hasattr(report, "wasxfail")
        if report.failed:
            if cur["outcome"] in ("failed", "error"):
                return
            cur["outcome"] = "failed" if report.when == "call" else "error"
            cur["reason"], cur["where"] = _failure(report)
        elif report.skipped:
            if cur["outcome"] is None:
                if wasxfail:
                    cur["outcome"] = "xfailed"
                    cur["reason"] = _short(report.wasxfail)
                else:
                    cur["outcome"] = "skipped"
                    lr = report.longrepr
                    cur["reason"] = _short(lr[2] if isinstance(lr, tuple) else lr)
        elif report.when == "call" and cur["outcome"] is None:
            cur["outcome"] = "xpassed" if wasxfail else "passed"

    def pytest_runtest_logfinish(self, nodeid, location):
        cur = self.current.pop(nodeid, None)
        if cur is None:
            return
        self.write(ev="test", nodeid=nodeid, outcome=cur["outcome"] or "passed",
                   reason=cur["reason"], where=cur["where"],
                   duration=round(cur["duration"], 4))


def _failure(report):
    """(message, file:line) of what failed, from pytest's own report."""
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        return _short(crash.message), f"{crash.path}:{crash.lineno}"
    text = str(report.longrepr).strip().splitlines()
    # collection errors: the last "E   ..." line holds the exception
    errs = [l[1:].strip() for l in text if l.startswith("E ")]
    return _short(errs[-1] if errs else (text[-1] if text else "")), ""


def pytest_configure(config):
    path = config.getoption("pybox_results")
    if path:
        config.pluginmanager.register(
            Recorder(path), "pybox_recorder")


if __name__ == "__main__":
    sys.exit("a pytest plugin; see run_pytest.py")
