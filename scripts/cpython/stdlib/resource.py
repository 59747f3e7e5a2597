"""Resource usage and limits of pybox's sandbox, as far as the guest can know them.

CPython's resource is a C module over getrusage(2) and getrlimit(2); WASI
has neither, so CPython for WASI has no resource module and code that
reports its CPU time or checks its limits failed to import. pybox ships this
module instead:

- getrusage() gives the CPU time the process has used (time.process_time(),
  all of it counted as user time); the counters WASI cannot see (memory,
  page faults, context switches, I/O blocks) are 0.
- getrlimit() reports every limit as RLIM_INFINITY: the sandbox's real
  limits (memory, time, files, output) are set by the host and enforced
  there, not visible from inside.
- setrlimit() refuses every change with PermissionError, since it could
  not take effect.
"""

import errno as _errno
import time as _time

__all__ = [
    "error", "getpagesize", "getrlimit", "getrusage", "setrlimit", "struct_rusage",
    "RLIM_INFINITY", "RUSAGE_SELF", "RUSAGE_CHILDREN", "RUSAGE_BOTH",
]

error = OSError

RLIM_INFINITY = -1
RUSAGE_SELF = 0
RUSAGE_CHILDREN = -1
RUSAGE_BOTH = -2

# Linux's numbering, as code written for Linux expects.
RLIMIT_CPU = 0
RLIMIT_FSIZE = 1
RLIMIT_DATA = 2
RLIMIT_STACK = 3
RLIMIT_CORE = 4
RLIMIT_RSS = 5
RLIMIT_NPROC = 6
RLIMIT_NOFILE = 7
RLIMIT_MEMLOCK = 8
RLIMIT_AS = 9
_LIMITS = range(RLIMIT_CPU, RLIMIT_AS + 1)
__all__ += [n for n in dir() if n.startswith("RLIMIT_")]

_FIELDS = (
    "ru_utime", "ru_stime", "ru_maxrss", "ru_ixrss", "ru_idrss", "ru_isrss",
    "ru_minflt", "ru_majflt", "ru_nswap", "ru_inblock", "ru_oublock",
    "ru_msgsnd", "ru_msgrcv", "ru_nsignals", "ru_nvcsw", "ru_nivcsw",
)


class struct_rusage(tuple):
    """resource.struct_rusage: a 16-tuple whose items are also attributes."""

    n_fields = n_sequence_fields = len(_FIELDS)
    n_unnamed_fields = 0

    def __new__(cls, seq):
        seq = tuple(seq)
        if len(seq) != len(_FIELDS):
            raise TypeError("resource.struct_rusage() takes a 16-sequence (%d-sequence given)" % len(seq))
        return super().__new__(cls, seq)

    def __repr__(self):
        return "resource.struct_rusage(%s)" % ", ".join("%s=%r" % kv for kv in zip(_FIELDS, self))

    def __reduce__(self):
        return (struct_rusage, (tuple(self),))


for _i, _name in enumerate(_FIELDS):
    setattr(struct_rusage, _name, property(lambda self, _i=_i: self[_i]))
del _i, _name


def getrusage(who):
    """Return the resource usage of this process (RUSAGE_SELF); children
    (RUSAGE_CHILDREN) used nothing: the sandbox starts no processes."""
    if who == RUSAGE_SELF or who == RUSAGE_BOTH:
        cpu = _time.process_time()
    elif who == RUSAGE_CHILDREN:
        cpu = 0.0
    else:
        raise ValueError("invalid who parameter")
    return struct_rusage((cpu, 0.0) + (0,) * 14)


def _check(resource):
    if not isinstance(resource, int):
        raise TypeError("'%s' object cannot be interpreted as an integer" % type(resource).__name__)
    if resource not in _LIMITS:
        raise ValueError("invalid resource specified")


def getrlimit(resource):
    """Return (soft, hard) for resource: RLIM_INFINITY for both, as the
    sandbox's limits are the host's and not visible here."""
    _check(resource)
    return (RLIM_INFINITY, RLIM_INFINITY)


def setrlimit(resource, limits):
    """Refused: the sandbox's limits are set by the host that runs it."""
    _check(resource)
    soft, hard = limits
    raise PermissionError(_errno.EPERM, "setrlimit: the sandbox's limits are set by the host that runs it (pybox --memory, --timeout) and cannot be changed from inside")


def getpagesize():
    """Return the size of a memory page: WebAssembly's, 64 KiB."""
    return 65536
