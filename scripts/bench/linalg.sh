#!/usr/bin/env bash
# linalg.sh — numpy linear algebra in pybox vs native numpy with OpenBLAS on
# one thread, interleaved rounds, best per kernel, plus a check that both
# sides computed the same results (scripts/bench/linalg.py's summaries equal
# within a relative 1e-9: different BLAS kernels sum in different orders).
#
#   python3.11 -m venv /tmp/venv-native && /tmp/venv-native/bin/pip install numpy==2.4.6
#   bash scripts/bench/linalg.sh                              # the committed bundle
#   BUNDLES="old.tar.zst new.tar.zst" bash scripts/bench/linalg.sh   # several, side by side
#
# NATIVE: the native interpreter (default /tmp/venv-native/bin/python, the
# numpy version of the bundle from PyPI, whose wheel carries OpenBLAS).
# BUNDLES: runtime bundles to run (PYBOX_BUNDLE for each; default: the one
# pybox embeds). Ratios are pybox/native (higher = pybox slower).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
NATIVE=${NATIVE:-/tmp/venv-native/bin/python}
ROUNDS=${ROUNDS:-3}
REPEAT=${REPEAT:-3}
PYBOX=${PYBOX:-}
BUNDLES=${BUNDLES:-embedded}
if [ -z "$PYBOX" ]; then
  go build -o /tmp/pybox-bench-linalg ./cmd/pybox
  PYBOX=/tmp/pybox-bench-linalg
fi
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run_pybox() { # bundle args...
  local b=$1; shift
  if [ "$b" = embedded ]; then env -u PYBOX_BUNDLE "$PYBOX" run -q "$@"; else PYBOX_BUNDLE=$b "$PYBOX" run -q "$@"; fi
}
bundles=($BUNDLES)
for _ in $(seq "$ROUNDS"); do
  "$NATIVE" scripts/bench/linalg.py "$REPEAT" >> "$tmp/native"
  for i in "${!bundles[@]}"; do
    run_pybox "${bundles[$i]}" scripts/bench/linalg.py "$REPEAT" >> "$tmp/pybox$i"
  done
done
args=()
for i in "${!bundles[@]}"; do args+=("${bundles[$i]}" "$tmp/pybox$i"); done
"$NATIVE" - "$tmp/native" "${args[@]}" <<'PY'
import json, math, os, sys
def load(path):
    runs = [json.loads(l) for l in open(path) if l.strip()]
    best = {k: min(r["times"][k] for r in runs) for k in runs[0]["times"]}
    return best, runs[-1]["checks"]
nt, nc = load(sys.argv[1])
sides = [(os.path.basename(sys.argv[i]), *load(sys.argv[i + 1])) for i in range(2, len(sys.argv), 2)]
for n, (name, _, _) in enumerate(sides):
    print(f"[{n}] {name}")
head = f"{'kernel':16} {'native ms':>10}" + "".join(f" {f'[{n}] ms':>10} {'ratio':>6}" for n in range(len(sides)))
print(head + "  results")
ratios = [[] for _ in sides]
bad = 0
for k in nt:
    line = f"{k:16} {nt[k]*1e3:10.3f}"
    oks = []
    for n, (_, pt, pc) in enumerate(sides):
        r = pt[k] / nt[k]
        ratios[n].append(r)
        ok = all(math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9 * abs(nc[k][0]))
                 for a, b in zip(nc[k], pc[k]))
        bad += not ok
        oks.append("equal" if ok else "DIFFERENT")
        line += f" {pt[k]*1e3:10.3f} {r:6.2f}"
    print(line + "  " + " ".join(oks))
for n, rs in enumerate(ratios):
    print(f"[{n}] geomean ratio {math.exp(sum(map(math.log, rs)) / len(rs)):.2f}")
print(f"results differing from native: {bad}")
sys.exit(1 if bad else 0)
PY
for b in "${bundles[@]}"; do
  echo "numpy BLAS/LAPACK in $(basename "$b"): $(run_pybox "$b" -c 'import numpy; c = numpy.show_config(mode="dicts")["Build Dependencies"]; print(c["blas"]["name"], c["blas"].get("version", ""), "/", c["lapack"]["name"])')"
done
