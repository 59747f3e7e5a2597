# pybox guest runner: the first Python code every pybox interpreter runs.
#
# It asks the host for a job over the _pybox bridge, runs the job's code as
# __main__, and reports how it ended. The host (runtime/instance.go) owns the
# protocol; keep the two in step. The host hands this file to a one-line -c
# bootstrap that executes it in a private namespace, so nothing of the runner
# is visible in __main__. It is compiled inside wasm at every interpreter
# start: keep it small.
#
# Wire format of a job: NUL-separated key/value pairs (Python source cannot
# contain NUL). Keys: code, filename, argv (repeated). Outcome reported with
# call("done", ...): kind NUL detail..., kind one of exit, error, interrupt.
import sys
import _pybox
# Imported up front: formatting a traceback must work even when the user's
# code has exhausted memory, and it makes reporting an interrupt faster.
import linecache
import traceback

# Released before formatting a MemoryError, so there is room to report it.
_reserve = bytearray(256 * 1024)


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


def _format(exc, filename, code):
    lines = code.splitlines(True)
    linecache.cache[filename] = (len(code), None, lines, filename)
    try:
        sys.stdout.flush()
    except Exception:
        pass
    tb = exc.__traceback__
    # Hide the runner's own frame: the user's code is the outermost frame.
    if tb is not None and tb.tb_frame.f_code is _run.__code__:
        tb = tb.tb_next
    text = "".join(traceback.format_exception(type(exc), exc, tb))
    sys.stderr.write(text)
    try:
        sys.stderr.flush()
    except Exception:
        pass
    return text


def _run(job):
    filename = job.get("filename") or "<string>"
    code = job.get("code", "")
    sys.argv = [filename] + job["argv"]
    main = sys.modules["__main__"]
    g = main.__dict__
    g["__file__"] = filename
    try:
        exec(compile(code, filename, "exec"), g)
    except SystemExit as e:
        c = e.code
        if c is None:
            status = 0
        elif isinstance(c, int):
            status = c
        else:
            sys.stderr.write(str(c) + "\n")
            status = 1
        return "exit", str(status), ""
    except KeyboardInterrupt as e:
        _pybox.call("caught", b"")  # lets the host time the interrupt
        text = _show(e, filename, code)
        return "interrupt", "KeyboardInterrupt", text
    except BaseException as e:
        text = _show(e, filename, code)
        try:
            msg = str(e)
        except BaseException:
            msg = "<unprintable %s>" % type(e).__qualname__
        return "error", type(e).__qualname__ + "\0" + _clean(msg), text
    return "exit", "0", ""


def _clean(s):
    return s.replace("\0", "\\x00")


def _main():
    status = 0
    while True:
        try:
            job = _job()
        except OSError:
            # The host has no more jobs for this interpreter.
            sys.exit(status)
        kind, detail, tb = _run(job)
        status = int(detail) if kind == "exit" else 1
        for f in (sys.stdout, sys.stderr):
            try:
                f.flush()
            except Exception:
                pass
        msg = kind + "\0" + detail + "\0" + _clean(tb)
        _pybox.call("done", msg.encode("utf-8", "surrogateescape"))


_main()
