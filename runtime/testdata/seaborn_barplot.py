# seaborn inside pybox (needs pandas in the bundle: built with
# PACKAGES="numpy pillow lxml matplotlib pandas"; like pandas_basics.py it is
# not registered in bundle_test.go until pandas ships).
import matplotlib.pyplot as plt
import pandas as pd
import seaborn as sns

df = pd.DataFrame({"fruit": ["apple", "pear", "apple", "fig", "pear"], "n": [3, 5, 4, 1, 2]})
ax = sns.barplot(data=df, x="fruit", y="n")
ax.figure.savefig("/output/bar.png")
print("seaborn bars", len(ax.patches), [round(float(p.get_height()), 2) for p in ax.patches])
tips = pd.DataFrame({"day": ["Thu", "Fri", "Sat", "Sun"] * 5, "total": [float(i) for i in range(20)]})
g = sns.catplot(data=tips, x="day", y="total", kind="box")
g.savefig("/tmp/box.png")
print("catplot", type(g).__name__)
plt.close("all")
