#!/usr/bin/env bash
# variants.sh — build the runtime bundle with different compiler flags and
# compare them on the CPU suite, side by side in one run.
#
#   bash scripts/bench/variants.sh build   # builds each variant (~5 min each)
#   bash scripts/bench/variants.sh bench   # CPU suite for each, ratios to native
#
# Variants are named NAME=FLAGS below; bundles go to $VARIANTS_DIR/NAME/.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
VARIANTS_DIR=${VARIANTS_DIR:-/tmp/pybox-variants}
VARIANTS=${VARIANTS:-"O2=-O2 O3=-O3 O2-lto=-O2_-flto"}
NATIVE=${NATIVE:-/usr/bin/python3.11}
REPEAT=${REPEAT:-5}

build() {
  for v in $VARIANTS; do
    name=${v%%=*}; flags=${v#*=}; flags=${flags//_/ }
    dir=$VARIANTS_DIR/$name
    mkdir -p "$dir/build"
    # Share the downloaded sources between variants.
    [ -e "$dir/build/src" ] || ln -s "$ROOT/build/src" "$dir/build/src"
    echo "== $name: $flags"
    OPT_CFLAGS="$flags" PYBOX_BUILD_DIR="$dir/build" PYBOX_ASSETS_DIR="$dir" \
      bash "$ROOT/scripts/build-runtime.sh" sources zlib cpython package > "$dir/build.log" 2>&1 \
      || { echo "$name failed: see $dir/build.log"; continue; }
    ls -l "$dir/runtime.tar.zst"
  done
}

bench() {
  go build -o /tmp/pybox-variants-bin "$ROOT/cmd/pybox"
  local nat; nat=$("$NATIVE" "$ROOT/scripts/bench/cpu.py" "$REPEAT")
  local args=("$nat")
  for v in $VARIANTS; do
    name=${v%%=*}
    [ -f "$VARIANTS_DIR/$name/runtime.tar.zst" ] || continue
    out=$(PYBOX_BUNDLE="$VARIANTS_DIR/$name/runtime.tar.zst" /tmp/pybox-variants-bin run -q "$ROOT/scripts/bench/cpu.py" "$REPEAT")
    args+=("$name=$out")
  done
  "$NATIVE" - "${args[@]}" <<'PY'
import json, math, sys
nat = json.loads(sys.argv[1])
rows = [(a.split("=", 1)[0], json.loads(a.split("=", 1)[1])) for a in sys.argv[2:]]
print(f"{'benchmark':<10}" + "".join(f"{n:>10}" for n, _ in rows))
for k in nat:
    print(f"{k:<10}" + "".join(f"{r[k]/nat[k]:>10.2f}" for _, r in rows))
gms = [math.exp(sum(math.log(r[k]/nat[k]) for k in nat)/len(nat)) for _, r in rows]
print(f"{'geomean':<10}" + "".join(f"{g:>10.2f}" for g in gms))
PY
}

"${1:-bench}"
