"""Run pybox's own python.wasm under wasmtime (the wasmtime package from PyPI).

    python wasmtime_run.py --wasm python.wasm --cwasm CACHE --stdlib DIR \
        --bench DIR -- SCRIPT [ARGS...]

python.wasm is a pybox reactor (scripts/cpython/_pyboxmodule.c): it has no
_start and imports three functions from a "pybox" module. This driver gives
it what it needs to run one script and nothing more: pybox.call answers
"runner" with a few lines that run SCRIPT as __main__ (and accepts the
"signals" report; every other operation is refused, which the guest treats
as "nothing to add"), pybox.reply copies the answer out, pybox.yield returns
0. It then calls _initialize, pybox_boot and pybox_serve as pybox's host
does, with the same interpreter options (python -I -u -X utf8 SCRIPT ARGS).

WASI preopens: the bundle's files at /usr/local (read-only, where pybox
mounts them), --bench at /bench (read-only) and a fresh temporary folder at
/tmp. The module is compiled by Cranelift once and kept in --cwasm, so each
benchmark process only maps the compiled code, as pybox maps its cache.
Exits with the guest's status: 0, 1 for an uncaught exception, or the code
it passed to sys.exit.
"""
import argparse
import os
import sys
import tempfile

import wasmtime

GUEST_ARGS = ["python", "-I", "-u", "-X", "utf8"]  # pybox's (runtime/instance.go)

RUNNER = b"""
import os
import runpy
import sys

def _serve():
    sys.path.insert(0, os.path.dirname(sys.argv[0]))
    runpy.run_path(sys.argv[0], run_name="__main__")
"""


def engine():
    cfg = wasmtime.Config()
    cfg.wasm_exceptions = True  # the bundle's C++ and setjmp code use wasm exceptions
    cfg.cranelift_opt_level = "speed"
    cfg.max_wasm_stack = 1 << 20  # below the 2 MiB async stack wasmtime insists on
    return wasmtime.Engine(cfg)


def load(eng, wasm, cwasm):
    if not os.path.exists(cwasm):
        module = wasmtime.Module.from_file(eng, wasm)
        tmp = cwasm + ".tmp%d" % os.getpid()
        with open(tmp, "wb") as f:
            f.write(module.serialize())
        os.replace(tmp, cwasm)
    return wasmtime.Module.deserialize_file(eng, cwasm)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wasm", required=True)
    ap.add_argument("--cwasm", required=True, help="compiled-module cache file (made if missing)")
    ap.add_argument("--stdlib", help="the bundle's extracted files (lib/python3.11/...)")
    ap.add_argument("--bench", help="host folder mounted read-only at /bench")
    ap.add_argument("--compile-only", action="store_true")
    ap.add_argument("argv", nargs="*")
    opts = ap.parse_args()

    eng = engine()
    module = load(eng, opts.wasm, opts.cwasm)
    if opts.compile_only:
        return 0
    if not opts.argv:
        ap.error("no script")

    linker = wasmtime.Linker(eng)
    linker.define_wasi()
    i32 = wasmtime.ValType.i32()
    pending = [b""]

    def call(caller, op_ptr, op_len, in_ptr, in_len):
        mem = caller["memory"]
        op = bytes(mem.read(caller, op_ptr, op_ptr + op_len)).decode()
        if op == "runner":
            pending[0] = RUNNER
            return len(RUNNER)
        if op == "signals":  # the interrupt flags' addresses: not used here
            pending[0] = b""
            return 0
        pending[0] = ("wasmtime_run.py does not offer " + op).encode()
        return -len(pending[0]) - 1

    def reply(caller, out_ptr, out_len):
        caller["memory"].write(caller, pending[0][:out_len], out_ptr)

    linker.define_func("pybox", "call", wasmtime.FuncType([i32] * 4, [i32]), call, access_caller=True)
    linker.define_func("pybox", "reply", wasmtime.FuncType([i32] * 2, []), reply, access_caller=True)
    linker.define_func("pybox", "yield", wasmtime.FuncType([], [i32]), lambda: 0)

    with tempfile.TemporaryDirectory(prefix="wasmtime-run-") as tmp:
        wasi = wasmtime.WasiConfig()
        wasi.argv = GUEST_ARGS + opts.argv
        wasi.env = [("HOME", "/tmp"), ("LANG", "C.UTF-8")]
        wasi.inherit_stdout()
        wasi.inherit_stderr()
        wasi.preopen_dir(tmp, "/tmp")
        if opts.stdlib:
            wasi.preopen_dir(opts.stdlib, "/usr/local", False)
        if opts.bench:
            wasi.preopen_dir(opts.bench, "/bench", False)
        store = wasmtime.Store(eng)
        store.set_wasi(wasi)
        inst = linker.instantiate(store, module)
        exports = inst.exports(store)
        try:
            for name in ("_initialize", "pybox_boot", "pybox_serve"):
                r = exports[name](store)
                if r:
                    return r
        except wasmtime.ExitTrap as e:
            return e.code
    return 0


if __name__ == "__main__":
    sys.exit(main())
