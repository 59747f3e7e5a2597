"""Run a WASI command module (a plain CPython python.wasm) under wasmtime.

    python wasmtime_cmd.py --wasm python.wasm --cwasm CACHE \
        [--dir HOST:GUEST]... [--compile-only] -- ARGV0 ARGS...

The wasmtime package from PyPI, configured as scripts/bench/pyperf/
wasmtime_run.py configures it for pybox's reactor (Cranelift at opt level
"speed"); the module is compiled once and kept in --cwasm, so a run only
maps compiled code. Directories are preopened read-write. Exits with the
guest's status. Used by scripts/bench/newpy.sh.
"""
import argparse
import sys

import wasmtime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wasm", required=True)
    ap.add_argument("--cwasm", required=True, help="compiled-module cache file (made if missing)")
    ap.add_argument("--dir", action="append", default=[], help="HOST:GUEST to preopen")
    ap.add_argument("--compile-only", action="store_true")
    ap.add_argument("argv", nargs="*")
    opts = ap.parse_args()

    cfg = wasmtime.Config()
    cfg.cranelift_opt_level = "speed"
    cfg.max_wasm_stack = 1 << 20  # as wasmtime_run.py
    eng = wasmtime.Engine(cfg)
    try:
        module = wasmtime.Module.deserialize_file(eng, opts.cwasm)
    except Exception:
        module = wasmtime.Module.from_file(eng, opts.wasm)
        with open(opts.cwasm, "wb") as f:
            f.write(module.serialize())
    if opts.compile_only:
        return 0

    linker = wasmtime.Linker(eng)
    linker.define_wasi()
    wasi = wasmtime.WasiConfig()
    wasi.argv = opts.argv
    wasi.inherit_stdout()
    wasi.inherit_stderr()
    for d in opts.dir:
        host, guest = d.split(":", 1)
        wasi.preopen_dir(host, guest)
    store = wasmtime.Store(eng)
    store.set_wasi(wasi)
    inst = linker.instantiate(store, module)
    try:
        inst.exports(store)["_start"](store)
    except wasmtime.ExitTrap as e:
        return e.code
    return 0


if __name__ == "__main__":
    sys.exit(main())
