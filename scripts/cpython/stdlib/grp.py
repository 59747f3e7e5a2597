"""The group database of pybox's sandbox: one group, the sandbox user's.

CPython's grp is a C module over getgrnam(3); WASI has no groups, so
CPython for WASI has none (tarfile's group names, shutil.chown and
pathlib's Path.group() need it). pybox ships this module instead: group 0,
named like the sandbox user (see pwd), with that user as its member.
"""

import os as _os

__all__ = ["getgrgid", "getgrnam", "getgrall", "struct_group"]

_FIELDS = ("gr_name", "gr_passwd", "gr_gid", "gr_mem")


class struct_group(tuple):
    """grp.struct_group: a 4-tuple whose items are also attributes."""

    n_fields = n_sequence_fields = len(_FIELDS)
    n_unnamed_fields = 0

    def __new__(cls, seq):
        seq = tuple(seq)
        if len(seq) != len(_FIELDS):
            raise TypeError("grp.struct_group() takes a 4-sequence (%d-sequence given)" % len(seq))
        return super().__new__(cls, seq)

    def __repr__(self):
        return "grp.struct_group(%s)" % ", ".join("%s=%r" % kv for kv in zip(_FIELDS, self))

    def __reduce__(self):
        return (struct_group, (tuple(self),))


for _i, _name in enumerate(_FIELDS):
    setattr(struct_group, _name, property(lambda self, _i=_i: self[_i]))
del _i, _name


def _group():
    name = _os.environ.get("USER") or "user"
    return struct_group((name, "x", 0, [name]))


def getgrgid(id):
    """Return the group database entry for the given numeric group ID."""
    if not isinstance(id, int):
        raise TypeError("'%s' object cannot be interpreted as an integer" % type(id).__name__)
    if id != 0:
        raise KeyError("getgrgid(): gid not found: %d" % id)
    return _group()


def getgrnam(name):
    """Return the group database entry for the given group name."""
    if not isinstance(name, str):
        raise TypeError("getgrnam() argument must be str, not %s" % type(name).__name__)
    g = _group()
    if name != g.gr_name:
        raise KeyError("getgrnam(): name not found: %r" % name)
    return g


def getgrall():
    """Return a list of all available group database entries."""
    return [_group()]
