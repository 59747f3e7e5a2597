#!/usr/bin/env bash
# run.sh — pybox vs Debian's native python3.11, side by side in one run.
#
#   bash scripts/bench/run.sh            # CPU suite + startup, prints a table
#   PYBOX=./pybox REPEAT=5 bash scripts/bench/run.sh
#
# Reports each benchmark's ratio (pybox time / native time) and the geometric
# mean, then end-to-end `print(1)` wall time for both, then cold and cached
# engine start. Machines here are shared and noisy: compare ratios from one
# run, not absolute numbers across runs.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
NATIVE=${NATIVE:-/usr/bin/python3.11}
REPEAT=${REPEAT:-2}
ROUNDS=${ROUNDS:-4}
PYBOX=${PYBOX:-}
if [ -z "$PYBOX" ]; then
  go build -o /tmp/pybox-bench ./cmd/pybox
  PYBOX=/tmp/pybox-bench
fi
[ -x "$NATIVE" ] || { echo "need $NATIVE (apt-get install python3.11)" >&2; exit 1; }

# Interleaved rounds: native and pybox alternate, best per benchmark kept.
tmp=$(mktemp -d)
for _ in $(seq "$ROUNDS"); do
  "$NATIVE" scripts/bench/cpu.py "$REPEAT" >> "$tmp/native"
  "$PYBOX" run -q scripts/bench/cpu.py "$REPEAT" >> "$tmp/pybox"
done

# end-to-end print(1): best of 10 for each
best_ms() {
  local best=999999
  for _ in $(seq 10); do
    local t0 t1; t0=$(date +%s%N); "$@" >/dev/null; t1=$(date +%s%N)
    local ms=$(( (t1 - t0) / 1000 ))
    [ "$ms" -lt "$best" ] && best=$ms
  done
  echo "$best"
}
native_start=$(best_ms "$NATIVE" -c 'print(1)')
pybox_start=$(best_ms "$PYBOX" run -q -c 'print(1)')

"$NATIVE" scripts/bench/compare.py "$tmp/native" "$tmp/pybox"
rm -rf "$tmp"
echo "print(1) end to end (best of 10): native $((native_start/1000)).$(( (native_start%1000)/100 )) ms, pybox $((pybox_start/1000)).$(( (pybox_start%1000)/100 )) ms"
echo "binary size: $(stat -c %s "$PYBOX") bytes"

# Cold compile (empty cache) and cached start, one process each.
cache=$(mktemp -d)
t0=$(date +%s%N); PYBOX_CACHE_DIR=$cache "$PYBOX" run -q -c pass; t1=$(date +%s%N)
echo "first run, cold compile: $(( (t1 - t0) / 1000000 )) ms"
t0=$(date +%s%N); PYBOX_CACHE_DIR=$cache "$PYBOX" run -q -c pass; t1=$(date +%s%N)
echo "second run, compiled code from cache: $(( (t1 - t0) / 1000000 )) ms"
echo "compilation cache size: $(du -sh "$cache" | cut -f1)"
rm -rf "$cache"
/usr/bin/time -f "pybox print(1) max RSS: %M KB" "$PYBOX" run -q -c 'print(1)' >/dev/null
/usr/bin/time -f "native print(1) max RSS: %M KB" "$NATIVE" -c 'print(1)' >/dev/null
