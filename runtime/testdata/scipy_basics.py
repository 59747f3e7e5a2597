# scipy's main subpackages on small problems with known answers. Each line
# prints rounded values, as native scipy 1.17.1 / numpy 2.4.6 (PyPI wheels,
# x86-64) print them for this script.
import numpy as np
import scipy

print("version", scipy.__version__)

# stats: pearsonr is numpy's correlation; t-test and the normal CDF.
from scipy import stats

x = np.arange(20, dtype=float)
y = np.sin(x) + 0.1 * x
r, p = stats.pearsonr(x, y)
print("pearsonr", abs(r - np.corrcoef(x, y)[0, 1]) < 1e-12, round(float(r), 8), round(float(p), 8))
t = stats.ttest_ind([1.0, 2.0, 3.0, 4.0, 5.0], [2.0, 4.0, 6.0, 8.0, 10.0])
print("ttest_ind", round(float(t.statistic), 8), round(float(t.pvalue), 8))
print("norm.cdf", round(float(stats.norm.cdf(1.96)), 10), round(float(stats.norm.ppf(0.975)), 10))
res = stats.linregress(x, 2 * x + 1)
print("linregress", round(float(res.slope), 10), round(float(res.intercept), 10))

# optimize: BFGS on Rosenbrock, linprog through HiGHS, curve_fit, brentq.
from scipy import optimize

m = optimize.minimize(optimize.rosen, [-1.2, 1.0], method="BFGS")
print("bfgs", m.success, np.round(m.x, 4).tolist())
lp = optimize.linprog(c=[-1, -2], A_ub=[[1, 1], [1, -1]], b_ub=[4, 2], bounds=[(0, 3), (0, 3)], method="highs")
print("linprog", lp.status, np.round(lp.x, 8).tolist(), round(float(lp.fun), 8))
bad = optimize.linprog(c=[1], A_ub=[[1]], b_ub=[-1], bounds=[(0, None)])
print("infeasible", bad.status, bad.message)
milp = optimize.milp(c=[-1, -1], constraints=optimize.LinearConstraint([[2, 1], [1, 2]], ub=[7, 7]), integrality=[1, 1])
print("milp", milp.status, round(float(milp.fun), 8), bool(np.all(milp.x == np.round(milp.x))))
xd = np.linspace(0, 4, 50)
popt, _ = optimize.curve_fit(lambda t, a, b: a * np.exp(-b * t), xd, 2.5 * np.exp(-1.3 * xd))
print("curve_fit", np.round(popt, 6).tolist())
print("brentq", round(optimize.brentq(lambda v: v**3 - 2, 0, 2), 12))
try:
    optimize.minimize(lambda v: (_ for _ in ()).throw(ValueError("in callback")), [1.0])
except ValueError as e:
    print("callback error", e)

# linalg
from scipy import linalg

a = np.array([[4.0, 2.0, 0.6], [2.0, 5.0, 1.0], [0.6, 1.0, 3.0]])
print("linalg", np.round(linalg.solve(a, [1.0, 2.0, 3.0]), 10).tolist(), round(float(linalg.det(a)), 10))
print("cholesky", np.allclose(linalg.cholesky(a).T @ linalg.cholesky(a), a), np.round(linalg.eigvalsh(a), 8).tolist())
try:
    linalg.solve(np.zeros((2, 2)), [1.0, 1.0])
except linalg.LinAlgError as e:
    print("singular", type(e).__name__)

# sparse + sparse.linalg
from scipy import sparse
from scipy.sparse import linalg as splinalg

A = sparse.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(50, 50), format="csc")
b = np.ones(50)
xs = splinalg.spsolve(A, b)
print("spsolve", np.allclose(A @ xs, b), round(float(xs[24]), 8), A.nnz)
cg, info = splinalg.cg(A, b, rtol=1e-12, maxiter=1000)
print("cg", info, np.allclose(cg, xs))
print("eigsh", np.round(np.sort(splinalg.eigsh(A, k=2, which="LM")[0]), 8).tolist())

# interpolate: interp1d and FITPACK (splrep/splev, translated by f2c).
from scipy import interpolate

xi = np.linspace(0, 10, 11)
f = interpolate.interp1d(xi, xi**2)
print("interp1d", float(f(2.5)))
tck = interpolate.splrep(xi, np.sin(xi))
print("splev", round(float(interpolate.splev(2.5, tck)), 8), round(float(np.sin(2.5)), 8))
print("CubicSpline", round(float(interpolate.CubicSpline(xi, np.sin(xi))(2.5)), 8))

# signal: butter + filtfilt
from scipy import signal

bb, aa = signal.butter(4, 0.2)
sig = np.sin(np.linspace(0, 20, 200)) + 0.2 * np.cos(np.linspace(0, 400, 200))
print("butter", np.round(bb, 8).tolist())
print("filtfilt", round(float(signal.filtfilt(bb, aa, sig)[100]), 8))

# integrate: quad (QUADPACK) and solve_ivp
from scipy import integrate

