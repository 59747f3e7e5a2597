#!/usr/bin/env bash
# linalg.sh — numpy linear algebra in pybox vs native numpy with OpenBLAS on
# one thread, interleaved rounds, best per kernel, plus a check that both
# sides computed the same results (scripts/bench/linalg.py's summaries equal
# within a relative 1e-9: different BLAS kernels sum in different orders).
#
#   python3.11 -m venv /tmp/venv-native && /tmp/venv-native/bin/pip install numpy==2.4.6
#   bash scripts/bench/linalg.sh
#   PYBOX_BUNDLE=/path/runtime.tar.zst bash scripts/bench/linalg.sh   # another bundle
#
# NATIVE: the native interpreter (default /tmp/venv-native/bin/python, the
# numpy version of the bundle from PyPI, whose wheel carries OpenBLAS).
# Ratios are pybox/native (higher = pybox slower).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
NATIVE=${NATIVE:-/tmp/venv-native/bin/python}
ROUNDS=${ROUNDS:-3}
REPEAT=${REPEAT:-3}
PYBOX=${PYBOX:-}
if [ -z "$PYBOX" ]; then
  go build -o /tmp/pybox-bench-linalg ./cmd/pybox
  PYBOX=/tmp/pybox-bench-linalg
fi
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for _ in $(seq "$ROUNDS"); do
  "$NATIVE" scripts/bench/linalg.py "$REPEAT" >> "$tmp/native"
  "$PYBOX" run -q scripts/bench/linalg.py "$REPEAT" >> "$tmp/pybox"
done
"$NATIVE" - "$tmp/native" "$tmp/pybox" <<'PY'
import json, math, sys
def load(path):
    runs = [json.loads(l) for l in open(path) if l.strip()]
    best = {k: min(r["times"][k] for r in runs) for k in runs[0]["times"]}
    return best, runs[-1]["checks"]
nt, nc = load(sys.argv[1])
pt, pc = load(sys.argv[2])
print(f"{'kernel':16} {'native ms':>10} {'pybox ms':>10} {'ratio':>7}  result")
ratios, bad = [], 0
for k in nt:
    r = pt[k] / nt[k]
    ratios.append(r)
    ok = all(math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9 * abs(nc[k][0]))
             for a, b in zip(nc[k], pc[k]))
    bad += not ok
    print(f"{k:16} {nt[k]*1e3:10.3f} {pt[k]*1e3:10.3f} {r:7.2f}  {'equal' if ok else 'DIFFERENT'}")
print(f"geomean ratio {math.exp(sum(map(math.log, ratios)) / len(ratios)):.2f}; results differing: {bad}")
sys.exit(1 if bad else 0)
PY
echo "numpy BLAS in pybox: $("$PYBOX" run -q -c 'import numpy; c = numpy.show_config(mode="dicts"); print(c["Build Dependencies"]["blas"]["name"], c["Build Dependencies"]["lapack"]["name"])')"
