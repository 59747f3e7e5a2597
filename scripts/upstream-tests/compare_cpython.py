"""Match run-cpython-compat.sh's results test by test and count.

    python3.11 compare_cpython.py RESULTS_DIR [MODULE ...]     # the tables
    python3.11 compare_cpython.py RESULTS_DIR --classes [MODULE ...]  # + every class's tests

RESULTS_DIR holds native/test_M.jsonl and pybox/test_M.jsonl (written by
guest/cpython_compat.py). For every test that passes natively (passed or an
expected failure), pybox's outcome: passed, failed (an assertion failed,
or an unexpected success), error (an exception, a failing class/module
fixture, a crash of the interpreter), skipped (by the test, by its class
or because its module skipped itself), not run (its module could not be
imported in pybox, or its runs gave up). Two rates:
  ran:  passed / (passed + failed + error)      of the tests pybox ran
  all:  passed / natively passing               skips and not-run count as failures
Every natively-passing test that did not pass in pybox is written to
RESULTS_DIR/differences.tsv with its class (the first RULES entry whose
pattern matches pybox's reason), and the classes are tabulated.
"""

import collections
import json
import os
import re
import sys

# (class, regex over pybox's reason: the skip reason, the exception line of
# a failure or error, with the fixture or module that skipped it in [...]),
# first match wins. Written after reading the reasons and tracebacks of a
# run (RESULTS_DIR/pybox/*.jsonl keeps the last 3000 characters of each).
ASYNCIO_PKG = ("test_asyncio skips itself as a whole on WASI "
               "(support.requires_working_socket(module=True)), although pybox's asyncio runs")
