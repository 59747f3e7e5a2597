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
# Wire format (runtime/protocol.go): a job and an outcome are sequences of
# fields, each a 4-byte little-endian length and the key, then a 4-byte length
# and the value. Values are taken by length, so no byte of the user's code,
# file name or arguments can become a key. Job keys: code, mode (once or
# session), filename, argv (repeated), figures (the folder for figures, if
# they are captured). The outcome is reported with
# call("done", ...): kind (exit, error or interrupt), exit, type, message,
# traceback, and value (the repr of a final expression statement's value).
#
# The host does not trust what it gets here: user code runs in this same
# interpreter and can reach the runner's objects (frames, gc), so it can make
# these calls itself. The host checks every call against the protocol, and a
# call is over only when the runner is back in call("job") (docs/RATIONALE.md,
# "The runner protocol"). Below, _pybox is taken out of user code's easy
# reach; that is a courtesy, not the guarantee.
import sys
import _pybox

_call = _pybox.call
_compile_cell = _pybox.compile_cell
# Used after every one-off job; imported here, in the shared set-up, so no
# run pays for it.
import atexit
# Imported up front: formatting a traceback must work even when the user's
# code has exhausted memory, and it makes reporting an interrupt faster.
import linecache
import traceback
from types import TracebackType as _TracebackType

# Released before formatting a MemoryError, so there is room to report it.
_reserve = bytearray(256 * 1024)


# --- Clear refusals for processes, sockets and threads ----------------------
# WASI already makes all three impossible; these only replace confusing errors
# ("Not supported", "can't start new thread", AttributeError) with messages
# that say what was refused. They are installed here, in the set-up that
# snapshot-started interpreters share: nothing in them depends on the run.
_NO_PROC = ("process denied: cannot run %s: the pybox sandbox has no processes "
            "(subprocess, os.system and os.popen are unavailable); do the work in Python")
_NO_NET = ("network denied: cannot %s %s: the pybox sandbox has no sockets; data the "
           "operator exposes is readable as files (e.g. under /network or /data)")
_NO_THREAD = ("thread denied: cannot start %s: the pybox sandbox has no threads (its "
              "interpreter runs on one); do the work in the main thread instead: call "
              "the function directly (concurrent.futures.ThreadPoolExecutor and "
              "asyncio.to_thread do that for you: they run each call at once)")


def _deny_proc(cmd):
    raise PermissionError(_NO_PROC % (cmd,))


def _patch_os():
    import os
    os.system = lambda command: _deny_proc(repr(command))
    os.popen = lambda cmd, *a, **k: _deny_proc(repr(cmd))
    # WASI has no users, so CPython for WASI has no os.getuid and friends;
    # posixpath.expanduser (Path.home() without $HOME), getpass and many
    # libraries call them. The sandbox has one user, id 0, the owner of
    # every file it sees (the bundle's pwd and grp answer for it).
    for name in ("getuid", "geteuid", "getgid", "getegid"):
        if not hasattr(os, name):
            setattr(os, name, lambda: 0)
    if not hasattr(os, "getgroups"):
        os.getgroups = lambda: [0]
    # WASI has no os.kill. The sandbox is one process: a signal to itself
    # (its pid, or 0: its process group) is raised in it, as natively, and
    # any other pid does not exist.
    if not hasattr(os, "kill"):
        import errno as _errno
        import operator as _operator

        def kill(pid, signal, /):
            """Kill a process with a signal."""
            pid, signal = _operator.index(pid), _operator.index(signal)
            if pid not in (0, os.getpid()):
                raise ProcessLookupError(_errno.ESRCH, "No such process: the pybox sandbox "
                                         "has no other process than this one (pid %d)"
                                         % os.getpid())
            if signal == 0:
                return None
            import signal as _signal
            _signal.raise_signal(signal)
        os.kill = kill
    # Nor os.waitpid and friends: the sandbox starts no child process, so
    # waiting for one fails as it does natively for a process without
    # children (ChildProcessError, ECHILD). asyncio's child watchers poll
    # waitpid when they attach to a loop. The status helpers decode Linux's
    # wait status, as they do everywhere CPython has them.
    if not hasattr(os, "waitpid"):
        import errno as _errno
        import operator as _operator

        def _no_child():
            raise ChildProcessError(_errno.ECHILD, "No child processes: the pybox sandbox "
                                    "starts no processes")

        def waitpid(pid, options, /):
            """Wait for completion of a given child process."""
            _operator.index(pid), _operator.index(options)
            _no_child()

        def wait():
            """Wait for completion of a child process."""
            _no_child()

        def waitstatus_to_exitcode(status):
            """Convert a wait status to an exit code."""
            status = _operator.index(status)
            if os.WIFEXITED(status):
                return os.WEXITSTATUS(status)
            if os.WIFSIGNALED(status):
                return -os.WTERMSIG(status)
            raise ValueError("invalid wait status: %d" % status)

        os.waitpid, os.wait, os.waitstatus_to_exitcode = waitpid, wait, waitstatus_to_exitcode
        os.WNOHANG, os.WUNTRACED, os.WCONTINUED = 1, 2, 8
        os.WIFEXITED = lambda status: status & 0x7F == 0
        os.WEXITSTATUS = os.WSTOPSIG = lambda status: (status >> 8) & 0xFF
        os.WTERMSIG = lambda status: status & 0x7F
        os.WIFSIGNALED = lambda status: status & 0x7F not in (0, 0x7F)
        os.WIFSTOPPED = lambda status: status & 0xFF == 0x7F
        os.WCOREDUMP = lambda status: bool(status & 0x80)
        os.WIFCONTINUED = lambda status: status == 0xFFFF
    # With a uid of 0, code takes root's paths: tarfile's extract chowns
    # every member to its owner in the archive before it sets the member's
    # mode and mtime, and shutil.chown exists. WASI has no os.chown and the
    # sandbox records no owners (files report 0): as for root, chown
    # succeeds, and like os.chmod it changes nothing.
    if not hasattr(os, "chown"):
        import operator

        def chown(path, uid, gid, *, dir_fd=None, follow_symlinks=True):
            operator.index(uid), operator.index(gid)
            if isinstance(path, int):
                os.fstat(path)
            else:
                os.stat(path, dir_fd=dir_fd, follow_symlinks=follow_symlinks)

        os.chown = chown
        os.lchown = lambda path, uid, gid: chown(path, uid, gid, follow_symlinks=False)
        os.fchown = lambda fd, uid, gid: chown(operator.index(fd), uid, gid)


def _patch_subprocess(mod):
    def _init(self, args, *a, **k):
        _deny_proc(repr(args))
    mod.Popen.__init__ = _init
    mod.Popen.__del__ = lambda self: None


_NO_MP = ("process denied: cannot start %s: the pybox sandbox has no processes, so "
          "multiprocessing cannot start workers; run the work in this process (scipy: "
          "workers=1; scikit-learn and joblib: n_jobs=1)")


def _patch_mp_context(mod):
    # WASI has no processes and CPython for WASI no _multiprocessing: Pool()
    # and Manager() failed with "No module named '_multiprocessing'", and
    # get_context("forkserver") (asked for by scipy's workers=N and by
    # scipy's own test set-up) with "forkserver start method not available".
    # Start methods can be asked for and set; starting workers is refused.
    def Pool(self, processes=None, *a, **k):
        raise PermissionError(_NO_MP % ("a process pool (multiprocessing.Pool)",))

    def Manager(self):
        raise PermissionError(_NO_MP % ("a manager process (multiprocessing.Manager)",))
    mod.BaseContext.Pool, mod.BaseContext.Manager = Pool, Manager
    if hasattr(mod, "ForkServerContext"):
        mod.ForkServerContext._check_available = lambda self: None


def _patch_futures_pkg(mod):
    # concurrent.futures.ProcessPoolExecutor is imported on first use from
    # concurrent.futures.process, which needs _multiprocessing: the user got
    # "No module named '_multiprocessing'". Where that import fails, the name
    # is a ProcessPoolExecutor whose construction is refused with the reason
    # and what works instead.
    orig = mod.__getattr__

    def __getattr__(name):
        try:
            return orig(name)
        except ImportError:
            if name != "ProcessPoolExecutor":
                raise

        class ProcessPoolExecutor(mod.Executor):
            def __init__(self, *args, **kwargs):
                raise PermissionError(_NO_MP % ("a process pool (concurrent.futures.ProcessPoolExecutor)",)
                                      + "; concurrent.futures.ThreadPoolExecutor runs each call in turn here")
        mod.ProcessPoolExecutor = ProcessPoolExecutor
        return ProcessPoolExecutor
    mod.__getattr__ = __getattr__


def _patch_mp_process(mod):
    def start(self):
        raise PermissionError(_NO_MP % ("process %r (multiprocessing.Process)" % self.name,))
    mod.BaseProcess.start = start


def _patch_socket(mod):
    def _deny(what):
        def f(self, address, *a):
            raise PermissionError(_NO_NET % (what, repr(address)))
        return f
    for name, what in (("connect", "connect to"), ("connect_ex", "connect to"),
                       ("bind", "bind"), ("sendto", "send to")):
        setattr(mod.socket, name, _deny(what))

    def _create(self, *a, **k):
        raise PermissionError(_NO_NET % ("create", "a socket"))
    mod.socket.__init__ = _create

    def _socketpair(*a, **k):
        raise PermissionError(_NO_NET % ("create", "a socket pair"))
    mod.socketpair = _socketpair

    def _resolve(host, *a, **k):
        raise PermissionError(_NO_NET % ("resolve", repr(host)))
    for name in ("getaddrinfo", "gethostbyname", "gethostbyname_ex", "gethostbyaddr"):
        setattr(mod, name, _resolve)
    if not hasattr(mod, "getnameinfo"):   # absent on WASI; mocked by tests
        def getnameinfo(sockaddr, flags):
            raise PermissionError(_NO_NET % ("resolve", repr(sockaddr)))
        mod.getnameinfo = getnameinfo

    def _create_connection(address, *a, **k):
        raise PermissionError(_NO_NET % ("connect to", repr(address)))
    mod.create_connection = _create_connection

    # CPython for WASI leaves these methods out of socket.socket. No socket
    # can be made in the sandbox, but code that checks for them, subclasses
    # socket.socket or mocks it (Mock(spec=socket.socket), as asyncio's
    # tests do) expects the usual API: they exist and refuse.
    def _method(name):
        def f(self, *a, **k):
            raise PermissionError(_NO_NET % ("call", "socket.%s()" % name))
        f.__name__ = f.__qualname__ = name
        return f
    for name in ("getsockname", "getpeername", "listen", "setsockopt", "recvfrom",
                 "recvfrom_into", "recvmsg", "recvmsg_into", "sendmsg"):
        if not hasattr(mod.socket, name):
            setattr(mod.socket, name, _method(name))


