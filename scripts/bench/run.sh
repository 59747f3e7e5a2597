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
REPEAT=${REPEAT:-5}
PYBOX=${PYBOX:-}
if [ -z "$PYBOX" ]; then
  go build -o /tmp/pybox-bench ./cmd/pybox
  PYBOX=/tmp/pybox-bench
fi
[ -x "$NATIVE" ] || { echo "need $NATIVE (apt-get install python3.11)" >&2; exit 1; }

native_json=$("$NATIVE" scripts/bench/cpu.py "$REPEAT")
pybox_json=$("$PYBOX" run -q scripts/bench/cpu.py "$REPEAT")

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

"$NATIVE" - "$native_json" "$pybox_json" "$native_start" "$pybox_start" <<'PY'
import json, math, sys
nat, box = json.loads(sys.argv[1]), json.loads(sys.argv[2])
ns, ps = int(sys.argv[3]), int(sys.argv[4])
print(f"{'benchmark':<10} {'native ms':>10} {'pybox ms':>10} {'ratio':>7}")
ratios = []
for k in nat:
    r = box[k] / nat[k]
    ratios.append(r)
    print(f"{k:<10} {nat[k]*1e3:>10.1f} {box[k]*1e3:>10.1f} {r:>7.2f}")
gm = math.exp(sum(map(math.log, ratios)) / len(ratios))
print(f"{'geomean':<10} {'':>10} {'':>10} {gm:>7.2f}")
print(f"print(1) end to end: native {ns/1000:.1f} ms, pybox {ps/1000:.1f} ms ({ps/ns:.1f}x)")
PY
echo "binary size: $(stat -c %s "$PYBOX") bytes"
