# np.sort / np.argsort / ndarray.sort against plain-Python references, for
# the dtypes pybox's wasm build sorts with Highway's VQSort
# (scripts/numpy/pybox_vqsort.cpp): random data with many duplicates, and
# for floats NaN (both signs), +-inf, -0.0/0.0, subnormals and extremes.
# numpy's promises: ascending, NaN last; argsort is a permutation that sorts;
# kind='stable' keeps equal keys in index order.
import math

import numpy as np

rng = np.random.default_rng(20261128)
# Both sides of the sizes where the wasm build switches to VQSort (1024,
# 16384; argsort 32768).
SIZES = [0, 1, 2, 3, 7, 15, 16, 17, 31, 64, 100, 257, 1023, 1024, 4099, 16383, 16384, 32767, 32768, 65537]


def key(v):
    # Python's reference order: NaN after everything, -0.0 == 0.0.
    return (math.isnan(v), v) if isinstance(v, float) else (False, v)


def sample(dt, n):
    dt = np.dtype(dt)
    if dt.kind == "f":
        fi = np.finfo(dt)
        special = np.array([np.nan, -np.nan, np.inf, -np.inf, -0.0, 0.0,
                            fi.tiny / 4, -fi.tiny / 4, fi.max, -fi.max, fi.tiny, 1.0, -1.0], dtype=dt)
        a = rng.standard_normal(n).astype(dt) * 1000
        dup = rng.random(n) < 0.3
        a[dup] = rng.integers(-5, 5, int(dup.sum()))  # duplicates
        if n:
            pick = rng.integers(0, len(special), n)
            mask = rng.random(n) < 0.2
            a[mask] = special[pick[mask]]
        return a
    info = np.iinfo(dt)
    if n and rng.random() < 0.5:
        return rng.integers(-3 if info.min < 0 else 0, 4, n).astype(dt)  # few distinct
    a = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
    if n > 4:
        a[:2] = info.min
        a[2:4] = info.max
    return a


def same(x, ref, floats):
    if floats:
        return np.array_equal(x, ref, equal_nan=True)
    return np.array_equal(x, ref)


bad = {}
for dt in ["float64", "float32", "int64", "int32", "int16", "uint64", "uint32", "uint16"]:
    floats = np.dtype(dt).kind == "f"
    errors = []
    for n in SIZES:
        a = sample(dt, n)
        orig = a.copy()
        vals = a.tolist()
        ref = np.array(sorted(vals, key=key), dtype=dt)
        if not same(np.sort(a), ref, floats):
            errors.append(("sort", n))
        if not same(a, orig, floats):
            errors.append(("input changed", n))
        b = a.copy()
        b.sort()
        if not same(b, ref, floats):
            errors.append(("ndarray.sort", n))
        idx = np.argsort(a)
        if sorted(idx.tolist()) != list(range(n)) or not same(a[idx], ref, floats):
            errors.append(("argsort", n))
        sidx = np.argsort(a, kind="stable")
        if sidx.tolist() != sorted(range(n), key=lambda i: key(vals[i])):
            errors.append(("argsort stable", n))
        if not same(np.sort(a, kind="stable"), ref, floats):
            errors.append(("sort stable", n))
        if n >= 2:
            # strided view and the last axis of a 2-D array
            if not same(np.sort(a[::2]), np.array(sorted(vals[::2], key=key), dtype=dt), floats):
                errors.append(("strided", n))
            m = a[: n - n % 2].reshape(2, -1)
            rows = np.array([sorted(r, key=key) for r in m.tolist()], dtype=dt).reshape(m.shape)
            if not same(np.sort(m, axis=1), rows, floats) or not same(np.sort(m.T, axis=0), rows.T, floats):
                errors.append(("2-D", n))
            ai = np.argsort(m, axis=1)
            if not same(np.take_along_axis(m, ai, axis=1), rows, floats):
                errors.append(("2-D argsort", n))
    if floats:
        # NaN count and placement: all at the end
        a = sample(dt, 1000)
        s = np.sort(a)
        k = int(np.isnan(a).sum())
        if int(np.isnan(s).sum()) != k or (k and not np.isnan(s[-k:]).all()):
            errors.append(("nan placement", 1000))
    bad[dt] = errors
    print("sort", dt, "ok" if not errors else errors)

# Keys that differ only in their low bits next to far-apart ones (argsort
# of 64-bit keys sorts on a prefix first, then fixes up equal prefixes).
c = 1 + rng.random(50000) * 1e-9
c[::997] = 1e300
c[5], c[6] = -1e300, np.nan
d = (rng.integers(0, 1000, 50000) + np.int64(2**40)).astype(np.int64)
d[::1013] = np.iinfo(np.int64).min
d[7] = np.iinfo(np.int64).max
clustered = []
with np.errstate(over="ignore"):
    c32 = c.astype(np.float32)  # 1e300 -> inf
for arr in (c, d, d.astype(np.uint64), c32):
    i = np.argsort(arr)
    clustered.append(sorted(i.tolist()) == list(range(len(arr)))
                     and same(arr[i], np.array(sorted(arr.tolist(), key=key), dtype=arr.dtype), arr.dtype.kind == "f"))
print("argsort clustered", clustered)

# Half (float16) and other kinds keep numpy's own code; checked for order.
h = np.array([3, np.nan, -1, 0.5, -np.inf, 2, 0.0], dtype=np.float16)
print("sort float16", np.sort(h).tolist())
print("sort strings", np.sort(np.array(["b", "a", "c"])).tolist(),
      np.argsort(np.array([2.0, 1.0, np.nan, 0.5, -np.inf])).tolist())
