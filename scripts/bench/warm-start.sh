#!/usr/bin/env bash
# warm-start.sh — warm start of one-shot processes, side by side: `print(1)`
# and `import numpy` in a fresh process, for one or two pybox binaries and a
# native python (with numpy), in interleaved rounds so that all see the same
# machine load. The compile cache must be warm (run `pybox setup` first).
#
#   NATIVE=/tmp/venv-native/bin/python bash scripts/bench/warm-start.sh /tmp/a-pybox [/tmp/b-pybox]
#   ROUNDS=20 bash scripts/bench/warm-start.sh ...
#
# Prints, per program and snippet: wall time min/median/max and the median of
# the peak RSS (GNU time's %M), over ROUNDS rounds (default 10).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 PYBOX [PYBOX2]" >&2; exit 2; }
ROUNDS=${ROUNDS:-10}
NATIVE=${NATIVE:-python3}
[ -x /usr/bin/time ] || { echo "$0: needs GNU time at /usr/bin/time" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
progs=("$@" native)
for _ in $(seq "$ROUNDS"); do
  for i in "${!progs[@]}"; do
    for what in print numpy; do
      code='print(1)'; [ "$what" = numpy ] && code='import numpy'
      if [ "${progs[$i]}" = native ]; then cmd=("$NATIVE" -c "$code"); else cmd=("${progs[$i]}" run -q -c "$code"); fi
      /usr/bin/time -f "$i $what %e %M" -a -o "$out" "${cmd[@]}" >/dev/null
    done
  done
done
names=$(printf '%s\n' "${progs[@]}")
NAMES=$names python3 - "$out" <<'PY'
import collections, os, statistics, sys
names = os.environ["NAMES"].split("\n")
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    i, what, wall, rss = line.split()
    runs[(int(i), what)].append((float(wall), int(rss)))
for (i, what), v in sorted(runs.items()):
    t = sorted(w for w, _ in v)
    m = statistics.median(r for _, r in v) / 1024
    print(f"{names[i]:28} {what:6} wall min/median/max {t[0]:.2f}/{statistics.median(t):.2f}/{t[-1]:.2f} s"
          f"  peak RSS median {m:.0f} MB")
PY
