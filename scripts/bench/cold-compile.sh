#!/usr/bin/env bash
# cold-compile.sh — the first run's compile, side by side: `pybox setup` on an
# empty cache folder (a new one per run) for one or more pybox binaries, in
# interleaved rounds so that all see the same machine load.
#
#   bash scripts/bench/cold-compile.sh /tmp/old-pybox /tmp/new-pybox
#   ROUNDS=5 bash scripts/bench/cold-compile.sh ...
#
# Each run starts from an empty folder, so it includes unpacking the runtime
# bundle; with SPLIT=1 each round also runs every binary on a folder that
# already holds the unpacked bundle but no compiled code (the compile alone).
# With FIRSTRUN=1 each round also times `pybox run -q -c 'print(1)'` on an
# empty folder: the first run a user waits for. A binary that waits for its
# detached compile has it counted; one that compiles as it runs (wazero fork
# patch 0040) leaves the whole compile running in the background, at the
# lowest priority: the script waits for it (the cache's compile.lock) before
# going on, and reports as "ready" the wall time from the run's start until
# the cache holds the compiled runtime. GNU time's peak RSS is then the run's
# alone; the background compile's is that of `pybox setup` ("cold").
# Prints, per binary: wall time, user+sys CPU and peak RSS (GNU time's %M)
# min/median/max over ROUNDS rounds (default 3), and the load average seen.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 PYBOX [PYBOX2...]" >&2; exit 2; }
ROUNDS=${ROUNDS:-3}
SPLIT=${SPLIT:-0}
FIRSTRUN=${FIRSTRUN:-0}
[ -x /usr/bin/time ] || { echo "$0: needs GNU time at /usr/bin/time" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$work/times
if [ "$SPLIT" = 1 ]; then
  # A folder with the unpacked bundle only, copied for each compile-only run.
  PYBOX_CACHE_DIR=$work/bundle "$1" setup -q
  rm -rf "$work/bundle/wazero"
fi
for r in $(seq "$ROUNDS"); do
  for i in $(seq 0 $(($# - 1))); do
    prog=${*:$((i + 1)):1}
    rm -rf "$work/cache"
    printf '%s load %s\n' "$i" "$(cut -d' ' -f1 /proc/loadavg)" >>"$out"
    /usr/bin/time -f "$i cold %e %U %S %M" -a -o "$out" env PYBOX_CACHE_DIR="$work/cache" "$prog" setup -q
    if [ "$FIRSTRUN" = 1 ]; then
      rm -rf "$work/cache"
      t0=$(date +%s.%N)
      /usr/bin/time -f "$i firstrun %e %U %S %M" -a -o "$out" env PYBOX_CACHE_DIR="$work/cache" "$prog" run -q -c 'print(1)' >/dev/null
      [ -e "$work/cache/compile.lock" ] && flock "$work/cache/compile.lock" true
      printf '%s ready %s 0 0 0\n' "$i" "$(echo "$(date +%s.%N) - $t0" | bc)" >>"$out"
    fi
    if [ "$SPLIT" = 1 ]; then
      rm -rf "$work/cache" && cp -r "$work/bundle" "$work/cache"
      /usr/bin/time -f "$i compile %e %U %S %M" -a -o "$out" env PYBOX_CACHE_DIR="$work/cache" "$prog" setup -q
    fi
  done
done
NAMES=$(printf '%s\n' "$@") python3 - "$out" <<'PY'
import collections, os, statistics, sys
names = os.environ["NAMES"].split("\n")
runs, loads = collections.defaultdict(list), []
for line in open(sys.argv[1]):
    f = line.split()
    if f[1] == "load":
        loads.append(float(f[2]))
        continue
    runs[(int(f[0]), f[1])].append((float(f[2]), float(f[3]) + float(f[4]), int(f[5]) / 1024))
def mmm(xs, fmt):
    xs = sorted(xs)
    return "/".join(fmt % x for x in (xs[0], statistics.median(xs), xs[-1]))
for (i, what), v in sorted(runs.items()):
    print(f"{names[i]:28} {what:7} wall {mmm([w for w, _, _ in v], '%.1f')} s  "
          f"cpu {mmm([c for _, c, _ in v], '%.1f')} s  peak RSS {mmm([m for _, _, m in v], '%.0f')} MB  (min/median/max, {len(v)} runs)")
print(f"load average (1 min) at the runs' starts: {min(loads):.1f}-{max(loads):.1f}")
PY
