#!/usr/bin/env bash
# sort.sh — np.sort/np.argsort of 10^6 float64/int64/float32/int32: two
# runtime bundles in pybox and native numpy, interleaved rounds, best per
# benchmark (scripts/bench/sort.py).
#
#   OLD=assets/runtime.tar.zst NEW=/path/runtime.tar.zst \
#   NATIVE=/path/to/venv/bin/python bash scripts/bench/sort.sh
#
# NATIVE: a Python with numpy 2.4.6 (the PyPI wheel), default python3.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
NATIVE=${NATIVE:-python3}
OLD=${OLD:-assets/runtime.tar.zst}
NEW=${NEW:?set NEW to the runtime bundle to compare with OLD}
ROUNDS=${ROUNDS:-4}
REPEAT=${REPEAT:-5}
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
  "$NATIVE" scripts/bench/sort.py "$REPEAT" >> "$tmp/native"
  PYBOX_BUNDLE=$OLD "$PYBOX" run -q scripts/bench/sort.py "$REPEAT" >> "$tmp/old"
  PYBOX_BUNDLE=$NEW "$PYBOX" run -q scripts/bench/sort.py "$REPEAT" >> "$tmp/new"
done
"$NATIVE" scripts/bench/compare.py "$tmp/native" "$tmp/old" "$tmp/new"
rm -rf "$tmp"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