def _patch_asyncio(mod):
    # The replacements raise when called, not when awaited, so the refusal
    # is the error whether or not an event loop can run.
    def _address(a, k):
        host = a[0] if a else k.get("host")
        port = a[1] if len(a) > 1 else k.get("port")
        if host is not None or port is not None:
            return repr((host, port))
        for key in ("path", "remote_addr", "local_addr", "sock"):
            if k.get(key) is not None:
                return repr(k[key])
        return "an address"

    def _net(what):
        def f(*a, **k):
            raise PermissionError(_NO_NET % (what, _address(a, k)))
        return f

    def _serve(what):
        def f(client_connected_cb=None, *a, **k):
            raise PermissionError(_NO_NET % (what, _address(a, k)))
        return f

    def _loop_net(what):
        def f(self, protocol_factory=None, *a, **k):
            raise PermissionError(_NO_NET % (what, _address(a, k)))
        return f

    def _proc(*a, **k):
        raise PermissionError(_NO_PROC % (repr(a[0]) if a else "a process",))

    def _loop_proc(self, protocol_factory, *a, **k):
        _proc(*a, **k)

    for m in (mod, mod.streams):
        m.open_connection = _net("connect to")
        m.start_server = _serve("serve on")
        if hasattr(m, "open_unix_connection"):
            m.open_unix_connection = _net("connect to")
            m.start_unix_server = _serve("serve on")
    for m in (mod, mod.subprocess):
        m.create_subprocess_exec = _proc
        m.create_subprocess_shell = _proc
    loop = mod.base_events.BaseEventLoop
    for name, what in (("create_connection", "connect to"), ("create_server", "serve on"),
                       ("create_datagram_endpoint", "open a datagram endpoint on"),
                       ("create_unix_connection", "connect to"),
                       ("create_unix_server", "serve on")):
        setattr(loop, name, _loop_net(what))
    loop.subprocess_exec = _loop_proc
    loop.subprocess_shell = _loop_proc

    # A selector event loop wakes itself through a socket pair (another
    # thread's call_soon_threadsafe, a signal's wakeup fd). The sandbox has
    # one thread and no socket pair, and no signal reaches the guest: the
    # loop runs without one, and its selector, with no descriptors to watch,
    # only waits for the next timer (an interruptible sleep in the host).
    sel = mod.selector_events.BaseSelectorEventLoop

    def _make_self_pipe(self):
        self._ssock = self._csock = None

    def _close_self_pipe(self):
        pass

    sel._make_self_pipe = _make_self_pipe
    sel._close_self_pipe = _close_self_pipe

    # asyncio's Unix loop has a signal arrive through the self-pipe (the
    # wakeup fd). There is none here, but signal.signal works for the
    # signals that can arrive in the sandbox: those the program raises
    # itself (signal.raise_signal) and SIGINT, which the host trips to
    # interrupt a run (a kill that ignores handlers stays the host's). The
    # handler runs in the only thread, between bytecodes, and schedules the
    # callback as the self-pipe's reader would: add_signal_handler and
    # remove_signal_handler work, and libraries that install SIGINT/SIGTERM
    # handlers (servers, CLIs, child watchers for SIGCHLD) start normally.
    import errno as _errno

    def add_signal_handler(self, sig, callback, *args):
        """Add a handler for a signal.  UNIX only.

        Raise ValueError if the signal number is invalid or uncatchable.
        Raise RuntimeError if there is a problem setting up the handler.
        """
        if mod.coroutines.iscoroutine(callback) or mod.coroutines.iscoroutinefunction(callback):
            raise TypeError("coroutines cannot be used with add_signal_handler()")
        self._check_signal(sig)
        self._check_closed()
        # The signal module as asyncio.unix_events sees it (tests mock it).
        signal = unix.signal
        try:
            # This loop has no wakeup fd; as natively, this also refuses a
            # loop outside the main thread (ValueError).
            signal.set_wakeup_fd(-1)
        except (ValueError, OSError) as exc:
            raise RuntimeError(str(exc))
        handle = mod.events.Handle(callback, args, self, None)
        self._signal_handlers[sig] = handle

        def handler(signum, frame):
            self._handle_signal(signum)
        try:
            signal.signal(sig, handler)
        except OSError as exc:
            del self._signal_handlers[sig]
            if not self._signal_handlers:
                try:
                    signal.set_wakeup_fd(-1)
                except (ValueError, OSError) as nexc:
                    mod.log.logger.info("set_wakeup_fd(-1) failed: %s", nexc)
            if exc.errno == _errno.EINVAL:
                raise RuntimeError(f"sig {sig} cannot be caught")
            raise
    unix = getattr(mod, "unix_events", None)
    if unix is not None and hasattr(unix, "_UnixSelectorEventLoop"):
        unix._UnixSelectorEventLoop.add_signal_handler = add_signal_handler

    # The default executor would start threads: run the function at once
    # instead (asyncio.to_thread, loop.run_in_executor(None, ...)). It blocks
    # the loop while it runs, as any blocking call in the only thread does.
    real_run_in_executor = loop.run_in_executor

    def run_in_executor(self, executor, func, *args):
        if executor is not None:
            return real_run_in_executor(self, executor, func, *args)
        self._check_closed()
        if self._debug:
            # As BaseEventLoop.run_in_executor: a coroutine (function) is a
            # TypeError in debug mode, not a call that returns a coroutine.
            self._check_callback(func, "run_in_executor")
        fut = self.create_future()
        try:
            fut.set_result(func(*args))
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as e:
            fut.set_exception(e)
        return fut
    loop.run_in_executor = run_in_executor


def _patch_futures_thread(mod):
    # ThreadPoolExecutor cannot start its threads in the sandbox: it runs
    # each submitted call at once, in the caller's thread, and returns a
    # finished future. map, submit + result, as_completed and wait work as
    # with threads; work that waits for other work submitted after it (an
    # Event set by a later task) would wait forever, as it cannot run
    # alongside.
    base = mod._base

    def submit(self, fn, /, *args, **kwargs):
        with self._shutdown_lock:
            if self._broken:
                raise mod.BrokenThreadPool(self._broken)
            if self._shutdown:
                raise RuntimeError("cannot schedule new futures after shutdown")
        f = base.Future()
        f.set_running_or_notify_cancel()
        try:
            result = fn(*args, **kwargs)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as e:
            f.set_exception(e)
        else:
            f.set_result(result)
        return f
    submit.__doc__ = mod.ThreadPoolExecutor.submit.__doc__
    mod.ThreadPoolExecutor.submit = submit


_NO_WAIT = ("deadlock refused: waiting for a concurrent.futures.Future that nothing can "
            "complete: the pybox sandbox runs one thread, so while this call waits no other "
            "code runs to set its result (e.g. asyncio.run_coroutine_threadsafe(...).result() "
            "inside run_in_executor or asyncio.to_thread, which run at once in the only "
            "thread); await the coroutine in the event loop instead, or pass a timeout")


def _patch_futures_base(mod):
    # Future.result() / .exception() without a timeout on a future that is
    # not done would wait on a lock no other thread can release: forever,
    # until the run's time limit. Say so at once instead. With a timeout
    # they wait and raise TimeoutError, as they would.
    Future = mod.Future
    real_result, real_exception = Future.result, Future.exception

    def result(self, timeout=None):
        if timeout is None and not self.done():
            raise RuntimeError(_NO_WAIT)
        return real_result(self, timeout)

    def exception(self, timeout=None):
        if timeout is None and not self.done():
            raise RuntimeError(_NO_WAIT)
        return real_exception(self, timeout)
    result.__doc__, exception.__doc__ = real_result.__doc__, real_exception.__doc__
    Future.result, Future.exception = result, exception

    # wait() and as_completed() without a timeout would block the same way
    # once the futures still pending are all that is left to wait for.
    real_wait, real_as_completed = mod.wait, mod.as_completed

    def wait(fs, timeout=None, return_when=mod.ALL_COMPLETED):
        if timeout is None:
            fs = set(fs)
            done = [f for f in fs if f.done()]
            if return_when == mod.FIRST_COMPLETED:
                met = bool(done)
            elif return_when == mod.FIRST_EXCEPTION:
                met = len(done) == len(fs) or any(
                    not f.cancelled() and f.exception() is not None for f in done)
            else:
                met = len(done) == len(fs)
            if not met:
                raise RuntimeError(_NO_WAIT)
        return real_wait(fs, timeout, return_when)

    def as_completed(fs, timeout=None):
        if timeout is not None:
            yield from real_as_completed(fs, timeout)
            return
        pending = set(fs)
        while pending:
            done = [f for f in pending if f.done()]
            if not done:
                raise RuntimeError(_NO_WAIT)
            for f in done:
                pending.discard(f)
                yield f
    wait.__doc__, as_completed.__doc__ = real_wait.__doc__, real_as_completed.__doc__
    mod.wait, mod.as_completed = wait, as_completed


def _deny_thread(function, *a, **k):
    owner = getattr(function, "__self__", None)
    name = getattr(owner, "name", None)
    what = "thread %r" % name if isinstance(name, str) else "a thread running %r" % (function,)
    raise RuntimeError(_NO_THREAD % what)


def _patch_shutil(mod):
    # os.stat reports a file's permission bits (_patch_modes), but
    # os.DirEntry.stat() cannot be patched and reports none (WASI's stat has
    # no mode). copytree hands DirEntry objects to copy2 -> copystat and to
    # copymode, which would then chmod every copy to 0o000: unreadable files
    # on the host. Take the mode from os.stat of the entry's path instead.
    import os
    real_copystat, real_copymode = mod.copystat, mod.copymode

    def copystat(src, dst, *, follow_symlinks=True):
        if isinstance(src, os.DirEntry):
            src = src.path
        return real_copystat(src, dst, follow_symlinks=follow_symlinks)

    def copymode(src, dst, *, follow_symlinks=True):
        if isinstance(src, os.DirEntry):
            src = src.path
        return real_copymode(src, dst, follow_symlinks=follow_symlinks)
    for new, real in ((copystat, real_copystat), (copymode, real_copymode)):
        new.__doc__, new.__name__, new.__qualname__ = real.__doc__, real.__name__, real.__qualname__
    mod.copystat, mod.copymode = copystat, copymode


