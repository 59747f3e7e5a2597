# Modules and names CPython for WASI leaves out, which pybox's runner fills
# in for a sandbox without terminals, signals or sockets: termios (so tty and
# getpass's terminal path import), signal.valid_signals, and socket.socket's
# full method set (each refusing).
import errno
import getpass
import os
import signal
import socket
import termios
import tty
from unittest import mock

try:
    termios.tcgetattr(0)
except termios.error as e:
    print("tcgetattr", e.args[0] == errno.ENOTTY, e.args[1])
fd = os.open("/tmp/closed.txt", os.O_CREAT | os.O_WRONLY)
os.close(fd)
try:
    termios.tcgetattr(fd)
except termios.error as e:
    print("closed fd", e.args[0] == errno.EBADF)
with open("/tmp/f.txt", "w") as f:
    try:
        tty.setraw(f)
    except termios.error as e:
        print("setraw", e.args[0] == errno.ENOTTY)
try:
    termios.tcsetattr(0, termios.TCSANOW, [1])
except TypeError as e:
    print("tcsetattr", e)
print("constants", termios.ECHO, termios.TCSAFLUSH, termios.VMIN, termios.B38400)
print("getpass", getpass.getpass.__name__)

valid = signal.valid_signals()
print("valid_signals", signal.SIGINT in valid, signal.SIGTERM in valid, len(valid) == signal.NSIG - 1)

# os.kill: the sandbox is one process. Signals to itself arrive; signal 0
# and signals without a default action in WASI no longer crash the
# interpreter (they did: a wasm trap).
got = []
signal.signal(signal.SIGUSR1, lambda signum, frame: got.append(signum))
os.kill(os.getpid(), signal.SIGUSR1)
os.kill(0, signal.SIGUSR1)
print("kill self", got == [signal.SIGUSR1] * 2, os.kill(os.getpid(), 0))
try:
    os.kill(os.getpid() + 1, 0)
except ProcessLookupError as e:
    print("kill other", e.errno == errno.ESRCH)
signal.raise_signal(0)
try:
    signal.raise_signal(40)
except OSError as e:
    print("raise_signal 40", e.errno == errno.EINVAL)
signal.signal(40, lambda signum, frame: got.append(signum))
signal.raise_signal(40)
print("raise_signal 40 handled", got[-1] == 40)

m = mock.Mock(spec=socket.socket)
m.getsockname.return_value = ("127.0.0.1", 80)
print("mock socket", m.getsockname(), m.getpeername() is not None)
s = socket.socket.__new__(socket.socket)
for name in ("getsockname", "getpeername", "listen", "setsockopt", "recvfrom", "sendmsg"):
    try:
        getattr(s, name)()
    except PermissionError as e:
        print("socket", name, "network denied" in str(e))

# os.waitpid and friends: no child process exists.
try:
    os.waitpid(-1, os.WNOHANG)
except ChildProcessError as e:
    print("waitpid", e.errno == errno.ECHILD)
print("wait status", os.waitstatus_to_exitcode(3 << 8), os.waitstatus_to_exitcode(9),
      os.WIFEXITED(0), os.WIFSIGNALED(9), os.WIFSTOPPED(0x137f))
import asyncio
w = asyncio.FastChildWatcher()
loop = asyncio.new_event_loop()
w.attach_loop(loop)
print("child watcher attached", w._loop is loop)
w.close()
loop.close()

# os.path sees what code assigns to os (monkeypatching, mock.patch), as
# natively, although pybox's os.path keeps its own plain stat.
import posixpath
with mock.patch("os.getcwd", return_value="/home/user/bar"):
    print("patched getcwd", posixpath.abspath("x"), posixpath.relpath("/home/user/bar/baz"))
with mock.patch("os.lstat", side_effect=FileNotFoundError):
    print("patched lstat", os.path.lexists("/tmp/f.txt"))
print("unpatched", os.path.lexists("/tmp/f.txt"), posixpath.abspath("x") == posixpath.join(os.getcwd(), "x"),
      oct(os.stat("/tmp/f.txt").st_mode & 0o777) != "0o0")

# The mode given at creation is kept (WASI drops it: on a host folder
# mkdir(p, 0o700) made 0o755 and mkstemp's 0o600 files were 0o644).
import stat
import tempfile
for base in ("/work", "/tmp"):
    os.mkdir(base + "/private", 0o700)
    os.makedirs(base + "/a/b", 0o750)
    os.mkdir(base + "/plain")
    fd, name = tempfile.mkstemp(dir=base)
    os.close(fd)
    os.close(os.open(base + "/shared.txt", os.O_CREAT | os.O_WRONLY, 0o640))
    os.chmod(base + "/shared.txt", 0o604)
    os.close(os.open(base + "/shared.txt", os.O_CREAT | os.O_WRONLY, 0o600))  # exists: unchanged
    with open(base + "/plain.txt", "w"):
        pass
    names = ["private", "a/b", os.path.basename(name), "shared.txt"]
    if base == "/work":
        # Defaults on a host folder, as natively with umask 022. (/tmp's
        # defaults are 0o700 and 0o600: wazero's, kept in memory.)
        names += ["a", "plain", "plain.txt"]
    bits = [oct(stat.S_IMODE(os.stat(base + "/" + p).st_mode)) for p in names]
    print("modes", base, " ".join(bits))

# time.process_time: a difference of two calls measures the code between
# them (python.wasm returned one constant, so every difference was 0).
import time
t0, n0 = time.process_time(), time.process_time_ns()
sum(range(2_000_000))
d, dn = time.process_time() - t0, time.process_time_ns() - n0
print("process_time", 0 < d < 60, 0 < dn < 60e9, time.get_clock_info("process_time").monotonic)
