#!/usr/bin/env bash
# first-run-memory.sh — the memory a first run takes on the machine: the sum
# of the resident memory of every process of the given pybox binary (the run
# and the compile it starts, detached), sampled every 20 ms from the run's
# start until the compile has installed the cache, on an empty cache folder.
# GNU time's peak RSS counts the run alone when the compile outlives it (a
# first run that compiles as it runs: wazero fork patch 0040).
#
#   bash scripts/bench/first-run-memory.sh /tmp/pybox [CODE]
#
# Prints the run's wall time, the peak of the sum and when it was reached,
# and the peak of each process.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 PYBOX [CODE]" >&2; exit 2; }
prog=$(readlink -f "$1")
code=${2:-print(1)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
comm=$(basename "$prog" | cut -c1-15)
t0=$(date +%s.%N)
PYBOX_CACHE_DIR=$work/cache "$prog" run -q -c "$code" >/dev/null &
run=$!
python3 - "$comm" "$run" "$work/cache" "$t0" <<'PY'
import fcntl, os, sys, time
comm, run, cache, t0 = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
peak, peak_at, per, run_end = 0, 0.0, {}, None
def procs():
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            if open(f"/proc/{p}/comm").read().strip() != comm:
                continue
            for line in open(f"/proc/{p}/status"):
                if line.startswith("VmRSS:"):
                    yield int(p), int(line.split()[1])
        except OSError:
            pass
def compiling():
    try:
        f = open(os.path.join(cache, "compile.lock"))
    except OSError:
        return run_end is None
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except OSError:
        return True
    finally:
        f.close()
while True:
    rss = dict(procs())
    total = sum(rss.values())
    if total > peak:
        peak, peak_at = total, time.time() - t0
    for p, r in rss.items():
        per[p] = max(per.get(p, 0), r)
    if run_end is None:
        try:
            os.kill(run, 0)
            if os.waitpid(run, os.WNOHANG)[0] == run:
                run_end = time.time() - t0
        except ChildProcessError:
            if not os.path.exists(f"/proc/{run}") or open(f"/proc/{run}/stat").read().split()[2] == "Z":
                run_end = time.time() - t0
        except ProcessLookupError:
            run_end = time.time() - t0
    if run_end is not None and not rss:
        break
    if run_end is not None and not compiling() and run not in rss:
        break
    time.sleep(0.02)
print(f"run {run_end:.2f} s; sum of RSS peak {peak/1024:.0f} MiB at {peak_at:.1f} s; "
      + ", ".join(f"{'run' if p == run else p} {r/1024:.0f} MiB" for p, r in sorted(per.items(), key=lambda x: x[0] != run)))
PY
wait "$run" 2>/dev/null || true