def _patch_signal(mod):
    # CPython for WASI has signal.signal but no valid_signals (asyncio's
    # signal-handler check and code that lists signals call it). No signal
    # reaches the sandbox; the valid ones are those signal.signal accepts.
    if not hasattr(mod, "valid_signals"):
        def valid_signals():
            """Return a set of valid signal numbers on this platform."""
            return {mod._int_to_enum(n, mod.Signals) for n in range(1, mod.NSIG)}
        mod.valid_signals = valid_signals

    # python.wasm's raise() crashes the interpreter (a wasm trap: "invalid
    # table access") for signal 0 and for signals 32 and up that have no
    # handler (wasi-libc knows no default action for them). Natively,
    # signal 0 does nothing and such a signal ends the process; here it is
    # refused instead of ending the run with a crash.
    real_raise = mod.raise_signal

    def raise_signal(signalnum, /):
        """Send a signal to the executing process."""
        import errno
        import operator
        n = operator.index(signalnum)
        if n == 0:
            return None
        if 32 <= n < mod.NSIG and mod.getsignal(n) in (mod.SIG_DFL, None):
            raise OSError(errno.EINVAL, "signal %d has no handler, and the pybox sandbox "
                          "cannot apply its default action (end the process): install a "
                          "handler with signal.signal first" % n)
        return real_raise(n)
    if getattr(real_raise, "__module__", None) != __name__:
        mod.raise_signal = raise_signal


# --- termios: a module for a sandbox without terminals ----------------------
# CPython for WASI builds no termios, so `import tty` and `import termios`
# failed. pybox has no terminal: every descriptor answers as a file or a pipe
# does on Linux, so tcgetattr and friends raise termios.error with ENOTTY
# (EBADF for a descriptor that is not open), and callers fall back as they do
# when not attached to a terminal (getpass reads the password from stdin).
# The constants are Linux's values (x86-64 and the other common ports).
_TERMIOS_CONSTANTS = (
    "B0=0 B1000000=4104 B110=3 B115200=4098 B1152000=4105 B1200=9 B134=4 B150=5 B1500000=4106 "
    "B1800=10 B19200=14 B200=6 B2000000=4107 B230400=4099 B2400=11 B2500000=4108 B300=7 "
    "B3000000=4109 B3500000=4110 B38400=15 B4000000=4111 B460800=4100 B4800=12 B50=1 B500000=4101 "
    "B57600=4097 B576000=4102 B600=8 B75=2 B921600=4103 B9600=13 BRKINT=2 BS0=0 BS1=8192 "
    "BSDLY=8192 CBAUD=4111 CBAUDEX=4096 CDSUSP=25 CEOF=4 CEOL=0 CEOT=4 CERASE=127 CFLUSH=15 "
    "CIBAUD=269418496 CINTR=3 CKILL=21 CLNEXT=22 CLOCAL=2048 CQUIT=28 CR0=0 CR1=512 CR2=1024 "
    "CR3=1536 CRDLY=1536 CREAD=128 CRPRNT=18 CRTSCTS=2147483648 CS5=0 CS6=16 CS7=32 CS8=48 "
    "CSIZE=48 CSTART=17 CSTOP=19 CSTOPB=64 CSUSP=26 CWERASE=23 ECHO=8 ECHOCTL=512 ECHOE=16 "
    "ECHOK=32 ECHOKE=2048 ECHONL=64 ECHOPRT=1024 EXTA=14 EXTB=15 FF0=0 FF1=32768 FFDLY=32768 "
    "FIOASYNC=21586 FIOCLEX=21585 FIONBIO=21537 FIONCLEX=21584 FIONREAD=21531 FLUSHO=4096 "
    "HUPCL=1024 ICANON=2 ICRNL=256 IEXTEN=32768 IGNBRK=1 IGNCR=128 IGNPAR=4 IMAXBEL=8192 INLCR=64 "
    "INPCK=16 IOCSIZE_MASK=1073676288 IOCSIZE_SHIFT=16 ISIG=1 ISTRIP=32 IUCLC=512 IXANY=2048 "
    "IXOFF=4096 IXON=1024 NCC=8 NCCS=32 NL0=0 NL1=256 NLDLY=256 NOFLSH=128 N_MOUSE=2 N_PPP=3 "
    "N_SLIP=1 N_STRIP=4 N_TTY=0 OCRNL=8 OFDEL=128 OFILL=64 OLCUC=2 ONLCR=4 ONLRET=32 ONOCR=16 "
    "OPOST=1 PARENB=256 PARMRK=8 PARODD=512 PENDIN=16384 TAB0=0 TAB1=2048 TAB2=4096 TAB3=6144 "
    "TABDLY=6144 TCFLSH=21515 TCGETA=21509 TCGETS=21505 TCIFLUSH=0 TCIOFF=2 TCIOFLUSH=2 TCION=3 "
    "TCOFLUSH=1 TCOOFF=0 TCOON=1 TCSADRAIN=1 TCSAFLUSH=2 TCSANOW=0 TCSBRK=21513 TCSBRKP=21541 "
    "TCSETA=21510 TCSETAF=21512 TCSETAW=21511 TCSETS=21506 TCSETSF=21508 TCSETSW=21507 "
    "TCXONC=21514 TIOCCONS=21533 TIOCEXCL=21516 TIOCGETD=21540 TIOCGICOUNT=21597 "
    "TIOCGLCKTRMIOS=21590 TIOCGPGRP=21519 TIOCGSERIAL=21534 TIOCGSOFTCAR=21529 TIOCGWINSZ=21523 "
    "TIOCINQ=21531 TIOCLINUX=21532 TIOCMBIC=21527 TIOCMBIS=21526 TIOCMGET=21525 TIOCMIWAIT=21596 "
    "TIOCMSET=21528 TIOCM_CAR=64 TIOCM_CD=64 TIOCM_CTS=32 TIOCM_DSR=256 TIOCM_DTR=2 TIOCM_LE=1 "
    "TIOCM_RI=128 TIOCM_RNG=128 TIOCM_RTS=4 TIOCM_SR=16 TIOCM_ST=8 TIOCNOTTY=21538 TIOCNXCL=21517 "
    "TIOCOUTQ=21521 TIOCPKT=21536 TIOCPKT_DATA=0 TIOCPKT_DOSTOP=32 TIOCPKT_FLUSHREAD=1 "
    "TIOCPKT_FLUSHWRITE=2 TIOCPKT_NOSTOP=16 TIOCPKT_START=8 TIOCPKT_STOP=4 TIOCSCTTY=21518 "
    "TIOCSERCONFIG=21587 TIOCSERGETLSR=21593 TIOCSERGETMULTI=21594 TIOCSERGSTRUCT=21592 "
    "TIOCSERGWILD=21588 TIOCSERSETMULTI=21595 TIOCSERSWILD=21589 TIOCSER_TEMT=1 TIOCSETD=21539 "
    "TIOCSLCKTRMIOS=21591 TIOCSPGRP=21520 TIOCSSERIAL=21535 TIOCSSOFTCAR=21530 TIOCSTI=21522 "
    "TIOCSWINSZ=21524 TOSTOP=256 VDISCARD=13 VEOF=4 VEOL=11 VEOL2=16 VERASE=2 VINTR=0 VKILL=3 "
    "VLNEXT=15 VMIN=6 VQUIT=1 VREPRINT=12 VSTART=8 VSTOP=9 VSUSP=10 VSWTC=7 VSWTCH=7 VT0=0 "
    "VT1=16384 VTDLY=16384 VTIME=5 VWERASE=14 XCASE=4 XTABS=6144"
)


def _make_termios(module):
    import errno
    import os

    class error(Exception):
        pass
    error.__module__ = "termios"

    def _fd(fd):
        if not isinstance(fd, int):
            fileno = getattr(fd, "fileno", None)
            if fileno is None:
                raise TypeError("argument must be an int, or have a fileno() method.")
            fd = fileno()
            if not isinstance(fd, int):
                raise TypeError("fileno() returned a non-integer")
        if fd < 0:
            raise ValueError("file descriptor cannot be a negative integer (%d)" % fd)
        return fd

    def _not_a_tty(fd):
        try:
            os.fstat(_fd(fd))
        except OSError as e:
            raise error(e.errno, e.strerror) from None
        raise error(errno.ENOTTY, "Inappropriate ioctl for device")

    def tcgetattr(fd):
        """Get the tty attributes for file descriptor fd: in the pybox
        sandbox, no descriptor is a terminal (termios.error, ENOTTY)."""
        _not_a_tty(fd)

    def tcsetattr(fd, when, attributes):
        """Set the tty attributes for file descriptor fd: in the pybox
        sandbox, no descriptor is a terminal (termios.error, ENOTTY)."""
        fd = _fd(fd)
        if not isinstance(attributes, list) or len(attributes) != 7:
            raise TypeError("tcsetattr, arg 3: must be 7 element list")
        _not_a_tty(fd)

    def _simple(name, nargs):
        def f(fd, *args):
            if len(args) != nargs:
                raise TypeError("%s expected %d arguments, got %d" % (name, nargs + 1, len(args) + 1))
            _not_a_tty(fd)
        f.__name__ = f.__qualname__ = name
        f.__doc__ = "%s: in the pybox sandbox, no descriptor is a terminal (termios.error, ENOTTY)." % name
        return f

    ns = module.__dict__
    for item in _TERMIOS_CONSTANTS.split():
        k, v = item.split("=")
        ns[k] = int(v)
    ns.update(error=error, tcgetattr=tcgetattr, tcsetattr=tcsetattr,
              tcsendbreak=_simple("tcsendbreak", 1), tcdrain=_simple("tcdrain", 0),
              tcflush=_simple("tcflush", 1), tcflow=_simple("tcflow", 1),
              tcgetwinsize=_simple("tcgetwinsize", 0), tcsetwinsize=_simple("tcsetwinsize", 1))
    for f in (tcgetattr, tcsetattr):
        f.__module__ = "termios"
    module.__doc__ = ("termios for the pybox sandbox, which has no terminals: every call "
                      "raises termios.error (ENOTTY, or EBADF for a closed descriptor).")


# --- mmap ------------------------------------------------------------------
# WASI has no memory mapping, so CPython for WASI builds no mmap module; numpy
# (numpy.memmap, np.load(mmap_mode=...)), scipy.io and others import it. The
# runner provides one that maps by copying: a map is a bytes object (read-only
# maps) or a bytearray (writable ones) holding the file's bytes, read with
# pread when the map is made, so numpy can build arrays on it through the
# buffer protocol. A shared writable map writes the chunks that changed back
# with pwrite on flush(), close(), resize(), when it is collected, and after
# every job, through a descriptor of its own when the runner can reopen the
# file (it looks for the open file object among its caller's variables, as
# numpy.memmap and `with open(...) as f: mmap.mmap(f.fileno(), ...)` have
# one), otherwise through the caller's descriptor while it stays open on the
# same file. What differs from a real mapping: reads through the map do not
# see later writes made to the file another way, the file sees the map's
# changes when they are written back, and the whole mapped range is read into
# memory when the map is made.
_MMAP_CONSTANTS = (
    "ACCESS_DEFAULT=0 ACCESS_READ=1 ACCESS_WRITE=2 ACCESS_COPY=3 "
    "MAP_SHARED=1 MAP_PRIVATE=2 MAP_ANON=32 MAP_ANONYMOUS=32 MAP_DENYWRITE=2048 "
    "MAP_EXECUTABLE=4096 MAP_POPULATE=32768 PROT_READ=1 PROT_WRITE=2 PROT_EXEC=4 "
    "PAGESIZE=4096 ALLOCATIONGRANULARITY=4096 "
    "MADV_NORMAL=0 MADV_RANDOM=1 MADV_SEQUENTIAL=2 MADV_WILLNEED=3 MADV_DONTNEED=4 "
    "MADV_FREE=8 MADV_REMOVE=9 MADV_DONTFORK=10 MADV_DOFORK=11 MADV_MERGEABLE=12 "
    "MADV_UNMERGEABLE=13 MADV_HUGEPAGE=14 MADV_NOHUGEPAGE=15 MADV_DONTDUMP=16 "
    "MADV_DODUMP=17 MADV_HWPOISON=100")

