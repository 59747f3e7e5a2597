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
print("valid_signals", signal.SIGINT in valid, signal.SIGTERM in valid, len(valid) == len(signal.Signals))

m = mock.Mock(spec=socket.socket)
m.getsockname.return_value = ("127.0.0.1", 80)
print("mock socket", m.getsockname(), m.getpeername() is not None)
s = socket.socket.__new__(socket.socket)
for name in ("getsockname", "getpeername", "listen", "setsockopt", "recvfrom", "sendmsg"):
    try:
        getattr(s, name)()
    except PermissionError as e:
        print("socket", name, "network denied" in str(e))