RULES = [
    # The harness's capability skips (cpython_compat.py: the sandbox refused
    # the capability while the test ran and the test did not handle it).
    ("needs sockets: skipped by the harness when the test reached for one "
     "(the sandbox refuses sockets by design)", r"^needs sockets \(refused by the pybox sandbox"),
    ("needs subprocesses: skipped by the harness when the test started one "
     "(the sandbox has no processes by design)", r"^needs subprocesses \(refused by the pybox sandbox"),
    ("needs threads: skipped by the harness when the test started one "
     "(the interpreter runs on one thread)", r"^needs threads \(refused by the pybox sandbox"),
    (ASYNCIO_PKG, r"^\[import test\.test_asyncio\] requires socket support"),
    ("waits for another thread: run_coroutine_threadsafe(...).result() inside run_in_executor, "
     "which pybox runs at once in the only thread; hung until the run's timeout, "
     "refused at once (RuntimeError) since the runner's Future.result() check",
     r"^crashed: (timed out|the interpreter died)|deadlock refused"),
    ("no termios module on WASI (test_asyncio.test_events imports tty, so none of its tests load)",
     r"No module named 'termios'"),
    ("no epoll on WASI (select has select and poll only): the EPoll test classes do not exist",
     r"^not run: .*EPollEventLoopTests"),
    ("pybox bug, fixed in the runner since: run_in_executor(None, coroutine function) in debug "
     "mode ran it instead of raising TypeError",
     r"^AssertionError: TypeError not raised$"),
    ("pybox's asyncio runs executor calls in the calling thread and has no self-pipe "
     "(tests check a different thread ident, loop._csock, loop._internal_fds)",
     r"^AssertionError: (0 == 0|1 != 0)$|^AssertionError: <Mock id='\d+'> is not None$",
     r"test_asyncio\..*(test_run_in_executor|test_wrap_future|test_close|test_internal_fds)$"),
    ("pybox's add_signal_handler has no wakeup fd to set: a test that mocks set_wakeup_fd "
     "to fail only for -1 gets RuntimeError instead of the OSError it expects",
     r"not raised by add_signal_handler|^RuntimeError$", r"test_add_signal_handler_install_error$"),
    ("needs sockets, but the test's own clean-up fails first: socket() is refused and "
     "`finally: s.close()` meets an unbound s (UnboundLocalError)",
     r"^UnboundLocalError: cannot access local variable 's'", r"test_sock_client_fail$"),
    ("no os.pipe on WASI (asyncio's pipe transports, connect_read_pipe/connect_write_pipe)",
     r"has no attribute 'pipe'", r"test_asyncio\."),
    ("no subprocesses or multiprocessing (WASI has no processes; pybox refuses them)",
     r"requires subprocess support|sys\.executable required|requires (a shell|working os\.fork)|"
     r"need os\.exec|os\.spawn\w* not available|Need the \w+ command|process denied|"
     r"multiprocessing|requires (ifconfig|ip)$|pidfd|waitpid"),
    ("no threads (the interpreter runs on one; Thread.start is refused)",
     r"requires threading support|can't start new thread|thread denied"),
    ("no sockets (pybox's only network is its fetched folders)",
     r"(?i)socket|network denied|resource .network.|IPv6|ssl module|getsockname|getpeername|SO_REUSEPORT|"
     r"sendfile is not supported|native sendfile"),
    ("no signals (signal.alarm, setitimer, pthread_kill)",
     r"signal\.alarm|setitimer|pthread_kill|signal\.SIG|requires signal|"
     r"signal handlers are not available|valid_signals"),
    ("CPython's test-only C modules (_testcapi, _testinternalcapi) "
     "are not built into the bundle",
     r"_testcapi|_testinternalcapi|_testbuffer|_testmultiphase|legacy Unicode C API"),
    ("no time.tzset (WASI libc has none: local time is always UTC)", r"tzset"),
    ("no system time-zone database: /usr/share/zoneinfo is not mounted "
     "(zoneinfo uses the bundled tzdata package)",
     r"/usr/share/zoneinfo|Olson's TZ database"),
    ("skipped by CPython's own WASI checks (is_wasi): an invalid descriptor "
     "cannot be made, '' is the current folder, no process_time, undecodable names",
     r"Cannot create invalid FD on WASI|WASI maps|process_time not available on WASI|"
     r"not supported on Emscripten/WASI"),
    ("no permission bits: os.chmod does nothing, st_mode has no mode bits, no umask, no os.chown",
     r"chmod|umask|read-only|chflags|CAP_DAC_OVERRIDE"),
    ("no symbolic links (refused on host folders; /tmp has none)",
     r"symlink|symbolic link"),
    ("no symbolic links (refused on host folders; /tmp has none)",
     r"No such file or directory: .*linkA'$", r"test_chmod_follow_symlinks_true$"),
    ("os.DirEntry.stat() reports no permission bits (WASI's type, which cannot be patched; "
     "os.stat does report them)", r"^AssertionError: os\.st", r"TestScandir\.test_attributes$"),
    ("no users or groups in os (os.getuid, os.chown, set*id)",
     r"getuid|getgid|chown|user accounts|set\w*[ug]id|must be named \"root\"|more than one user"),
    ("no os.pipe, os.set_blocking, os.dup (WASI)",
     r"set_blocking|os\.pipe|has no attribute 'pipe'|dup\b|Function not implemented"),
    ("no _uuid C module (the pure-Python uuid works)", r"_uuid"),
    ("no _hashlib (OpenSSL): no scrypt, C pbkdf2_hmac, OpenSSL hash types",
     r"_hashlib|_hashopenssl|OpenSSL"),
    ("os functions WASI lacks (sendfile, statvfs, fwalk, getrandom, mkfifo, xattr, ...)",
     r"os\.\w+\(?\)? (not supported|required|not available)|test needs os\.|need os\.|"
     r"needs os\.|requires os\.|extended attribute|disk_usage|get_terminal_size|fd support|dir_fd"),
    ("time functions WASI lacks (clock_settime, thread_time, pthread_getcpuclockid)",
     r"need time\.(clock_settime|thread_time|pthread_getcpuclockid)"),
    ("no /dev files (/dev/null, /dev/zero)", r"/dev/"),
    ("wasm32 is a 32-bit platform", r"requires 64bit platform|INT_MAX < PY_SSIZE_T_MAX"),
    ("UTF-8 mode is always on (CPython on WASI)", r"utf-8 mode is enabled"),
    ("the bundle's standard library is installed read-only and as .pyc only: no source "
     "lines in tracebacks of stdlib frames, module __file__ names a .py that is absent",
     r"argparse\.py'|write access to the installed location|^\('raise_exc', 'raise exc'\)\]$"),
    ("pybox's file size limit (256 MiB by default)", r"past the file size limit"),
]

RANK = {"crashed": 6, "error": 5, "failed": 4, "xpass": 4, "skipped": 2, "xfail": 1, "passed": 0}
SIMPLE = {"passed": "passed", "xfail": "passed", "failed": "failed", "xpass": "failed",
          "error": "error", "crashed": "error", "skipped": "skipped"}


def load(path):
    """Returns ({id: (outcome, reason, tb)}, [holders], finished)."""
    tests, holders, done = {}, [], False
    if not os.path.exists(path):
        return tests, holders, done
    with open(path) as f:
        for line in f:
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            ev = rec["ev"]
            if ev == "done":
                done = True
            elif ev == "holder":
                holders.append(rec)
            elif ev == "test":
                new = (rec["outcome"], rec.get("reason", ""), rec.get("tb", ""))
                old = tests.get(rec["id"])
                if old is None or RANK[new[0]] > RANK[old[0]]:
                    tests[rec["id"]] = new
    return tests, holders, done


