#!/usr/bin/env bash
# sort.sh — np.sort/np.argsort of 10^6 float64/int64/float32/int32: two
# runtime bundles in pybox and native numpy, interleaved rounds, best per
# benchmark (scripts/bench/sort.py).
#
#   OLD=assets/runtime.tar.zst NEW=/path/runtime.tar.zst \
#   NATIVE=/path/to/venv/bin/python bash scripts/bench/sort.sh
#
# NATIVE: a Python with numpy 2.4.6 (the PyPI wheel), default python3.
# SIZES="256 4096 65536": a size sweep instead of 10^6 (sort.py).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
NATIVE=${NATIVE:-python3}
OLD=${OLD:-assets/runtime.tar.zst}
NEW=${NEW:?set NEW to the runtime bundle to compare with OLD}
ROUNDS=${ROUNDS:-4}
REPEAT=${REPEAT:-5}
SIZES=${SIZES:-}
PYBOX=${PYBOX:-}
if [ -z "$PYBOX" ]; then
  CGO_ENABLED=0 go build -o /tmp/pybox-sortbench ./cmd/pybox
  PYBOX=/tmp/pybox-sortbench
fi
tmp=$(mktemp -d)
# First runs compile each bundle's python.wasm into the cache: not timed.
PYBOX_BUNDLE=$OLD "$PYBOX" run -q -c 'import numpy' 
PYBOX_BUNDLE=$NEW "$PYBOX" run -q -c 'import numpy'
"$NATIVE" -c 'import numpy; print("native numpy", numpy.__version__)'
for _ in $(seq "$ROUNDS"); do
  "$NATIVE" scripts/bench/sort.py "$REPEAT" $SIZES >> "$tmp/native"
  PYBOX_BUNDLE=$OLD "$PYBOX" run -q scripts/bench/sort.py "$REPEAT" $SIZES >> "$tmp/old"
  PYBOX_BUNDLE=$NEW "$PYBOX" run -q scripts/bench/sort.py "$REPEAT" $SIZES >> "$tmp/new"
done
if [ -z "$SIZES" ]; then
  "$NATIVE" scripts/bench/compare.py "$tmp/native" "$tmp/old" "$tmp/new"
else
  # microseconds: compare.py's ms with one decimal would round small sizes to 0
  "$NATIVE" - "$tmp" <<'PY'
import json, sys
def best(p):
    o = {}
    for line in open(p):
        for k, v in json.loads(line).items():
            o[k] = min(v, o.get(k, float("inf")))
    return o
n, o, w = (best(f"{sys.argv[1]}/{x}") for x in ("native", "old", "new"))
print(f"{'benchmark':<20}{'native us':>11}{'old us':>11}{'new us':>11}{'new/old':>9}")
for k in n:
    print(f"{k:<20}{n[k] * 1e6:>11.1f}{o[k] * 1e6:>11.1f}{w[k] * 1e6:>11.1f}{w[k] / o[k]:>9.2f}")
PY
fi
rm -rf "$tmp"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
