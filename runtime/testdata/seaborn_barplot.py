# seaborn inside pybox on the bundle's pandas and matplotlib; the values are
# the ones native seaborn 0.13.2 prints for the same script.
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
