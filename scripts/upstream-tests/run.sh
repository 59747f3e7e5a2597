#!/usr/bin/env bash
# run.sh — numpy's, Pillow's, pandas', matplotlib's, scipy's, scikit-learn's and
# statsmodels' own test suites, run inside pybox
# against the packages built into the runtime bundle (the committed one in
# assets/, or the one PYBOX_BUNDLE names).
#
#   bash scripts/upstream-tests/run.sh                 # every subset below
#   bash scripts/upstream-tests/run.sh fft linalg      # some of them
#
# NOT part of .ci/run or scripts/test.sh: the full run takes 11 minutes on 2
# lightly loaded cores, about 30 on busy ones (docs/upstream-tests.md has the
# numbers). It needs only Go,
# python3 with pip (to download the test wheels), and the sdists, taken
# from $SDIST_DIR (default: build/src, where the build scripts keep them) or
# downloaded with pip. Nothing is compiled except pybox itself.
#
# What it does:
#   1. builds pybox (CGO_ENABLED=0) into $WORK;
#   2. pip-downloads the wheels of requirements-numpy.txt (numpy's own pins
#      of pytest and hypothesis), requirements-pillow.txt and
#      requirements-pandas.txt, requirements-matplotlib.txt (hash-checked;
#      scipy, scikit-learn and statsmodels use pandas' set: pytest 8)
#      and adds them with `pybox packages add` to throw-away package dirs
#      ($PYBOX_PACKAGES_DIR, one per suite);
#   3. unpacks the sdists (checked against the sha256 of the build scripts)
#      and mounts them read-only: the tests come from there, the code under
#      test is the bundle's;
#   4. per subset, runs guest/run_pytest.py in `pybox run`; each test's
#      outcome is appended to $WORK/results/SUBSET.jsonl as it finishes. If
#      the interpreter dies (wasm trap) or a run times out, the test (or
#      test file being imported) that was running is recorded as crashed and
#      pytest is started again on the files with tests not yet done; a file
#      with 3 crashed tests is not resumed;
#   5. tally.py prints passed/failed/skipped/errors per subset and the
#      failures grouped by reason (rules in tally.py).
#
# Environment: WORK (default build/upstream-tests; results are kept there),
# SDIST_DIR, RUN_TIMEOUT (per pybox run, default 60m; a run that hits it
# records the test then running as crashed, "timed out"), MEMORY (default 2GiB),
# MAX_RUNS (pybox runs per subset, default 200), PYTEST_ARGS (extra args,
# split on spaces, e.g. "-x --maxfail=5"), PYTEST_K (one -k expression,
# spaces and all, e.g. "sort or partition"), PYTEST_M (one -m marker
# expression, e.g. "not slow": scipy's own default, `spin test`'s fast mode),
# SAMPLE (N: run a fixed 1-in-N sample of the collected tests, chosen by the
# CRC-32 of the test id, for suites too large for the time at hand).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=${WORK:-$ROOT/build/upstream-tests}
SDIST_DIR=${SDIST_DIR:-${PYBOX_BUILD_DIR:-$ROOT/build}/src}
RUN_TIMEOUT=${RUN_TIMEOUT:-60m}
MEMORY=${MEMORY:-2GiB}
MAX_RUNS=${MAX_RUNS:-200}

# Same versions and checksums as scripts/build-numpy.sh, build-pillow.sh,
# build-pandas.sh, build-matplotlib.sh.
NUMPY_VERSION=2.4.6
NUMPY_SHA256=f3a3570c4a2a16746ac2c31a7c7c7b0c186b95ce902e33db6f28094ed7387dda
PILLOW_VERSION=13.0.0
PILLOW_SHA256=cdcd1ba258178f7356d74170c9a81ba4eab6a5d55748bc402a5a2a6fe6be3510
PANDAS_VERSION=3.1.1
PANDAS_SHA256=05fed3e3b7c99b226f160e29d7d6cb7ef39638c758cbfe42b3f24ba34f04b859
MPL_VERSION=3.10.9
MPL_SHA256=fd66508e8c6877d98e586654b608a0456db8d7e8a546eb1e2600efd957302358
# Same as scripts/build-scipy.sh, build-sklearn.sh, build-statsmodels.sh.
SCIPY_VERSION=1.17.1
SCIPY_SHA256=95d8e012d8cb8816c226aef832200b1d45109ed4464303e997c5b13122b297c0
SKLEARN_VERSION=1.9.1
SKLEARN_SHA256=629cada3e33e2b9bf376cdc7614a47a4140b8aedc1d836579e359736fbd82977
SM_VERSION=0.15.0
SM_SHA256=5d257fe58d0772bc46a557880ca78e2a8e07fec7bfd9d11074aef8e33e1aecbc