EXC_LINE = re.compile(r"^\w+(?:\.\w+)*(?:Error|Exception|Exit|Interrupt)\b.*$", re.M)


def classify(reason, tb="", tid=""):
    """The first RULES class matching pybox's reason, else one matching an
    exception line of its traceback (the cause of a chained error). A rule
    with a third pattern applies only to the tests whose id matches it."""
    for text in [reason] + EXC_LINE.findall(tb):
        for name, pattern, *where in RULES:
            if where and not re.search(where[0], tid):
                continue
            if re.search(pattern, text):
                return name
    return "unclassified"


def pct(a, b):
    return "-" if b == 0 else f"{100.0 * a / b:.2f}%"


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    show_classes = "--classes" in sys.argv
    resdir, modules = args[0], args[1:]
    if not modules:
        modules = sorted(f[:-6] for f in os.listdir(os.path.join(resdir, "native")) if f.endswith(".jsonl"))
    modules = [m if m.startswith("test_") else "test_" + m for m in modules]

    cols = ["native pass", "passed", "failed", "error", "skipped", "not run", "ran %", "all %"]
    rows, diffs, notes = [], [], []
    total = collections.Counter()
    extra_pass = 0
    for m in modules:
        nat, _, ndone = load(os.path.join(resdir, "native", m + ".jsonl"))
        box, holders, bdone = load(os.path.join(resdir, "pybox", m + ".jsonl"))
        if not ndone:
            notes.append(f"{m}: the native run did not finish")
        if not bdone:
            notes.append(f"{m}: the pybox run did not finish")
        c = collections.Counter()
        for tid, (nout, _, _) in sorted(nat.items()):
            if SIMPLE[nout] != "passed":
                if tid in box and SIMPLE[box[tid][0]] == "passed":
                    extra_pass += 1
                continue
            c["native pass"] += 1
            if tid in box:
                bout, reason, tb = box[tid]
                kind = SIMPLE[bout]
                if bout == "crashed":
                    reason = "crashed: " + reason
            else:
                match = [h for h in holders if tid.startswith(h["prefix"])]
                if match:
                    h = max(match, key=lambda h: len(h["prefix"]))
                    kind = SIMPLE[h["outcome"]]
                    reason = f"[{h['id']}] {h.get('reason', '')}"
                    tb = h.get("tb", "")
                else:
                    kind, reason, tb = "not run", "not run: " + tid, ""
            c[kind] += 1
            if kind != "passed":
                cls = classify(reason, tb, tid)
                diffs.append((m, tid, nout, kind, cls, reason))
        ran = c["passed"] + c["failed"] + c["error"]
        c["ran"] = ran
        rows.append((m, c))
        total.update(c)

    def line(name, c):
        vals = [str(c[k]) for k in cols[:6]] + [pct(c["passed"], c["ran"]), pct(c["passed"], c["native pass"])]
        return "| " + " | ".join([name] + vals) + " |"

    print("| module | " + " | ".join(cols) + " |")
    print("|" + "---|" * (len(cols) + 1))
    for m, c in rows:
        print(line(m, c))
    print(line("**total**", total))
    print()
    print(f"natively passing: {total['native pass']}; pybox ran {total['ran']} of them and passed "
          f"{total['passed']}: {pct(total['passed'], total['ran'])} of those it ran, "
          f"{pct(total['passed'], total['native pass'])} counting skips and not-run as failures")
    print(f"tests that pass in pybox but not natively: {extra_pass}")
    for n in notes:
        print("note:", n)

    out = os.path.join(resdir, "differences.tsv")
    with open(out, "w") as f:
        f.write("module\ttest\tnative\tpybox\tclass\treason\n")
        for d in diffs:
            f.write("\t".join(x.replace("\t", " ").replace("\n", " ") for x in d) + "\n")
    print(f"{len(diffs)} differences written to {out}")

    print()
    print("| class | failed | error | skipped | not run | total |")
    print("|---|---|---|---|---|---|")
    byclass = collections.defaultdict(collections.Counter)
    for d in diffs:
        byclass[d[4]][d[3]] += 1
    for cls, c in sorted(byclass.items(), key=lambda kv: -sum(kv[1].values())):
        print(f"| {cls} | {c['failed']} | {c['error']} | {c['skipped']} | {c['not run']} | {sum(c.values())} |")
    if show_classes:
        for cls in sorted(byclass):
            print(f"\n## {cls}")
            for d in diffs:
                if d[4] == cls:
                    print(f"  {d[3]:8} {d[1]}: {d[5][:200]}")


if __name__ == "__main__":
    main()
