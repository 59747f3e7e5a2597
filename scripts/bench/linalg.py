# numpy linear-algebra kernels, run the same way natively (numpy from PyPI
# with its OpenBLAS, one thread) and inside pybox by scripts/bench/linalg.sh.
# Prints one JSON object: {"times": {kernel: best of REPEAT wall seconds},
# "checks": {kernel: [numbers]}}. The checks summarize each kernel's result
# (Frobenius norm and its products with fixed random weights) so that
# linalg.sh can compare the two sides' results within a tolerance without
# shipping whole matrices between processes.
import json
import sys
import time

import numpy as np

REPEAT = int(sys.argv[1]) if len(sys.argv) > 1 else 3
rng = np.random.default_rng(0)
A500 = rng.random((500, 500))
B500 = rng.random((500, 500))
# Well-conditioned square systems: random plus a dominant diagonal.
A300 = rng.random((300, 300)) + 300 * np.eye(300)
B300 = rng.random((300, 300))
b300 = rng.random(300)
S200 = rng.random((200, 200))
H200 = S200 + S200.T
X = rng.random(1_000_000)
Y = rng.random(1_000_000)
A100 = rng.random((100, 100))
B100 = rng.random((100, 100))
W = np.random.default_rng(1).random((2, 500 * 500))


def summary(r):
    """Norm and two weighted sums of a result (any shape, real)."""
    r = np.asarray(r, dtype=np.float64).ravel()
    return [float(np.linalg.norm(r))] + [float(r @ W[i, : r.size]) for i in range(2)]


KERNELS = {
    "matmul_500": lambda: A500 @ B500,
    "matmul_100": lambda: A100 @ B100,
    "dot_1e6": lambda: np.dot(X, Y),
    "matvec_500": lambda: A500 @ B500[:, 0],
    "inv_300": lambda: np.linalg.inv(A300),
    "solve_300x300": lambda: np.linalg.solve(A300, B300),
    "solve_300x1": lambda: np.linalg.solve(A300, b300),
    "det_300": lambda: np.linalg.det(A300 / 300),
    "svd_200": lambda: np.linalg.svd(S200, compute_uv=False),
    "svd_200_uv": lambda: np.linalg.svd(S200)[1],
    "eigh_200": lambda: np.linalg.eigh(H200)[0],
    "lstsq_300x100": lambda: np.linalg.lstsq(A300[:, :100], b300, rcond=None)[0],
    "qr_300": lambda: np.abs(np.linalg.qr(A300)[1]),
    "cholesky_300": lambda: np.linalg.cholesky(A300 @ A300.T),
}

times, checks = {}, {}
for name, fn in KERNELS.items():
    best = float("inf")
    for _ in range(REPEAT):
        t = time.perf_counter()
        r = fn()
        best = min(best, time.perf_counter() - t)
    times[name] = best
    checks[name] = summary(r)
print(json.dumps({"times": times, "checks": checks}))
