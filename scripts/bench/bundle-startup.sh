#!/usr/bin/env bash
# bundle-startup.sh — start-up cost of two runtime bundles, side by side:
# the cold first run (empty compile cache: decompress, compile python.wasm)
# and the cached start of `pybox run -c 'print(1)'`, alternating between the
# bundles so that both see the same machine load.
#
#   bash scripts/bench/bundle-startup.sh OLD.tar.zst NEW.tar.zst
#   ROUNDS=5 bash scripts/bench/bundle-startup.sh ...
#
# Prints, per bundle: python.wasm and bundle sizes, each cold run, and the
# best and median of the cached starts (ROUNDS x 5 runs).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
[ $# -eq 2 ] || { echo "usage: $0 OLD_BUNDLE NEW_BUNDLE" >&2; exit 2; }
ROUNDS=${ROUNDS:-2}
PYBOX=${PYBOX:-}
if [ -z "$PYBOX" ]; then
  CGO_ENABLED=0 go build -o /tmp/pybox-startup ./cmd/pybox
  PYBOX=/tmp/pybox-startup
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ms() { echo $(( ($2 - $1) / 1000000 )); }

for i in 1 2; do
  b=${!i}
  mkdir -p "$tmp/$i"
  printf 'bundle %d: %s, %d bytes compressed, python.wasm %d bytes\n' "$i" "$b" "$(stat -c %s "$b")" \
    "$(zstd -dc "$b" | tar -xO --wildcards '*python.wasm' | wc -c)"
done
for r in $(seq "$ROUNDS"); do
  for i in 1 2; do
    cache=$tmp/$i/cache-$r
    t0=$(date +%s%N); PYBOX_BUNDLE=${!i} PYBOX_CACHE_DIR=$cache "$PYBOX" run -q -c 'print(1)' >/dev/null; t1=$(date +%s%N)
    echo "$(ms "$t0" "$t1")" >> "$tmp/$i/cold"
    for _ in 1 2 3 4 5; do
      t0=$(date +%s%N); PYBOX_BUNDLE=${!i} PYBOX_CACHE_DIR=$cache "$PYBOX" run -q -c 'print(1)' >/dev/null; t1=$(date +%s%N)
      echo "$(ms "$t0" "$t1")" >> "$tmp/$i/warm"
    done
  done
done
for i in 1 2; do
  sort -n "$tmp/$i/warm" > "$tmp/$i/warm.sorted"
  n=$(wc -l < "$tmp/$i/warm.sorted")
  printf 'bundle %d: cold first run %s ms; cached start best %s ms, median %s ms (%d runs)\n' "$i" \
    "$(paste -sd' ' "$tmp/$i/cold")" "$(head -1 "$tmp/$i/warm.sorted")" \
    "$(sed -n "$(( (n + 1) / 2 ))p" "$tmp/$i/warm.sorted")" "$n"
done
