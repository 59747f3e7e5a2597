"""Run one pyperformance benchmark with the pyperf stand-in (pyperf.py).

    python bench.py ROOT NAME [LOOPS]

ROOT holds the benchmark folders (bm_*/run_benchmark.py, unpacked from the
pyperformance sdist by scripts/bench/pyperf.sh) and shim/ (this file and
pyperf.py); it is /bench inside pybox, wasmtime and Pyodide, a host folder
natively. NAME is a key of BENCHMARKS. The benchmark file runs as __main__
with its own options and argv, as pyperformance would start it; the stand-in
times LOOPS loops (default: the table below, sized so that Debian's
python3.11 takes ~0.2-0.5 s on a 2-core machine that is not too busy) and
prints the result line.
Exits non-zero when the benchmark reported no time.
"""
import os
import runpy
import sys

# name: (folder, the options pyperformance passes, loops)
BENCHMARKS = {
    "deltablue": ("bm_deltablue", [], 50),
    "fannkuch": ("bm_fannkuch", [], 1),
    "float": ("bm_float", [], 4),
    "go": ("bm_go", [], 2),
    "hexiom": ("bm_hexiom", [], 50),
    "json_dumps": ("bm_json_dumps", [], 20),
    "json_loads": ("bm_json_loads", [], 1500),
    "nbody": ("bm_nbody", [], 4),
    "nqueens": ("bm_nqueens", [], 3),
    "pickle_pure": ("bm_pickle", ["--pure-python", "pickle"], 50),
    "pidigits": ("bm_pidigits", [], 1),
    "raytrace": ("bm_raytrace", [], 1),
    "regex_v8": ("bm_regex_v8", [], 15),
    "richards": ("bm_richards", [], 7),
    "spectral_norm": ("bm_spectral_norm", [], 3),
}


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[2] not in BENCHMARKS:
        sys.exit("usage: bench.py ROOT NAME [LOOPS]; NAME one of " + " ".join(BENCHMARKS))
    root, name = sys.argv[1], sys.argv[2]
    folder, options, loops = BENCHMARKS[name]
    if len(sys.argv) == 4:
        loops = int(sys.argv[3])
    sys.dont_write_bytecode = True  # ROOT is read-only inside the sandboxes
    sys.path.insert(0, os.path.join(root, "shim"))
    import pyperf

    pyperf.configure(name, loops)
    script = os.path.join(root, folder, "run_benchmark.py")
    sys.argv = [script] + options
    if "--pure-python" in options:
        # The benchmark blocks the C accelerator (sys.modules["_pickle"] =
        # None) and then imports pickle, as a fresh interpreter would. A
        # runtime that starts from a snapshot with modules already imported
        # (pybox's preloads numpy, which imports pickle) must forget the
        # imported pickle first, or the benchmark finds the C Pickler.
        sys.modules.pop("pickle", None)
    sys.path.insert(0, os.path.dirname(script))
    runpy.run_path(script, run_name="__main__")
    if not pyperf.results():
        sys.exit(f"bench.py: {name} reported no time")


if __name__ == "__main__":
    main()
