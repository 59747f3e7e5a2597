"""sort.py [REPEAT] — np.sort and np.argsort of 10^6 random values per dtype.

Prints one JSON object: benchmark name -> best time in seconds of REPEAT
calls. Run by scripts/bench/sort.sh in pybox and natively.
"""
import json
import sys
import time

import numpy as np

N = 1_000_000
repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 5
rng = np.random.default_rng(1)
data = {
    "f64": rng.standard_normal(N),
    "i64": rng.integers(-(2**62), 2**62, N, dtype=np.int64),
    "f32": rng.standard_normal(N).astype(np.float32),
    "i32": rng.integers(-(2**31), 2**31 - 1, N, dtype=np.int32),
}
out = {}
for name, a in data.items():
    for op, fn in (("sort", np.sort), ("argsort", np.argsort)):
        best = float("inf")
        for _ in range(repeat):
            t = time.perf_counter()
            fn(a)
            best = min(best, time.perf_counter() - t)
        out[f"{op}-{name}"] = best
print(json.dumps(out))
