"""Runs numpy's or Pillow's own pytest suite inside pybox (started by run.sh).

    run_pytest.py numpy|pillow RESULTS.jsonl LAST_EXIT [pytest args...]

Guest layout (mounts made by run.sh, all read-only):
  /harness     this folder (the pytest plugin, the stand-in modules)
  /gen         numpy_conftest.py: numpy's conftest.py, patched by run.sh
  /numpy-src   the numpy sdist (its test files; its package code is NOT used)
  /pillow-src  the Pillow sdist (Tests/ and its images)
The numpy and Pillow under test are the bundle's, never the sdists' sources.
"""

import importlib
import os
import sys

suite, results, last_exit, *pytest_args = sys.argv[1:]
sys.path[:0] = ["/harness", "/gen"]
sys.dont_write_bytecode = True  # the mounts are read-only

common = ["-p", "no:cacheprovider", "-p", "no:faulthandler", "-p", "pybox_results",
          "--pybox-results", results, "--pybox-last-exit", last_exit,
          "--capture=sys",  # no os.dup in WASI: fd capture cannot work
          # pytest's default temp root calls os.getuid (absent in WASI;
          # pytest only special-cases emscripten); an explicit one does not.
          "--basetemp=/tmp/pytest",
          "--continue-on-collection-errors", "--tb=short",
          "-q", "--color=no"]

if suite == "numpy":
    import numpy_testonly
    numpy_testonly.install()
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
    import numpy
    # The bundle's numpy has no tests/ folders. Append the sdist's folder to
    # every package's __path__ (last, so the bundle's modules always win):
    # `numpy._core.tests` and `numpy.lib.tests.test_io` then import from the
    # sdist, everything else from the bundle.
    src = "/numpy-src/numpy"
    found = []
    for dirpath, dirnames, _ in os.walk(src):
        dirnames[:] = [d for d in dirnames if d not in ("tests", "src")]
        if os.path.isdir(os.path.join(dirpath, "tests")):
            rel = os.path.relpath(dirpath, src)
            found.append(("numpy" if rel == "." else
                          "numpy." + rel.replace(os.sep, "."), dirpath))
    pkgs = []
    for name, dirpath in found:  # all imported before any __path__ changes
        try:
            pkgs.append((importlib.import_module(name), dirpath))
        except ImportError:
            pass  # not in the bundle (f2py, distutils, _pyinstaller)
    for pkg, dirpath in pkgs:
        pkg.__path__.append(dirpath)
    assert numpy.__file__.startswith("/usr/local/"), numpy.__file__
    os.chdir("/numpy-src")
    # numpy's conftest.py comes in as a plugin (patched, see run.sh); the
    # bundle's copy and the sdist's are not loaded.
    args = common + ["-p", "numpy_conftest", "--noconftest"] + pytest_args
elif suite == "pillow":
    import PIL
    assert PIL.__file__.startswith("/usr/local/"), PIL.__file__
    os.chdir("/pillow-src")  # Pillow's tests open "Tests/images/..."
    args = common + pytest_args
else:
    sys.exit(f"unknown suite {suite!r}")

import pytest  # noqa: E402

sys.exit(pytest.main(args))
