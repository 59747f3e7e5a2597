#!/usr/bin/env bash
# run-cpython.sh — CPython's own tests of standard-library modules, run inside
# pybox against the bundle's python.wasm and standard library.
#
#   bash scripts/upstream-tests/run-cpython.sh                  # test_sqlite3
#   bash scripts/upstream-tests/run-cpython.sh test_sqlite3 test_json
#
# The tests (Lib/test of the CPython 3.11.2 source the bundle is built from)
# are mounted read-only; the code under test is the bundle's. Each test module
# runs twice: with the current directory on a read-write mount of a host
# folder (/work) and in the guest's in-memory /tmp, since tests such as
# test_sqlite3 create their files there. Prints a summary line per module and
# directory; full output in $WORK/results/cpython-<dir>.log.
#
# Needs Go and the CPython orig tarball (taken from $SDIST_DIR, default
# build/src where build-runtime.sh keeps it, else fetched with
# `apt-get source`). Uses the bundle pybox embeds, or $PYBOX_BUNDLE.
# Environment: WORK (default build/upstream-tests), SDIST_DIR, RUN_TIMEOUT
# (default 30m), MEMORY (default 2GiB), DIRS (default "work tmp").
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=${WORK:-$ROOT/build/upstream-tests}
SDIST_DIR=${SDIST_DIR:-${PYBOX_BUILD_DIR:-$ROOT/build}/src}
RUN_TIMEOUT=${RUN_TIMEOUT:-30m}
MEMORY=${MEMORY:-2GiB}
DIRS=${DIRS:-work tmp}

# The CPython source (PY_VERSION, ...) and cpython_tests.
source "$HERE/cpython-tests.sh"

tests=${*:-test_sqlite3}
log() { printf '=== %s\n' "$*" >&2; }

mkdir -p "$WORK/src" "$WORK/results"
log "pybox"
(cd "$ROOT" && CGO_ENABLED=0 go build -o "$WORK/pybox-cpython.new" ./cmd/pybox)
mv "$WORK/pybox-cpython.new" "$WORK/pybox-cpython"

cpython_tests

status=0
for d in $DIRS; do
  case $d in
    work) cwd=/work ;;
    tmp) cwd=/tmp ;;
    *) echo "unknown DIRS entry $d (want work, tmp)" >&2; exit 2 ;;
  esac
  scratch=$(mktemp -d "$WORK/cpython-scratch.XXXXXX")
  out=$WORK/results/cpython-$d.log
  log "$tests (current directory $cwd)"
  set +e
  "$WORK/pybox-cpython" run -q --timeout "$RUN_TIMEOUT" --memory "$MEMORY" \
    --mount "$HERE/guest:/harness:ro" --mount "$SRC/Lib:/cpython-lib:ro" \
    --mount "$scratch:/work:rw" \
    "$HERE/guest/run_cpython_tests.py" /cpython-lib "$cwd" $tests > "$out" 2>&1
  rc=$?
  set -e
  rm -rf "$scratch"
  grep -E '^(SUMMARY|FAIL|ERROR) ' "$out" | sed "s/^/[$d] /" || true
  if [ "$rc" != 0 ]; then
    status=1
    grep -q '^SUMMARY' "$out" || tail -20 "$out"
  fi
done
exit $status
