#!/usr/bin/env bash
# run-cpython-compat.sh — the compatibility run of issue 14: CPython 3.11.2's
# own regression tests for 68 standard-library modules, inside pybox and
# under Debian's native /usr/bin/python3.11 (also 3.11.2), with the same
# test files, matched test by test.
#
#   nice -n 19 bash scripts/upstream-tests/run-cpython-compat.sh            # all 68
#   nice -n 19 bash scripts/upstream-tests/run-cpython-compat.sh json csv   # some
#   python3.11 scripts/upstream-tests/compare_cpython.py build/upstream-tests/compat   # tables again
#
# Prints, per module and in total: the tests that pass natively, what pybox
# did with each of them (passed, failed, error, skipped, not run), pybox's
# pass rate over those it ran and over all of them (skips and tests that
# never ran count as failures); writes every natively-passing test that did
# not pass in pybox, with pybox's reason and its class, to
# $RESULTS/differences.tsv. See docs/upstream-tests.md (issue 14).
#
# Both sides run cpython_compat.py (guest/): one process per module, tests
# loaded as regrtest would (load_tests, or the module's test_main), no -u
# resources, one JSON line per test written as it happens. The current directory is a fresh
# host folder (inside pybox: mounted read-write at /work); temporary files go
# to the guest's in-memory /tmp inside pybox, to a fresh $TMPDIR natively.
# A run that dies (wasm trap, timeout) is restarted after the test that
# killed it, which is recorded as crashed (at most RESTARTS times).
# Natively the tests run in a venv of $NATIVE (see below).
#
# Not part of .ci/run: it takes long. Needs Go, /usr/bin/python3.11 (Debian's
# python3.11 package) and the CPython orig tarball ($SDIST_DIR, default
# build/src, else fetched with `apt-get source`). Uses the bundle pybox
# embeds, or $PYBOX_BUNDLE.
# Environment: WORK (default build/upstream-tests), SDIST_DIR, NATIVE
# (default /usr/bin/python3.11), MODULE_TIMEOUT (default 20m, per run of one
# module), MEMORY (default 2GiB), RESTARTS (default 5), SIDES (default
# "native pybox"), KEEP=1 keeps earlier result files (default: start afresh),
# RESULTS (default $WORK/compat), OPTIONS (passed to cpython_compat.py:
# module-socket-check-on keeps CPython's package-level check with which
# test_asyncio skips itself as a whole on WASI; capability-skips-off turns
# off the "needs sockets/subprocesses/threads" skips; both
# deviations are on by default and explained in cpython_compat.py and
# docs/upstream-tests.md).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=${WORK:-$ROOT/build/upstream-tests}
SDIST_DIR=${SDIST_DIR:-${PYBOX_BUILD_DIR:-$ROOT/build}/src}
NATIVE=${NATIVE:-/usr/bin/python3.11}
MODULE_TIMEOUT=${MODULE_TIMEOUT:-20m}
MEMORY=${MEMORY:-2GiB}
RESTARTS=${RESTARTS:-5}
SIDES=${SIDES:-native pybox}

# The 68 test modules (test_<name>), chosen for what a data-analysis
# user's code -- and the libraries it imports -- relies on. Grouped as in
# docs/upstream-tests.md:
MODULES_DEFAULT="
  json csv sqlite3 pickle zipfile tarfile gzip zlib bz2 lzma tomllib
  xml_etree configparser base64 binascii struct array email
  re string textwrap difflib pprint unicodedata codecs html htmlparser
  urlparse locale
  math decimal fractions statistics random
  datetime time calendar zoneinfo
  os shutil tempfile io pathlib glob fnmatch posixpath stat
  collections dataclasses enum typing functools itertools operator copy
  heapq bisect contextlib weakref
  asyncio threading concurrent_futures queue logging argparse
  hashlib hmac uuid
"
modules=${*:-$MODULES_DEFAULT}

# The CPython source (PY_VERSION, ...) and cpython_tests.
source "$HERE/cpython-tests.sh"

log() { printf '=== %s\n' "$*" >&2; }

"$NATIVE" -c 'import sys; assert sys.version_info[:3] == (3, 11, 2), sys.version' || {
  echo "$NATIVE is not Python 3.11.2 (install Debian's python3.11 package)" >&2; exit 2; }

RES=${RESULTS:-$WORK/compat}
OPTIONS=${OPTIONS:-}
mkdir -p "$WORK/src" "$RES/native" "$RES/pybox" "$RES/logs"
log "pybox"
(cd "$ROOT" && CGO_ENABLED=0 go build -o "$WORK/pybox-compat.new" ./cmd/pybox)
mv "$WORK/pybox-compat.new" "$WORK/pybox-compat"

