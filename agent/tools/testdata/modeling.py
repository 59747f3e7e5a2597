# What a model writes for "which factors contribute most to accidents?" once
# correlations are not enough: a random forest's importances, an OLS
# regression through the formula API and a Pearson test. TestModelingScenario
# runs it in pybox; modeling_native.json is its first line from a native run
# on the same file, with the versions the bundle has:
#   PYBOX_WRITE_ACCIDENTS_CSV=/tmp/acc.csv go test ./agent/tools -run TestModelingScenario
#   sed 's#/data/traffic_accidents.csv#/tmp/acc.csv#' agent/tools/testdata/modeling.py |
#     VENV/bin/python | head -1 > agent/tools/testdata/modeling_native.json
import json
import numpy as np
import pandas as pd
import statsmodels.formula.api as smf
from scipy import stats
from sklearn.ensemble import RandomForestRegressor

df = pd.read_csv("/data/traffic_accidents.csv")
X, y = df.drop(columns="accidents"), df["accidents"]
rf = RandomForestRegressor(n_estimators=40, max_depth=8, random_state=0).fit(X, y)
ols = smf.ols("accidents ~ hour + speed_limit + rain_mm + traffic_volume + alcohol_involved", data=df).fit()
r, p = stats.pearsonr(df["rain_mm"], df["accidents"])
print(json.dumps({
    "importances": dict(zip(X.columns, rf.feature_importances_.tolist())),
    "params": ols.params.to_dict(),
    "rsquared": ols.rsquared,
    "pearson_r": float(r), "pearson_p": float(p),
    "corrcoef": float(np.corrcoef(df["rain_mm"], df["accidents"])[0, 1]),
}))
print(ols.summary())
