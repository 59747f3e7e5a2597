#!/usr/bin/env bash
# pandas.sh — the analyst kernels of issue 12 (pandas, matplotlib) in pybox vs
# native (the same versions' wheels in a venv), interleaved rounds, best per
# kernel. savefig runs when both sides have matplotlib.
#
#   python3.11 -m venv /tmp/venv-native
#   /tmp/venv-native/bin/pip install pandas==3.1.1 matplotlib==3.10.9
#   NATIVE=/tmp/venv-native/bin/python bash scripts/bench/pandas.sh
#
# The native side is pandas' wheel (numpy with SIMD, -O3 C); pybox's is the
# bundle's pandas built for wasm32. The CSV (1,000,000 rows x 10 columns,
# ~70 MB) is written once natively and mounted read-only into pybox.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
NATIVE=${NATIVE:?set NATIVE to a python with pandas installed}
ROUNDS=${ROUNDS:-3}
REPEAT=${REPEAT:-2}
PYBOX=${PYBOX:-}
if [ -z "$PYBOX" ]; then
  go build -o /tmp/pybox-bench ./cmd/pybox
  PYBOX=/tmp/pybox-bench
fi
tmp=$(mktemp -d)
"$NATIVE" scripts/bench/pandas_bench.py gen "$tmp/data.csv"
for _ in $(seq "$ROUNDS"); do
  "$NATIVE" scripts/bench/pandas_bench.py run "$tmp/data.csv" "$REPEAT" >> "$tmp/native"
  "$PYBOX" run -q --memory 3GiB --timeout 30m --mount "$tmp:/data:ro" \
    scripts/bench/pandas_bench.py run /data/data.csv "$REPEAT" >> "$tmp/pybox"
done
"$NATIVE" scripts/bench/compare.py "$tmp/native" "$tmp/pybox"
imp='import time; t = time.perf_counter(); import pandas; print(round((time.perf_counter() - t) * 1000, 1))'
echo "import pandas: native $("$NATIVE" -c "$imp") ms, pybox $("$PYBOX" run -q -c "$imp") ms"
rm -rf "$tmp"
