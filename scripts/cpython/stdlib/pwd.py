"""The password database of pybox's sandbox: one user, the one the code runs as.

CPython's pwd is a C module over getpwnam(3) and friends; WASI has no users,
so CPython for WASI has none and code that looks up its user failed
(getpass.getuser() without $USER, tarfile's owner names, shutil.chown,
os.path.expanduser('~name')). pybox ships this module instead. Files in the
sandbox report owner 0, group 0; the sandbox user has that id, the name in
$USER ("user" unless the host set another) and $HOME as its home folder.
"""

import os as _os

__all__ = ["getpwuid", "getpwnam", "getpwall", "struct_passwd"]

_FIELDS = ("pw_name", "pw_passwd", "pw_uid", "pw_gid", "pw_gecos", "pw_dir", "pw_shell")


class struct_passwd(tuple):
    """pwd.struct_passwd: a 7-tuple whose items are also attributes."""

    n_fields = n_sequence_fields = len(_FIELDS)
    n_unnamed_fields = 0

    def __new__(cls, seq):
        seq = tuple(seq)
        if len(seq) != len(_FIELDS):
            raise TypeError("pwd.struct_passwd() takes a 7-sequence (%d-sequence given)" % len(seq))
        return super().__new__(cls, seq)

    def __repr__(self):
        return "pwd.struct_passwd(%s)" % ", ".join("%s=%r" % kv for kv in zip(_FIELDS, self))

    def __reduce__(self):
        return (struct_passwd, (tuple(self),))


for _i, _name in enumerate(_FIELDS):
    setattr(struct_passwd, _name, property(lambda self, _i=_i: self[_i]))
del _i, _name


def _user():
    return struct_passwd((
        _os.environ.get("USER") or "user", "x", 0, 0, "pybox sandbox user",
        _os.environ.get("HOME") or "/tmp", "/bin/sh",
    ))


def getpwuid(uid):
    """Return the password database entry for the given numeric user ID."""
    if not isinstance(uid, int):
        raise TypeError("'%s' object cannot be interpreted as an integer" % type(uid).__name__)
    if uid != 0:
        raise KeyError("getpwuid(): uid not found: %d" % uid)
    return _user()


def getpwnam(name):
    """Return the password database entry for the given user name."""
    if not isinstance(name, str):
        raise TypeError("getpwnam() argument must be str, not %s" % type(name).__name__)
    u = _user()
    if name != u.pw_name:
        raise KeyError("getpwnam(): name not found: %r" % name)
    return u


def getpwall():
    """Return a list of all available password database entries."""
    return [_user()]