cpython_tests

# Natively, tests that start a child interpreter (assert_python_ok,
# spawn_python) run it isolated (-I: no PYTHONPATH), and the child imports
# test.* too (test_threading's shutdown tests import test.test_threading):
# it would find Debian's stub `test` package, lacking the test files, and
# hang or fail. A venv of $NATIVE whose .pth puts $SRC/Lib first on sys.path
# gives every child the same test package (a venv's .pth runs even under -I).
VENV=$WORK/native-venv
if [ ! -x "$VENV/bin/python3" ]; then
  "$NATIVE" -m venv --without-pip "$VENV"
fi
"$VENV/bin/python3" - "$SRC/Lib" <<'PY'
import site, sys
with open(site.getsitepackages()[0] + "/pybox_cpython_tests.pth", "w") as f:
    f.write("import sys; sys.path.insert(0, %r)\n" % sys.argv[1])
PY
"$VENV/bin/python3" -I -c 'import test.test_threading' || {
  echo "the native venv does not see $SRC/Lib/test" >&2; exit 1; }

finished() { [ -f "$1" ] && grep -q '"ev": "done"' "$1"; }

# run_one SIDE MODULE: runs the module until its results file says done.
run_one() {
  local side=$1 m=test_$2 res=$RES/$1/test_$2.jsonl logf=$RES/logs/$1-test_$2.log
  local tries=0 rc last="" scratch before
  [ "${KEEP:-0}" = 1 ] || rm -f "$res" "$logf"
  while ! finished "$res"; do
    if [ "$tries" -gt "$RESTARTS" ]; then
      echo "$side $m: gave up after $tries runs" >&2
      return
    fi
    tries=$((tries + 1))
    before=$( [ -f "$res" ] && wc -l < "$res" || echo 0)
    scratch=$(mktemp -d "$WORK/compat-scratch.XXXXXX")
    mkdir "$scratch/cwd" "$scratch/tmp"
    set +e
    case $side in
      native)
        (cd "$scratch/cwd" && timeout -k 10s "$MODULE_TIMEOUT" env -i PATH=/usr/bin:/bin \
          HOME="$scratch/cwd" TMPDIR="$scratch/tmp" LANG=C.UTF-8 \
          "$VENV/bin/python3" "$HERE/guest/cpython_compat.py" "$SRC/Lib" "$scratch/cwd" "$res" "$m" "$last" "$OPTIONS") \
          >> "$logf" 2>&1 ;;
      pybox)
        "$WORK/pybox-compat" run -q --timeout "$MODULE_TIMEOUT" --memory "$MEMORY" \
          --output-limit 64MiB --output "$scratch/tmp" \
          --mount "$HERE/guest:/harness:ro" --mount "$SRC/Lib:/cpython-lib:ro" \
          --mount "$scratch/cwd:/work:rw" --mount "$RES/pybox:/results:rw" \
          "$HERE/guest/cpython_compat.py" /cpython-lib /work "/results/$m.jsonl" "$m" "$last" "$OPTIONS" \
          >> "$logf" 2>&1 ;;
    esac
    rc=$?
    set -e
    rm -rf "$scratch"
    case $rc in
      0) last="" ;;
      124) last="timed out after $MODULE_TIMEOUT" ;;
      126) last="the interpreter crashed (wasm trap)" ;;
      137) last="killed (exit 137, e.g. out of memory)" ;;
      *) last="the run ended with exit status $rc" ;;
    esac
    if ! finished "$res"; then
      printf -- '--- run %d of %s ended: %s\n' "$tries" "$m" "${last:-exit 0 without finishing}" >> "$logf"
      [ -n "$last" ] || last="the run ended without finishing (exit 0)"
      if [ "$(wc -l < "$res" 2>/dev/null || echo 0)" = "$before" ]; then
        echo "$side $m: a run made no progress ($last), see $logf" >&2
        return
      fi
    fi
  done
}

for side in $SIDES; do
  case $side in native|pybox) ;; *) echo "unknown SIDES entry $side" >&2; exit 2 ;; esac
  for m in $modules; do
    t0=$(date +%s)
    run_one "$side" "$m"
    log "$side test_$m: $(( $(date +%s) - t0 )) s"
  done
done

"$NATIVE" "$HERE/compare_cpython.py" "$RES" $modules
