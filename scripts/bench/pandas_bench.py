# The analyst kernels of issue 12 (read_csv of 1,000,000 rows x 10 columns,
# also on one thread (read_csv_1t: natively pandas 3.1 parses on one thread
# per core unless mode.max_threads says otherwise), a
# groupby-agg on it, a merge of two 1M-row frames and, where matplotlib is
# installed, savefig of a 2x2 figure with 10,000 points per axes), run the
# same way natively (the wheels in a venv) and inside pybox by
# scripts/bench/pandas.sh.
#
#   pandas_bench.py gen PATH            # write the CSV (once, natively)
#   pandas_bench.py run PATH [REPEAT]   # one JSON object: best wall times, s
import json
import sys
import time

import numpy as np
import pandas as pd

N = 1_000_000


def gen(path):
    rng = np.random.default_rng(0)
    df = pd.DataFrame({
        "key": rng.integers(0, 1000, N),
        "cat": np.array(["north", "south", "east", "west"])[rng.integers(0, 4, N)],
        "i1": rng.integers(0, 1_000_000, N),
        "i2": rng.integers(-500, 500, N),
        "i3": rng.integers(0, 10, N),
        "f1": rng.random(N).round(6),
        "f2": rng.normal(size=N).round(6),
        "f3": (rng.random(N) * 1000).round(3),
        "f4": rng.exponential(size=N).round(6),
        "day": pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 365, N), unit="D"),
    })
    df.to_csv(path, index=False)


def best(fn, repeat):
    t = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        t = min(t, time.perf_counter() - t0)
    return t


def run(path, repeat):
    out = {}
    holder = {}

    def read():
        holder["df"] = pd.read_csv(path)

    out["read_csv"] = best(read, repeat)

    # pandas 3.1 splits a large local CSV into byte ranges and parses them on
    # one thread per core (mode.max_threads; 2 on a 2-core machine); pybox
    # has no threads and always parses on one. The same read on one thread
    # on both sides tells the engine's speed apart from the thread count.
    def read_one_thread():
        with pd.option_context("mode.max_threads", 1):
            holder["df"] = pd.read_csv(path)

    out["read_csv_1t"] = best(read_one_thread, repeat)
    df = holder["df"]
    assert df.shape == (N, 10), df.shape

    def groupby():
        df.groupby(["key", "cat"]).agg(n=("i1", "size"), s=("i2", "sum"), m=("f1", "mean"), x=("f3", "max"))

    out["groupby"] = best(groupby, repeat)
    rng = np.random.default_rng(1)
    left = pd.DataFrame({"id": rng.permutation(N), "a": rng.random(N)})
    right = pd.DataFrame({"id": rng.permutation(N), "b": rng.integers(0, 100, N)})

    def merge():
        m = left.merge(right, on="id")
        assert len(m) == N

    out["merge"] = best(merge, repeat)
    try:
        import matplotlib
    except ImportError:
        matplotlib = None
    if matplotlib is not None:
        matplotlib.use("Agg")
        import io

        import matplotlib.pyplot as plt

        pts = np.random.default_rng(2).normal(size=(4, 2, 10_000))

        def savefig():
            fig, axes = plt.subplots(2, 2, figsize=(8, 6))
            for ax, (x, y) in zip(axes.flat, pts):
                ax.plot(x, y, ".", markersize=2)
            buf = io.BytesIO()
            fig.savefig(buf, format="png", dpi=100)
            plt.close(fig)
            assert buf.getvalue()[:4] == b"\x89PNG"

        out["savefig"] = best(savefig, repeat)
    print(json.dumps(out))


if sys.argv[1] == "gen":
    gen(sys.argv[2])
else:
    run(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 3)
