"""sort.py [REPEAT [N ...]] — np.sort and np.argsort of N random values per dtype.

Prints one JSON object: benchmark name -> best time in seconds (per call) of
REPEAT timings. Without N: 10^6 values, names like "sort-f64"; with N
(a size sweep): names like "sort-f64-4096", and each timing averages enough
calls to take about 2 ms. Run by scripts/bench/sort.sh in pybox and natively.
"""
import json
import sys
import time

import numpy as np

repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 5
sizes = [int(a) for a in sys.argv[2:]]
rng = np.random.default_rng(1)
out = {}
for n in sizes or [1_000_000]:
    data = {
        "f64": rng.standard_normal(n),
        "i64": rng.integers(-(2**62), 2**62, n, dtype=np.int64),
        "f32": rng.standard_normal(n).astype(np.float32),
        "i32": rng.integers(-(2**31), 2**31 - 1, n, dtype=np.int32),
    }
    calls = max(1, 250_000 // n) if sizes else 1
    for name, a in data.items():
        for op, fn in (("sort", np.sort), ("argsort", np.argsort)):
            best = float("inf")
            for _ in range(repeat):
                t = time.perf_counter()
                for _ in range(calls):
                    fn(a)
                best = min(best, (time.perf_counter() - t) / calls)
            out[f"{op}-{name}" + (f"-{n}" if sizes else "")] = best
print(json.dumps(out))
