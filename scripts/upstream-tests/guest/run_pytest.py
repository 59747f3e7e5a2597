"""Runs numpy's, Pillow's, pandas', matplotlib's, scipy's, scikit-learn's or
statsmodels' own pytest suite inside pybox (started by run.sh).

    run_pytest.py numpy|pillow|pandas|matplotlib|scipy|sklearn|statsmodels RESULTS.jsonl LAST_EXIT [pytest args...]

Guest layout (mounts made by run.sh, all read-only):
  /harness     this folder (the pytest plugin, standins.py)
  /gen         numpy_conftest.py: numpy's conftest.py, patched by run.sh
  /numpy-src   the numpy sdist (its test files; its package code is NOT used)
  /pillow-src  the Pillow sdist (Tests/ and its images)
  /pandas-src  the pandas sdist (pandas/tests, conftest.py, pyproject.toml)
  /mpl-src     the matplotlib sdist (lib/matplotlib/tests, baseline_images)
  /scipy-src, /sklearn-src, /sm-src   the scipy, scikit-learn, statsmodels sdists
The packages under test are the bundle's, never the sdists' sources.
"""

import importlib
import json
import os
import sys


CRASH_LIMIT = 3


def read_records(path):
    if not os.path.exists(path):
        return []
    recs = []
    with open(path) as f:
        for line in f:
            try:
                recs.append(json.loads(line))
            except ValueError:
                pass  # a line cut by a crash
    return recs


def resume_state(path, last_exit):
    """From pybox_results.py's records of earlier runs: records what the
    last run died on (a test, or the import of a test file), then returns
    the test files still to run (collection order; None if no run finished
    collecting) and the files to --ignore. A resumed run collects only those
    files instead of the whole suite."""
    recs = read_records(path)
    why = {"124": "timed out (pybox --timeout)",
           "126": "interpreter crashed (wasm trap)"}.get(
               last_exit, f"run ended (exit status {last_exit})")
    rec = None
    if recs and recs[-1]["ev"] == "collectstart":
        rec = {"ev": "collect", "nodeid": recs[-1]["nodeid"], "outcome": "crashed",
               "reason": f"while importing the file: {why}", "where": ""}
    elif recs and recs[-1]["ev"] == "start":  # the test that was running
        rec = {"ev": "test", "nodeid": recs[-1]["nodeid"], "outcome": "crashed",
               "reason": why, "where": "", "duration": 0}
    if rec is not None:
        with open(path, "a") as f:
            f.write(json.dumps(rec) + "\n")
        recs.append(rec)
    crashed = [r["nodeid"] for r in recs
               if r["ev"] == "collect" and r["outcome"] == "crashed"]
    # Every crash costs a restart. A file whose tests crashed CRASH_LIMIT
    # times is not resumed: its remaining tests count as "not run".
    per_file = {}
    for r in recs:
        if r["ev"] == "test" and r["outcome"] == "crashed":
            file = r["nodeid"].split("::", 1)[0]
            per_file[file] = per_file.get(file, 0) + 1
    crashed += [f for f, n in per_file.items() if n >= CRASH_LIMIT]
    collected = next((r["nodeids"] for r in recs if r["ev"] == "collected"), None)
    if collected is None:
        return None, crashed
    done = {r["nodeid"] for r in recs if r["ev"] == "test"}
    files = []
    for nodeid in collected:
        if nodeid not in done and nodeid.split("::", 1)[0] not in crashed:
            file = nodeid.split("::", 1)[0]
            if file not in files:
                files.append(file)
    return files, crashed


def add_sdist_tests(name, src):
    """The bundle's packages have no tests/ folders: appends the sdist's
    folder to the __path__ of every package of NAME that has one there
    (last, so the bundle's modules always win). `numpy._core.tests` or
    `scipy.stats.tests.test_stats` then import from the sdist, everything
    else from the bundle."""
    top = importlib.import_module(name)
    found = []
    for dirpath, dirnames, _ in os.walk(src):
        dirnames[:] = [d for d in dirnames if d not in ("tests", "src")]
        if os.path.isdir(os.path.join(dirpath, "tests")):
            rel = os.path.relpath(dirpath, src)
            found.append((name if rel == "." else
                          name + "." + rel.replace(os.sep, "."), dirpath))
    pkgs = []
    for pkg_name, dirpath in found:  # all imported before any __path__ changes
        try:
            pkgs.append((importlib.import_module(pkg_name), dirpath))
        except ImportError:
            pass  # not in the bundle (numpy's f2py, distutils, _pyinstaller)
    for pkg, dirpath in pkgs:
        pkg.__path__.append(dirpath)
    if src not in top.__path__:
        top.__path__.append(src)  # NAME.conftest
    assert top.__file__.startswith("/usr/local/"), top.__file__


suite, results, last_exit, *pytest_args = sys.argv[1:]
sys.path[:0] = ["/harness", "/gen"]
sys.dont_write_bytecode = True  # the mounts are read-only

common = ["-p", "no:cacheprovider", "-p", "no:faulthandler", "-p", "pybox_results",
          "--pybox-results", results,
          "--capture=sys",  # no os.dup in WASI: fd capture cannot work
          # pytest's default temp root calls os.getuid (absent in WASI;
          # pytest only special-cases emscripten); an explicit one does not.
          "--basetemp=/tmp/pytest",
          "--continue-on-collection-errors", "--tb=short",
          "-q", "--color=no"]

