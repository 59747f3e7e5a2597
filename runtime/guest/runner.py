# pybox guest runner: the first Python code every pybox interpreter runs.
#
# It asks the host for a job over the _pybox bridge, runs the job's code as
# __main__, and reports how it ended. The host (runtime/instance.go) owns the
# protocol; keep the two in step. pybox_boot (scripts/cpython/_pyboxmodule.c)
# fetches this file from the host and executes it in a private namespace, so
# nothing of the runner is visible in __main__. Its module level is the
# set-up (import paths, preloads, refusals); pybox_serve then calls _serve().
#
# Between the two the host may snapshot the interpreter's memory and start
# any number of interpreters from it (docs/RATIONALE.md): everything done at
# module level is shared by all of them, so nothing secret or per-run may
# happen there, and _serve() first draws fresh randomness (_fresh).
#
# Wire format of a job: NUL-separated key/value pairs (Python source cannot
# contain NUL). Keys: code, filename, argv (repeated). The outcome is reported
# with call("done", ...) as six NUL-separated fields: kind (exit, error or
# interrupt), exit code, exception type, exception message, traceback, and the
# repr of the value of a final expression statement.
import sys
import _pybox
# Used after every one-off job; imported here, in the shared set-up, so no
# run pays for it.
import atexit
# Imported up front: formatting a traceback must work even when the user's
# code has exhausted memory, and it makes reporting an interrupt faster.
import linecache
import traceback

# Released before formatting a MemoryError, so there is room to report it.
_reserve = bytearray(256 * 1024)


# --- Clear refusals for processes and sockets -------------------------------
# WASI already makes both impossible; these only replace confusing errors
# ("Not supported", AttributeError) with messages that say what was refused.
_NO_PROC = ("process denied: cannot run %s: the pybox sandbox has no processes "
            "(subprocess, os.system and os.popen are unavailable); do the work in Python")
_NO_NET = ("network denied: cannot %s %s: the pybox sandbox has no sockets; data the "
           "operator exposes is readable as files (e.g. under /network or /data)")


def _deny_proc(cmd):
    raise PermissionError(_NO_PROC % (cmd,))


def _patch_os():
    import os
    os.system = lambda command: _deny_proc(repr(command))
    os.popen = lambda cmd, *a, **k: _deny_proc(repr(cmd))


def _patch_subprocess(mod):
    def _init(self, args, *a, **k):
        _deny_proc(repr(args))
    mod.Popen.__init__ = _init
    mod.Popen.__del__ = lambda self: None


def _patch_socket(mod):
    def _deny(what):
        def f(self, address, *a):
            raise PermissionError(_NO_NET % (what, repr(address)))
        return f
    for name, what in (("connect", "connect to"), ("connect_ex", "connect to"),
                       ("bind", "bind"), ("sendto", "send to")):
        setattr(mod.socket, name, _deny(what))

    def _resolve(host, *a, **k):
        raise PermissionError(_NO_NET % ("resolve", repr(host)))
    for name in ("getaddrinfo", "gethostbyname", "gethostbyname_ex", "gethostbyaddr"):
        setattr(mod, name, _resolve)

    def _create_connection(address, *a, **k):
        raise PermissionError(_NO_NET % ("connect to", repr(address)))
    mod.create_connection = _create_connection


class _PatchLoader:
    def __init__(self, loader, patch):
        self._loader, self._patch = loader, patch

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        self._patch(module)


class _PatchFinder:
    """Patches subprocess and socket right after they are first imported."""
    _targets = {"subprocess": _patch_subprocess, "socket": _patch_socket}

    def find_spec(self, name, path=None, target=None):
        patch = self._targets.get(name)
        if patch is None:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None and spec.loader is not None:
                spec.loader = _PatchLoader(spec.loader, patch)
                return spec
        return None


_patch_os()
sys.meta_path.insert(0, _PatchFinder())


# --- os.utime refusals that say why --------------------------------------
# CPython raises os.utime's errors without the file name, so the host is
# never asked why (see PyErr_SetFromErrnoWithFilenameObjects in
# scripts/cpython/pybox.patch): a refused utime on a read-only mount was a
# bare "[Errno 69] Read-only file system". Ask the host, as that C code does.
# (A traceback through a failed utime shows this wrapper's frame.)
def _patch_utime():
    import os
    real = os.utime

    def utime(path, *args, **kwargs):
        try:
            return real(path, *args, **kwargs)
        except OSError as e:
            if e.filename is not None or isinstance(path, int):
                raise
            try:
                p = os.fsdecode(path)
                why = _pybox.call("explain", (os.getcwd() + "\0" + p).encode(
                    "utf-8", "surrogateescape")).decode("utf-8", "replace")
            except Exception:
                raise e from None
            # With the file name, as every other failed file operation.
            raise type(e)(e.errno, why or e.strerror, p) from None

    utime.__doc__, utime.__name__, utime.__qualname__ = real.__doc__, "utime", "utime"
    utime.__module__ = real.__module__
    os.utime = utime
    # shutil and others check these sets for os.utime itself.
    for s in (os.supports_dir_fd, os.supports_fd, os.supports_follow_symlinks):
        if real in s:
            s.add(utime)


_patch_utime()


def _job():
    raw = _pybox.call("job", b"").decode("utf-8", "surrogateescape")
    parts = raw.split("\0")
    job = {"argv": []}
    for i in range(0, len(parts) - 1, 2):
        k, v = parts[i], parts[i + 1]
        if k == "argv":
            job["argv"].append(v)
        else:
            job[k] = v
    return job


