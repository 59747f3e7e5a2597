#!/usr/bin/env bash
# sci.sh — scipy / scikit-learn / statsmodels kernels (scripts/bench/sci.py)
# in pybox and in a native python with the same versions, in interleaved
# rounds; prints each kernel's best time per side and the ratio.
#
#   NATIVE=/tmp/venv-sci/bin/python PYBOX_BUNDLE=.../runtime.tar.zst bash scripts/bench/sci.sh ./pybox
#   ROUNDS=3 REPEAT=3 ...
#
# Native runs single-threaded (OMP/OpenBLAS threads 1), as pybox does.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 PYBOX" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
ROUNDS=${ROUNDS:-2}
export REPEAT=${REPEAT:-3} OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
NATIVE=${NATIVE:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for r in $(seq "$ROUNDS"); do
  echo "round $r load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  "$NATIVE" "$here/sci.py" > "$work/native.$r"
  "$1" run -q --timeout 20m "$here/sci.py" > "$work/pybox.$r"
done
python3 - "$work" "$ROUNDS" <<'PY'
import json, sys
work, rounds = sys.argv[1], int(sys.argv[2])
def best(side):
    res = {}
    for r in range(1, rounds + 1):
        for k, (ms, val) in json.load(open(f"{work}/{side}.{r}")).items():
            res[k] = (min(ms, res[k][0]) if k in res else ms, val)
    return res
nat, pb = best("native"), best("pybox")
print(f"{'kernel':12} {'native ms':>10} {'pybox ms':>10} {'ratio':>6}  values (native / pybox)")
for k in nat:
    print(f"{k:12} {nat[k][0]:10.1f} {pb[k][0]:10.1f} {pb[k][0] / nat[k][0]:6.2f}  {nat[k][1]} / {pb[k][1]}")
PY