if suite == "numpy":
    # Bundle bug: build-numpy.sh leaves out numpy/testing/_private/extbuild.py,
    # which numpy/testing/__init__.py imports, so `import numpy.testing`
    # fails in the bundle. Take that one file from the sdist (same version);
    # it only matters to tests that compile C extensions (none can here).
    import importlib.util

    class _ExtbuildFromSdist:
        name = "numpy.testing._private.extbuild"

        def find_spec(self, fullname, path=None, target=None):
            if fullname == self.name:
                return importlib.util.spec_from_file_location(
                    fullname, "/numpy-src/numpy/testing/_private/extbuild.py")
            return None

    sys.meta_path.append(_ExtbuildFromSdist())  # last: the bundle's wins
    add_sdist_tests("numpy", "/numpy-src/numpy")
    import numpy.ctypeslib  # noqa: F401  (binds ctypes = None, as for users)
    import standins
    standins.install()
    os.chdir("/numpy-src")
    # numpy's conftest.py comes in as a plugin (patched, see run.sh); the
    # bundle's copy and the sdist's are not loaded.
    args = common + ["-p", "numpy_conftest", "--noconftest"] + pytest_args
elif suite == "pandas":
    import pandas
    # The bundle's pandas has no tests/ folder and no conftest.py: the
    # sdist's pandas folder is appended to the package's __path__ (last, so
    # the bundle's modules always win), and `pandas.tests...` and
    # `pandas.conftest` import from there.
    pandas.__path__.append("/pandas-src/pandas")
    assert pandas.__file__.startswith("/usr/local/"), pandas.__file__
    os.chdir("/pandas-src")  # pyproject.toml: pandas' pytest settings
    args = common + pytest_args
elif suite == "pillow":
    import PIL
    assert PIL.__file__.startswith("/usr/local/"), PIL.__file__
    os.chdir("/pillow-src")  # Pillow's tests open "Tests/images/..."
    args = common + pytest_args
elif suite == "matplotlib":
    import matplotlib
    import mpl_toolkits  # noqa: F401  (the bundle's, before pytest adds /mpl-src/lib)
    # The bundle's matplotlib has no tests/ folder (its testing/ package is
    # there): the sdist's lib/matplotlib is appended to the package's
    # __path__ (last, so the bundle's modules always win), and
    # `matplotlib.tests.test_figure` and its baseline_images/ come from there.
    matplotlib.__path__.append("/mpl-src/lib/matplotlib")
    assert matplotlib.__file__.startswith("/usr/local/"), matplotlib.__file__
    import inspect
    from pathlib import Path

    import matplotlib.testing.decorators as _decorators

    def _image_directories(func):
        # matplotlib writes result images under $(pwd)/result_images, and
        # the sdist (the working directory, for pyproject.toml and the node
        # ids) is mounted read-only: write them under /tmp instead.
        module_path = Path(inspect.getfile(func))
        result_dir = Path("/tmp/result_images") / module_path.stem
        result_dir.mkdir(parents=True, exist_ok=True)
        return module_path.parent / "baseline_images" / module_path.stem, result_dir

    _decorators._image_directories = _image_directories
    os.chdir("/mpl-src")  # pyproject.toml: --import-mode=importlib
    args = common + pytest_args
elif suite in ("scipy", "sklearn", "statsmodels"):
    src = {"scipy": "/scipy-src", "sklearn": "/sklearn-src", "statsmodels": "/sm-src"}[suite]
    add_sdist_tests(suite, os.path.join(src, suite))
    if suite == "scipy":
        # test_minpack.py and test_nonlin.py import multiprocessing.pool at
        # module level (a ThreadPool for a few tests), which needs
        # _multiprocessing: a stand-in, installed after scipy is imported, so
        # that the rest of those files runs. Not ctypes: scipy checks for it
        # when its modules are imported, and tests import them lazily.
        import standins
        standins.install(["_multiprocessing"])
    os.chdir(src)  # pytest.ini / pyproject.toml: the project's pytest settings
    # Their conftest.py (src/NAME/conftest.py) is found by pytest as NAME.conftest.
    args = common + pytest_args
    if suite == "scipy":
        # pytest's default python_files also takes *_test.py, which makes it
        # import scipy/stats/_bws_test.py and _page_trend_test.py (library
        # modules, no tests) from the sdist while the bundle's copies are
        # already imported: "import file mismatch" collection errors.
        args = ["-o", "python_files=test_*.py"] + args
    if suite == "statsmodels":
        # pyproject.toml's addopts want pytest-randomly
        # (--randomly-dont-reset-seed, not installed: pytest would stop on
        # an unknown option) and write test-data.xml (--junitxml) into the
        # read-only sdist; keep only its --strict.
        args = ["-o", "addopts=--strict-markers"] + args
else:
    sys.exit(f"unknown suite {suite!r}")

import pytest  # noqa: E402


# A resumed run (after a crash or timeout) collects only the files that
# still have tests to run, not the whole suite again.
files, crashed = resume_state(results, last_exit)
args += [f"--ignore={f}" for f in crashed]
if files is not None:
    if not files:
        sys.exit(5)  # pytest's "no tests ran": everything is recorded
    paths = [a for a in pytest_args if os.path.exists(a)]
    args = [a for a in args if a not in paths] + files

class _RunParallelMarkers:
    """statsmodels marks tests @pytest.mark.thread_unsafe, a marker that
    pytest-run-parallel (one of its dev requirements; it runs tests in
    threads, which WASI lacks) registers: with --strict-markers the files
    using it fail to collect. The marker is registered here instead."""

    def pytest_configure(self, config):
        config.addinivalue_line(
            "markers", "thread_unsafe: (pytest-run-parallel's; no threads here)")


sys.exit(pytest.main(args, plugins=[_RunParallelMarkers()]
                     if suite == "statsmodels" else None))
