#!/usr/bin/env bash
# warm-start.sh — warm start of one-shot processes, side by side: `print(1)`
# and `import numpy` in a fresh process, for one or two pybox binaries and a
# native python (with numpy), in interleaved rounds so that all see the same
# machine load. The caches must be warm (run `pybox setup` and one run first).
#
#   NATIVE=/tmp/venv-native/bin/python bash scripts/bench/warm-start.sh /tmp/a-pybox [/tmp/b-pybox]
#   bash scripts/bench/warm-start.sh /tmp/old-pybox@/tmp/cache-old /tmp/new-pybox@/tmp/cache-new
#   ROUNDS=20 bash scripts/bench/warm-start.sh ...
#
# BINARY@DIR runs BINARY with PYBOX_CACHE_DIR=DIR (each binary its own cache
# folder, so that neither loads what the other compiled or wrote).
#
# Prints, per program and snippet: wall time min/median/max (ms), the median
# of the CPU time (user+sys) and of the peak RSS, over ROUNDS rounds (default
# 10). On a shared machine CPU time varies less than wall time.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 PYBOX[@CACHE_DIR] [PYBOX2[@CACHE_DIR2]]" >&2; exit 2; }
ROUNDS=${ROUNDS:-10} NATIVE=${NATIVE:-python3} python3 - "$@" <<'PY'
import os, statistics, sys, time

rounds = int(os.environ["ROUNDS"])
progs = []  # (name, argv prefix, environment)
for arg in sys.argv[1:]:
    binary, _, cache = arg.partition("@")
    env = dict(os.environ)
    if cache:
        env["PYBOX_CACHE_DIR"] = cache
    progs.append((arg, [binary, "run", "-q", "-c"], env))
progs.append(("native " + os.environ["NATIVE"], [os.environ["NATIVE"], "-c"], dict(os.environ)))
snippets = [("print", "print(1)"), ("numpy", "import numpy")]

runs = {}
devnull = os.open(os.devnull, os.O_WRONLY)
for _ in range(rounds):
    for name, argv, env in progs:
        for what, code in snippets:
            cmd = argv + [code]
            start = time.perf_counter()
            pid = os.posix_spawnp(cmd[0], cmd, env, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
            _, status, ru = os.wait4(pid, 0)
            wall = time.perf_counter() - start
            if os.waitstatus_to_exitcode(status) != 0:
                sys.exit(f"{' '.join(cmd)} failed ({status})")
            runs.setdefault((name, what), []).append((wall * 1000, (ru.ru_utime + ru.ru_stime) * 1000, ru.ru_maxrss / 1024))

for (name, what), v in runs.items():
    t = sorted(w for w, _, _ in v)
    cpu = statistics.median(c for _, c, _ in v)
    rss = statistics.median(r for _, _, r in v)
    print(f"{name:44} {what:6} wall min/median/max {t[0]:.0f}/{statistics.median(t):.0f}/{t[-1]:.0f} ms"
          f"  CPU median {cpu:.0f} ms  peak RSS median {rss:.0f} MB")
PY
