"""Stand-ins for modules that numpy's test files import but pybox cannot have.

1. numpy's test-only C modules, which the bundle does not ship.

numpy builds five extension modules that exist only for its tests
(``_multiarray_tests``, ``_umath_tests``, ``_rational_tests``,
``_struct_ufunc_tests``, ``_operand_flag_tests``, plus ``_simd``);
scripts/build-numpy.sh leaves them out of python.wasm. About twenty of
numpy's core test files import one of them at module level, so without them
whole files (test_umath, test_numeric, test_api, ...) would fail to import
and none of their thousands of tests would run.

2. ``ctypes``, ``mmap`` and ``_multiprocessing``: CPython for WASI has neither (``_ctypes`` needs
libffi; WASI has no mmap). test_multiarray, test_dtype, test_ufunc,
test_casting_unittests, test_umath_accuracy, test_memmap and lib's test_io
import them at module level and use them in a few tests only; scipy's
test_minpack.py and test_nonlin.py import ``multiprocessing.pool`` (for a
ThreadPool in a few tests), which imports ``_multiprocessing``. They are
installed after numpy is imported, so numpy itself still sees
``ImportError`` (as any user code does) and behaves as it does in pybox.

This finder makes those imports succeed with a module whose every attribute
is an ``Absent`` object. Anything a test does with one (call it, iterate it,
use it as a dtype...) raises ``ModuleUnavailable`` -- or, when numpy
itself rejects it, an error whose message contains its repr
``<absent MODULE.name>``. tally.py files both under the module's reason.
Nothing here implements any behaviour of the real modules: a test that
needs one cannot pass.
"""

import sys
import types
from importlib.machinery import ModuleSpec

_TESTONLY = "numpy's test-only C module is not built into the pybox bundle"
WHY = {
    "numpy._core._multiarray_tests": _TESTONLY,
    "numpy._core._umath_tests": _TESTONLY,
    "numpy._core._rational_tests": _TESTONLY,
    "numpy._core._struct_ufunc_tests": _TESTONLY,
    "numpy._core._operand_flag_tests": _TESTONLY,
    "numpy._core._simd": _TESTONLY,
    "ctypes": "CPython for WASI has no ctypes (_ctypes needs libffi)",
    "mmap": "CPython for WASI has no mmap module",
    "_multiprocessing": "CPython for WASI has no _multiprocessing (no processes)",
}


class ModuleUnavailable(RuntimeError):
    pass


class Absent:
    __slots__ = ("_name",)

    def __init__(self, name):
        object.__setattr__(self, "_name", name)

    def _fail(self, *args, **kwargs):
        module = next(m for m in sorted(WHY, key=len, reverse=True)
                      if self._name.startswith(m + "."))
        raise ModuleUnavailable(f"{self._name}: {WHY[module]}")

    def __getattr__(self, attr):
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        return Absent(f"{self._name}.{attr}")

    def __repr__(self):
        return f"<absent {self._name}>"

    # Equality, hashing and truth stay object's: pytest compares and hashes
    # parameters while collecting.
    __call__ = __iter__ = __len__ = __getitem__ = __contains__ = _fail
    __index__ = __int__ = __float__ = _fail


class _Loader:
    def create_module(self, spec):
        mod = types.ModuleType(spec.name)

        def __getattr__(attr):
            if attr.startswith("__"):
                raise AttributeError(attr)
            return Absent(f"{spec.name}.{attr}")

        mod.__getattr__ = __getattr__
        return mod

    def exec_module(self, module):
        pass


class _Finder:
    def __init__(self, names):
        self.names = names

    def find_spec(self, fullname, path=None, target=None):
        if fullname in self.names:
            return ModuleSpec(fullname, _Loader(), origin="pybox-absent")
        return None


def install(only=None):
    """Call after importing numpy (or the package under test). Only names
    that really fail to import get a stand-in (of ONLY, if given); the
    finder goes first because the stdlib's ctypes package exists (it fails
    on importing _ctypes)."""
    names = set()
    for name in only or WHY:
        try:
            __import__(name)
        except ImportError:
            sys.modules.pop(name, None)
            names.add(name)
    sys.meta_path.insert(0, _Finder(names))
