# matplotlib, contourpy, kiwisolver and Qhull inside pybox: the Agg
# backend by default, plots saved as PNG/SVG/PDF, and C++ exceptions from the
# compiled modules raised as Python exceptions (the interpreter carries on).
import os

import matplotlib
import matplotlib.pyplot as plt
import numpy as np

print("backend", matplotlib.get_backend())

fig, ax = plt.subplots()
ax.plot([1, 2, 3])
ax.set_title("pybox ✓")
fig.savefig("/output/x.png")
with open("/output/x.png", "rb") as f:
    print("png", f.read(8) == b"\x89PNG\r\n\x1a\n", os.path.getsize("/output/x.png") > 5000)
fig.savefig("/tmp/x.svg")
fig.savefig("/tmp/x.pdf")
print("svg", open("/tmp/x.svg").read().count("<svg") == 1, "pdf", open("/tmp/x.pdf", "rb").read(5))
plt.close(fig)

# The rendered pixels: a blue line on white.
fig, ax = plt.subplots(figsize=(2, 2), dpi=50)
ax.plot([0, 1], [0, 1], color="blue", linewidth=4)
ax.set_axis_off()
fig.canvas.draw()
rgba = np.asarray(fig.canvas.buffer_rgba())
print("pixels", rgba.shape, tuple(int(v) for v in rgba[0, 0]), bool((rgba[..., 2] > 200).any() and (rgba[..., 0] < 50).any()))
plt.close(fig)

# contourpy (contour), Qhull (Delaunay triangulation), _tri, _path, _image.
x, y = np.meshgrid(np.linspace(-2, 2, 50), np.linspace(-2, 2, 50))
fig, axs = plt.subplots(2, 2)
cs = axs[0, 0].contour(x, y, np.exp(-(x**2 + y**2)), levels=5)
print("contour levels", len(cs.levels))
import matplotlib.tri as mtri
pts = np.random.default_rng(0).random((30, 2))
tri = mtri.Triangulation(pts[:, 0], pts[:, 1])
print("qhull triangles", len(tri.triangles) > 30)
axs[0, 1].tricontourf(tri, pts[:, 0] * pts[:, 1])
axs[1, 0].imshow(np.arange(100.0).reshape(10, 10), interpolation="bilinear")
from matplotlib.path import Path
print("path contains", Path([(0, 0), (1, 0), (1, 1), (0, 1)]).contains_point((0.5, 0.5)))
axs[1, 1].hist(np.random.default_rng(1).normal(size=1000), bins=20)
fig.tight_layout()
fig.savefig("/tmp/grid.png")
plt.close(fig)

import contourpy
import kiwisolver
print("versions", matplotlib.__version__, contourpy.__version__, kiwisolver.__version__)

# C++ exceptions become Python exceptions.
from matplotlib import ft2font
open("/tmp/notafont.ttf", "wb").write(b"this is not a font")
try:
    ft2font.FT2Font("/tmp/notafont.ttf")
except Exception as e:
    print("ft2font raised", type(e).__name__)
s = kiwisolver.Solver()
v = kiwisolver.Variable("v")
s.addConstraint(v >= 10)
try:
    s.addConstraint(v <= 5)
except kiwisolver.UnsatisfiableConstraint:
    print("kiwisolver raised UnsatisfiableConstraint")
try:
    mtri.Triangulation([0, 1, 2], [0, 1, 2])  # collinear: Qhull fails
except Exception as e:
    print("qhull raised", type(e).__name__)
for i in range(200):
    try:
        s.addConstraint(v <= i % 5)
    except kiwisolver.UnsatisfiableConstraint:
        pass
s.updateVariables()
print("still alive", v.value(), sum(range(10)))