# The shared writable maps not yet closed (a weakref.WeakSet once mmap is
# imported), written back after every job by _sync_maps.
_mmap_live = None


def _sync_maps():
    for m in list(_mmap_live):
        m._sync_quietly()


def _make_mmap(module):
    # The module's code is compiled only when something imports mmap (the
    # runner itself is compiled at every boot, and the memory a boot grows
    # to stays with every interpreter).
    global _mmap_live
    env = {"sys": sys, "_MMAP_CONSTANTS": _MMAP_CONSTANTS, "_mmap_live": None}
    exec(compile(_MMAP_SOURCE, "<pybox mmap>", "exec"), env)
    env["_build"](module)
    _mmap_live = env["_mmap_live"]


_MMAP_SOURCE = r"""
def _build(module):
    import errno
    import io
    import operator
    import os
    import stat
    import weakref

    global _mmap_live
    ns = module.__dict__
    for item in _MMAP_CONSTANTS.split():
        k, v = item.split("=")
        ns[k] = int(v)
    g = dict(ns)
    ACCESS_DEFAULT, ACCESS_READ, ACCESS_WRITE, ACCESS_COPY = 0, 1, 2, 3
    MAP_SHARED, MAP_PRIVATE = g["MAP_SHARED"], g["MAP_PRIVATE"]
    PROT_READ, PROT_WRITE = g["PROT_READ"], g["PROT_WRITE"]
    PAGESIZE = g["PAGESIZE"]
    CHUNK = 1 << 16
    live = _mmap_live = weakref.WeakSet()

    def pread_all(fd, n, offset):
        parts = []
        while n > 0:
            b = os.pread(fd, min(n, 1 << 24), offset)
            if not b:
                break
            parts.append(b)
            n -= len(b)
            offset += len(b)
        return b"".join(parts)

    def same_file(fd, ident):
        try:
            st = os.fstat(fd)
        except OSError:
            return False
        return (st.st_dev, st.st_ino) == ident

    def reopen(fd, ident):
        # A descriptor of the map's own on the file behind fd: the open file
        # object the caller made it from, found among the caller's variables
        # (numpy.memmap closes its file right after making the map).
        f = sys._getframe(2)
        for _ in range(6):
            if f is None:
                break
            for v in list(f.f_locals.values()):
                if not isinstance(v, io.IOBase):
                    continue
                try:
                    if v.fileno() != fd:
                        continue
                    name = v.name
                except (OSError, ValueError, AttributeError):
                    continue
                if isinstance(name, int):
                    continue
                try:
                    own = os.open(name, os.O_RDWR | os.O_CLOEXEC)
                except (OSError, TypeError, ValueError):
                    continue
                if same_file(own, ident):
                    return own
                os.close(own)
            f = f.f_back
        return -1

    class mmap:
        '''mmap(fileno, length[, flags[, prot[, access[, offset]]]])

        A memory-mapped file, as on Unix; in the pybox sandbox the map holds
        a copy of the file's bytes, and a shared writable map writes what
        changed back to the file on flush(), close() and after every run.'''
        __slots__ = ()

        def __new__(cls, fileno, length, flags=MAP_SHARED, prot=PROT_WRITE | PROT_READ,
                    access=ACCESS_DEFAULT, offset=0):
            fd = operator.index(fileno)
            size = operator.index(length)
            flags, prot = operator.index(flags), operator.index(prot)
            access, offset = operator.index(access), operator.index(offset)
            if size < 0:
                raise OverflowError("memory mapped length must be positive")
            if offset < 0:
                raise OverflowError("memory mapped offset must be positive")
            if access != ACCESS_DEFAULT and (flags != MAP_SHARED or prot != PROT_WRITE | PROT_READ):
                raise ValueError("mmap can't specify both access and flags, prot.")
            if access == ACCESS_READ:
                flags, prot = MAP_SHARED, PROT_READ
            elif access == ACCESS_WRITE:
                flags, prot = MAP_SHARED, PROT_READ | PROT_WRITE
            elif access == ACCESS_COPY:
                flags, prot = MAP_PRIVATE, PROT_READ | PROT_WRITE
            elif access == ACCESS_DEFAULT:
                if not (prot & PROT_READ and prot & PROT_WRITE):
                    access = ACCESS_WRITE if prot & PROT_WRITE else ACCESS_READ
            else:
                raise ValueError("mmap invalid access parameter.")
            sys.audit("mmap.__new__", fd, size, access, offset)
            writable = bool(prot & PROT_WRITE)
            shared = not flags & MAP_PRIVATE
            ident = None
            if fd != -1:
                try:
                    st = os.fstat(fd)
                except OSError as e:
                    raise OSError(e.errno, e.strerror) from None
                ident = (st.st_dev, st.st_ino)
                if stat.S_ISREG(st.st_mode):
                    if size == 0:
                        if st.st_size == 0:
                            raise ValueError("cannot mmap an empty file")
                        if offset >= st.st_size:
                            raise ValueError("mmap offset is greater than file size")
                        size = st.st_size - offset
                    elif offset > st.st_size or st.st_size - offset < size:
                        raise ValueError("mmap length is greater than file size")
            if size == 0 or offset % PAGESIZE:
                raise OSError(errno.EINVAL, os.strerror(errno.EINVAL))
            if fd == -1:
                data = bytes(size)
            else:
                if writable and shared:
                    try:
                        os.write(fd, b"")
                    except OSError:
                        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES)) from None
                try:
                    data = pread_all(fd, size, offset)
                except OSError as e:
                    if e.errno == errno.EBADF:
                        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES)) from None
                    raise
                if len(data) < size:
                    data += bytes(size - len(data))
            if not writable:
                m = bytes.__new__(_ReadOnlyMap, data)
            else:
                m = bytearray.__new__(_WritableMap)
                bytearray.__init__(m, data)
            d = m.__dict__
            d.update(_closed=False, _pos=0, _offset=offset, _access=access, _fd=fd,
                     _own=-1, _ident=ident, _size=size if fd == -1 else st.st_size,
                     _shared=fd != -1 and writable and shared, _base=None)
            if d["_shared"]:
                d["_own"] = reopen(fd, ident)
                d["_base"] = bytearray(data)
                live.add(m)
            return m

        def _check(self):
            if self._closed:
                raise ValueError("mmap closed or invalid")

        def _check_writable(self):
            self._check()
            if self._access == ACCESS_READ:
                raise TypeError("mmap can't modify a readonly memory map.")

        def _write_fd(self):
            # The descriptor the map's changes go back through.
            if self._own != -1:
                return self._own
            if same_file(self._fd, self._ident):
                return self._fd
            raise OSError(errno.EBADF, "mmap: cannot write the map's changes back to its file: "
                          "descriptor %d was closed (or now names another file) and pybox "
                          "could not reopen the file; flush() the map before closing the file"
                          % self._fd)

        def _write_back(self, start, end):
            if not self._shared:
                return
            base = self._base
            fd = None
            for a in range(start - start % CHUNK, end, CHUNK):
                b = min(a + CHUNK, len(base))
                cur = bytearray.__getitem__(self, slice(a, b))
                if cur == base[a:b]:
                    continue
                if fd is None:
                    fd = self._write_fd()
                view, pos = memoryview(cur), self._offset + a
                while view:
                    n = os.pwrite(fd, view, pos)
                    view, pos = view[n:], pos + n
                base[a:b] = cur

        def _sync_quietly(self):
            if self._closed or not self._shared:
                return
            try:
                self._write_back(0, len(self._base))
            except Exception as e:
                # Said once per map: the next flush() raises it again.
                if not self.__dict__.get("_warned"):
                    self.__dict__["_warned"] = True
                    sys.stderr.write("mmap: changes not written back to the file: %s\n" % e)

        def _release(self):
            d = self.__dict__
            if d.get("_own", -1) != -1:
                try:
                    os.close(d["_own"])
                except OSError:
                    pass
                d["_own"] = -1
            d["_closed"] = True
            if d.get("_shared"):
                live.discard(self)

        @property
        def closed(self):
            return self._closed

        def close(self):
            '''Close the map, writing its changes back to the file first.'''
            if self._closed:
                return
            if self._shared:
                self._write_back(0, len(self._base))
            if isinstance(self, bytearray):
                try:
                    bytearray.__delitem__(self, slice(None))
                except BufferError:
                    raise BufferError("cannot close exported pointers exist") from None
            self._release()

        def __enter__(self):
            self._check()
            return self

        def __exit__(self, *args):
            self.close()

        def __len__(self):
            self._check()
            return self._blen(self)

        def size(self):
            '''The size of the mapped file (of the map, for an anonymous one).'''
            self._check()
            if self._fd == -1:
                return self._blen(self)
            fd = self._own if self._own != -1 else self._fd
            if same_file(fd, self._ident):
                return os.fstat(fd).st_size
            return self._size

        def tell(self):
            self._check()
            return self._pos

        def seek(self, pos, whence=0):
            self._check()
            pos, whence = operator.index(pos), operator.index(whence)
            if whence == 0:
                where = pos
            elif whence == 1:
                where = self._pos + pos
            elif whence == 2:
                where = self._blen(self) + pos
            else:
                raise ValueError("unknown seek type")
            if not 0 <= where <= self._blen(self):
                raise ValueError("seek out of range")
            self.__dict__["_pos"] = where

        def read(self, n=None):
            self._check()
            size, pos = self._blen(self), self._pos
            n = -1 if n is None else operator.index(n)
            end = max(size if n < 0 else min(pos + n, size), pos)
            self.__dict__["_pos"] = end
            return bytes(self._bget(self, slice(pos, end)))

        def read_byte(self):
            self._check()
            if self._pos >= self._blen(self):
                raise ValueError("read byte out of range")
            self.__dict__["_pos"] += 1
            return self._bget(self, self._pos - 1)

        def readline(self):
            self._check()
            size, pos = self._blen(self), self._pos
            i = self._bfind(self, b"\n", pos)
            end = size if i < 0 else i + 1
            self.__dict__["_pos"] = max(end, pos)
            return bytes(self._bget(self, slice(pos, end)))

        def _range(self, start, end):
            size = self._blen(self)
            start = self._pos if start is None else operator.index(start)
            end = size if end is None else operator.index(end)
            if start < 0:
                start = max(start + size, 0)
            if end < 0:
                end = max(end + size, 0)
            return min(start, size), min(end, size)

        def find(self, sub, start=None, end=None):
            self._check()
            start, end = self._range(start, end)
            return self._bfind(self, sub, start, end)

        def rfind(self, sub, start=None, end=None):
            self._check()
            start, end = self._range(start, end)
            return self._brfind(self, sub, start, end)

        def write(self, data):
            self._check_writable()
            data = memoryview(data).cast("B")
            pos = self._pos
            if pos + len(data) > self._blen(self):
                raise ValueError("data out of range")
            bytearray.__setitem__(self, slice(pos, pos + len(data)), data)
            self.__dict__["_pos"] = pos + len(data)
            return len(data)

        def write_byte(self, byte):
            self._check_writable()
            if self._pos >= self._blen(self):
                raise ValueError("write byte out of range")
            bytearray.__setitem__(self, self._pos, byte)
            self.__dict__["_pos"] += 1

        def move(self, dest, src, count):
            self._check_writable()
            size = self._blen(self)
            if min(dest, src, count) < 0 or src + count > size or dest + count > size:
                raise ValueError("source, destination, or count out of range")
            bytearray.__setitem__(self, slice(dest, dest + count),
                                  bytearray.__getitem__(self, slice(src, src + count)))

        def flush(self, offset=0, size=None):
            '''Write the map's changes in [offset, offset + size) back to the file.'''
            self._check()
            total = self._blen(self)
            size = total - offset if size is None else size
            if size < 0 or offset < 0 or total - offset < size:
                raise ValueError("flush values out of range")
            if self._shared:
                self._write_back(offset, offset + size)

        def madvise(self, option, start=0, length=None):
            self._check()
            size = self._blen(self)
            if start < 0 or start >= size:
                raise ValueError("madvise start out of bounds")
            if length is not None and length < 0:
                raise ValueError("madvise length invalid")
            if length is not None and length > sys.maxsize - start:
                raise OverflowError("madvise length too large")
            operator.index(option)

        def resize(self, newsize):
            '''Resize the map and, for a shared writable map, its file.'''
            self._check_writable()
            if self._access == ACCESS_COPY or (self._fd != -1 and not self._shared):
                raise TypeError("mmap can't resize a readonly or copy-on-write memory map.")
            newsize = operator.index(newsize)
            if newsize < 0:
                raise ValueError("new size out of range")
            old = self._blen(self)
            if newsize == old:
                return
            if self._shared:
                self._write_back(0, old)
                fd = self._write_fd()
            try:
                if newsize < old:
                    bytearray.__delitem__(self, slice(newsize, None))
                else:
                    bytearray.extend(self, bytes(newsize - old))
            except BufferError:
                raise BufferError("mmap can't resize with extant buffers exported.") from None
            if self._shared:
                os.ftruncate(fd, self._offset + newsize)
                self.__dict__["_base"] = bytearray(self)
                self.__dict__["_size"] = self._offset + newsize

        def __getitem__(self, key):
            self._check()
            if isinstance(key, slice):
                return bytes(self._bget(self, key))
            try:
                i = operator.index(key)
            except TypeError:
                raise TypeError("mmap indices must be integers") from None
            size = self._blen(self)
            if i < 0:
                i += size
            if not 0 <= i < size:
                raise IndexError("mmap index out of range")
            return self._bget(self, i)

        def __setitem__(self, key, value):
            self._check_writable()
            size = self._blen(self)
            if isinstance(key, slice):
                start, stop, step = key.indices(size)
                n = len(range(start, stop, step))
                value = memoryview(value).cast("B")
                if len(value) != n:
                    raise IndexError("mmap slice assignment is wrong size")
                bytearray.__setitem__(self, key, value)
                return
            try:
                i = operator.index(key)
            except TypeError:
                raise TypeError("mmap indices must be integer") from None
            if i < 0:
                i += size
            if not 0 <= i < size:
                raise IndexError("mmap index out of range")
            if not isinstance(value, int):
                raise TypeError("mmap item value must be an int")
            if not 0 <= value < 256:
                raise ValueError("mmap item value must be in range(0, 256)")
            bytearray.__setitem__(self, i, value)

        def __delitem__(self, key):
            raise TypeError("mmap object doesn't support item deletion")

        def __iter__(self):
            self._check()
            for i in range(self._blen(self)):
                yield bytes(self._bget(self, slice(i, i + 1)))

        def __contains__(self, item):
            self._check()
            try:
                b = bytes(memoryview(item))
            except TypeError:
                return False
            return len(b) == 1 and self._bfind(self, b) >= 0

        def __eq__(self, other):
            return True if self is other else NotImplemented

        def __ne__(self, other):
            return False if self is other else NotImplemented

        __hash__ = object.__hash__

        def __repr__(self):
            if self._closed:
                return "<mmap.mmap closed=True>"
            return "<mmap.mmap closed=False, access=%s, length=%d, pos=%d, offset=%d>" % (
                ("ACCESS_DEFAULT", "ACCESS_READ", "ACCESS_WRITE", "ACCESS_COPY")[self._access],
                self._blen(self), self._pos, self._offset)

        __str__ = __repr__

        def __reduce_ex__(self, protocol):
            raise TypeError("cannot pickle 'mmap.mmap' object")

        def _not_supported(self, *args):
            return NotImplemented

        __add__ = __radd__ = __iadd__ = __mul__ = __rmul__ = __imul__ = _not_supported
        __mod__ = __rmod__ = __lt__ = __le__ = __gt__ = __ge__ = _not_supported

    # The mixin comes first, so that its methods win over bytes' and
    # bytearray's; the data and the buffer protocol are theirs.
    class _ReadOnlyMap(mmap, bytes):
        _blen, _bget = staticmethod(bytes.__len__), staticmethod(bytes.__getitem__)
        _bfind, _brfind = staticmethod(bytes.find), staticmethod(bytes.rfind)

        def __init__(self, *args, **kwargs):
            pass

    class _WritableMap(mmap, bytearray):
        _blen, _bget = staticmethod(bytearray.__len__), staticmethod(bytearray.__getitem__)
        _bfind, _brfind = staticmethod(bytearray.find), staticmethod(bytearray.rfind)

        def __init__(self, *args, **kwargs):
            pass

        def __del__(self):
            if not self.__dict__.get("_closed", True):
                self._sync_quietly()
                self._release()

        def _no_resize(self, *args):
            raise AttributeError("'mmap.mmap' object cannot change its size this way; use resize()")

        append = extend = insert = pop = remove = clear = _no_resize

    for cls in (mmap, _ReadOnlyMap, _WritableMap):
        cls.__module__ = "mmap"
    _ReadOnlyMap.__name__ = _WritableMap.__name__ = "mmap"
    _ReadOnlyMap.__qualname__ = _WritableMap.__qualname__ = "mmap"
    ns.update(mmap=mmap, error=OSError)
    module.__doc__ = ("mmap for the pybox sandbox (WASI has no memory mapping): a map holds a "
                      "copy of the file's bytes; a shared writable map writes its changes back "
                      "to the file on flush(), close() and after every run.")
"""



