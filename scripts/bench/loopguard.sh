#!/usr/bin/env bash
# loopguard.sh — what the loop guard costs: bundles that differ only in
# python.wasm (no guard, -countdown inline, outlined, local, batched), interleaved
# rounds, best per benchmark, ratios to the first variant (the unguarded
# build unless VARIANTS, a subset in that order, leaves it out).
#
#   WASM=build/cpython/builddir/wasi/python.wasm STAGE=build/stage \
#   CSV=/tmp/pbench/data.csv bash scripts/bench/loopguard.sh
#
# WASM is python.wasm before the guard (unstripped, with its name section),
# STAGE the package stage directory of the same build (lib/, manifest.json).
# CSV, optional, is a CSV file for pandas.read_csv (for example the 1M x 10
# file scripts/bench/pandas.sh writes). Bundles and compile caches go to
# $OUT (default /tmp/pybox-loopguard); each variant compiles once (~1 GB).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WASM=${WASM:?set WASM to the pre-guard python.wasm}
STAGE=${STAGE:?set STAGE to the package stage directory}
OUT=${OUT:-/tmp/pybox-loopguard}
ROUNDS=${ROUNDS:-5}
YIELD=${YIELD:-16384}
CSV=${CSV:-}
mkdir -p "$OUT"
cd "$ROOT"
go build -o "$OUT/pybox" ./cmd/pybox
for v in ${VARIANTS:-none inline outlined local batched}; do
  s=$OUT/stage-$v
  rm -rf "$s" && mkdir -p "$s" && cp -a "$STAGE/." "$s/"
  if [ $v = none ]; then
    llvm-strip-19 -o "$s/python.wasm" "$WASM"
  else
    go run ./scripts/loopguard -in "$WASM" -out "$s/python.wasm" -skip _PyEval_EvalFrameDefault \
      -yield "$YIELD" -strip -countdown $v > /dev/null
  fi
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --format=gnu -C "$s" -cf "$OUT/rt-$v.tar" .
  zstd -q -f -3 "$OUT/rt-$v.tar" -o "$OUT/rt-$v.tar.zst"
  rm -rf "$OUT/cache-$v"
done
cat > "$OUT/np.py" <<'PY'
import time, numpy as np
a = np.arange(4_000_000, dtype=np.float64); b = a[::-1].copy()
best = 1e9
for i in range(5):
    t = time.perf_counter()
    for _ in range(10):
        c = np.sqrt(a * b + 1.0)
        s = (a > b).sum()
    best = min(best, time.perf_counter() - t)
print("numpy", best)
PY
cat > "$OUT/csv.py" <<'PY'
import time, pandas as pd
best = 1e9
for i in range(3):
    t = time.perf_counter(); pd.read_csv("/data/data.csv"); best = min(best, time.perf_counter() - t)
print("read_csv", best)
PY
log=$OUT/results.log
: > "$log"
for r in $(seq "$ROUNDS"); do
  for v in ${VARIANTS:-none inline outlined local batched}; do
    run() { PYBOX_BUNDLE=$OUT/rt-$v.tar.zst PYBOX_CACHE_DIR=$OUT/cache-$v "$OUT/pybox" run -q "$@"; }
    run "$OUT/np.py" | sed "s/^/$v /" >> "$log"
    if [ -n "$CSV" ]; then
      run --memory 3GiB --mount "$(dirname "$CSV")":/data:ro "$OUT/csv.py" | sed "s/^/$v /" >> "$log"
    fi
    run scripts/bench/cpu.py 3 | python3 -c 'import json,sys; d=json.load(sys.stdin); [print(k, v) for k, v in d.items()]; print("cpu-total", sum(d.values()))' \
      | sed "s/^/$v /" >> "$log"
  done
done
python3 - "$log" <<'PY'
import collections, sys
best = collections.defaultdict(lambda: float("inf"))
order = []
for line in open(sys.argv[1]):
    v, name, x = line.split()
    if name not in order: order.append(name)
    best[v, name] = min(best[v, name], float(x))
vs = [v for v in ["none", "inline", "outlined", "local", "batched"] if (v, order[0]) in best]
print(f"{'benchmark':12}" + "".join(f" {v:>8}" for v in vs) + "".join(f" {v + '/' + vs[0]:>17}" for v in vs[1:]))
for n in order:
    b = [best[v, n] for v in vs]
    print(f"{n:12}" + "".join(f" {x:8.3f}" for x in b) + "".join(f" {x / b[0]:17.3f}" for x in b[1:]))
PY