# subset name -> suite and pytest arguments (paths relative to the sdist).
declare -A SUITE ARGS EXTRA  # EXTRA: a -k expression
SUITE[core]=numpy;       ARGS[core]="numpy/_core/tests"
SUITE[lib]=numpy;        ARGS[lib]="numpy/lib/tests"
SUITE[linalg]=numpy;     ARGS[linalg]="numpy/linalg/tests"
SUITE[fft]=numpy;        ARGS[fft]="numpy/fft/tests"
SUITE[random]=numpy;     ARGS[random]="numpy/random/tests"
SUITE[ma]=numpy;         ARGS[ma]="numpy/ma/tests"
SUITE[polynomial]=numpy; ARGS[polynomial]="numpy/polynomial/tests"
SUITE[matrixlib]=numpy;  ARGS[matrixlib]="numpy/matrixlib/tests"
SUITE[pillow]=pillow;    ARGS[pillow]="Tests"
SUITE[pd-parsers]=pandas; ARGS[pd-parsers]="pandas/tests/io/parser"
SUITE[pd-groupby]=pandas; ARGS[pd-groupby]="pandas/tests/groupby"
SUITE[pd-reshape]=pandas; ARGS[pd-reshape]="pandas/tests/reshape"
SUITE[pd-frame]=pandas;   ARGS[pd-frame]="pandas/tests/frame"
SUITE[pd-tseries]=pandas; ARGS[pd-tseries]="pandas/tests/tseries"
MPLT=lib/matplotlib/tests
SUITE[mpl-figure]=matplotlib; ARGS[mpl-figure]="$MPLT/test_figure.py"
SUITE[mpl-image]=matplotlib;  ARGS[mpl-image]="$MPLT/test_image.py"
SUITE[mpl-text]=matplotlib;   ARGS[mpl-text]="$MPLT/test_text.py"
SUITE[mpl-colors]=matplotlib; ARGS[mpl-colors]="$MPLT/test_colors.py"
# test_axes.py has 866 tests (after parametrisation), most of them drawing
# a figure, and text drawing is slow here (up to 25 s a test at load 2):
# this subset, 285 of them, is the seven plotting methods an analyst uses
# most (hist, bar/barh, scatter, errorbar, boxplot, pie, imshow).
SUITE[mpl-axes]=matplotlib;   ARGS[mpl-axes]="$MPLT/test_axes.py"
EXTRA[mpl-axes]="test_hist or test_bar or test_scatter or test_errorbar or test_boxplot or test_pie or test_imshow"
# scipy's main subpackages (#15); only with a bundle that has scipy.
for sub in stats optimize linalg sparse interpolate signal integrate spatial special io ndimage fft; do
  SUITE[sp-$sub]=scipy; ARGS[sp-$sub]="scipy/$sub"
done
# scikit-learn: linear models, trees and ensembles, clustering,
# preprocessing, model selection, metrics, decomposition (PCA), neighbours,
# SVMs.
for sub in linear_model tree ensemble cluster preprocessing model_selection metrics decomposition neighbors svm; do
  SUITE[sk-$sub]=sklearn; ARGS[sk-$sub]="sklearn/$sub"
done
# statsmodels: OLS/GLM/discrete models and the formula API (patsy), time
# series and statistical tests.
for sub in regression genmod discrete formula tsa stats; do
  SUITE[sm-$sub]=statsmodels; ARGS[sm-$sub]="statsmodels/$sub"
done
ALL="core lib linalg fft random ma polynomial matrixlib pillow pd-parsers pd-groupby pd-reshape pd-frame pd-tseries mpl-figure mpl-axes mpl-image mpl-text mpl-colors"
# Not in ALL: whole, they take hours on 2 cores (scipy/stats alone collects
# 12,628 tests); name them, with SAMPLE, to run them (docs/upstream-tests.md,
# "scipy, scikit-learn and statsmodels").
SCIENCE="sp-stats sp-optimize sp-linalg sp-sparse sp-interpolate sp-signal sp-integrate sp-spatial sp-special sp-io sp-ndimage sp-fft sk-linear_model sk-tree sk-ensemble sk-cluster sk-preprocessing sk-model_selection sk-metrics sk-decomposition sk-neighbors sk-svm sm-regression sm-genmod sm-discrete sm-formula sm-tsa sm-stats"

