#!/usr/bin/env bash
# numeric.sh — numpy/Pillow in pybox vs native (Debian python3-numpy,
# python3-pil on python3.11), interleaved rounds, best per kernel.
#
#   apt-get install python3-numpy python3-pil   # the native side
#   bash scripts/bench/numeric.sh
#
# Note the native side is Debian's numpy 1.24 with OpenBLAS and SIMD, pybox's
# is numpy 2.4 built for wasm32 without BLAS or SIMD: the ratio is what a user
# of each gets, not a like-for-like compiler comparison.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
NATIVE=${NATIVE:-/usr/bin/python3.11}
ROUNDS=${ROUNDS:-3}
REPEAT=${REPEAT:-3}
PYBOX=${PYBOX:-}
if [ -z "$PYBOX" ]; then
  go build -o /tmp/pybox-bench ./cmd/pybox
  PYBOX=/tmp/pybox-bench
fi
tmp=$(mktemp -d)
for _ in $(seq "$ROUNDS"); do
  "$NATIVE" scripts/bench/numeric.py "$REPEAT" >> "$tmp/native"
  "$PYBOX" run -q scripts/bench/numeric.py "$REPEAT" >> "$tmp/pybox"
done
"$NATIVE" scripts/bench/compare.py "$tmp/native" "$tmp/pybox"
rm -rf "$tmp"
imp='import time; t = time.perf_counter(); import numpy, PIL.Image; print(round((time.perf_counter() - t) * 1000, 1))'
echo "import numpy + PIL.Image: native $("$NATIVE" -c "$imp") ms, pybox $("$PYBOX" run -q -c "$imp") ms"
