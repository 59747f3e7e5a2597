#!/usr/bin/env bash
# selftest.sh — compile scripts/openblas/selftest.c for wasm32-wasi against
# the libopenblas.a of build-openblas.sh and run it (Node's WASI: any WASI
# runtime would do; Node is what Debian has). Also prints wasm-ld's
# signature-mismatch warnings, which would be traps at run time.
#
#   PYBOX_BUILD_DIR=... scripts/openblas/selftest.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${PYBOX_BUILD_DIR:-$ROOT/build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
clang-19 --target=wasm32-wasi --sysroot="$BUILD/sysroot" -O2 -msimd128 \
  "$ROOT/scripts/openblas/selftest.c" -o "$out/selftest.wasm" \
  -L"$BUILD/prefix/lib" -Wl,--whole-archive -lopenblas -Wl,--no-whole-archive \
  -lm 2> "$out/ld.log" || { cat "$out/ld.log"; exit 1; }
if grep -q "signature mismatch" "$out/ld.log"; then
  echo "wasm-ld: function signature mismatches in libopenblas.a:"; grep -A2 "signature mismatch" "$out/ld.log" | head -60
  exit 1
fi
cat > "$out/run.mjs" <<'JS'
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';
const wasi = new WASI({ version: 'preview1', args: ['selftest'] });
const mod = await WebAssembly.compile(await readFile(process.argv[2]));
const inst = await WebAssembly.instantiate(mod, wasi.getImportObject());
process.exitCode = wasi.start(inst);
JS
# Node before 22 compiles relaxed SIMD (the DGEMM kernel's multiply-adds)
# only behind a flag; newer ones have it on.
relaxed=()
if node --experimental-wasm-relaxed-simd -e 0 2>/dev/null; then relaxed=(--experimental-wasm-relaxed-simd); fi
node --no-warnings "${relaxed[@]}" "$out/run.mjs" "$out/selftest.wasm"
