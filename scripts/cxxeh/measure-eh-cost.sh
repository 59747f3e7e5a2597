#!/usr/bin/env bash
# measure-eh-cost.sh — size and speed of C++ code built with WebAssembly
# exceptions (-fwasm-exceptions, standard encoding) against the same code
# built with -fignore-exceptions, both by clang-22 against the libc++ of
# scripts/build-libcxx.sh. Needs that build ($PYBOX_BUILD_DIR/prefix-eh).
#
#   scripts/cxxeh/measure-eh-cost.sh [n] [rounds]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${PYBOX_BUILD_DIR:-$ROOT/build}
PREFIX_EH=${PREFIX_EH:-$BUILD/prefix-eh}
SYSROOT=$BUILD/sysroot
OUT=$BUILD/cxxeh-cost
mkdir -p "$OUT"
WASM_FEATURES="-mbulk-memory -mnontrapping-fptoint -msign-ext -mmutable-globals"
CXX="clang++-22 --target=wasm32-wasip1 --sysroot=$SYSROOT -nostdinc++ -isystem $PREFIX_EH/include/c++/v1 -std=c++17 -O2 $WASM_FEATURES"
declare -A MODE=(
  [eh]="-fwasm-exceptions -mllvm -wasm-use-legacy-eh=false"
  [noeh]="-fignore-exceptions"
)
for m in eh noeh; do
  $CXX ${MODE[$m]} -c "$HERE/eh_cost.cpp" -o "$OUT/eh_cost-$m.o"
  clang-19 --target=wasm32-wasi --sysroot="$SYSROOT" -mexec-model=reactor \
    "$OUT/eh_cost-$m.o" "$PREFIX_EH/lib/libc++.a" -Wl,--strip-all -o "$OUT/eh_cost-$m.wasm"
  printf '%-6s object %7d bytes (code section %s)\n' "$m" "$(stat -c %s "$OUT/eh_cost-$m.o")" \
    "$(echo $((16#$(llvm-objdump-19 -h "$OUT/eh_cost-$m.o" | awk '$2=="CODE"{print $3}'))))"
done
cd "$ROOT" && go run ./scripts/cxxeh/ehcost -n "${1:-2000}" -rounds "${2:-9}" \
  "$OUT/eh_cost-eh.wasm" "$OUT/eh_cost-noeh.wasm"
