# pandas inside pybox: what an analyst's first cells do (CSV in, groupby,
# merge, pivot, time series, time zones, categoricals, Excel and Markdown
# out), each result asserted and printed for runtime/bundle_test.go.
import io
import importlib.metadata

import numpy as np
import pandas as pd

print("version", pd.__version__, importlib.metadata.version("pandas"))
print("name", pd._libs.lib.__name__, pd._libs.window.aggregations.__name__)

csv = """city,day,sales,units
Paris,2024-01-01,10.5,3
Lyon,2024-01-01,7.25,2
Paris,2024-01-02,4.0,1
Nice,2024-01-02,,5
Lyon,2024-01-03,12.0,4
"""
df = pd.read_csv(io.StringIO(csv), parse_dates=["day"])
assert df.shape == (5, 4), df.shape
assert str(df["day"].dtype).startswith("datetime64"), df.dtypes
assert df["units"].dtype == np.int64, df.dtypes
assert df["sales"].isna().sum() == 1
print("read_csv", df.shape, str(df["units"].dtype), df["sales"].sum())

# The C parser and the Python one agree; a file on disk goes through io.c.
df.to_csv("/tmp/sales.csv", index=False)
back = pd.read_csv("/tmp/sales.csv", engine="c")
py = pd.read_csv("/tmp/sales.csv", engine="python")
pd.testing.assert_frame_equal(back, py)
print("csv roundtrip", back.shape, list(back.columns) == list(df.columns))

g = df.groupby("city").agg(total=("sales", "sum"), n=("units", "size"), mean_units=("units", "mean"))
assert g.loc["Paris", "total"] == 14.5 and g.loc["Lyon", "n"] == 2
print("groupby", g["total"].to_dict(), g["mean_units"].round(2).to_dict())

regions = pd.DataFrame({"city": ["Paris", "Lyon", "Nice"], "region": ["IDF", "ARA", "PACA"]})
m = df.merge(regions, on="city", how="left")
assert m["region"].notna().all() and len(m) == 5
print("merge", m.groupby("region")["units"].sum().to_dict())

pt = pd.pivot_table(m, index="region", columns=m["day"].dt.day, values="units", aggfunc="sum", fill_value=0)
assert pt.loc["IDF", 1] == 3 and pt.loc["ARA", 3] == 4
print("pivot", pt.to_numpy().tolist())

# Time series: resample and rolling (window/aggregations is C++).
idx = pd.date_range("2024-01-01", periods=48, freq="h")
ts = pd.Series(np.arange(48, dtype=float), index=idx)
daily = ts.resample("D").sum()
assert daily.tolist() == [276.0, 852.0]
roll = ts.rolling(4).mean()
assert roll.isna().sum() == 3 and roll.iloc[-1] == 45.5
print("resample", daily.tolist(), "rolling", roll.iloc[3], roll.iloc[-1], ts.rolling(5).std().round(4).iloc[-1])
ew = ts.ewm(span=3).mean().round(4).iloc[-1]
print("ewm", ew, "expanding", ts.expanding().max().iloc[-1])

# Time zones from zoneinfo (bundled tzdata), pytz and dateutil.
import zoneinfo

import dateutil.tz
import pytz

t = pd.Timestamp("2024-03-31 00:30", tz="UTC")
paris = t.tz_convert(zoneinfo.ZoneInfo("Europe/Paris"))
ny = t.tz_convert(pytz.timezone("America/New_York"))
tokyo = t.tz_convert(dateutil.tz.gettz("Asia/Tokyo"))
assert paris.hour == 1 and str(paris.utcoffset()) == "1:00:00"
later = paris + pd.Timedelta(hours=2)  # crosses the DST change at 01:00 UTC
assert str(later.utcoffset()) == "2:00:00"
print("tz", paris.isoformat(), ny.isoformat(), tokyo.isoformat(), later.isoformat())
rng = pd.date_range("2024-10-26", periods=3, freq="D", tz="Europe/Paris")
print("tz range", [str(x.utcoffset()) for x in rng])
loc = pd.Series(pd.to_datetime(["2024-06-01 12:00", "2024-12-01 12:00"])).dt.tz_localize("Europe/Paris")
print("tz_localize", loc.dt.tz_convert("UTC").dt.hour.tolist())
print("to_datetime", pd.to_datetime("2024-02-29T13:45:00").day_name(), pd.Timestamp("2024-01-31") + pd.offsets.MonthEnd())
print("period", pd.Period("2024Q1", freq="Q").end_time.date(), pd.Timedelta("1 days 2h").total_seconds())

# Categoricals.
c = pd.Categorical(["lo", "hi", "mid", "lo"], categories=["lo", "mid", "hi"], ordered=True)
s = pd.Series(c)
assert s.max() == "hi" and s.cat.codes.tolist() == [0, 2, 1, 0]
print("categorical", s.value_counts().to_dict(), s.sort_values().tolist())

# Markdown (tabulate) and Excel (openpyxl) out and back in.
md = g.reset_index()[["city", "total"]].to_markdown(index=False)
assert md.splitlines()[0].startswith("| city")
print("markdown", md.splitlines()[2])
m.to_excel("/tmp/sales.xlsx", index=False, sheet_name="sales")
x = pd.read_excel("/tmp/sales.xlsx", sheet_name="sales")
assert x.shape == m.shape and x["units"].sum() == 15
print("excel", x.shape, x["region"].tolist()[:3])

# JSON (ujson), string methods, describe, corr.
j = df.to_json(orient="records", date_format="iso")
assert pd.read_json(io.StringIO(j), orient="records").shape == (5, 4)
print("json", j[:40])
print("str", df["city"].str.upper().str.len().tolist())
print("corr", round(df[["sales", "units"]].corr().iloc[0, 1], 6))
# Styler and to_latex render pandas' Jinja templates (shipped in the bundle).
html = df.head(2).style.format(precision=1).to_html()
print("style", "<table" in html, ">10.5<" in html)
print("latex", df[["city", "units"]].head(2).to_latex(index=False).splitlines()[0])
big = pd.DataFrame({"k": np.arange(100000) % 7, "v": np.arange(100000)})
print("big", big.groupby("k")["v"].sum().sum(), big["v"].sum())

# A corrupt CSV raises pandas' ParserError; the interpreter carries on.
try:
    pd.read_csv(io.StringIO('a,b\n1,2\n3,4,5,6\n"7,8\n'))
except pd.errors.ParserError as e:
    print("corrupt csv raised ParserError", "Expected 2 fields" in str(e))
try:
    pd.read_csv(io.BytesIO(b"\xff\xfe\x00bad\x00"), encoding="utf-8")
except UnicodeDecodeError:
    print("bad bytes raised UnicodeDecodeError")
print("still alive", pd.DataFrame({"a": [1, 2]})["a"].sum())
