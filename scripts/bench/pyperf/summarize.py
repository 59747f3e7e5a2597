"""Ratio table for scripts/bench/pyperf.sh.

    python summarize.py [--cpu] RESULTS SIDE...

RESULTS has one line per run: SIDE BENCH ROUND SECONDS. The first SIDE is
the reference (native python3.11). For every other side and benchmark:
the min ratio is the side's fastest run over the reference's fastest, the
median ratio the side's median over the reference's median; the last rows
are the geometric means of those over the benchmarks that side ran. The
paired row takes each round on its own: the geometric mean, over every
benchmark and round both sides ran, of the side's run over the reference's
run of that round (the two ran minutes apart at most), with a 95%
confidence interval (mean log ratio +- 1.96 standard errors). On a shared
machine whose speed drifts by 10-20% within minutes, that interval says
whether a difference of a few percent is there at all; min and median
ratios of ten runs each do not.
Exits non-zero if a side has no time for a benchmark the reference ran.
With --cpu, RESULTS holds each run's process CPU seconds instead (OUT.cpu
of pyperf.sh), and the footer says so.
"""
import math
import statistics
import sys
from collections import defaultdict


def main():
    args = sys.argv[1:]
    what = "median seconds of the timed loops"
    if args and args[0] == "--cpu":
        args = args[1:]
        what = "median process CPU seconds (user+sys, start-up included)"
    path, sides = args[0], args[1:]
    times = defaultdict(list)  # (side, bench) -> [seconds]
    by_round = {}  # (side, bench, round) -> seconds
    benches = []
    with open(path) as f:
        for line in f:
            side, bench, rnd, seconds = line.split()
            times[side, bench].append(float(seconds))
            by_round[side, bench, rnd] = float(seconds)
            if bench not in benches:
                benches.append(bench)
    ref, others = sides[0], sides[1:]
    missing = [f"{s}/{b}" for s in sides for b in benches if not times[s, b]]
    if missing:
        sys.exit("summarize.py: no time for " + ", ".join(missing))

    head = f"{'benchmark':<14}{ref + ' s':>12}"
    for s in others:
        head += f"{s + ' min':>16}{'median':>8}"
    print(head)
    logs = defaultdict(lambda: ([], []))
    for b in benches:
        rmin, rmed = min(times[ref, b]), statistics.median(times[ref, b])
        row = f"{b:<14}{rmed:>12.3f}"
        for s in others:
            smin, smed = min(times[s, b]) / rmin, statistics.median(times[s, b]) / rmed
            logs[s][0].append(math.log(smin))
            logs[s][1].append(math.log(smed))
            row += f"{smin:>15.2f}x{smed:>7.2f}x"
        print(row)
    row = f"{'geomean':<14}{'':>12}"
    for s in others:
        gmin = math.exp(statistics.fmean(logs[s][0]))
        gmed = math.exp(statistics.fmean(logs[s][1]))
        row += f"{gmin:>15.2f}x{gmed:>7.2f}x"
    print(row)
    paired = []
    for s in others:
        logs_p = [math.log(v / by_round[ref, b, r]) for (side, b, r), v in by_round.items()
                  if side == s and by_round.get((ref, b, r), 0) > 0 and v > 0]
        if len(logs_p) < 2:
            continue
        m = statistics.fmean(logs_p)
        half = 1.96 * statistics.stdev(logs_p) / math.sqrt(len(logs_p))
        paired.append(f"{s} {math.exp(m):.3f}x ({math.exp(m - half):.3f}-{math.exp(m + half):.3f}, {len(logs_p)} pairs)")
    if paired:
        print("paired by round, side / " + ref + ", 95% CI: " + "; ".join(paired))
    runs = {s: min(len(times[s, b]) for b in benches) for s in sides}
    print(f"({ref} s: {what}; ratios: side / {ref}; "
          f"runs per benchmark: " + ", ".join(f"{s} {n}" for s, n in runs.items()) + ")")


if __name__ == "__main__":
    main()