class _ProvidedLoader:
    """Makes a module the bundle does not have from a function here."""

    def __init__(self, make):
        self._make = make

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        self._make(module)


class _ProvidedFinder:
    """Provides modules CPython for WASI does not build (termios, mmap), only
    when nothing else on sys.path has them."""
    _modules = {"termios": _make_termios, "mmap": _make_mmap}

    def find_spec(self, name, path=None, target=None):
        make = self._modules.get(name)
        if make is None:
            return None
        import importlib.machinery
        return importlib.machinery.ModuleSpec(name, _ProvidedLoader(make), origin="pybox")


def _native_id():
    # The guest is one process with one thread; natively the main thread's
    # id is the process id, and so it is here.
    import os
    return os.getpid()


def _patch_threading(mod):
    mod._start_new_thread = _deny_thread
    # CPython for WASI has no native thread ids, so threading.get_native_id
    # and Thread.native_id were missing (scipy.fft's backend tests, logging
    # set-ups and profilers call them).
    if not hasattr(mod, "get_native_id"):
        mod.get_native_id = _native_id
        if "get_native_id" not in mod.__all__:
            mod.__all__.append("get_native_id")
        main = mod.main_thread()
        if getattr(main, "_native_id", None) is None:
            main._native_id = _native_id()


def _patch_thread():
    import _thread
    _thread.start_new_thread = _deny_thread
    _thread.start_new = _deny_thread
    if not hasattr(_thread, "get_native_id"):
        _thread.get_native_id = _native_id


class _PatchLoader:
    def __init__(self, loader, patch):
        self._loader, self._patch = loader, patch

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        try:
            self._patch(module)
        except Exception:
            # A refusal that could not be installed leaves WASI's own error
            # in place; it must never break the import.
            pass


class _PatchFinder:
    """Patches subprocess, socket, asyncio, threading, concurrent.futures'
    futures and thread pool, multiprocessing's pools and processes, shutil's
    mode copying and matplotlib.pyplot right after they are first imported,
    and keeps _pybox from user code's imports."""
    _targets = {"subprocess": _patch_subprocess, "socket": _patch_socket,
                "asyncio": _patch_asyncio, "threading": _patch_threading,
                "concurrent.futures": _patch_futures_pkg,
                "concurrent.futures._base": _patch_futures_base,
                "concurrent.futures.thread": _patch_futures_thread,
                "shutil": _patch_shutil, "signal": _patch_signal,
                "multiprocessing.context": _patch_mp_context,
                "multiprocessing.process": _patch_mp_process,
                "matplotlib.pyplot": lambda mod: _patch_pyplot(mod)}

    def find_spec(self, name, path=None, target=None):
        if name == "_pybox":
            raise ImportError("_pybox is pybox's internal runner interface; it is not "
                              "available to user code", name=name)
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
_patch_thread()
sys.meta_path.insert(0, _PatchFinder())
sys.meta_path.append(_ProvidedFinder())
for _name, _patch in _PatchFinder._targets.items():
    if _name in sys.modules:
        _patch(sys.modules[_name])
del _name, _patch


def _why(path):
    """The host's reason for refusing an operation on path ("" if none)."""
    import os
    return _call("explain", (os.getcwd() + "\0" + path).encode(
        "utf-8", "surrogateescape")).decode("utf-8", "replace")


