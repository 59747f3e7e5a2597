#!/usr/bin/env bash
# build-numpy.sh — numpy as static extension modules for pybox's python.wasm.
#
#   PYBOX_BUILD_DIR=... scripts/build-numpy.sh
#
# Needs CPython configured in $PYBOX_BUILD_DIR/cpython/builddir/wasi (its
# pyconfig.h and Include/ are the headers numpy compiles against), i.e. run it
# after build-runtime.sh's cpython configure step and before CPython's `make`
# links python.wasm. Produces:
#   $BUILD/prefix/lib/libnumpy.a     every extension module of numpy (tests
#                                    modules excluded) + _pybox_ext_numpy
#   $BUILD/site-packages/numpy/...   numpy's Python files (.py, compiled later)
#   $BUILD/site-packages/_pybox_extfinder.py, pybox-ext.pth
#   $BUILD/setup-numpy.local         line(s) to append to Modules/Setup.local
#   $BUILD/manifest-numpy.json       source, version, sha256, license, flags
#
# How: numpy's own (vendored) meson configures the project for wasm32-wasi
# with a cross file and generates its sources (.c.src templates, code
# generators, Cython); ninja then compiles only the objects of the extension
# modules we ship. The .so link steps are never run: the objects are archived
# and linked into python.wasm. BLAS and LAPACK: OpenBLAS
# (scripts/build-openblas.sh, found through pkg-config in $BUILD/prefix),
# or with NP_BLAS=none numpy's bundled lapack_lite as before. No SIMD
# dispatch (-Ddisable-optimization=true, cpu-baseline/dispatch none).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${PYBOX_BUILD_DIR:-$ROOT/build}
JOBS=${JOBS:-$(nproc)}
export SOURCE_DATE_EPOCH=1700000000
export LC_ALL=C TZ=UTC

NUMPY_VERSION=2.4.6   # newest numpy whose sdist supports Python 3.11
NUMPY_SDIST=numpy-$NUMPY_VERSION.tar.gz
NUMPY_SHA256=f3a3570c4a2a16746ac2c31a7c7c7b0c186b95ce902e33db6f28094ed7387dda
# Host build tools (run on the build machine only).
CYTHON_VERSION=3.3.1
NINJA_VERSION=1.13.2

CLANG=clang-19
SYSROOT=$BUILD/sysroot
PREFIX=$BUILD/prefix
PREFIX_EH=${PREFIX_EH:-$BUILD/prefix-eh}   # libc++ with exceptions (build-libcxx.sh)
PYINC="-I$BUILD/cpython/Include -I$BUILD/cpython/builddir/wasi"
OPT_CFLAGS=${OPT_CFLAGS:--O2}
WASM_FEATURES="-mbulk-memory -mnontrapping-fptoint -msign-ext -mmutable-globals"
# WebAssembly SIMD128 for numpy only: clang's loop vectorizer turns numpy's
# inner loops (ufuncs, reductions, matmul) into v128 code, which wazero
# compiles to SSE/NEON. numpy's own SIMD dispatch stays off (it has no wasm
# target). Measured in docs/runtime-bundle.md ("Flags and why").
NP_SIMD=${NP_SIMD--msimd128}
# BLAS/LAPACK: openblas (libopenblas.a of build-openblas.sh) or none
# (numpy's lapack_lite, no BLAS: 12x slower matmul/inv than native OpenBLAS).
NP_BLAS=${NP_BLAS:-openblas}
HERE=$ROOT/scripts/numpy
SRC=$BUILD/numpy-src
NB=$BUILD/numpy-build
TOOLS=$BUILD/tools-venv

# The extension modules shipped (numpy's test-only modules are left out:
# _multiarray_tests, _umath_tests, _rational_tests, _struct_ufunc_tests,
# _operand_flag_tests, _simd).
MODULES="numpy/_core/_multiarray_umath numpy/linalg/lapack_lite
  numpy/linalg/_umath_linalg numpy/fft/_pocketfft_umath
  numpy/random/_common numpy/random/bit_generator numpy/random/_bounded_integers
  numpy/random/_mt19937 numpy/random/_pcg64 numpy/random/_philox
  numpy/random/_sfc64 numpy/random/_generator numpy/random/mtrand"

