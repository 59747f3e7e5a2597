#!/usr/bin/env bash
# build-pgo.sh — the _pgo builtin module of python.wasm's PGO training build
# (scripts/bench/pgo.sh), built like a bundled package: build-runtime.sh runs
# it after configuring CPython when PACKAGES contains "pgo". Never part of a
# shipped bundle.
#
#   PYBOX_BUILD_DIR=... PGO_RT=.../libpgort.a scripts/build-pgo.sh
#
# Needs CPython configured in $PYBOX_BUILD_DIR/cpython/builddir/wasi and the
# profile runtime archive $PGO_RT (pgo.sh's rt stage). Produces:
#   $BUILD/prefix/lib/libpgomod.a   PyInit__pgo (scripts/bench/pgo/_pgomodule.c)
#   $BUILD/setup-pgo.local          the Modules/Setup.local line
#   $BUILD/manifest-pgo.json
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${PYBOX_BUILD_DIR:-$ROOT/build}
PGO_RT=${PGO_RT:?PGO_RT: the profile runtime archive (scripts/bench/pgo.sh rt)}
SYSROOT=$BUILD/sysroot
PREFIX=$BUILD/prefix
PYINC="-I$BUILD/cpython/Include -I$BUILD/cpython/builddir/wasi"

mkdir -p "$PREFIX/lib" "$BUILD/pgo"
clang-19 --target=wasm32-wasi --sysroot="$SYSROOT" -O2 -DPy_BUILD_CORE_BUILTIN $PYINC \
  -c "$ROOT/scripts/bench/pgo/_pgomodule.c" -o "$BUILD/pgo/_pgomodule.o"
rm -f "$PREFIX/lib/libpgomod.a"
llvm-ar-19 rcs "$PREFIX/lib/libpgomod.a" "$BUILD/pgo/_pgomodule.o"
echo "_pgo -L$PREFIX/lib -lpgomod $PGO_RT" > "$BUILD/setup-pgo.local"
echo '[{"name": "pgo", "note": "PGO training build only (scripts/bench/pgo.sh)"}]' > "$BUILD/manifest-pgo.json"
