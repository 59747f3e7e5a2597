# numpy's default integer is int64 on wasm32, as on 64-bit Linux
# (scripts/numpy/default-int64.patch); np.intp stays pointer-sized (32-bit).
# Printed deterministically for runtime/bundle_test.go.
import numpy as np

# The line: 704982704 with a 32-bit accumulator.
print("arange sum", np.arange(100000).sum())
print("dtypes", np.array([1, 2]).dtype, np.arange(5).dtype, np.dtype(int), np.dtype("int"),
      np.int_.__name__, np.uint.__name__, np.array(7).dtype, np.zeros(2, dtype=int).dtype)
print("intp", np.dtype(np.intp).itemsize, np.int_ is np.int64)
print("repr", repr(np.array([1, 2])))
d = np.__array_namespace_info__().default_dtypes()
print("array api", d["integral"], d["indexing"])

# Accumulators of integer sum/prod/cumsum are 64-bit whatever the input width.
i32 = np.arange(100000, dtype=np.int32)
print("int32 sum", i32.sum(), i32.sum().dtype, np.add.reduce(i32).dtype)
print("prod", np.array([2**20, 2**20]).prod(), np.prod(np.full(4, 1024, dtype=np.int16)))
print("cumsum", np.cumsum(np.full(3, 2**30)).tolist(), np.cumsum(np.full(3, 2**30, dtype=np.int32)).tolist(),
      np.cumsum(np.full(3, 2**30, dtype=np.int32)).dtype)
print("cumprod", np.cumprod(np.full(5, 1000, dtype=np.int32))[-1])
print("bool sum", np.ones(10, bool).sum(), np.ones(10, bool).sum().dtype)
print("uint", np.arange(5, dtype=np.uint32).sum().dtype, np.arange(5, dtype=np.uint8).cumsum().dtype)
print("large", np.array([2**40, 2**40 + 1]).sum(), np.array(2**40).dtype, np.array([1, 2**62]).dtype)
print("mean", np.array([2**40, 2**40 + 2]).mean(), np.dot(np.arange(100000), np.arange(100000)))

# Python ints in ufuncs take the default integer.
print("pyint ufunc", np.square(100000), np.add(2**31 - 1, 1), np.negative(2**40))
# Mixed int32/int64 arithmetic promotes to int64; int32 with a Python int stays int32 (NEP 50).
a32 = np.array([2**31 - 1], dtype=np.int32)
print("mixed", (a32 + np.array([1])).tolist(), (a32 + np.array([1])).dtype,
      (np.int32(5) * np.int64(3)).dtype, (a32 + 1).dtype, (np.arange(3, dtype=np.intp) + np.arange(3)).dtype)

# Indexing with int64 arrays (converted to intp) and with np.intp arrays.
a = np.arange(10) * 10
idx = np.array([1, 3, 9])
print("index int64", idx.dtype, a[idx].tolist(), a[np.array([-1, -2])].tolist(), np.take(a, idx).tolist())
b = a.copy()
b[idx] = -1
print("assign", b.tolist())
print("index intp", a[np.array([2, 4], dtype=np.intp)].tolist(), np.argsort(-a).dtype, a[np.argsort(-a)][:3].tolist(),
      np.nonzero(a > 50)[0].dtype, a[np.nonzero(a > 70)].tolist())
raised = 0
for bad in (np.array([10]), np.array([-11]), np.array([[0, 10]])):
    try:
        a[bad]
    except IndexError:
        raised += 1
print("out of bounds IndexError", raised, "of 3")
# Index arguments in the default integer (int64) to functions that take intp.
c = a.copy()
np.put(c, idx, [7, 8, 9])
print("index args", c.tolist(), np.repeat(np.arange(3), np.array([1, 2, 3])).tolist(),
      np.choose(np.array([0, 1, 0]), [[1, 2, 3], [4, 5, 6]]).tolist(), np.add.reduceat(a, idx).tolist())
print("2d", np.arange(12).reshape(3, 4)[np.array([0, 2]), np.array([1, 3])].tolist())

# String ufuncs with a default-integer output.
s = np.array(["ab", "hello", ""])
print("strings", np.strings.str_len(s).tolist(), np.strings.str_len(s).dtype, np.strings.find(s, "l").tolist(),
      np.strings.count(s, "l").tolist(), np.char.expandtabs(np.array(["a\tb"]), 4).tolist())

