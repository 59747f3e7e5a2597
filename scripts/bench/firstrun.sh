#!/usr/bin/env bash
# firstrun.sh BASE BIN... : interleaved first runs (pybox run -q -c 'print(1)')
# on a fresh empty cache folder under BASE; the background compile each run
# starts is killed (by its pid) and waited for before the next run.
# ROUNDS (default 5). Prints one line per run: bin wall user sys maxrssKB cacheKB load.
set -euo pipefail
ROUNDS=${ROUNDS:-5}
CODE=${CODE:-print(1)}
base=$1; shift
for r in $(seq "$ROUNDS"); do
  for prog in "$@"; do
    d=$(mktemp -d -p "$base" fr.XXXXXX)
    load=$(cut -d' ' -f1 /proc/loadavg)
    t=$(mktemp)
    /usr/bin/time -f '%e %U %S %M' -o "$t" env PYBOX_CACHE_DIR="$d" "$prog" run -q -c "$CODE" >/dev/null
    for pid in $(pgrep -f -- "-cache-dir $d" || true); do kill "$pid" 2>/dev/null || true; done
    [ -e "$d/compile.lock" ] && flock "$d/compile.lock" true
    kb=$(du -sk "$d" | cut -f1)
    echo "$(basename "$prog") $(cat "$t") $kb $load"
    rm -rf "$d" "$t"
  done
done