# --- os.utime refusals that say why --------------------------------------
# CPython raises os.utime's errors without the file name, so the host is
# never asked why (see PyErr_SetFromErrnoWithFilenameObjects in
# scripts/cpython/pybox.patch): a refused utime on a read-only mount was a
# bare "[Errno 69] Read-only file system". Ask the host, as that C code does.
# (A traceback through a failed utime shows this wrapper's frame.)
def _patch_utime():
    import os
    from time import time_ns as _time_ns
    real = os.utime

    def utime(path, *args, **kwargs):
        if (not args or args[0] is None) and kwargs.get("times") is None and kwargs.get("ns") is None:
            # "Now" (no times): python.wasm's utimensat sets the epoch instead
            # (on every mount; tested below the runner), so pass the current
            # time explicitly, as the kernel would take it.
            now = _time_ns()
            args = ()
            kwargs = dict(kwargs, ns=(now, now))
            kwargs.pop("times", None)
        try:
            return real(path, *args, **kwargs)
        except OSError as e:
            if e.filename is not None or isinstance(path, int):
                raise
            try:
                p = os.fsdecode(path)
                why = _why(p)
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


# --- time.process_time -------------------------------------------------------
# python.wasm's process_time reads times(), which WASI cannot serve: every
# call returned the same constant (9223372036.854776), so a delta was 0 and
# code timing itself with process_time measured nothing; clock_gettime of
# CLOCK_PROCESS_CPUTIME_ID is EINVAL. The sandbox has no CPU clock. Its
# interpreter runs on one thread and only this program, so its monotonic
# time is the closest measure: a difference of two calls (the only thing
# process_time promises) times the code, waits in host calls (file reads,
# fetches) included. get_clock_info says which clock answers.
def _patch_process_time():
    import time
    real_info = time.get_clock_info

    def process_time():
        """Process time for profiling: in the pybox sandbox, the monotonic
        clock (no CPU clock reaches it); only differences are meaningful."""
        return time.monotonic()

    def process_time_ns():
        """Process time for profiling as nanoseconds: in the pybox sandbox,
        the monotonic clock; only differences are meaningful."""
        return time.monotonic_ns()

    def get_clock_info(name, /):
        """Get information of the specified clock."""
        if name == "process_time":
            info = real_info("monotonic")
            info.implementation = "monotonic (pybox: the sandbox has no CPU clock)"
            return info
        return real_info(name)

    time.process_time, time.process_time_ns, time.get_clock_info = process_time, process_time_ns, get_clock_info


_patch_process_time()


# --- Permission bits ------------------------------------------------------
# WASI's file status has no permission bits and WASI has no chmod: in
# python.wasm, os.stat(p).st_mode was 0o100000 for every file and os.chmod
# did nothing, even on a read-only mount. os.stat and os.lstat now ask the
# host for the bits (the host file's mode on a mount, the mode kept in
# memory for /tmp), os.chmod asks the host to set them (permission bits
# only, on writable mounts; refused elsewhere, with the reason), and
# os.access uses both (W_OK is false on a read-only mount). os.fstat,
# DirEntry.stat() and calls with dir_fd keep WASI's answer.
def _patch_modes():
    import errno
    import os

    real_stat, real_lstat, real_chmod, real_access = os.stat, os.lstat, os.chmod, os.access
    hidden = [n for n in ("st_atime", "st_mtime", "st_ctime", "st_atime_ns", "st_mtime_ns",
                          "st_ctime_ns", "st_blksize", "st_blocks", "st_rdev")
              if hasattr(os.stat_result, n)]

    getcwd, fsdecode = os.getcwd, os.fsdecode

    def ask(op, path, arg):
        p = fsdecode(path)
        cwd = "" if p[:1] == "/" else getcwd()
        return p, _call(op, (cwd + "\0" + p + "\0" + arg).encode(
            "utf-8", "surrogateescape")).decode()

    def mode(path, follow):
        # (permission bits, writable), or None if the host cannot tell.
        try:
            _, r = ask("mode", path, "1" if follow else "0")
            perm, w = r.split(",")
            return int(perm), w == "1"
        except Exception:
            return None

    def with_mode(st, m):
        if m is None:
            return st
        fields = tuple(st)
        return os.stat_result(((st.st_mode & 0o170000) | m[0],) + fields[1:],
                              {n: getattr(st, n) for n in hidden})

    def stat(path, *, dir_fd=None, follow_symlinks=True):
        st = real_stat(path, dir_fd=dir_fd, follow_symlinks=follow_symlinks)
        if dir_fd is None and not isinstance(path, int):
            st = with_mode(st, mode(path, follow_symlinks))
        return st

    def lstat(path, *, dir_fd=None):
        st = real_lstat(path, dir_fd=dir_fd)
        if dir_fd is None:
            st = with_mode(st, mode(path, False))
        return st

    def chmod(path, mode_, *, dir_fd=None, follow_symlinks=True):
        if dir_fd is not None or isinstance(path, int):
            return real_chmod(path, mode_, dir_fd=dir_fd, follow_symlinks=follow_symlinks)
        if not isinstance(mode_, int):
            raise TypeError("an integer is required (got type %s)" % type(mode_).__name__)
        # Check the path the usual way first (its errors say why).
        real_stat(path, follow_symlinks=follow_symlinks)
        p, err = ask("chmod", path, str(mode_ & 0o7777))
        if err:
            code = getattr(errno, err, errno.EIO)
            try:
                why = _why(p)
            except Exception:
                why = ""
            raise OSError(code, why or os.strerror(code), p)

    # The mode given when a file or folder is created: WASI drops it, so on
    # a host folder os.mkdir(p, 0o700) made 0o755 and os.open(p, O_CREAT,
    # 0o600) -- tempfile.mkstemp, private files -- made 0o644, readable by
    # everyone on the host. After the call creates the path, its bits are
    # set to mode & ~0o022 (the sandbox's umask, WASI having none), as the
    # kernel would have made them. Only when a mode other than the default
    # is given, and only if the bits differ, so a plain open or mkdir costs
    # nothing more.
    real_mkdir, real_open = os.mkdir, os.open

    def created_with(path, mode_):
        want = mode_ & 0o7777 & ~0o022
        m = mode(path, False)
        if m is not None and m[0] != want and m[1]:
            try:
                chmod(path, want)
            except OSError:
                pass

    def mkdir(path, mode=0o777, *, dir_fd=None):
        real_mkdir(path, mode, dir_fd=dir_fd)
        if dir_fd is None and mode & 0o7777 != 0o777:
            created_with(path, mode)

    def open_(path, flags, mode=0o777, *, dir_fd=None):
        new = (flags & os.O_CREAT and mode & 0o7777 not in (0o666, 0o777) and dir_fd is None
               and not isinstance(path, int))
        if new:
            try:
                real_lstat(path)
                new = False
            except OSError:
                pass
        fd = real_open(path, flags, mode, dir_fd=dir_fd)
        if new:
            created_with(path, mode)
        return fd

    def access(path, mode_, *, dir_fd=None, effective_ids=False, follow_symlinks=True):
        ok = real_access(path, mode_, dir_fd=dir_fd, effective_ids=effective_ids,
                         follow_symlinks=follow_symlinks)
        if not ok or mode_ == os.F_OK or dir_fd is not None or isinstance(path, int):
            return ok
        m = mode(path, follow_symlinks)
        if m is None:
            return ok
        perm, writable = m
        # The guest owns what it can reach: the owner's bits decide.
        if mode_ & os.R_OK and not perm & 0o400:
            return False
        if mode_ & os.W_OK and not (writable and perm & 0o200):
            return False
        if mode_ & os.X_OK and not perm & 0o100:
            return False
        return True

    # chown changes nothing (see _patch_os), but like any write it is
    # refused where the path is read-only: a read-only mount or the bundle.
    stub_chown = os.chown

    def chown(path, uid, gid, *, dir_fd=None, follow_symlinks=True):
        stub_chown(path, uid, gid, dir_fd=dir_fd, follow_symlinks=follow_symlinks)
        if dir_fd is None and not isinstance(path, int):
            m = mode(path, follow_symlinks)
            if m is not None and not m[1]:
                p = fsdecode(path)
                raise OSError(errno.EROFS, "chown denied: %s is read-only in the sandbox "
                              "(a read-only mount or the bundle)" % p, p)
    if getattr(stub_chown, "__module__", None) == __name__:
        os.chown = chown
        os.lchown = lambda path, uid, gid: chown(path, uid, gid, follow_symlinks=False)

    # os.path's tests (exists, isfile, isdir, islink, getsize, ...) look only
    # at a file's type, size and times: they keep the plain stat, which is
    # several times faster than asking the host for the bits as well.
    import genericpath
    import posixpath
    import types

    class PlainStatOs(types.ModuleType):
        def __getattr__(self, name):
            return getattr(os, name)

    plain = PlainStatOs(os.__name__)
    plain.__dict__.update(os.__dict__)
    plain.stat, plain.lstat = real_stat, real_lstat
    genericpath.os = posixpath.os = plain

    # Natively posixpath shares the one os module: code that assigns os.X
    # (monkeypatching os.getcwd or os.lstat, unittest.mock.patch("os.X"))
    # changes what os.path sees. Assignments to os reach the proxy too; the
    # runner's own stat and lstat stay the plain ones there.
    ours = {"stat": (stat, real_stat), "lstat": (lstat, real_lstat)}

    class MirroredOs(types.ModuleType):
        def __setattr__(self, name, value):
            super().__setattr__(name, value)
            if name in ours and value is ours[name][0]:
                value = ours[name][1]
            plain.__dict__[name] = value

        def __delattr__(self, name):
            super().__delattr__(name)
            plain.__dict__.pop(name, None)

    os.__class__ = MirroredOs

    for new, real in ((stat, real_stat), (lstat, real_lstat), (chmod, real_chmod), (access, real_access),
                      (mkdir, real_mkdir), (open_, real_open)):
        new.__doc__, new.__module__ = real.__doc__, real.__module__
        new.__name__ = new.__qualname__ = real.__name__
        setattr(os, real.__name__, new)
        # shutil and others check these sets for the functions themselves.
        for s in (os.supports_dir_fd, os.supports_fd, os.supports_follow_symlinks,
                  os.supports_effective_ids):
            if real in s:
                s.add(new)



# --- Figures come back by themselves -------------------------------------
# As in a notebook: the matplotlib figures open when a job ends, and those
# open at each plt.show(), are saved as PNG files into the job's figure
# folder (the host names it, normally /output, where the host picks up new
# files and returns images to the model) and closed. Only matplotlib's public
# pyplot API is used, and only if user code imported pyplot: the runner never
# imports matplotlib for this. An error while saving one figure (too large,
# out of memory) is reported on stderr and the figure is closed; the job and
# the interpreter go on.
_figdir = ""  # this job's figure folder; "" means capture is off


