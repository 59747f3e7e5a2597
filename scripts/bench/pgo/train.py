"""Run one training workload in python.wasm's PGO training build, then
write the profile counters to a file (scripts/bench/pgo.sh).

    python train.py OUT SCRIPT [ARGS...]

SCRIPT runs as __main__ with ARGS as its arguments. When SCRIPT is the
pyperf suite's bench.py (scripts/bench/pyperf/bench.py), the benchmarks of
EXTRA below can be named too: pyperformance benchmarks that are not in the
measured suite, for a training set disjoint from it. OUT is where
_pgo.dump writes the raw profile (.profraw); "-" writes none, to try a
workload natively.
"""
import os
import runpy
import sys

# pyperformance benchmarks outside the measured fifteen that need no
# package, thread, process or socket: (folder, options, loops).
EXTRA = {
    "chaos": ("bm_chaos", [], 1),
    "comprehensions": ("bm_comprehensions", [], 20),
    "coroutines": ("bm_coroutines", [], 5),
    "deepcopy": ("bm_deepcopy", [], 300),
    "generators": ("bm_generators", [], 5),
    "logging": ("bm_logging", [], 100),
    "pyflate": ("bm_pyflate", [], 1),
    "regex_dna": ("bm_regex_dna", [], 1),
    "regex_effbot": ("bm_regex_effbot", [], 5),
    "scimark": ("bm_scimark", [], 1),
    "telco": ("bm_telco", [], 1),
    "unpack_sequence": ("bm_unpack_sequence", [], 20000),
    "xml_etree": ("bm_xml_etree", [], 1),
    "meteor_contest": ("bm_meteor_contest", [], 1),
    "decimal_pi": ("bm_decimal_pi", [], 1),
    "gc_traversal": ("bm_gc_traversal", [], 5),
    "typing_runtime_protocols": ("bm_typing_runtime_protocols", [], 100),
}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out, script = sys.argv[1], sys.argv[2]
    sys.argv = sys.argv[2:]
    sys.dont_write_bytecode = True  # the benchmark folder is mounted read-only
    try:
        if os.path.basename(script) == "bench.py":
            sys.path.insert(0, os.path.dirname(script))
            import bench

            bench.BENCHMARKS.update(EXTRA)
            bench.main()
        else:
            runpy.run_path(script, run_name="__main__")
    finally:
        if out != "-":
            import _pgo

            _pgo.dump(out)


if __name__ == "__main__":
    main()