log() { printf '\n=== %s\n' "$*" >&2; }
sha() { sha256sum "$1" | cut -d' ' -f1; }
check_sha() {
  local got; got=$(sha "$1")
  if [ "$got" != "$2" ]; then
    echo "checksum mismatch for $1: got $got, want $2" >&2; exit 1
  fi
}

blas_req=()
[ "$NP_BLAS" = openblas ] && blas_req=("$PREFIX/lib/libopenblas.a" "$PREFIX/lib/pkgconfig/openblas.pc")
for f in "$BUILD/cpython/builddir/wasi/pyconfig.h" "$BUILD/cpython/Include/Python.h" "$PREFIX_EH/lib/libc++.a" "${blas_req[@]}"; do
  [ -f "$f" ] || { echo "missing $f: build libc++ and configure CPython first (build-runtime.sh)" >&2; exit 1; }
done

log "numpy $NUMPY_VERSION: sources and host tools"
mkdir -p "$BUILD/src" "$PREFIX/lib"
# fetch_sdist.py fetches the file only (`pip download` would build numpy
# natively to prepare its metadata).
[ -f "$BUILD/src/$NUMPY_SDIST" ] || python3 "$ROOT/scripts/lib/fetch_sdist.py" "$BUILD/src" numpy "$NUMPY_VERSION" >&2
check_sha "$BUILD/src/$NUMPY_SDIST" "$NUMPY_SHA256"
if [ ! -x "$TOOLS/bin/cython" ] || [ "$("$TOOLS/bin/cython" --version 2>&1)" != "Cython version $CYTHON_VERSION" ]; then
  rm -rf "$TOOLS"
  /usr/bin/python3.11 -m venv "$TOOLS"
  "$TOOLS/bin/pip" install -q "cython==$CYTHON_VERSION" "ninja==$NINJA_VERSION" >&2
fi
export PATH=$TOOLS/bin:$PATH

rm -rf "$SRC" "$NB" && mkdir -p "$SRC"
tar -xzf "$BUILD/src/$NUMPY_SDIST" -C "$SRC" --strip-components=1
# wasm32 fixes (scripts/numpy/wasm32-fixes.patch): three C methods whose
# parameter count does not match their METH_ flags and two getters written
# without the closure parameter (harmless on x86, a trap on wasm, which
# type-checks every indirect call: copy.copy(np.float64(1)) killed the
# interpreter; scripts/upstream-tests/check_method_signatures.py finds them),
# and np.save/np.load avoid the os.dup path, which WASI lacks.
(cd "$SRC" && patch -p1 -s < "$HERE/wasm32-fixes.patch")
# ndarray.tofile / np.fromfile hand the C code a FILE* made with os.dup +
# fdopen; WASI has no dup (they failed with "Not supported"). On WASI the
# FILE* is a fopencookie stream over the same descriptor whose close leaves
# it open (scripts/numpy/wasi-file-dup.patch).
(cd "$SRC" && patch -p1 -s < "$HERE/wasi-file-dup.patch")
# matmul without BLAS (scripts/numpy/matmul-rows.patch): loop order m-n-p
# for unit-stride rows, so the inner loop vectorizes; same results bit for
# bit (each element sums over n in the original order). simd-loops.patch
# below replaces that loop with a tiled kernel for float32/float64; the
# integer and long double types keep it.
(cd "$SRC" && patch -p1 -s < "$HERE/matmul-rows.patch")
# wasm SIMD128 loops (scripts/numpy/pybox_simd.h, hooked in by
# simd-loops.patch): numpy's own SIMD has no wasm target, so its float
# ufuncs ran their scalar fallbacks. Unit-stride add/subtract/multiply/
# divide, rint/floor/ceil/trunc/sqrt/absolute/square/reciprocal, the
# pairwise-sum block, float64 sin/cos and a register-tiled float32/float64
# matmul (np.dot of 2-D float arrays routed to it), all bit-identical to the
# scalar code they replace (runtime/testdata/numpy_simd_loops.py checks).
cp "$HERE/pybox_simd.h" "$SRC/numpy/_core/src/umath/"
(cd "$SRC" && patch -p1 -s < "$HERE/simd-loops.patch")
# np.sort/np.argsort (kind='quicksort', the default) on Highway's VQSort
# compiled for wasm SIMD128 (scripts/numpy/pybox_vqsort.cpp, hooked into
# quicksort.cpp by scripts/numpy/vqsort.patch): numpy vendors Highway and
# uses the same sort on Arm through its CPU dispatch, which has no wasm
# target. 16/32/64-bit integers, float32/float64; argsort of 32/64-bit
# types through packed (key, index) pairs; kind='stable' is untouched.
# Needs SIMD128 (NP_SIMD=-msimd128). See docs/runtime-bundle.md.
if [[ " $NP_SIMD " == *" -msimd128 "* ]]; then
  cp "$HERE/pybox_vqsort.cpp" "$HERE/pybox_vqsort.hpp" "$SRC/numpy/_core/src/npysort/"
  (cd "$SRC" && patch -p1 -s < "$HERE/vqsort.patch")
  NP_VQSORT=1