# C code asking for intp (or C long) with the safe rule takes default
# integers whose values fit (scripts/numpy/index-narrowing.patch) and names
# a value that does not.
counts = np.array([1, 0, 2])
print("narrowing", np.repeat([5, 6, 7], counts).tolist(), np.repeat(np.arange(2), np.int64(2)).tolist(),
      np.random.RandomState(0).binomial(np.array([10, 20]), 0.5).tolist(),
      np.bincount(np.array([0, 2, 2]), minlength=np.int64(4)).tolist())
try:
    np.repeat([1, 2], np.array([1, 2**40]))
except OverflowError as e:
    print("narrowing overflow", "1099511627776" in str(e), "32-bit index" in str(e))
# Values beyond 32 bits never wrap to a valid-looking index.
big = np.array([2**32 + 1])
refused = []
for name, f in [("fancy", lambda: a[big]), ("take", lambda: np.take(a, big)), ("put", lambda: np.put(a.copy(), big, 5)),
                ("repeat", lambda: np.repeat(a[:1], big)), ("reduceat", lambda: np.add.reduceat(a, np.array([0, 2**32 + 1]))),
                ("choose", lambda: np.choose(np.array([2**32]), [[1], [2]])), ("2d", lambda: a.reshape(2, 5)[0, big])]:
    try:
        f()
    except (OverflowError, IndexError):
        refused.append(name)
print("no wrap", refused)

# Python ints beside int32 (= intp here) arrays, and int32/int64 index
# arguments, print what native numpy prints. np.choose of an int32 array and
# a Python int trapped the interpreter: index-narrowing.patch's range check
# ran a ufunc reduction on numpy's stand-in array for the Python int.
print("choose line", np.choose([0, 1], (np.array([1, 2], dtype=np.int32), 5)))
i16, i32, i64 = (np.array([1, 2], dtype=t) for t in (np.int16, np.int32, np.int64))
for name, sel in [("list", [0, 1]), ("int32", np.array([0, 1], np.int32)), ("int64", np.array([0, 1]))]:
    r = [np.choose(sel, (i32, 5)), np.choose(sel, (5, i32)), np.choose(sel, (i64, 5)), np.choose(sel, (i16, 5)),
         np.choose(sel, (i32, np.int64(5))), np.choose(sel, (i32, np.array(5))), np.choose(sel, (i32, i64))]
    print("choose", name, [(x.tolist(), str(x.dtype)) for x in r])
out = np.zeros(2, np.int32)
np.choose([1, 0], (i32, 7), out=out)
print("choose out", out.tolist(), np.choose([2, -1], (i32, 5, 9), mode="clip").tolist(),
      np.choose([2, -1], (i32, 5, 9), mode="wrap").tolist(), np.choose([0, 1], (i32, 2**31)).tolist())
for name, ix in [("pyint", 1), ("list", [1, 0]), ("int32", np.array([1, 0], np.int32)), ("int64", np.array([1, 0]))]:
    print("take", name, np.take(i32, ix).tolist(), np.take(i64, ix).tolist(), i32.take(ix, mode="clip").tolist())
for name, n in [("pyint", 2), ("list", [1, 2]), ("int32", np.array([1, 2], np.int32)), ("int64", np.array([1, 2])),
                ("np.int32", np.int32(2)), ("np.int64", np.int64(2))]:
    print("repeat", name, np.repeat(i32, n).tolist(), np.repeat(i64, n).tolist(), i32.repeat(n).dtype)
for name, ix in [("pyint", 1), ("list", [1]), ("int32", np.array([1], np.int32)), ("int64", np.array([1]))]:
    got = []
    for target in (i32.copy(), i64.copy()):
        for v in (7, np.int32(8), np.int64(9), [10]):
            np.put(target, ix, v)
            got.append(target.tolist())
    try:
        np.put(i32.copy(), ix, 2**40 + 9)
    except OverflowError as e:
        got.append(type(e).__name__)
    print("put", name, got)
for name, (lo, hi) in [("pyint", (0, 1)), ("int32", (np.int32(0), np.int32(1))), ("int64", (np.int64(0), np.int64(1))),
                       ("arrays", (np.array([0, 0]), np.array([1, 1], np.int32)))]:
    r = [np.clip(i32, lo, hi), np.clip(i64, lo, hi), i32.clip(lo, None), np.clip(i16, lo, hi)]
    print("clip", name, [(x.tolist(), str(x.dtype)) for x in r])
o = np.empty(2, np.int32)
np.clip(i32, 0, 1, out=o)
print("clip out", o.tolist(), np.clip(np.arange(6, dtype=np.int32), 1, 4).tolist(),
      np.array_equal(np.clip(np.arange(6, dtype=np.int32), 1, 4),
                     np.choose(np.digitize(np.arange(6), [1, 5]), (1, np.arange(6, dtype=np.int32), 4))))
