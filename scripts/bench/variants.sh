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
REPEAT=${REPEAT:-2}
ROUNDS=${ROUNDS:-4}

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
  local names=()
  for v in $VARIANTS; do
    name=${v%%=*}
    [ -f "$VARIANTS_DIR/$name/runtime.tar.zst" ] && names+=("$name")
  done
  # Interleave: every round runs native and each variant once, so load that
  # drifts during the run hits all of them alike; keep the best per benchmark.
  local tmp; tmp=$(mktemp -d)
  for r in $(seq "$ROUNDS"); do
    "$NATIVE" "$ROOT/scripts/bench/cpu.py" "$REPEAT" >> "$tmp/native"
    for name in "${names[@]}"; do
      PYBOX_BUNDLE="$VARIANTS_DIR/$name/runtime.tar.zst" /tmp/pybox-variants-bin run -q \
        "$ROOT/scripts/bench/cpu.py" "$REPEAT" >> "$tmp/$name"
    done
  done
  "$NATIVE" "$ROOT/scripts/bench/compare.py" "$tmp/native" "${names[@]/#/$tmp/}"
  rm -rf "$tmp"
}

"${1:-bench}"
