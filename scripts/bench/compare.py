"""compare.py NATIVE_FILE VARIANT_FILE... — ratio table for the CPU suite.

Each file holds one JSON object per line (one per round, from cpu.py); the
best time per benchmark across rounds is used. Ratios are variant / native.
"""
import json
import math
import os
import sys


def best(path):
    out = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            for k, v in json.loads(line).items():
                out[k] = min(v, out.get(k, float("inf")))
    return out


nat = best(sys.argv[1])
rows = [(os.path.basename(p), best(p)) for p in sys.argv[2:]]
print(f"{'benchmark':<10}{'native ms':>10}" + "".join(f"{n + ' ms':>12}{'ratio':>7}" for n, _ in rows))
for k in nat:
    line = f"{k:<10}{nat[k] * 1e3:>10.1f}"
    for _, r in rows:
        if k in r:
            line += f"{r[k] * 1e3:>12.1f}{r[k] / nat[k]:>7.2f}"
        else:
            line += f"{'-':>12}{'-':>7}"  # not run on that side
    print(line)
line = f"{'geomean':<10}{'':>10}"
for _, r in rows:
    common = [k for k in nat if k in r]
    gm = math.exp(sum(math.log(r[k] / nat[k]) for k in common) / len(common))
    line += f"{'':>12}{gm:>7.2f}"
print(line)
