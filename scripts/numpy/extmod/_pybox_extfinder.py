"""Import dotted extension modules linked statically into python.wasm.

Every builtin module named ``_pybox_ext_<pkg>`` (see
scripts/numpy/extmod/pybox_extmod.h) provides a set of dotted module names,
e.g. ``numpy._core._multiarray_umath`` or ``PIL._imaging``. This meta-path
finder, installed at startup by ``pybox-ext.pth``, resolves those names to
the builtin code. The modules behave as if loaded from a shared library,
except that they have no ``__file__`` and their spec's origin is
``"built-in"``.
"""

import _imp
import sys
from importlib.machinery import ModuleSpec

__all__ = ["BuiltinExtensionFinder", "install"]


class _Loader:
    def __init__(self, provider):
        self._provider = provider

    def create_module(self, spec):
        return self._provider.create(spec)

    def exec_module(self, module):
        _imp.exec_builtin(module)

    def is_package(self, fullname):
        return False

    def get_code(self, fullname):
        return None

    def get_source(self, fullname):
        return None

    def __repr__(self):
        return f"<pybox builtin extension loader {self._provider.__name__}>"


class BuiltinExtensionFinder:
    """Finds statically linked extension modules by their dotted name."""

    def __init__(self):
        self._loaders = {}
        for modname in sys.builtin_module_names:
            if modname.startswith("_pybox_ext_"):
                provider = __import__(modname)
                loader = _Loader(provider)
                for name in provider.names():
                    self._loaders[name] = loader

    def names(self):
        return sorted(self._loaders)

    def find_spec(self, fullname, path=None, target=None):
        loader = self._loaders.get(fullname)
        if loader is None:
            return None
        return ModuleSpec(fullname, loader, origin="built-in")

    def invalidate_caches(self):
        pass


def install():
    for f in sys.meta_path:
        if isinstance(f, BuiltinExtensionFinder):
            return f
    finder = BuiltinExtensionFinder()
    if finder._loaders:
        sys.meta_path.insert(0, finder)
    return finder


install()
