"""Stand-ins for numpy's test-only C modules, which the bundle does not ship.

numpy builds five extension modules that exist only for its tests
(``_multiarray_tests``, ``_umath_tests``, ``_rational_tests``,
``_struct_ufunc_tests``, ``_operand_flag_tests``, plus ``_simd``);
scripts/build-numpy.sh leaves them out of python.wasm. About twenty of
numpy's core test files import one of them at module level, so without them
whole files (test_multiarray, test_umath, test_numeric, ...) would fail to
import and none of their thousands of tests would run.

This finder makes those imports succeed with a module whose every attribute
is an ``Absent`` object. Anything a test does with one (call it, iterate it,
use it as a dtype...) raises ``TestOnlyModuleMissing`` -- or, when numpy
itself rejects it, an error whose message contains its repr
``<absent numpy._core._X.name>``. run.sh's classifier files both under
"needs numpy's test-only C module". Nothing here implements any behaviour of
the real modules: a test that needs one cannot pass.
"""

import sys
import types
from importlib.machinery import ModuleSpec

NAMES = (
    "numpy._core._multiarray_tests",
    "numpy._core._umath_tests",
    "numpy._core._rational_tests",
    "numpy._core._struct_ufunc_tests",
    "numpy._core._operand_flag_tests",
    "numpy._core._simd",
)


class TestOnlyModuleMissing(RuntimeError):
    pass


class Absent:
    __slots__ = ("_name",)

    def __init__(self, name):
        object.__setattr__(self, "_name", name)

    def _fail(self, *args, **kwargs):
        raise TestOnlyModuleMissing(
            f"{self._name}: numpy's test-only C module is not built into the "
            "pybox bundle")

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
    def find_spec(self, fullname, path=None, target=None):
        if fullname in NAMES:
            return ModuleSpec(fullname, _Loader(), origin="pybox-absent")
        return None


def install():
    sys.meta_path.append(_Finder())  # last: a real module always wins
