# statsmodels inside pybox: the formula API on a DataFrame, OLS/GLM/Logit
# on arrays, and the Cython parts (state-space Kalman filter for ARIMA,
# lowess, STL, Holt-Winters). Each line prints rounded values, as native
# statsmodels 0.15.0 / scipy 1.17.1 / pandas 3.1.1 / numpy 2.4.6 (PyPI
# wheels, x86-64) print them for this script; runtime/bundle_test.go
# compares. Optimizer results (ARIMA, Holt-Winters, Logit) are rounded
# further than closed-form ones (least squares).
import importlib.metadata

import numpy as np
import pandas as pd
import statsmodels
import statsmodels.api as sm
import statsmodels.formula.api as smf

print("version", statsmodels.__version__, importlib.metadata.version("statsmodels"))
from statsmodels.tsa.statespace import _kalman_filter
print("name", _kalman_filter.__name__)

# Fixed data (no random generator: the same numbers on every platform).
n = 60
i = np.arange(n, dtype=float)
x1 = np.sin(i / 3.0) * 2.0 + i / 20.0
x2 = np.cos(i / 5.0) + (i % 7) / 7.0
group = np.array(["a", "b", "c"])[(i % 3).astype(int)]
noise = np.sin(i * 12.9898) * 0.5
y = 1.5 + 2.0 * x1 - 0.75 * x2 + np.where(group == "b", 0.4, 0.0) + noise
df = pd.DataFrame({"y": y, "x1": x1, "x2": x2, "g": group})

# Formula API (patsy): categorical term, summary table, anova.
res = smf.ols("y ~ x1 + x2 + C(g)", data=df).fit()
print("ols params", [round(float(v), 8) for v in res.params])
print("ols names", list(res.params.index))
print("ols r2", round(float(res.rsquared), 8), round(float(res.rsquared_adj), 8), round(float(res.fvalue), 6))
print("ols bse", [round(float(v), 8) for v in res.bse])
summary = str(res.summary())
assert "OLS Regression Results" in summary and "C(g)[T.b]" in summary, summary
print("summary", summary.splitlines()[0].strip(), "Durbin-Watson" in summary)
ci = res.conf_int()
print("conf_int", [round(float(v), 6) for v in ci.iloc[1]])
table = sm.stats.anova_lm(res, typ=2)
print("anova", [round(float(v), 6) for v in table["F"].iloc[:3]])

# Arrays: sm.OLS with add_constant equals the formula fit without groups.
X = sm.add_constant(np.column_stack([x1, x2]))
assert X.shape == (n, 3) and (X[:, 0] == 1).all()
ols = sm.OLS(y, X).fit()
f = smf.ols("y ~ x1 + x2", data=df).fit()
print("sm.OLS", [round(float(v), 8) for v in ols.params], np.allclose(ols.params, f.params.values, rtol=1e-12, atol=1e-12))
print("lstsq", np.allclose(ols.params, np.linalg.lstsq(X, y, rcond=None)[0], rtol=1e-10, atol=1e-12))
print("HC3", [round(float(v), 6) for v in ols.get_robustcov_results("HC3").bse])

# GLM Poisson (IRLS) and Logit (Newton).
counts = np.round(np.exp(0.3 + 0.2 * x1 - 0.1 * x2) + (i % 4)).astype(int)
pois = sm.GLM(counts, X, family=sm.families.Poisson()).fit()
print("poisson", [round(float(v), 8) for v in pois.params], round(float(pois.deviance), 6), round(float(pois.aic), 6))
pf = smf.glm("c ~ x1 + x2", data=df.assign(c=counts), family=sm.families.Poisson()).fit()
print("poisson formula", np.allclose(pf.params.values, pois.params, rtol=1e-10))
ybin = (y > np.median(y)).astype(int)
logit = sm.Logit(ybin, X).fit(disp=0)
print("logit", [round(float(v), 5) for v in logit.params], round(float(logit.llf), 5))

# Cython modules: lowess, STL, ARIMA through the state-space Kalman filter,
# Holt-Winters.
from statsmodels.nonparametric.smoothers_lowess import lowess
lo = lowess(y, x1, frac=0.5)
print("lowess", [round(float(v), 6) for v in lo[:3, 1]])
from statsmodels.tsa.seasonal import STL
ts = pd.Series(10 + i / 10.0 + np.sin(2 * np.pi * i / 12.0) * 3 + noise,
               index=pd.date_range("2020-01-01", periods=n, freq="MS"))
stl = STL(ts, period=12).fit()
print("stl", [round(float(v), 6) for v in stl.trend.iloc[:3]], [round(float(v), 6) for v in stl.seasonal.iloc[:3]])
from statsmodels.tsa.arima.model import ARIMA
ar = ARIMA(ts, order=(1, 0, 0)).fit()
print("arima", [round(float(v), 3) for v in ar.params], round(float(ar.llf), 3))
print("forecast", [round(float(v), 2) for v in ar.forecast(3)])
from statsmodels.tsa.holtwinters import ExponentialSmoothing
hw = ExponentialSmoothing(ts, trend="add", seasonal="add", seasonal_periods=12).fit()
print("holtwinters", [round(float(v), 2) for v in hw.forecast(2)])
from statsmodels.tsa.stattools import adfuller, acf
adf = adfuller(ts.values, maxlag=2, autolag=None)
print("adfuller", round(float(adf[0]), 6), round(float(adf[1]), 6))
print("acf", [round(float(v), 8) for v in acf(y, nlags=3)])
