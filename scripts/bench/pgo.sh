#!/usr/bin/env bash
# pgo.sh — profile-guided optimization of python.wasm (issue 16; docs/cpu.md,
# "PGO of python.wasm"). The release build (scripts/build-runtime.sh) is
# optimized with the profile pinned in scripts/cpython/python.profdata; this
# script makes that profile, and measures variants without packages
# (PACKAGES="", PUREPY=0), each built in its own folder under $PGO_DIR.
#
# The pinned profile, from a release build tree (one where build-runtime.sh
# ran every stage; its cpython stage is rebuilt by the first step, so run
# build-runtime.sh cpython package there again afterwards):
#
#   RELEASE_BUILD=build bash scripts/bench/pgo.sh release-gen
#   GEN=release-gen bash scripts/bench/pgo.sh train release
#   bash scripts/bench/pgo.sh pin release   # copies it to scripts/cpython/python.profdata
#
# The variants without packages:
#
#   bash scripts/bench/pgo.sh rt            # compiler-rt's profile runtime for wasm32-wasi
#   bash scripts/bench/pgo.sh base          # the variant without PGO: -O2 -flto
#   bash scripts/bench/pgo.sh gen           # instrumented: -O2 -flto -fprofile-instr-generate
#   bash scripts/bench/pgo.sh train SET     # run SET in the instrumented build, merge SET.profdata
#   bash scripts/bench/pgo.sh use SET       # -O2 -flto -fprofile-instr-use=SET.profdata
#   bash scripts/bench/pgo.sh bench SET     # pyperf.sh: use-SET (pybox) against base (pybox2)
#
# Training sets (SET): "suite" is the fifteen benchmarks pyperf.sh measures
# (training on the measured set: an upper bound); "other" is seventeen other
# pyperformance benchmarks (scripts/bench/pgo/train.py, EXTRA), disjoint from
# it; "both" is the two; "analyst" is scripts/bench/pgo/analyst.py (pandas,
# numpy, matplotlib, sqlite3, csv, json: needs the release-gen build);
# "release", the pinned profile's, is "other" and "analyst": the measured
# suite stays out of the training. Each workload runs once, in a fresh process, under
# `pybox run` with the instrumented bundle; scripts/bench/pgo/train.py calls
# _pgo.dump at its end (a reactor never runs atexit, so nothing writes the
# profile otherwise), and llvm-profdata-19 merges the files.
#
# Environment: PGO_DIR (default build/pgo in the checkout: the variant folders), SRC (folder of
# the downloaded CPython and zlib orig tarballs, copied into each variant;
# build/src of this checkout by default), LLVM_ORIG (LLVM 19's orig tarball,
# llvm-toolchain-19_19.1.7.orig.tar.xz, for compiler-rt's profile sources;
# fetched with `apt-get source --download-only` if absent), PYBOX (a pybox
# binary; built from this checkout if unset), ROUNDS (3), BENCHES, NICE
# (19 for builds), GEN (the instrumented variant train runs: gen, or
# release-gen), RELEASE_BUILD (release-gen's build folder), GEN_EXTRA (more
# flags for the instrumented builds, gen and release-gen, e.g. "-mllvm -enable-value-profiling"
# to profile indirect-call targets too).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PGO_DIR=${PGO_DIR:-$ROOT/build/pgo}
SRC=${SRC:-$ROOT/build/src}
LLVM_ORIG=${LLVM_ORIG:-$SRC/llvm-toolchain-19_19.1.7.orig.tar.xz}
NICE=${NICE:-19}
RT=$PGO_DIR/rt/libpgort.a
# The instrumented builds' CPython flags (gen and release-gen alike).
GEN_CFLAGS="-O2 -flto -fprofile-instr-generate${GEN_EXTRA:+ $GEN_EXTRA}"
mkdir -p "$PGO_DIR"

# build NAME PY_OPT_CFLAGS [env...]: a bundle without packages in $PGO_DIR/NAME.
# $G appended: CPython's own OPT has -g, and the bundle's python.wasm is
# stripped, so the debug information only makes the LTO link slower (on this
# busy machine 30+ min); G="" keeps it, as the release build does.
G=${G--g0}
build() {
  local name=$1 flags="$2${G:+ $G}"; shift 2
  local dir=$PGO_DIR/$name
  rm -rf "$dir" && mkdir -p "$dir/build/src"
  cp "$SRC"/python3.11_3.11.2.orig.tar.gz "$SRC"/zlib_1.2.13.dfsg.orig.tar.bz2 "$dir/build/src/"
  echo "== $name: PY_OPT_CFLAGS=$flags $*"
  local t0=$SECONDS
  env PGO_PROFILE="" "$@" PY_OPT_CFLAGS="$flags" PUREPY=0 PYBOX_BUILD_DIR="$dir/build" PYBOX_ASSETS_DIR="$dir" \
    nice -n "$NICE" bash "$ROOT/scripts/build-runtime.sh" sources zlib cpython package \
    > "$dir/build.log" 2>&1 || { tail -30 "$dir/build.log"; echo "$name failed: see $dir/build.log" >&2; exit 1; }
  echo "$name: $((SECONDS - t0)) s wall; python.wasm $(stat -c %s "$dir/build/stage/python.wasm") bytes (loop guard applied, stripped)"
}