# The most pixel bytes (RGBA) a figure may have to be captured: 2 GiB, more
# than a wasm32 interpreter can allocate beside anything else.
_FIGURE_BYTES = 1 << 31


class _TooLarge(Exception):
    pass


def _figure_file(folder, n):
    # The first free name figure-N.png at or after n, created exclusively so
    # that no file is ever overwritten; returns (path, open file, next n).
    import os
    while True:
        p = "%s/figure-%d.png" % (folder, n)
        n += 1
        if os.path.lexists(p):
            continue
        try:
            return p, open(p, "xb"), n
        except FileExistsError:
            continue


def _save_figures(plt, folder):
    # Saves and closes every open pyplot figure. Returns nothing; failures
    # are written to stderr.
    import os
    n = 1
    for num in plt.get_fignums():
        p = size = None
        try:
            fig = plt.figure(num)
            if getattr(fig, "_pybox_saved", False):
                continue  # the code saved it into the folder itself: closed only
            try:
                w, h = fig.get_size_inches() * fig.dpi
                size = "%dx%d pixels" % (round(w), round(h))
            except Exception:
                w = h = 0
            if w * h * 4 >= _FIGURE_BYTES:
                # Its pixels cannot be held in wasm32's memory (and their
                # byte count would wrap around a 32-bit size_t in C++).
                raise _TooLarge()
            p, f, n = _figure_file(folder, n)
            try:
                with f:
                    fig.savefig(f, format="png", bbox_inches="tight")
            except BaseException:
                try:
                    os.remove(p)  # no half-written figure is left behind
                except OSError:
                    pass
                raise
        except Exception as e:
            global _reserve
            if isinstance(e, MemoryError):
                _reserve = None
            try:
                what = "%s: %s" % (type(e).__qualname__, e)
            except Exception:
                what = type(e).__qualname__
            where = " as %s" % p if p else ""
            if isinstance(e, _TooLarge):
                what = "it is %s, more than the sandbox can render: make it smaller with figsize or dpi" % size
            elif size and isinstance(e, (MemoryError, ValueError, OverflowError)):
                what += " (the figure is %s: make it smaller with figsize or dpi)" % size
            try:
                sys.stderr.write("pybox: figure %s could not be saved%s: %s; it was closed\n"
                                 % (num, where, what))
                _flush(sys.stderr)
            except Exception:
                pass
            if _reserve is None:
                try:
                    _reserve = bytearray(256 * 1024)
                except MemoryError:
                    pass
        finally:
            try:
                plt.close(num)
            except Exception:
                pass


def _capture_figures():
    # At the end of a job: the figures still open, if pyplot is in use.
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None and _figdir:
        _save_figures(plt, _figdir)


def _patch_pyplot(mod):
    real = mod.show

    def show(*args, **kwargs):
        if not _figdir:
            return real(*args, **kwargs)
        _save_figures(mod, _figdir)

    show.__doc__, show.__module__ = real.__doc__, real.__module__
    show.__name__ = show.__qualname__ = "show"
    mod.show = show

    # A figure the code saved into the figure folder itself (the common
    # plt.savefig("/output/chart.png"); plt.show()) is not saved a second
    # time as figure-N.png: the model would get the same image twice.
    import os
    cls = mod.Figure
    real_save = cls.savefig

    def savefig(self, fname, *args, **kwargs):
        out = real_save(self, fname, *args, **kwargs)
        try:
            if _figdir and isinstance(fname, (str, os.PathLike)):
                p = os.path.abspath(os.fsdecode(fname))
                if p.startswith(_figdir.rstrip("/") + "/"):
                    self._pybox_saved = True
        except Exception:
            pass
        return out

    savefig.__doc__, savefig.__module__ = real_save.__doc__, real_save.__module__
    savefig.__name__, savefig.__qualname__ = real_save.__name__, real_save.__qualname__
    cls.savefig = savefig


# --- Packages that are not there --------------------------------------------
# A model's first attempt often imports a package the bundle lacks (scipy,
# sklearn). Python's "No module named 'scipy'" leaves it guessing; for these
# well-known names the error says that nothing can be installed and what is
# there, listed from the bundle's (and the user's) site-packages at the time
# of the error. Only the import statement gets the longer error, once every
# other finder has failed (the finder is last): importlib.util.find_spec,
# which libraries use to probe for optional packages, still gets None.
_WELL_KNOWN = frozenset((
    "scipy", "sklearn", "statsmodels", "seaborn", "matplotlib", "pandas", "polars",
    "pyarrow", "plotly", "bokeh", "altair", "torch", "tensorflow", "keras", "jax",
    "xgboost", "lightgbm", "catboost", "cv2", "skimage", "numba", "requests",
    "httpx", "sqlalchemy", "duckdb",
))


# What to use instead, for the names a data-analysis task most often
# reaches for (given when numpy is there; %s names pandas' part if it is).
_HINTS = {
    "scipy": "Much of it is in numpy: np.linalg, np.fft, np.polyfit, np.corrcoef, np.percentile, "
             "np.histogram; for statistics also %sthe statistics module.",
    "sklearn": "Fit models with numpy: linear regression with np.linalg.lstsq, scaling and "
               "distances with array arithmetic; for summaries %sthe statistics module.",
    "statsmodels": "Regressions with np.linalg.lstsq (add a column of ones for the intercept); "
                   "correlations and summaries with %snp.corrcoef.",
}

_importable_names = None


def _importable():
    # Top-level names importable from site-packages folders on sys.path,
    # listed once per interpreter (libraries probe for optional packages
    # at import: pandas for pyarrow, seaborn for statsmodels).
    global _importable_names
    if _importable_names is None:
        _importable_names = _list_importable()
    return _importable_names


def _list_importable():
    import os
    names = set()
    for d in sys.path:
        if not (d.endswith("site-packages") or d.endswith("user-site")):
            continue
        try:
            entries = os.listdir(d)
        except OSError:
            continue
        for e in entries:
            base = e.split(".", 1)[0]
            if (e.endswith((".dist-info", ".egg-info", ".pth", ".txt")) or base.startswith("_")
                    or not base.isidentifier()):
                continue
            if "." in e and not e.endswith((".py", ".pyc", ".so")):
                continue
            names.add(base)
    return sorted(names, key=str.lower)


class _MissingFinder:
    def find_spec(self, name, path=None, target=None):
        if path is not None or name not in _WELL_KNOWN:
            return None
        try:
            # _find_and_load_unlocked -> _find_spec -> here, for an import
            # statement; importlib.util.find_spec -> _find_spec -> here.
            if sys._getframe(2).f_code.co_name != "_find_and_load_unlocked":
                return None
        except ValueError:
            return None
        names = _importable()
        have = ", ".join(names) or "only the standard library"
        hint = ""
        if name in _HINTS and "numpy" in names:
            hint = " " + _HINTS[name] % (
                "pandas' DataFrame.corr/describe/groupby and " if "pandas" in names else "")
        raise ModuleNotFoundError(
            "No module named %r: %s is not available in the pybox sandbox, and nothing can be "
            "installed (no pip, no network). Importable besides the standard library: %s.%s"
            % (name, name, have, hint), name=name)


def _fields(raw):
    # Decodes length-prefixed fields (see the wire format above).
    i, n = 0, len(raw)
    while i < n:
        kl = int.from_bytes(raw[i:i + 4], "little")
        k = raw[i + 4:i + 4 + kl].decode("ascii")
        i += 4 + kl
        vl = int.from_bytes(raw[i:i + 4], "little")
        v = raw[i + 4:i + 4 + vl].decode("utf-8", "surrogateescape")
        i += 4 + vl
        yield k, v


def _encode(pairs):
    out = bytearray()
    for k, v in pairs:
        kb = k.encode("ascii")
        vb = str(v).encode("utf-8", "surrogateescape")
        out += len(kb).to_bytes(4, "little") + kb + len(vb).to_bytes(4, "little") + vb
    return bytes(out)


def _job(raw):
    job = {"argv": []}
    for k, v in _fields(raw):
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


# How many of an exception's innermost traceback entries are shown: the
# interpreter's own printer shows sys.tracebacklimit of them, 1000 unless set.
_TB_LIMIT = 1000
# Entries of one repeated line shown before "[Previous line repeated ...]"
# (the traceback module's _RECURSIVE_CUTOFF).
_TB_REPEAT = 3


class _Stack(traceback.StackSummary):
    """The formatted part of a traceback that was trimmed before extraction
    (see _trim): it says what was left out where the traceback module would.
    """
    dropped = 0  # outermost entries beyond the limit
    repeats = {}  # index of a kept entry -> repeats of it left out after it

    def format(self):
        out = []
        if self.dropped:
            out.append("  [%d earlier entr%s not shown]\n" % (
                self.dropped, "ies" if self.dropped > 1 else "y"))
        for i, fs in enumerate(self):
            line = self.format_frame_summary(fs)
            if line is not None:
                out.append(line)
            n = self.repeats.get(i)
            if n:
                out.append("  [Previous line repeated %d more time%s]\n" % (n, "s" if n > 1 else ""))
        return out


def _trim(tb):
    """Returns a new traceback chain with only the entries that will be
    shown, the number of outer entries dropped, and the repeats left out.

    The traceback module extracts and formats every entry, repeated or not
    (a source lookup, a code-position scan and a compile() for the carets
    each): after a deep recursion that is minutes of work in the guest for
    three lines of output. Here the chain is walked once with attribute
    reads, and only what is shown is extracted."""
    limit = getattr(sys, "tracebacklimit", _TB_LIMIT)
    if not isinstance(limit, int):
        limit = _TB_LIMIT
    depth, t = 0, tb
    while t is not None:
        depth += 1
        t = t.tb_next
    dropped = max(depth - max(limit, 0), 0)
    for _ in range(dropped):
        tb = tb.tb_next
    kept, repeats, last, run = [], {}, None, 0
    while tb is not None:
        co = tb.tb_frame.f_code
        if co.co_filename == "<pybox-runner>":
            # The runner's own frames (an import it refused, say) are not
            # the user's code.
            tb = tb.tb_next
            continue
        key = (co.co_filename, tb.tb_lineno, co.co_name)
        run = run + 1 if key == last else 1
        last = key
        if run <= _TB_REPEAT:
            kept.append(tb)
        else:
            i = len(kept) - 1
            repeats[i] = repeats.get(i, 0) + 1
        tb = tb.tb_next
    new = None
    for t in reversed(kept):
        new = _TracebackType(new, t.tb_frame, t.tb_lasti, t.tb_lineno)
    return new, dropped, repeats


