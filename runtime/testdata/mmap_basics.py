# mmap and numpy.memmap: each line as native CPython 3.11 / numpy 2.4.6 on
# Linux prints it (pybox's mmap holds a copy of the file and writes a shared
# writable map's changes back; see _make_mmap in runtime/guest/runner.py).
import errno
import mmap
import os
import pickle
import tempfile

import numpy as np

d = tempfile.mkdtemp()
path = os.path.join(d, "hello.txt")
with open(path, "wb") as f:
    f.write(b"Hello Python!\n")

# The example of Python's documentation: change a file through a map.
with open(path, "r+b") as f:
    mm = mmap.mmap(f.fileno(), 0)
    print("readline", mm.readline(), mm.tell(), len(mm), mm.size())
    print("slice", mm[:5], mm[0], mm[-1], mm.find(b"Py", 0), mm.rfind(b"o"))
    mm[6:] = b" world!\n"
    mm.seek(0)
    print("after", mm.readline(), mm.closed)
    mm.close()
    print("closed", mm.closed)
with open(path, "rb") as f:
    print("file", f.read())

# A map outlives the file object it was made from (numpy.memmap's way).
with open(path, "r+b") as f:
    mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_WRITE)
mm[0:5] = b"HELLO"
mm.flush()
with open(path, "rb") as f:
    print("outlives", f.read())
mm.write_byte(ord("J"))
print("write", mm.tell(), mm.write(b"ELL"), mm.tell(), mm.read(4), mm.read_byte())
mm.move(0, 6, 5)
mm.close()
with open(path, "rb") as f:
    print("moved", f.read())

# Read-only and copy-on-write maps leave the file alone.
with open(path, "rb") as f:
    ro = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    cp = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_COPY)
for what, op in [("setitem", lambda: ro.__setitem__(0, 65)), ("write", lambda: ro.write(b"x")),
                 ("resize", lambda: cp.resize(3))]:
    try:
        op()
    except TypeError as e:
        print("refused", what, e)
cp[0:5] = b"copy!"
print("copy", cp[:6], ro[:6])
with open(path, "rb") as f:
    print("untouched", f.read()[:6])
print("repr", repr(cp).replace("ACCESS_COPY", "copy"))
ro.close()
print("repr closed", repr(ro), ro.closed)
with open(path, "rb") as f:
    try:
        mmap.mmap(f.fileno(), 0)
    except PermissionError as e:
        print("read-only file", errno.errorcode[e.errno])

# Anonymous maps, iteration, errors.
an = mmap.mmap(-1, 8)
an[2] = 7
an.resize(10)
print("anon", len(an), list(an)[:3], b"\x07" in an, an[:], an == an, an != an)
for args, kw in [((-1, -1), {}), ((-1, 4), {"offset": 100}), ((-1, 4), {"access": 9}),
                 ((-1, 4), {"flags": mmap.MAP_PRIVATE, "access": mmap.ACCESS_READ}), ((-1, 0), {})]:
    try:
        mmap.mmap(*args, **kw)
    except OSError as e:
        print("error", type(e).__name__, errno.errorcode[e.errno])
    except Exception as e:
        print("error", type(e).__name__, e)
empty = os.path.join(d, "empty")
open(empty, "wb").close()
with open(empty, "rb") as f:
    try:
        mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except ValueError as e:
        print("empty", e)
with open(path, "rb") as f:
    try:
        mmap.mmap(f.fileno(), 100, access=mmap.ACCESS_READ)
    except ValueError as e:
        print("too long", e)
for what, op in [("index", lambda: an[20]), ("seek", lambda: an.seek(11)),
                 ("value", lambda: an.__setitem__(0, 300)), ("size", lambda: an.__setitem__(slice(0, 2), b"abc")),
                 ("pickle", lambda: pickle.dumps(an)), ("add", lambda: an + b"x")]:
    try:
        op()
    except Exception as e:
        print("error", what, type(e).__name__)
an.close()
try:
    len(an)
except ValueError as e:
    print("closed map", e)
with mmap.mmap(-1, 3) as m:
    m.write(b"abc")
    print("with", m[:], m.closed)
print("with closed", m.closed)

# numpy.memmap: create, change, flush, read back, copy-on-write, offset.
fn = os.path.join(d, "data.f32")
fp = np.memmap(fn, dtype="float32", mode="w+", shape=(3, 4))
fp[:] = np.arange(12, dtype="float32").reshape(3, 4)
fp.flush()
print("memmap size", os.path.getsize(fn))
newfp = np.memmap(fn, dtype="float32", mode="r", shape=(3, 4))
print("memmap read", newfp[2].tolist(), newfp.flags.writeable)
try:
    newfp[0, 0] = 1
except ValueError as e:
    print("memmap read-only", e)
r2 = np.memmap(fn, dtype="float32", mode="r+", shape=(3, 4))
r2[0, 0] = 100.0
del r2
print("memmap r+", np.fromfile(fn, dtype="float32")[:2].tolist())
fpc = np.memmap(fn, dtype="float32", mode="c", shape=(3, 4))
fpc[0, :] = 0.0
print("memmap copy", fpc[0].tolist(), np.fromfile(fn, dtype="float32")[:2].tolist())
fpo = np.memmap(fn, dtype="float32", mode="r", offset=16)
print("memmap offset", fpo.tolist())
np.save(os.path.join(d, "a.npy"), np.arange(6.0))
la = np.load(os.path.join(d, "a.npy"), mmap_mode="r")
print("np.load mmap", type(la).__name__, la.sum())
big = np.memmap(os.path.join(d, "big.i8"), dtype="int64", mode="w+", shape=(1 << 17,))
big[::1000] = 7
big.flush()
print("memmap big", np.fromfile(os.path.join(d, "big.i8"), dtype="int64").sum())

# A shared map changed and then neither flushed nor closed: the file holds
# the change once the run is over (checked on the host by the test).
if os.path.isdir("/work"):
    with open("/work/unflushed.bin", "wb") as f:
        f.write(b"before")
    with open("/work/unflushed.bin", "r+b") as f:
        keep = mmap.mmap(f.fileno(), 0)
    keep[:6] = b"after!"