stage_rt() {
  # compiler-rt 19's lib/profile without its file layer (mmap, flock and
  # getpid, which WASI lacks): the profile is written by
  # scripts/bench/pgo/pgo_rt.c instead. InstrProfilingPlatformOther.c is the
  # platform file for targets without section start/stop symbols, where each
  # instrumented object registers its data from a constructor (_initialize
  # runs them in the reactor); in LLVM 19 it names two undeclared variables
  # of MC/DC's bitmap section, which a wasm build does not use: defined as
  # null here.
  [ -f "$LLVM_ORIG" ] || (cd "$(dirname "$LLVM_ORIG")" && apt-get source --download-only llvm-toolchain-19)
  local d=$PGO_DIR/rt
  rm -rf "$d" && mkdir -p "$d/obj" "$d/sysroot/lib"
  ln -s /usr/include/wasm32-wasi "$d/sysroot/include"
  ln -s /usr/lib/wasm32-wasi "$d/sysroot/lib/wasm32-wasi"
  tar -xJf "$LLVM_ORIG" -C "$d" --strip-components=1 --wildcards \
    '*/compiler-rt/lib/profile/*' '*/compiler-rt/include/profile/*'
  local p=$d/compiler-rt/lib/profile
  local cflags=(--target=wasm32-wasi --sysroot="$d/sysroot" -O2 -I"$d/compiler-rt/include" -I"$p"
    "-DBitmapFirst=((char *)0)" "-DBitmapLast=((char *)0)")
  for f in InstrProfiling InstrProfilingBuffer InstrProfilingInternal InstrProfilingMerge \
           InstrProfilingNameVar InstrProfilingPlatformOther InstrProfilingVersionVar \
           InstrProfilingWriter InstrProfilingValue; do
    clang-19 "${cflags[@]}" -c "$p/$f.c" -o "$d/obj/$f.o"
  done
  clang-19 "${cflags[@]}" -c "$ROOT/scripts/bench/pgo/pgo_rt.c" -o "$d/obj/pgo_rt.o"
  llvm-ar-19 rcs "$RT" "$d"/obj/*.o
  echo "rt: $RT"
}

stage_base() { build base "-O2 -flto" PACKAGES=""; }

stage_gen() {
  [ -f "$RT" ] || stage_rt
  # LIBS: configure's link tests and python.wasm need the runtime (every
  # instrumented object refers to it); the "pgo" package is the _pgo module
  # (scripts/build-pgo.sh).
  build gen "$GEN_CFLAGS" PACKAGES=pgo PGO_RT="$RT" LIBS="$RT"
}

# release-gen: the instrumented build of the release bundle, with every
# package (relinked from RELEASE_BUILD's archives, which are not
# instrumented) and the _pgo module.
stage_release_gen() {
  local build=${RELEASE_BUILD:?RELEASE_BUILD: a build folder where scripts/build-runtime.sh ran every stage}
  build=$(cd "$build" && pwd)
  [ -f "$RT" ] || stage_rt
  local pkgs dir=$PGO_DIR/release-gen
  pkgs=$(sed -n 's/^PACKAGES=\${PACKAGES-\(.*\)}$/\1/p' "$ROOT/scripts/build-runtime.sh")
  [ -n "$pkgs" ] || { echo "could not read the package list from build-runtime.sh" >&2; exit 1; }
  PYBOX_BUILD_DIR=$build PGO_RT=$RT bash "$ROOT/scripts/build-pgo.sh"
  mkdir -p "$dir"
  echo "== release-gen in $build: PACKAGES=$pkgs pgo"
  local t0=$SECONDS
  env PACKAGES="$pkgs pgo" PACKAGES_PREBUILT=1 PGO_PROFILE="" PY_OPT_CFLAGS="$GEN_CFLAGS${G:+ $G}" \
    PGO_RT="$RT" LIBS="$RT" PYBOX_BUILD_DIR="$build" PYBOX_ASSETS_DIR="$dir" \
    nice -n "$NICE" bash "$ROOT/scripts/build-runtime.sh" cpython package \
    > "$dir/build.log" 2>&1 || { tail -30 "$dir/build.log"; echo "release-gen failed: see $dir/build.log" >&2; exit 1; }
  rm -f "$build/setup-pgo.local" "$build/manifest-pgo.json"
  echo "release-gen: $((SECONDS - t0)) s wall; $dir/runtime.tar.zst"
}

pybox_bin() {
  if [ -z "${PYBOX:-}" ]; then
    PYBOX=$PGO_DIR/pybox
    (cd "$ROOT" && go build -o "$PYBOX" ./cmd/pybox)
  fi
}

# bench_root: pyperformance's benchmark files and the pyperf stand-in, as
# pyperf.sh lays them out.
bench_root() {
  BENCH=$PGO_DIR/bench
  if [ ! -d "$BENCH/bm_richards" ]; then
    local tools=${TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/pybox-bench}
    local sdist=$tools/pyperformance-1.14.0.tar.gz
    [ -f "$sdist" ] || { echo "no $sdist: run scripts/bench/pyperf.sh once (it fetches it)" >&2; exit 1; }
    rm -rf "$BENCH" && mkdir -p "$BENCH/shim"
    tar -xzf "$sdist" -C "$BENCH" --strip-components=4 pyperformance-1.14.0/pyperformance/data-files/benchmarks
  fi
  cp "$ROOT/scripts/bench/pyperf/pyperf.py" "$ROOT/scripts/bench/pyperf/bench.py" \
    "$ROOT/scripts/bench/pgo/train.py" "$ROOT/scripts/bench/pgo/analyst.py" "$BENCH/shim/"
}

stage_train() {
  local set=${1:?train SET: suite, other or both}
  pybox_bin; bench_root
  local names
  local suite other
  suite=$(cd "$BENCH/shim" && python3 -c 'import bench; print(" ".join(bench.BENCHMARKS))')
  other=$(cd "$BENCH/shim" && python3 -c 'import train; print(" ".join(train.EXTRA))')
  case $set in
  suite) names=$suite ;;
  other) names=$other ;;
  both) names="$suite $other" ;;
  analyst) names=analyst ;;
  release) names="$other analyst" ;;
  *) echo "unknown training set $set" >&2; exit 1 ;;
  esac
  local prof=$PGO_DIR/prof-$set
  rm -rf "$prof" && mkdir -p "$prof"
  local t0=$SECONDS
  local gen=${GEN:-gen} args
  for n in $names; do
    if [ "$n" = analyst ]; then args=(/bench/shim/analyst.py); else args=(/bench/shim/bench.py /bench "$n"); fi
    PYBOX_CACHE_DIR=$PGO_DIR/cache-$gen PYBOX_BUNDLE=$PGO_DIR/$gen/runtime.tar.zst \
      /usr/bin/time -f "$n %e s wall %U s user" "$PYBOX" run -q --memory 2GiB \
      --mount "$BENCH:/bench:ro" --mount "$prof:/prof:rw" \
      "$BENCH/shim/train.py" "/prof/$n.profraw" "${args[@]}" \
      > "$prof/$n.log" 2>&1 || { cat "$prof/$n.log"; echo "training run $n failed" >&2; exit 1; }
    tail -1 "$prof/$n.log"
  done
  llvm-profdata-19 merge -o "$PGO_DIR/$set.profdata" "$prof"/*.profraw
  echo "train $set: $((SECONDS - t0)) s wall; $PGO_DIR/$set.profdata"
  llvm-profdata-19 show "$PGO_DIR/$set.profdata" | tail -6
}

stage_use() {
  local set=${1:?use SET}
  local prof=$PGO_DIR/$set.profdata
  [ -f "$prof" ] || { echo "no $prof: run pgo.sh train $set" >&2; exit 1; }
  # Functions the training never ran, and code that changed since, are
  # compiled without profile data (build-runtime.sh silences the warnings).
  build "use-$set" "-O2 -flto" PACKAGES="" PGO_PROFILE="$prof"
}

# pin SET: SET's profile becomes the one the release build uses.
stage_pin() {
  local set=${1:?pin SET}
  local prof=$PGO_DIR/$set.profdata
  [ -f "$prof" ] || { echo "no $prof: run pgo.sh train $set" >&2; exit 1; }
  cp "$prof" "$ROOT/scripts/cpython/python.profdata"
  echo "pinned $prof: $(sha256sum "$ROOT/scripts/cpython/python.profdata" | cut -d' ' -f1)"
}

stage_bench() {
  local set=${1:?bench SET}
  pybox_bin
  PYBOX=$PYBOX PYBOX_BUNDLE=$PGO_DIR/use-$set/runtime.tar.zst PYBOX_CACHE_DIR=$PGO_DIR/cache-use-$set \
    PYBOX2=$PYBOX PYBOX2_BUNDLE=$PGO_DIR/base/runtime.tar.zst PYBOX2_CACHE_DIR=$PGO_DIR/cache-base \
    SIDES="native pybox pybox2" ROUNDS=${ROUNDS:-3} OUT=$PGO_DIR/bench-$set.txt \
    bash "$ROOT/scripts/bench/pyperf.sh"
}

stage=${1:?usage: pgo.sh rt|base|gen|release-gen|train SET|use SET|bench SET|pin SET}
shift
"stage_${stage//-/_}" "$@"
