"""Timings of scipy, scikit-learn and statsmodels kernels (scripts/bench/sci.sh).

Run by the same script in pybox and in a native python with the same package
versions; prints one JSON object: kernel -> best of REPEAT wall times (ms),
plus a checksum per kernel so that the two runs can be seen to compute the
same thing.
"""
import json
import os
import time

import numpy as np

REPEAT = int(os.environ.get("REPEAT", "3"))
rng = np.random.default_rng(0)
n, p = 5000, 8
X = rng.normal(size=(n, p))
y = X @ np.arange(1.0, p + 1) + np.sin(X[:, 0] * 3) * 2 + rng.normal(size=n)


def rf():
    from sklearn.ensemble import RandomForestRegressor
    m = RandomForestRegressor(n_estimators=50, random_state=0, n_jobs=1).fit(X, y)
    return float(m.feature_importances_[0])


def logreg():
    from sklearn.linear_model import LogisticRegression
    m = LogisticRegression(max_iter=500).fit(X, y > np.median(y))
    return float(m.coef_[0, 0])


def kmeans():
    from sklearn.cluster import KMeans
    m = KMeans(n_clusters=8, n_init=3, random_state=0).fit(X)
    return float(m.inertia_)


def ols():
    import statsmodels.api as sm
    r = sm.OLS(y, sm.add_constant(X)).fit()
    r.summary()
    return float(r.rsquared)


def ols_formula():
    import pandas as pd
    import statsmodels.formula.api as smf
    df = pd.DataFrame(X, columns=[f"x{i}" for i in range(p)])
    df["y"] = y
    r = smf.ols("y ~ " + " + ".join(df.columns[:-1]), data=df).fit()
    return float(r.params.iloc[1])


big = rng.normal(size=1_000_000)
big2 = big * 0.5 + rng.normal(size=big.size)


def pearsonr():
    from scipy import stats
    return float(stats.pearsonr(big, big2).statistic)


def ttest():
    from scipy import stats
    return float(stats.ttest_ind(big, big2).statistic)


def minimize():
    from scipy.optimize import minimize, rosen
    return float(minimize(rosen, np.zeros(10), method="BFGS").fun)


def spsolve():
    import scipy.sparse as sp
    from scipy.sparse.linalg import spsolve
    m = 200_000
    A = sp.diags([-1.0, 4.0, -1.0], [-1, 0, 1], shape=(m, m), format="csc")
    return float(spsolve(A, np.ones(m))[m // 2])


KERNELS = [rf, logreg, kmeans, ols, ols_formula, pearsonr, ttest, minimize, spsolve]
out = {}
for k in KERNELS:
    k()  # imports and warm-up
    best, val = None, None
    for _ in range(REPEAT):
        t = time.perf_counter()
        val = k()
        dt = (time.perf_counter() - t) * 1000
        best = dt if best is None else min(best, dt)
    out[k.__name__] = [round(best, 2), round(val, 6)]
print(json.dumps(out))