def _show(exc, filename, code):
    global _reserve
    if isinstance(exc, MemoryError):
        _reserve = None
    try:
        return _format(exc, filename, code)
    except BaseException:
        # Not even the traceback could be built (memory is exhausted): the
        # exception's type and message are still worth reporting.
        text = "%s: %s\n" % (type(exc).__qualname__, exc)
        try:
            sys.stderr.write(text)
        except BaseException:
            pass
        return text
    finally:
        if _reserve is None:
            try:
                _reserve = bytearray(256 * 1024)
            except MemoryError:
                pass


def _flush(*streams):
    # The user's code may have replaced or closed the streams.
    for f in streams or (sys.stdout, sys.stderr):
        try:
            f.flush()
        except Exception:
            pass


def _format(exc, filename, code):
    lines = code.splitlines(True)
    linecache.cache[filename] = (len(code), None, lines, filename)
    _flush(sys.stdout)
    tb = exc.__traceback__
    # Hide the runner's own frames: the user's code is the outermost frame.
    while tb is not None and tb.tb_frame.f_code.co_filename == "<pybox-runner>":
        tb = tb.tb_next
    text = "".join(traceback.format_exception(type(exc), exc, tb))
    sys.stderr.write(text)
    _flush(sys.stderr)
    return text


# A final expression statement is assigned to this global by
# _pybox.compile_cell, and popped right after the run.
_VALUE = "__pybox_value__"


def _run(job):
    """Runs one job; returns (kind, exit code, exc type, message, traceback,
    value repr)."""
    filename = job.get("filename") or "<string>"
    code = job.get("code", "")
    sys.argv = [filename] + job["argv"]
    g = sys.modules["__main__"].__dict__
    g["__file__"] = filename
    value = ""
    try:
        # Compiled like a notebook cell: the value of a final expression
        # statement is kept (see _pybox.compile_cell).
        body, has_value = _pybox.compile_cell(code, filename, _VALUE)
        exec(body, g)
        if has_value:
            v = g.pop(_VALUE, None)
            if v is not None:
                g["_"] = v
                value = _repr(v)
    except SystemExit as e:
        c = e.code
        if c is None:
            status = 0
        elif isinstance(c, int):
            status = c
        else:
            sys.stderr.write(str(c) + "\n")
            status = 1
        return "exit", status, "", "", "", ""
    except KeyboardInterrupt as e:
        _pybox.call("caught", b"")  # lets the host time the interrupt
        text = _show(e, filename, code)
        return "interrupt", 1, "KeyboardInterrupt", "", text, ""
    except BaseException as e:
        text = _show(e, filename, code)
        try:
            msg = str(e)
        except BaseException:
            msg = "<unprintable %s>" % type(e).__qualname__
        return "error", 1, type(e).__qualname__, msg, text, ""
    return "exit", 0, "", "", "", value


def _repr(v):
    try:
        r = repr(v)
    except BaseException as e:
        r = "<repr failed: %s>" % type(e).__qualname__
    if len(r) > 20000:
        r = r[:20000] + "... [%d characters cut]" % (len(r) - 20000)
    return r


def _clean(s):
    return s.replace("\0", "\\x00")


def _paths():
    # Extra import paths from the host (the user's added packages).
    for p in filter(None, _pybox.call("paths", b"").decode().split("\0")):
        if p not in sys.path:
            sys.path.append(p)


def _preload():
    # Modules the operator wants ready before the first job (Config.Preload):
    # imported into sys.modules only, so user code still has to import them
    # but pays nothing. A failure here is not the user's: it is ignored.
    names = _pybox.call("preload", b"").decode()
    for name in filter(None, names.split("\0")):
        try:
            __import__(name)
        except Exception:
            pass


def _open_fds():
    # Descriptors open after set-up, reported to the host, which refuses to
    # snapshot an interpreter holding any beyond stdio and the preopened
    # mounts (a restored instance would not have them).
    import os
    fds = []
    for fd in range(3, 64):
        try:
            os.fstat(fd)
        except OSError:
            continue
        fds.append(str(fd))
    _pybox.call("fds", ",".join(fds).encode())


def _fresh():
    # Runs first in every interpreter, whether booted or restored from a
    # snapshot: state seeded at set-up would otherwise be the same in every
    # interpreter of an engine. str hashes (PYTHONHASHSEED) cannot be
    # changed once objects exist: they are fixed per snapshot.
    r = sys.modules.get("random")
    if r is not None:
        r.seed()
    np_random = sys.modules.get("numpy.random")
    if np_random is not None:
        np_random.seed()  # the legacy global RandomState (np.random.rand, ...)
    t = sys.modules.get("tempfile")
    if t is not None:
        t._name_sequence = None


def _serve():
    _fresh()
    status = 0
    while True:
        try:
            job = _job()
        except OSError:
            # The host has no more jobs for this interpreter.
            sys.exit(status)
        out = _run(job)
        status = out[1]
        _flush()
        once = job.get("mode") == "once"
        if once:
            # A one-off interpreter is discarded after its job: run the
            # atexit handlers now (their output belongs to the run) and skip
            # interpreter finalization, which costs tens of milliseconds.
            atexit._run_exitfuncs()
            _flush()
        msg = "\0".join(_clean(str(x)) for x in out)
        _pybox.call("done", msg.encode("utf-8", "surrogateescape"))
        if once:
            # Back to the host, which discards the instance; the exit status
            # is the one just reported. (os._exit would make the host close
            # the module inside the guest's call, on the run's time.)
            return status
        del job, out, msg


_paths()
_preload()
_open_fds()
# Everything allocated so far is moved out of the collector's reach: a
# collection would otherwise walk (and write to) every object of the boot,
# copying every page of a snapshot an interpreter starts from.
import gc
gc.collect()
gc.freeze()
del gc
