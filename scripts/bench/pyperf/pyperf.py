"""A stand-in for the pyperf module, written for scripts/bench/pyperf.sh.

pyperformance's benchmark files (bm_*/run_benchmark.py) import pyperf,
build a Runner, add their options to runner.argparser and hand a function to
runner.bench_func or runner.bench_time_func. Real pyperf then spawns worker
processes, calibrates loops and keeps statistics. This stand-in does none of
that: it runs in the process it is imported in (pyperf.sh starts a fresh
one per benchmark and interleaves the sides itself), runs the benchmark
once with one loop as a warm-up, then times the fixed number of loops that
bench.py chose for that benchmark, and prints one machine-readable line:

    pyperf-shim: {"bench": "nbody", "name": "nbody", "loops": 8, "seconds": 0.41}

Only what the fifteen benchmarks of pyperf.sh use is here: Runner(...) with
any keyword arguments (add_cmdline_args is accepted and unused: there are no
worker processes to pass options to), Runner.metadata, Runner.argparser,
Runner.parse_args, Runner.bench_func (inner_loops accepted and ignored, the
time is for all loops), Runner.bench_time_func, perf_counter and
python_implementation.
"""
import argparse
import json
import sys
import time

perf_counter = time.perf_counter

# Set by bench.py before the benchmark file runs.
_bench = None
_loops = None
_results = []


def python_implementation():
    """The implementation's name in lower case ("cpython", "pypy")."""
    return sys.implementation.name.lower()


def configure(bench, loops):
    """Select the benchmark key and the number of timed loops."""
    global _bench, _loops
    _bench, _loops = bench, int(loops)


def results():
    """The (name, seconds) pairs reported so far in this process."""
    return list(_results)


class Runner:
    """The part of pyperf.Runner that pyperformance's files call."""

    def __init__(self, *args, metadata=None, add_cmdline_args=None, **kwargs):
        self.metadata = dict(metadata or {})
        self.argparser = argparse.ArgumentParser()
        self.args = None

    def parse_args(self, args=None):
        if self.args is None:
            self.args = self.argparser.parse_args(args)
        return self.args

    def bench_time_func(self, name, time_func, *args, inner_loops=None):
        """time_func(loops, *args) runs loops iterations and returns the
        seconds they took (the benchmark times itself)."""
        if _loops is None:
            raise RuntimeError("pyperf stand-in: run the benchmark through bench.py")
        self.parse_args()
        time_func(1, *args)  # warm-up: first-call costs (imports, caches) stay out
        seconds = time_func(_loops, *args)
        _results.append((name, seconds))
        line = {"bench": _bench, "name": name, "loops": _loops, "seconds": seconds}
        print("pyperf-shim: " + json.dumps(line), flush=True)

    def bench_func(self, name, func, *args, inner_loops=None):
        """func(*args) is one iteration; the stand-in times the loop."""

        def timed(loops, *fargs):
            t0 = perf_counter()
            for _ in range(loops):
                func(*fargs)
            return perf_counter() - t0

        self.bench_time_func(name, timed, *args)