else
  NP_VQSORT=0
fi
# 64-bit default integer (scripts/numpy/default-int64.patch): numpy 2 ties
# the default integer to intp, 32-bit on wasm32, so np.arange(100000).sum()
# overflowed silently. np.int_, np.dtype(int), np.array([1]), np.arange and
# the sum/prod/cumsum accumulators are int64 as on 64-bit Linux; intp
# (indexing, argsort, nonzero) stays 32-bit. See docs/runtime-bundle.md.
(cd "$SRC" && patch -p1 -s < "$HERE/default-int64.patch")
# ...and C code asking for intp (or C long) with the safe casting rule
# (np.repeat's counts, RandomState, PyArray_FROM_OTF in extensions) accepts
# default integers whose values fit (scripts/numpy/index-narrowing.patch).
(cd "$SRC" && patch -p1 -s < "$HERE/index-narrowing.patch")
# With OpenBLAS: numpy's xerbla (LAPACK's error handler, raising ValueError)
# takes the hidden string length every OpenBLAS/LAPACK caller passes; with
# two parameters wasm-ld linked those calls to a trap
# (scripts/numpy/xerbla-length.patch).
[ "$NP_BLAS" = openblas ] && (cd "$SRC" && patch -p1 -s < "$HERE/xerbla-length.patch")

log "numpy: meson setup (cross wasm32-wasi)"
sed "s#@SYSROOT@#$SYSROOT#g" "$HERE/wasm32-wasi.cross.in" > "$BUILD/numpy-cross.txt"
if [ "$NP_BLAS" = openblas ]; then
  # pkg-config sees only the wasm prefix (openblas.pc), never the host's.
  sed -i -e "s#^pkg-config = 'false'#pkg-config = 'pkg-config'#" \
    -e "s#^\[properties\]#&\npkg_config_libdir = ['$PREFIX/lib/pkgconfig']#" "$BUILD/numpy-cross.txt"
  grep -q "^pkg-config = 'pkg-config'" "$BUILD/numpy-cross.txt"
  NP_BLAS_OPTS="-Dallow-noblas=false -Dblas=openblas -Dlapack=openblas"
else
  NP_BLAS_OPTS="-Dallow-noblas=true -Dblas=none -Dlapack=none"
fi
# The -I flags in c_args make meson's configure checks (sizeof Py_intptr_t,
# Python.h symbols) see the wasm pyconfig.h. clang-19 C++: CPython 3.11's
# WASI pthread stubs header uses C's `restrict`; numpy's C++ uses
# try/catch/throw in three files: -fignore-exceptions (no landing pads; a
# throw, only on internal errors or allocation failure, unwinds to the host
# and the instance is discarded; docs/runtime-bundle.md, "C++ exceptions").
# -ffile-prefix-map: no build paths in the objects (assert messages).
NP_CFLAGS="$PYINC $OPT_CFLAGS $WASM_FEATURES $NP_SIMD -ffile-prefix-map=$BUILD=/pybox-build"
NP_CXXFLAGS="$NP_CFLAGS -Drestrict=__restrict -fignore-exceptions"
(cd "$SRC" && "$TOOLS/bin/python" vendored-meson/meson/meson.py setup "$NB" \
  --cross-file "$BUILD/numpy-cross.txt" \
  -Dbuildtype=release -Db_ndebug=if-release \
  -Ddisable-optimization=true -Dcpu-baseline=none -Dcpu-dispatch=none \
  $NP_BLAS_OPTS -Ddisable-threading=true \
  -Ddisable-highway=true -Ddisable-intel-sort=true -Ddisable-svml=true \
  "-Dc_args=$NP_CFLAGS" "-Dcpp_args=$NP_CXXFLAGS") > "$BUILD/numpy-setup.log" 2>&1 \
  || { tail -40 "$BUILD/numpy-setup.log"; exit 1; }
