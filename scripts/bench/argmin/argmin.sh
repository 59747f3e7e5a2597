#!/usr/bin/env bash
# argmin.sh — the nearest-centre step of scikit-learn's KMeans (kernel/argmin.c)
# built for wasm32-wasi and timed under pybox's wazero fork (main.go): the
# float select form clang emits for `if (d < min) { min = d; label = j; }`
# and an f64.min form. Build the runner at two commits to compare forks.
#
#   bash scripts/bench/argmin/argmin.sh [-rounds 7 -reps 20000]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
OUT=${OUT:-/tmp/pybox-argmin}
mkdir -p "$OUT/sysroot/lib"
ln -sfn /usr/include/wasm32-wasi "$OUT/sysroot/include"
ln -sfn /usr/lib/wasm32-wasi "$OUT/sysroot/lib/wasm32-wasi"
clang-19 --target=wasm32-wasi "--sysroot=$OUT/sysroot" -O2 -mbulk-memory -mnontrapping-fptoint \
  -msign-ext -mmutable-globals -mexec-model=reactor -o "$OUT/argmin.wasm" "$ROOT/scripts/bench/argmin/kernel/argmin.c"
cd "$ROOT"
go build -o "$OUT/argmin" ./scripts/bench/argmin
uptime
"$OUT/argmin" -wasm "$OUT/argmin.wasm" "$@"
