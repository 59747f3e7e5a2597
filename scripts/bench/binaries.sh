#!/usr/bin/env bash
# binaries.sh — compare pybox binaries (e.g. before/after a change to the
# wazero fork) side by side in one run: cold compile time and compiled-code
# cache size of python.wasm, then the CPU suite interleaved with native.
#
#   BINS="old=/tmp/pybox-main new=/tmp/pybox-branch" bash scripts/bench/binaries.sh
#
# Each binary gets its own new cache folder (the compiled code differs).
# NAME=PATH:ENV runs PATH with the environment assignment ENV (e.g.
# checks=./pybox:PYBOX_BOUNDS_CHECKS=1). The machine is shared and noisy:
# compare ratios from one run; cold compiles are one sample each per round.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
NATIVE=${NATIVE:-/usr/bin/python3.11}
REPEAT=${REPEAT:-2}
ROUNDS=${ROUNDS:-3}
COLD_ROUNDS=${COLD_ROUNDS:-1}
BINS=${BINS:?set BINS="name=path name=path..."}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

runbin() { # name args...
  local spec=$1; shift
  local path=${spec%%:*} env=
  [ "$path" != "$spec" ] && env=${spec#*:}
  env $env PYBOX_CACHE_DIR="$tmp/cache-$name" "$path" "$@"
}

names=()
for b in $BINS; do
  name=${b%%=*}; names+=("$name")
done

# Cold compile: an empty cache each time; wall time of `run -c pass`.
for r in $(seq "$COLD_ROUNDS"); do
  for b in $BINS; do
    name=${b%%=*}; spec=${b#*=}
    rm -rf "$tmp/cache-$name"
    t0=$(date +%s%N); runbin "$spec" run -q -c pass; t1=$(date +%s%N)
    echo "$name cold compile (round $r): $(( (t1 - t0) / 1000000 )) ms"
  done
done
for b in $BINS; do
  name=${b%%=*}
  entry=$(find "$tmp/cache-$name" -type f -size +1M -printf '%s %p\n' | sort -n | tail -1)
  echo "$name largest cache entry: ${entry%% *} bytes; cache folder $(du -sb "$tmp/cache-$name" | cut -f1) bytes"
done

# CPU suite: every round runs native and each binary once.
for _ in $(seq "$ROUNDS"); do
  "$NATIVE" scripts/bench/cpu.py "$REPEAT" >> "$tmp/native"
  for b in $BINS; do
    name=${b%%=*}; spec=${b#*=}
    runbin "$spec" run -q scripts/bench/cpu.py "$REPEAT" >> "$tmp/$name"
  done
done
args=()
for n in "${names[@]}"; do args+=("$tmp/$n"); done
"$NATIVE" scripts/bench/compare.py "$tmp/native" "${args[@]}"
