#!/usr/bin/env bash
# fma.sh — what relaxed SIMD's fused multiply-add gives pybox's OpenBLAS
# DGEMM micro-kernel (scripts/openblas/dgemm_kernel_4x4_wasm.c): builds
# dgemm/dgemm.c (a blocked 500x500 DGEMM on the kernel) for wasm32-wasi
# with -msimd128 and with -msimd128 -mrelaxed-simd, and times both under
# pybox's wazero fork, interleaved (main.go).
#
#   bash scripts/bench/fma/fma.sh [-rounds 7 -reps 3 -n 500]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
OUT=${OUT:-/tmp/pybox-fma}
mkdir -p "$OUT/sysroot/lib"
ln -sfn /usr/include/wasm32-wasi "$OUT/sysroot/include"
ln -sfn /usr/lib/wasm32-wasi "$OUT/sysroot/lib/wasm32-wasi"
flags=(--target=wasm32-wasi "--sysroot=$OUT/sysroot" -O2 -msimd128 -mbulk-memory
  -mnontrapping-fptoint -msign-ext -mmutable-globals -mexec-model=reactor
  -I "$ROOT/scripts/bench/fma/dgemm")
clang-19 "${flags[@]}" -o "$OUT/plain.wasm" "$ROOT/scripts/bench/fma/dgemm/dgemm.c"
clang-19 "${flags[@]}" -mrelaxed-simd -o "$OUT/relaxed.wasm" "$ROOT/scripts/bench/fma/dgemm/dgemm.c"
cd "$ROOT"
go build -o "$OUT/fma" ./scripts/bench/fma
uptime
"$OUT/fma" -plain "$OUT/plain.wasm" -relaxed "$OUT/relaxed.wasm" "$@"