# Meson found the host's Python (only a build tool here) and put its include
# dir on every compile line: replace it with the wasm build's headers.
hostinc=$("$TOOLS/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
# -fPIC (meson's default for extension modules) would make every global
# access go through wasm-ld's GOT emulation in a static link: dropped.
sed -i -e "s#-I$hostinc\\b#$PYINC#g" -e "s# -fPIC\\b##g" "$NB/build.ninja"

python3 "$HERE/collect_objects.py" "$NB" $MODULES > "$NB/pybox-inputs.txt"

log "numpy: compile"
# numpy.random.mtrand (legacy RandomState) compiles distributions.c again with
# NP_RANDOM_LEGACY (RAND_INT_TYPE = long, 32-bit on wasm32), defining the
# same global names as libnpyrandom's copy with different signatures. In one
# static binary they would clash: mtrand's TUs get its names renamed.
mtobj=numpy/random/mtrand.cpython-311-x86_64-linux-gnu.so.p/src_distributions_distributions.c.o
(cd "$NB" && ninja "$mtobj") > "$BUILD/numpy-ninja.log" 2>&1 || { tail -40 "$BUILD/numpy-ninja.log"; exit 1; }
llvm-nm-19 --defined-only --extern-only "$NB/$mtobj" | awk '{print $NF}' | sort -u \
  | awk '{printf "#define %s pybox_mtrand_%s\n", $1, $1}' > "$NB/mtrand_rename.h"
python3 - "$NB/build.ninja" "$NB/mtrand_rename.h" <<'PY'
import re, sys
path, hdr = sys.argv[1], sys.argv[2]
lines = open(path).read().split("\n")
out, in_mtrand = [], False
for line in lines:
    if line.startswith("build "):
        in_mtrand = re.match(r"build numpy/random/mtrand\.[^:]*\.so\.p/[^:]*\.c\.o:", line) is not None
    elif in_mtrand and line.startswith(" ARGS = "):
        line += f" -include {hdr}"
    out.append(line)
open(path, "w").write("\n".join(out))
PY
(cd "$NB" && ninja -j"$JOBS" $(awk '{print $2}' "$NB/pybox-inputs.txt")) >> "$BUILD/numpy-ninja.log" 2>&1 \
  || { tail -40 "$BUILD/numpy-ninja.log"; exit 1; }

log "numpy: archive"
# Extension-module table (dotted names -> PyInit_*), see scripts/numpy/extmod.
entries=()
for m in $MODULES; do entries+=("${m//\//.}=PyInit_${m##*/}"); done
"$HERE/extmod/gen-extmod.sh" _pybox_ext_numpy "$NB/_pybox_ext_numpy.c" "${entries[@]}"
$CLANG --target=wasm32-wasi --sysroot="$SYSROOT" $OPT_CFLAGS $WASM_FEATURES $PYINC \
  -ffile-prefix-map="$BUILD"=/pybox-build -I"$HERE/extmod" -c "$NB/_pybox_ext_numpy.c" -o "$NB/_pybox_ext_numpy.o"
{
  echo "CREATE $PREFIX/lib/libnumpy.a"
  echo "ADDMOD $NB/_pybox_ext_numpy.o"
  awk -v nb="$NB" '$1=="obj"{print "ADDMOD " nb "/" $2} $1=="lib"{print "ADDLIB " nb "/" $2}' "$NB/pybox-inputs.txt"
  echo "SAVE"; echo "END"
} > "$NB/libnumpy.mri"
rm -f "$PREFIX/lib/libnumpy.a"
llvm-ar-19 -M < "$NB/libnumpy.mri"
llvm-ranlib-19 -D "$PREFIX/lib/libnumpy.a"

log "numpy: python files"
SP=$BUILD/site-packages
rm -rf "$SP/numpy" && mkdir -p "$SP"
(cd "$SRC" && find numpy -name '*.py' \
   -not -path '*/tests/*' -not -path 'numpy/_pyinstaller/*' \
   -not -path 'numpy/f2py/*' -not -path 'numpy/distutils/*' \
   -not -path 'numpy/random/_examples/*' -not -path 'numpy/_core/include/*' -print0 \
 | sort -z | xargs -0 cp --parents -t "$SP")
cp "$NB/numpy/__config__.py" "$SP/numpy/__config__.py"
cp "$SRC/LICENSE.txt" "$SP/numpy/LICENSE.txt"
cp "$HERE/extmod/_pybox_extfinder.py" "$HERE/extmod/pybox-ext.pth" "$SP/"

# libc++: numpy's C++ (sorting, string ufuncs, pocketfft); python's link is
# driven by clang (C), which does not add it. It is the exception-enabled
# libc++ of build-libcxx.sh (libc++abi and libunwind merged in), the one
# libc++ of python.wasm: matplotlib's C++ needs its exceptions, and
# numpy's objects (ABI v2, same LLVM release) link against it unchanged.
# long double printf (numpy formats np.longdouble through libc in places).
# OpenBLAS after numpy (static archives resolve left to right).
np_blas_libs=
[ "$NP_BLAS" = openblas ] && np_blas_libs="-lopenblas"
echo "_pybox_ext_numpy -L$PREFIX/lib -lnumpy $np_blas_libs -L$PREFIX_EH/lib -lc++ -lc-printscan-long-double" > "$BUILD/setup-numpy.local"

cat > "$BUILD/manifest-numpy.json" <<JSON
[
 {"name": "numpy", "version": "$NUMPY_VERSION", "source": "PyPI sdist", "file": "$NUMPY_SDIST", "sha256": "$NUMPY_SHA256",
  "license": "BSD-3-Clause AND 0BSD AND MIT AND Zlib AND CC0-1.0 (numpy/LICENSE.txt; bundled lapack_lite and pocketfft: BSD-3-Clause)",
  "blas": "$NP_BLAS",
  "patches": ["scripts/numpy/wasm32-wasi.cross.in", "scripts/numpy/wasm32-fixes.patch", "scripts/numpy/wasi-file-dup.patch", "scripts/numpy/matmul-rows.patch", "scripts/numpy/simd-loops.patch", "scripts/numpy/pybox_simd.h", $( [ "$NP_VQSORT" = 1 ] && echo '"scripts/numpy/vqsort.patch", "scripts/numpy/pybox_vqsort.cpp", "scripts/numpy/pybox_vqsort.hpp", ')"scripts/numpy/default-int64.patch", "scripts/numpy/index-narrowing.patch", $( [ "$NP_BLAS" = openblas ] && echo '"scripts/numpy/xerbla-length.patch", ')"mtrand symbol renaming (build-numpy.sh)"],
  "modules": "$(echo $MODULES | tr / .)",
  "build_tools": {"meson": "numpy's vendored meson", "cython": "$CYTHON_VERSION", "ninja": "$NINJA_VERSION"},
  "flags": {"cflags": "$OPT_CFLAGS $WASM_FEATURES $NP_SIMD", "cxxflags": "-fignore-exceptions -Drestrict=__restrict",
            "meson": "-Dbuildtype=release -Ddisable-optimization=true -Dcpu-baseline=none -Dcpu-dispatch=none $NP_BLAS_OPTS -Ddisable-threading=true -Ddisable-highway=true -Ddisable-intel-sort=true -Ddisable-svml=true"},
  "archive": {"file": "prefix/lib/libnumpy.a", "sha256": "$(sha "$PREFIX/lib/libnumpy.a")"}}
]
JSON
log "numpy done: $(stat -c %s "$PREFIX/lib/libnumpy.a") bytes in libnumpy.a"