def _linked(e):
    # The exceptions the traceback module formats along with e.
    out = [e.__cause__, e.__context__]
    if isinstance(e, BaseExceptionGroup):
        out.extend(e.exceptions)
    return [c for c in out if isinstance(c, BaseException)]


def _format(exc, filename, code):
    lines = code.splitlines(True)
    linecache.cache[filename] = (len(code), None, lines, filename)
    _flush(sys.stdout)
    tb = exc.__traceback__
    # Hide the runner's own frames: the user's code is the outermost frame.
    while tb is not None and tb.tb_frame.f_code.co_filename == "<pybox-runner>":
        tb = tb.tb_next
    # Chained exceptions are formatted from their own __traceback__: those
    # are trimmed in place while formatting, and put back after (user code
    # may still hold them).
    trimmed = {}  # id(exception) -> (dropped, repeats)
    saved = []
    try:
        tb, dropped, repeats = _trim(tb)
        trimmed[id(exc)] = (dropped, repeats)
        todo = [exc]
        while todo:
            for c in _linked(todo.pop()):
                if id(c) not in trimmed:
                    saved.append((c, c.__traceback__))
                    c.__traceback__, dropped, repeats = _trim(c.__traceback__)
                    trimmed[id(c)] = (dropped, repeats)
                    todo.append(c)
        te = traceback.TracebackException(type(exc), exc, tb, compact=True)
        pairs, seen = [(te, exc)], set()
        while pairs:
            t, e = pairs.pop()
            if id(t) in seen:
                continue
            seen.add(id(t))
            st = _Stack(t.stack)
            st.dropped, st.repeats = trimmed.get(id(e), (0, {}))
            t.stack = st
            if t.__cause__ is not None and e.__cause__ is not None:
                pairs.append((t.__cause__, e.__cause__))
            if t.__context__ is not None and e.__context__ is not None:
                pairs.append((t.__context__, e.__context__))
            if t.exceptions and isinstance(e, BaseExceptionGroup):
                pairs.extend(zip(t.exceptions, e.exceptions))
        text = "".join(te.format())
    finally:
        for c, t in saved:
            c.__traceback__ = t
    sys.stderr.write(text)
    _flush(sys.stderr)
    return text


# A final expression statement is assigned to this global by
# _pybox.compile_cell, and popped right after the run.
_VALUE = "__pybox_value__"


def _run(job):
    """Runs one job, then saves its open figures; returns (kind, exit code,
    exc type, message, traceback, value repr)."""
    global _figdir
    _figdir = job.get("figures", "")
    try:
        out = _exec(job)
        if out[0] != "interrupt":
            _capture_figures()
    except KeyboardInterrupt:
        # The deadline passed while the figures were saved.
        _call("caught", b"")
        out = ("interrupt", 1, "KeyboardInterrupt", "", "", "")
    finally:
        _figdir = ""
    return out


def _exec(job):
    """Runs one job's code; returns (kind, exit code, exc type, message,
    traceback, value repr)."""
    filename = job.get("filename") or "<string>"
    code = job.get("code", "")
    sys.argv = [filename] + job["argv"]
    g = sys.modules["__main__"].__dict__
    g["__file__"] = filename
    value = ""
    try:
        # Compiled like a notebook cell: the value of a final expression
        # statement is kept (see _pybox.compile_cell).
        if "\0" in code:
            # compile_cell takes a C string; compile() gives Python's own
            # error for source with NUL bytes.
            compile(code, filename, "exec")
        body, has_value = _compile_cell(code, filename, _VALUE)
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
        _call("caught", b"")  # lets the host time the interrupt
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


# A DataFrame or Series as a job's value is shown as a table of at most this
# many rows (the first and last _TABLE_MIN_ROWS // 2 of a longer one) and
# columns, each cell cut at _TABLE_COLWIDTH characters. Unlike repr, which
# wraps a wide frame into blocks of columns to fit 80 characters, every row
# is one line, and the shape is always given.
_TABLE_ROWS, _TABLE_MIN_ROWS, _TABLE_COLS, _TABLE_COLWIDTH = 60, 20, 20, 50


def _table(v):
    # The table for a pandas DataFrame or Series, or None for anything else.
    pd = sys.modules.get("pandas")
    if pd is None:
        return None
    if isinstance(v, pd.DataFrame):
        return v.to_string(max_rows=_TABLE_ROWS, min_rows=_TABLE_MIN_ROWS, max_cols=_TABLE_COLS,
                           max_colwidth=_TABLE_COLWIDTH, show_dimensions=True)
    if isinstance(v, pd.Series):
        return v.to_string(max_rows=_TABLE_ROWS, min_rows=_TABLE_MIN_ROWS, length=True,
                           dtype=True, name=True)
    return None


def _repr(v):
    try:
        r = None
        try:
            r = _table(v)
        except Exception:
            pass  # the plain repr then
        if r is None:
            r = repr(v)
    except BaseException as e:
        r = "<repr failed: %s>" % type(e).__qualname__
    if len(r) > 20000:
        r = r[:20000] + "... [%d characters cut]" % (len(r) - 20000)
    return r


def _paths():
    # Extra import paths from the host (the user's added packages).
    for p in filter(None, _call("paths", b"").decode().split("\0")):
        if p not in sys.path:
            sys.path.append(p)


def _preload():
    # Modules the operator wants ready before the first job (Config.Preload):
    # imported into sys.modules only, so user code still has to import them
    # but pays nothing. A failure here is not the user's: the interpreter
    # starts without that module, and the host logs the reason for the
    # operator ("preload_error": module, then the exception).
    names = _call("preload", b"").decode()
    for name in filter(None, names.split("\0")):
        try:
            if name == "matplotlib.pyplot" and "matplotlib" not in sys.modules:
                _matplotlib_setup()
            __import__(name)
        except Exception as e:
            _call("preload_error", ("%s\0%s: %s" % (name, type(e).__name__, e)).encode("utf-8", "replace"))


def _matplotlib_setup():
    # Imports matplotlib during set-up, where "/" is an empty read-only
    # folder (no /tmp): matplotlib resolves its config folder at import,
    # and, finding ~/.matplotlib (HOME is /tmp) impossible to create and no
    # temporary folder either, would refuse to import. An existing folder of
    # the bundle (read-only, which matplotlib does not check up front) serves
    # instead; it holds no matplotlibrc, so the bundle's defaults apply, and
    # the font list comes with the bundle. Runs inherit the setting.
    import os
    if "MPLCONFIGDIR" not in os.environ:
        for d in (sys.prefix + "/share", sys.prefix):
            if os.path.isdir(d):
                os.environ["MPLCONFIGDIR"] = d
                break
    import matplotlib
    # The sandbox has no display: Agg, chosen up front, spares pyplot its
    # search through GUI toolkits.
    matplotlib.use("Agg")


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
    _call("fds", ",".join(fds).encode())


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
    if _call("warm", b""):
        _warm_up()


# A job like most: compiled as a cell, building and printing a few objects,
# with a value. Run once before the first job, in a namespace of its own.
_WARM_UP = """\
rows = [{"n": i, "name": "row %d" % i, "x": i / 7} for i in range(300)]
total = sum(r["x"] for r in rows)
names = sorted({r["name"] for r in rows}, reverse=True)
print(len(rows), round(total, 3), names[:3], f"{total:.2f}", file=out)
rows[-1]
"""


def _warm_up():
    # Done only by interpreters made ahead of time (the host's warm pool):
    # in one made for a run at once (the CLI), it would delay the run.
    # An interpreter restored from a snapshot shares the snapshot's memory
    # until it writes to it, and pays for each page on its first write (a
    # copy-on-write fault in the host). Before it is handed a job, while it
    # waits in the host's pool, running a small job writes most of the pages
    # any job writes (the compiler's and the allocator's, the frame stack,
    # the output machinery), so that the job itself runs without those
    # faults: it took the time of a fresh run with numpy, pandas and pyplot
    # preloaded from ~2 ms to ~0.4 ms. It imports nothing and leaves nothing
    # behind but freed memory.
    import io
    body, _ = _compile_cell(_WARM_UP, "<warm-up>", _VALUE)
    exec(body, {"out": io.StringIO()})


_OUTCOME = ("kind", "exit", "type", "message", "traceback", "value")


def _serve():
    _fresh()
    status = 0
    while True:
        raw = None
        try:
            raw = _call("job", b"")
            job = _job(raw)
            out = _run(job)
        except KeyboardInterrupt:
            if raw is None:
                # An interrupt aimed at the job just reported, landing after
                # it ended: the host clears it as it hands out the next job.
                continue
            # The job was interrupted before its code started (its
            # deadline had all but passed): reported like any interrupt.
            job = _job(raw)
            out = ("interrupt", 1, "KeyboardInterrupt", "", "", "")
        except OSError:
            if raw is not None:
                raise
            # The host has no more jobs for this interpreter.
            sys.exit(status)
        status = out[1]
        if _mmap_live:
            # The file behind a shared writable map holds the map's changes
            # once the run is over, as with a real mapping.
            _sync_maps()
        _flush()
        once = job.get("mode") == "once"
        if once:
            # A one-off interpreter is discarded after its job: run the
            # atexit handlers now (their output belongs to the run) and skip
            # interpreter finalization, which costs tens of milliseconds.
            atexit._run_exitfuncs()
            _flush()
        _call("done", _encode(zip(_OUTCOME, out)))
        if once:
            # Back to the host, which discards the instance; the exit status
            # is the one just reported. (os._exit would make the host close
            # the module inside the guest's call, on the run's time.)
            return status
        del job, out


# CPython for WASI defaults to a recursion limit of 600, sized for its
# 512 KiB C stack; pybox links python.wasm with an 8 MiB one (as Linux's
# main thread has), where Linux's default of 1000 holds: every path that
# recurses through C at each level (repr, ==, hash, json, pickle, deepcopy,
# __getattr__) still ends in RecursionError there, tested up to 3000
# (runtime/testdata/recursion.py).
sys.setrecursionlimit(1000)
sys.meta_path.append(_MissingFinder())
_paths()
_preload()
# After the preloads: matplotlib, preloaded while "/" is empty and read-only,
# takes a read-only folder of the bundle as its configuration folder, which
# the mode-aware os.access would rightly call unwritable.
_patch_modes()
_open_fds()
# User code gets no handle on the host interface from the import system:
# the runner keeps what it needs (_call, _compile_cell), and the finder above
# refuses the name. (It is still reachable through the runner's own frames
# and objects; the host's protocol checks are what hold.)
del sys.modules["_pybox"], _pybox
# Everything allocated so far is moved out of the collector's reach: a
# collection would otherwise walk (and write to) every object of the boot,
# copying every page of a snapshot an interpreter starts from.
import gc
gc.collect()
gc.freeze()
del gc
