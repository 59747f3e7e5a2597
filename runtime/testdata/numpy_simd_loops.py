# numpy's wasm SIMD128 loops (scripts/numpy/pybox_simd.h) give the same bits
# as the scalar loops they replace. Every check compares a unit-stride call
# (the SIMD path) with the same call on strided copies (numpy's scalar path)
# or with Python's math module (libm), element by element, bit for bit.
import math
import struct

import numpy as np

rng = np.random.default_rng(1234)


def strided(a):
    """A copy of a whose elements are not adjacent: the scalar loops."""
    b = np.empty(a.shape[:-1] + (2 * a.shape[-1],), a.dtype)[..., ::2]
    b[...] = a
    return b


def same(x, y):
    """Equal bit for bit, NaN payloads and signs aside."""
    x, y = np.asarray(x), np.asarray(y)
    if x.shape != y.shape or x.dtype != y.dtype:
        return False
    nan = np.isnan(x) & np.isnan(y)
    u = {4: np.uint32, 8: np.uint64}[x.dtype.itemsize]
    return bool(((x.view(u) == y.view(u)) | nan).all())


def bits(v):
    return struct.pack("<d", v)


# Inputs that reach every branch of the sin/cos code: no reduction, the
# first small-range branch (|x| <= 3pi/4), the other small branches, the
# medium range with one, two and three refinement rounds (near multiples of
# pi/2), libm's own path for |x| >= 2^20*pi/2, and the special values.
k = np.arange(-3000, 3000, dtype=np.float64)
near = np.concatenate([k * (np.pi / 2), np.nextafter(k * (np.pi / 2), np.inf),
                       np.nextafter(k * (np.pi / 2), -np.inf)])
special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -5e-324, 2.2e-308,
                    1e-9, -1e-9, 1.4e-8, 3e-8, np.pi / 4, 3 * np.pi / 4, 5 * np.pi / 4,
                    7 * np.pi / 4, 9 * np.pi / 4, 1.6e6, 1.7e6, 1e22, -1e300])
inputs = np.concatenate([
    rng.random(50_001), rng.normal(size=50_000), rng.uniform(-10, 10, 50_000),
    rng.uniform(-2e6, 2e6, 50_000), rng.uniform(-1e9, 1e9, 10_000),
    np.ldexp(rng.random(10_000), rng.integers(-1074, 1023, 10_000)), near, special])
for name, f, ref in (("sin", np.sin, math.sin), ("cos", np.cos, math.cos)):
    got = f(inputs)
    libm = [ref(v) if math.isfinite(v) else math.nan for v in inputs.tolist()]
    bad = sum(1 for g, w in zip(got.tolist(), libm)
              if bits(g) != bits(w) and not (math.isnan(g) and math.isnan(w)))
    print(name, "libm mismatches", bad, "of", len(inputs))
    print(name, "strided same", same(f(strided(inputs)), got))
    inplace = inputs.copy()
    f(inplace, out=inplace)
    print(name, "in place same", same(inplace, got))
    print(name, "odd lengths", all(same(f(inputs[:n]), got[:n]) for n in range(0, 9)))
print("sin -0.0", bits(np.sin(np.array([-0.0]))[0]) == bits(-0.0))

a = rng.normal(size=10_001) * 1e3
b = rng.normal(size=10_001)
b[::7] = 0.0
for dt in (np.float64, np.float32):
    x, y = a.astype(dt), b.astype(dt)
    xs, ys = strided(x), strided(y)
    ok = True
    for op in (np.add, np.subtract, np.multiply, np.divide):
        with np.errstate(all="ignore"):
            ok &= same(op(x, y), op(xs, ys))
            ok &= same(op(x, dt(2.5)), op(xs, dt(2.5)))
            ok &= same(op(dt(2.5), y), op(dt(2.5), ys))
            z = x.copy()
            op(z, y, out=z)  # in place
            ok &= same(z, op(xs, ys))
    for op in (np.rint, np.floor, np.ceil, np.trunc, np.sqrt, np.absolute, np.square,
               np.reciprocal):
        with np.errstate(all="ignore"):
            ok &= same(op(x), op(xs))
            ok &= same(op(y), op(ys))
    # numpy gives overlapping operands the result of non-overlapping ones
    z = x.copy()
    z[1:] += z[:-1]
    ok &= same(z[1:], (x[1:] + x[:-1]))
    ok &= same(x.sum(), xs.sum()) and same(x[:100].sum(), xs[:100].sum())
    ok &= same(np.add.reduce(x[:1000]), np.add.reduce(xs[:1000]))
    print(np.dtype(dt).name, "arithmetic same", bool(ok))
print("sqrt libm", all(bits(g) == bits(math.sqrt(v))
                       for g, v in zip(np.sqrt(np.abs(a)).tolist(), np.abs(a).tolist())))

# matmul: the tiled kernel accumulates like the loop it replaces, so its
# result equals the strided (untiled) path bit for bit, for every shape edge.
ok = True
for m, n, p in ((1, 1, 2), (3, 5, 7), (4, 4, 4), (5, 130, 9), (17, 257, 33), (64, 64, 2)):
    A, B = rng.normal(size=(m, n)), rng.normal(size=(n, p))
    C = A @ B
    ok &= same(C, A @ strided(B))  # B not unit-stride: numpy's own loop
    ok &= same(A.T.copy().T @ B, C) and same(np.matmul(A, B, out=np.empty((m, p))), C)
    ok &= same(np.dot(A, B), C) and same(A.dot(B), C)  # dot goes through matmul
    A32, B32 = A.astype(np.float32), B.astype(np.float32)
    C32 = A32 @ B32
    ok &= same(C32, A32 @ strided(B32)) and same(np.dot(A32, B32), C32)
    ok &= bool(np.allclose(C, [[math.fsum(A[i, j] * B[j, q] for j in range(n))
                                for q in range(p)] for i in range(m)], rtol=1e-12, atol=1e-12))
print("matmul same", bool(ok))
try:
    np.dot(np.ones((2, 3)), np.ones((4, 5)))
except ValueError as e:
    print("dot shape error:", e)