subsets=${*:-$ALL}
for s in $subsets; do
  [ -n "${SUITE[$s]:-}" ] || { echo "unknown subset $s (known: $ALL $SCIENCE)" >&2; exit 2; }
done

log() { printf '=== %s\n' "$*" >&2; }
lines() { if [ -f "$1" ]; then wc -l < "$1"; else echo 0; fi; }
check_sha() {
  local got; got=$(sha256sum "$1" | cut -d' ' -f1)
  [ "$got" = "$2" ] || { echo "checksum mismatch for $1: got $got, want $2" >&2; exit 1; }
}

mkdir -p "$WORK/src" "$WORK/results" "$WORK/gen"
started=$(date +%s)

log "pybox"
# (built aside and renamed: another run.sh may be using $WORK/pybox)
(cd "$ROOT" && CGO_ENABLED=0 go build -o "$WORK/pybox.new" ./cmd/pybox)
mv "$WORK/pybox.new" "$WORK/pybox"
PYBOX=$WORK/pybox

# The test wheels of each suite: requirements-SET.txt (SET is the suite's
# name unless given here).
declare -A WHEELSET=([scipy]=pandas [sklearn]=pandas [statsmodels]=pandas)
wheelset() { echo "${WHEELSET[$1]:-$1}"; }
install_wheels() { # set: requirements-SET.txt -> $WORK/packages-SET
  local req=$HERE/requirements-$1.txt dir=$WORK/packages-$1
  if [ ! -f "$dir/.requirements.sha256" ] ||
     [ "$(cat "$dir/.requirements.sha256")" != "$(sha256sum < "$req")" ]; then
    log "test wheels for $1 ($(basename "$req"))"
    rm -rf "$WORK/wheels-$1" "$dir"
    python3 -m pip download -q --no-deps --only-binary=:all: --require-hashes \
      --python-version 3.11 --implementation py --abi none --platform any \
      -d "$WORK/wheels-$1" -r "$req"
    PYBOX_PACKAGES_DIR=$dir "$PYBOX" packages add "$WORK/wheels-$1"/*.whl >&2
    sha256sum < "$req" > "$dir/.requirements.sha256"
  fi
}
for set in $(for s in $subsets; do wheelset "${SUITE[$s]}"; done | sort -u); do
  install_wheels "$set"
done

fetch_sdist() { # name version sha256 -> unpacked dir
  local file="$1-$2.tar.gz"
  case $1 in scikit-learn) file="scikit_learn-$2.tar.gz" ;; esac
  if [ ! -f "$SDIST_DIR/$file" ]; then
    # Not `pip download`: it would build the package natively to read its
    # metadata (for matplotlib fetching FreeType and Qhull from outside the
    # registries, for scipy needing a Fortran compiler).
    mkdir -p "$SDIST_DIR"
    python3 "$ROOT/scripts/lib/fetch_sdist.py" "$SDIST_DIR" "$1" "$2" >&2
  fi
  check_sha "$SDIST_DIR/$file" "$3"
  local dir=$WORK/src/${file%.tar.gz}
  if [ ! -d "$dir" ]; then
    tar -xzf "$SDIST_DIR/$file" -C "$WORK/src"
  fi
  echo "$dir"
}
log "sdists"
# Only the sdists of the suites asked for (an empty folder is mounted for
# the others).
suites=" $(for s in $subsets; do echo "${SUITE[$s]}"; done | sort -u | tr '\n' ' ')"
mkdir -p "$WORK/src/none"
NUMPY_SRC=$WORK/src/none PILLOW_SRC=$WORK/src/none PANDAS_SRC=$WORK/src/none MPL_SRC=$WORK/src/none
SCIPY_SRC=$WORK/src/none SKLEARN_SRC=$WORK/src/none SM_SRC=$WORK/src/none
case $suites in *" numpy "*) NUMPY_SRC=$(fetch_sdist numpy "$NUMPY_VERSION" "$NUMPY_SHA256") ;; esac
case $suites in *" pillow "*) PILLOW_SRC=$(fetch_sdist pillow "$PILLOW_VERSION" "$PILLOW_SHA256") ;; esac
case $suites in *" pandas "*) PANDAS_SRC=$(fetch_sdist pandas "$PANDAS_VERSION" "$PANDAS_SHA256") ;; esac
case $suites in *" matplotlib "*) MPL_SRC=$(fetch_sdist matplotlib "$MPL_VERSION" "$MPL_SHA256") ;; esac
case $suites in *" scipy "*) SCIPY_SRC=$(fetch_sdist scipy "$SCIPY_VERSION" "$SCIPY_SHA256") ;; esac
case $suites in *" sklearn "*) SKLEARN_SRC=$(fetch_sdist scikit-learn "$SKLEARN_VERSION" "$SKLEARN_SHA256") ;; esac
case $suites in *" statsmodels "*) SM_SRC=$(fetch_sdist statsmodels "$SM_VERSION" "$SM_SHA256") ;; esac

# numpy's conftest.py imports get_fpu_mode from the test-only C module
# _multiarray_tests, which the bundle does not ship; it is loaded as a plugin
# with that one import replaced by a constant (wasm has no FPU control word).
[ "$NUMPY_SRC" = "$WORK/src/none" ] || python3 - "$NUMPY_SRC/numpy/conftest.py" "$WORK/gen/numpy_conftest.py" <<'PY'
import sys
src = open(sys.argv[1]).read()
old = "from numpy._core._multiarray_tests import get_fpu_mode\n"
assert src.count(old) == 1, "numpy's conftest.py changed: revisit this patch"
new = ("# pybox: _multiarray_tests (test-only C module) is not in the bundle, and\n"
       "# wasm has no FPU control word that a test could change.\n"
       "def get_fpu_mode():\n    return 0\n")
open(sys.argv[2] + ".new", "w").write(src.replace(old, new))
PY
[ "$NUMPY_SRC" = "$WORK/src/none" ] || mv "$WORK/gen/numpy_conftest.py.new" "$WORK/gen/numpy_conftest.py"

for s in $subsets; do
  res=$WORK/results/$s.jsonl
  rm -f "$res" "$WORK/results/$s.log" "$WORK/results/$s.time"
  log "$s: ${ARGS[$s]}"
  t0=$(date +%s); last=0; runs=0
  while :; do
    runs=$((runs + 1))
    before=$(lines "$res")
    set +e
    PYBOX_PACKAGES_DIR=$WORK/packages-$(wheelset "${SUITE[$s]}") "$PYBOX" run -q --timeout "$RUN_TIMEOUT" --memory "$MEMORY" \
      --output-limit 256MiB --output "$WORK/results" \
      --mount "$HERE/guest:/harness:ro" --mount "$WORK/gen:/gen:ro" \
      --mount "$NUMPY_SRC:/numpy-src:ro" --mount "$PILLOW_SRC:/pillow-src:ro" \
      --mount "$PANDAS_SRC:/pandas-src:ro" --mount "$MPL_SRC:/mpl-src:ro" \
      --mount "$SCIPY_SRC:/scipy-src:ro" --mount "$SKLEARN_SRC:/sklearn-src:ro" \
      --mount "$SM_SRC:/sm-src:ro" \
      "$HERE/guest/run_pytest.py" "${SUITE[$s]}" "/output/$s.jsonl" "$last" \
      ${ARGS[$s]} ${PYTEST_ARGS:-} ${PYTEST_K:+-k "$PYTEST_K"} ${PYTEST_M:+-m "$PYTEST_M"} ${SAMPLE:+--pybox-sample "$SAMPLE"} ${EXTRA[$s]:+-k "${EXTRA[$s]}"} >> "$WORK/results/$s.log" 2>&1
    last=$?
    set -e
    after=$(lines "$res")
    echo "--- pybox run $runs exited $last" >> "$WORK/results/$s.log"
    case $last in
      0|1|5) break ;;  # pytest finished (5: nothing left to run)
    esac
    if [ "$after" -le "$before" ] || [ "$runs" -ge "$MAX_RUNS" ]; then
      log "$s: run $runs exited $last with no progress (or MAX_RUNS); see $WORK/results/$s.log"
      break
    fi
    log "$s: run $runs exited $last; resuming after the test that was running"
  done
  echo "$(( $(date +%s) - t0 )) $runs $last" > "$WORK/results/$s.time"
done

python3 "$HERE/tally.py" "$WORK/results" $subsets
echo "total wall time: $(( $(date +%s) - started )) s"
