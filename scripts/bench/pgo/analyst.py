"""A training workload for python.wasm's PGO build (scripts/bench/pgo.sh,
set "analyst"): what the analyst stack spends its interpreter time on, so
that the profile does not mark the C-API paths behind numpy, pandas,
matplotlib, sqlite3, csv and json, and the big-number arithmetic of exact
computations, as cold. The pyperformance sets exercise pure-Python code
only, and none of them divides big integers.

It is none of the measured benchmarks (scripts/bench/pandas_bench.py,
numeric.py, sci.py), and it checks its own results, so that a broken
training build fails instead of writing a profile of an error path.

    python analyst.py [SCALE]
"""
import csv
import datetime as dt
import io
import json
import math
import sqlite3
import statistics
import sys
from fractions import Fraction

import numpy as np
import pandas as pd

SCALE = int(sys.argv[1]) if len(sys.argv) > 1 else 1
N = 50_000 * SCALE


def frames():
    rng = np.random.default_rng(1)
    sales = pd.DataFrame({
        "day": pd.Timestamp("2026-01-01") + pd.to_timedelta(rng.integers(0, 365, N), unit="D"),
        "store": rng.integers(0, 40, N),
        "region": np.array(["north", "south", "east", "west"])[rng.integers(0, 4, N)],
        "units": rng.integers(1, 20, N),
        "price": rng.random(N).round(2) * 100,
    })
    stores = pd.DataFrame({"store": np.arange(40), "size": rng.choice(["s", "m", "l"], 40)})
    return sales, stores


def pandas_work(sales, stores):
    text = sales.to_csv(index=False)
    back = pd.read_csv(io.StringIO(text), parse_dates=["day"])
    assert len(back) == N and back["units"].sum() == sales["units"].sum()
    back["revenue"] = back["units"] * back["price"]
    by_region = back.groupby("region").agg(revenue=("revenue", "sum"), n=("units", "size"))
    assert by_region["n"].sum() == N
    monthly = back.set_index("day").resample("MS")["revenue"].sum()
    assert len(monthly) == 12
    joined = back.merge(stores, on="store", how="left")
    pivot = joined.pivot_table(index="region", columns="size", values="units", aggfunc="mean")
    assert pivot.shape == (4, 3)
    names = back["region"].str.upper().str.slice(0, 3) + "-" + back["store"].astype(str)
    assert names.str.len().max() <= 6
    ranked = joined.sort_values(["region", "revenue"], ascending=[True, False])
    top = ranked.groupby("region").head(3)
    assert len(top) == 12
    rolled = monthly.rolling(3).mean().dropna()
    assert len(rolled) == 10
    records = top.to_dict("records")
    small = pd.DataFrame(records).astype({"store": "int64"})
    assert small["store"].dtype == np.int64
    # Row-wise Python callbacks: the slow path users write anyway.
    flags = back.head(5_000).apply(lambda r: r["units"] > 10 and r["region"] != "east", axis=1)
    assert flags.dtype == bool
    return back


def numpy_work():
    rng = np.random.default_rng(2)
    a = rng.random((200, 200))
    x = np.linalg.solve(a + 200 * np.eye(200), np.ones(200))
    assert np.allclose((a + 200 * np.eye(200)) @ x, 1)
    v = rng.normal(size=200_000)
    hist, _ = np.histogram(v, bins=50)
    assert hist.sum() == v.size
    idx = np.argsort(v)[:10]
    assert v[idx[0]] == v.min()
    acc = 0.0
    for row in a[:50]:  # small arrays in a Python loop: per-call overhead
        acc += float(np.dot(row, row)) + row.max() - row.min()
    assert acc > 0


def stdlib_work(back):
    rows = back.head(20_000)
    buf = io.StringIO()
    w = csv.writer(buf)
    for r in rows.itertuples(index=False):
        w.writerow([r.day.date().isoformat(), r.store, r.region, r.units, r.price])
    buf.seek(0)
    parsed = [(dt.date.fromisoformat(d), int(s), reg, int(u), float(p)) for d, s, reg, u, p in csv.reader(buf)]
    assert len(parsed) == 20_000
    db = sqlite3.connect(":memory:")
    db.execute("create table sales (day text, store int, region text, units int, price real)")
    db.executemany("insert into sales values (?, ?, ?, ?, ?)", [(d.isoformat(), s, r, u, p) for d, s, r, u, p in parsed])
    got = db.execute("select region, sum(units), avg(price) from sales group by region order by region").fetchall()
    assert len(got) == 4 and sum(g[1] for g in got) == rows["units"].sum()
    doc = json.dumps([{"region": r, "units": u, "avg": p} for r, u, p in got] * 500)
    assert len(json.loads(doc)) == 2000
    assert statistics.median(u for _, _, _, u, _ in parsed) >= 1


def exact_work():
    # Integers of thousands of digits: multiplication, division and
    # remainder (longobject.c's x_divrem), conversion to and from text.
    f = math.factorial(3_000)
    g = math.factorial(1_800)
    q, r = divmod(f, g)
    assert q * g + r == f and 0 <= r < g
    head = f % 10**4_000  # within int's default limit of 4,300 digits for str()
    assert int(str(head)) == head
    assert pow(3, 10_007, 2**521 - 1) == pow(3, 10_007 % (2**521 - 2), 2**521 - 1)
    x = 0
    for k in range(1, 400):
        x = x * 10**6 // k + k**40
    assert x > 0
    h = sum(Fraction(1, k) for k in range(1, 300))
    assert 6 < h < 7
    assert math.isqrt(f) ** 2 <= f < (math.isqrt(f) + 1) ** 2
    assert math.gcd(f, g) == g


def plot_work(back):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(8, 3))
    sample = back.sample(2_000, random_state=0)
    axes[0].scatter(sample["units"], sample["price"], s=4)
    back.groupby("region")["units"].sum().plot.bar(ax=axes[1])
    axes[1].set_title("units by region")
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=80)
    plt.close(fig)
    assert out.getvalue()[:8] == b"\x89PNG\r\n\x1a\n"


def main():
    sales, stores = frames()
    back = pandas_work(sales, stores)
    numpy_work()
    stdlib_work(back)
    exact_work()
    plot_work(back)
    print("analyst workload ok:", N, "rows")


main()