q, _ = integrate.quad(lambda v: np.exp(-(v**2)), -np.inf, np.inf)
print("quad", round(q, 12), round(float(np.sqrt(np.pi)), 12))
sol = integrate.solve_ivp(lambda t, z: -0.5 * z, (0, 2), [1.0], rtol=1e-10, atol=1e-12)
print("solve_ivp", sol.status, round(float(sol.y[0, -1]), 8), round(float(np.exp(-1.0)), 8))

# spatial: KDTree, ConvexHull (Qhull)
from scipy import spatial

pts = np.array([[0, 0], [1, 0], [0, 1], [1, 1], [0.5, 0.5], [0.2, 0.8]])
d, i = spatial.KDTree(pts).query([0.9, 0.1])
print("kdtree", round(float(d), 8), int(i))
hull = spatial.ConvexHull(pts)
print("hull", sorted(hull.vertices.tolist()), round(float(hull.volume), 8))
print("cdist", round(float(spatial.distance.cdist([[0, 0]], [[3, 4]])[0, 0]), 8))

# special
from scipy import special

print("special", round(float(special.gamma(5.5)), 8), round(float(special.erf(0.5)), 12), round(float(special.jv(1, 2.0)), 12))
# Integer arguments (numpy's int64) take the integer loops, as natively
# (scripts/scipy/patches/special-int64-loops.patch): bdtr* warned
# "non-integer arg n is deprecated", eval_hermite has no float loop,
# eval_chebyt's float formula is a few ulp off.
import warnings

with warnings.catch_warnings():
    warnings.simplefilter("error")
    try:
        iv = [special.bdtr(3, 10, 0.5), special.bdtrc(3, 10, 0.5), special.bdtri(3, 10, 0.4), special.eval_hermite(7, 0.3)]
        iv.append(special.bdtr(3, np.arange(9, 11), 0.5)[1])
        print("special ints", [round(float(v), 12) for v in iv], repr(float(special.eval_chebyt(7, 0.3))))
    except Exception as e:
        print("special ints", type(e).__name__, e)

# Integrands that get their data through LowLevelCallable's user_data
# (scripts/scipy/patches/wasi-stats-capsule-user-data.patch: a PyCapsule,
# since WASI has no ctypes; these raised AttributeError before).
from scipy import stats

tk = stats.tukey_hsd([1, 2, 3, 4.5], [2, 3, 4, 5.1], [5, 6, 7, 8.2])
print("capsule", round(float(stats.studentized_range.cdf(3.3, 3, 10)), 10), np.round(tk.pvalue[0], 6).tolist(),
      round(float(stats.genhyperbolic.cdf(0.5, 1.0, 1.5, 0.3)), 10), round(float(stats.geninvgauss.cdf(1.2, 2.0, 1.5)), 10))

# float32 least squares (SGELSD): OpenBLAS's C LAPACK printed debug lines
# into the user's output (scripts/build-openblas.sh deletes them).
a32 = (np.arange(30, dtype=np.float32).reshape(10, 3) % 7 + 1)
x32 = linalg.lstsq(a32, np.arange(10, dtype=np.float32))[0]
print("lstsq32", x32.dtype, np.round(x32.astype(np.float64), 4).tolist())

# fft
from scipy import fft

fx = fft.fft(np.arange(8.0))
print("fft", np.round(fx.real, 8).tolist(), np.allclose(fft.ifft(fx).real, np.arange(8.0)))
print("rfft", np.allclose(fft.rfft(sig), np.fft.rfft(sig)), np.allclose(fft.dct(sig, norm="ortho"), fft.dct(sig, norm="ortho", workers=2)))

# io: Matrix Market through fast_matrix_market (C++ readers/writers)
import io

buf = io.BytesIO()
scipy.io.mmwrite(buf, sparse.coo_array(np.array([[1.0, 0.0], [0.0, 2.5]])))
back = scipy.io.mmread(io.BytesIO(buf.getvalue()))
print("mmio", back.toarray().tolist())
# A parse error is a C++ exception in fast_matrix_market, raised as ValueError.
try:
    scipy.io.mmread(io.BytesIO(b"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 x 1.0\n"))
except ValueError as e:
    print("mmread error", e)

# ndimage
from scipy import ndimage

print("ndimage", ndimage.label(np.array([[1, 0, 0], [0, 0, 1], [0, 1, 1]]))[1], np.round(ndimage.gaussian_filter(np.arange(5.0), 1), 6).tolist())

# odr (ODRPACK, f2c-translated Fortran, calls back into Python). It stops on
# the sum of squares: beta agrees with native to about 1e-7 (gfortran vs f2c).
import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from scipy import odr
xo = np.arange(6.0)
yo = 2 * xo + 1 + np.array([0.1, -0.2, 0.15, 0.0, -0.1, 0.05])
fit = odr.ODR(odr.Data(xo, yo), odr.unilinear, beta0=[1.0, 0.0]).run()
print("odr", np.round(fit.beta, 6).tolist(), fit.info)
