// Run a Python script under Pyodide on Node, for scripts/bench/pyperf.sh.
//
//   node pyodide_run.mjs PYODIDE_DIR BENCH_DIR SCRIPT [ARGS...]
//
// PYODIDE_DIR is an installed `pyodide` npm package (node_modules/pyodide);
// BENCH_DIR is mounted at /bench (NODEFS), where SCRIPT is found. The script
// runs as __main__ with sys.argv = [SCRIPT, ...ARGS] and the process exits
// with its status: 0, 1 for an uncaught exception, or what it gave sys.exit.
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, benchDir, ...argv] = process.argv.slice(2);
if (!pyodideDir || !benchDir || argv.length === 0) {
  console.error("usage: node pyodide_run.mjs PYODIDE_DIR BENCH_DIR SCRIPT [ARGS...]");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({
  indexURL: path.resolve(pyodideDir) + "/",
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
pyodide.FS.mkdirTree("/bench");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: path.resolve(benchDir) }, "/bench");

const run = pyodide.runPython(`
def _run(argv):
    import os, runpy, sys, traceback
    sys.argv = list(argv)
    sys.path.insert(0, os.path.dirname(sys.argv[0]))
    try:
        runpy.run_path(sys.argv[0], run_name="__main__")
    except SystemExit as e:
        if e.code is None or isinstance(e.code, int):
            return e.code or 0
        print(e.code, file=sys.stderr)
        return 1
    except BaseException:
        traceback.print_exc()
        return 1
    return 0
_run
`);
const status = run(pyodide.toPy(argv));
process.exit(status);
