#!/usr/bin/env bash
# build.sh — rebuild eh_test.wasm, the C++ exception test module that
# runtime/cxxeh_test.go runs (CI has no clang, so the .wasm is checked in).
#
#   scripts/build-libcxx.sh                      # once: $BUILD/prefix-eh
#   runtime/testdata/cxxeh/build.sh
#
# eh_test.cpp: clang-22 with WebAssembly exceptions in the standard (exnref)
# encoding, against the exception-enabled libc++ of scripts/build-libcxx.sh.
# eh_cshim.c: clang-19, no exception support (a C frame between C++ frames,
# like CPython's). Linked by wasm-ld-19 through the clang-19 driver, as
# python.wasm is, into a WASI reactor. __stack_pointer is exported so the
# test can check that it is restored after a caught exception.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
BUILD=${PYBOX_BUILD_DIR:-$ROOT/build}
PREFIX_EH=${PREFIX_EH:-$BUILD/prefix-eh}
SYSROOT=$BUILD/sysroot
OUT=$BUILD/cxxeh-test
mkdir -p "$OUT"

WASM_FEATURES="-mbulk-memory -mnontrapping-fptoint -msign-ext -mmutable-globals"
CXXEH_FLAGS="-fwasm-exceptions -mllvm -wasm-use-legacy-eh=false"
MAP="-ffile-prefix-map=$ROOT=/pybox -ffile-prefix-map=$BUILD=/pybox-build"

set -x
clang++-22 --target=wasm32-wasip1 --sysroot="$SYSROOT" -nostdinc++ \
  -isystem "$PREFIX_EH/include/c++/v1" -std=c++17 -O2 $WASM_FEATURES $CXXEH_FLAGS $MAP \
  -c "$HERE/eh_test.cpp" -o "$OUT/eh_test.o"
clang-19 --target=wasm32-wasi --sysroot="$SYSROOT" -O2 $WASM_FEATURES $MAP \
  -c "$HERE/eh_cshim.c" -o "$OUT/eh_cshim.o"
clang-19 --target=wasm32-wasi --sysroot="$SYSROOT" -mexec-model=reactor \
  "$OUT/eh_test.o" "$OUT/eh_cshim.o" "$PREFIX_EH/lib/libc++.a" \
  -Wl,--export=__stack_pointer -Wl,-z,stack-size=1048576 -Wl,--strip-debug \
  -o "$HERE/eh_test.wasm"
ls -l "$HERE/eh_test.wasm"
