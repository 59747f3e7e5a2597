#!/usr/bin/env bash
# build-scipy.sh — scipy as static extension modules for pybox's python.wasm.
#
#   PYBOX_BUILD_DIR=... scripts/build-scipy.sh
#
# Needs CPython configured in $PYBOX_BUILD_DIR/cpython/builddir/wasi, numpy
# built by scripts/build-numpy.sh and OpenBLAS by scripts/build-openblas.sh
# in the same build dir (scipy compiles against the numpy headers configured
# for wasm32 and links OpenBLAS's BLAS and C LAPACK), and libc++ with
# exceptions (scripts/build-libcxx.sh). Run it after build-numpy.sh and
# before CPython's `make`, like build-pandas.sh. Produces:
#   $BUILD/prefix/lib/libscipy.a     scipy's compiled modules + _pybox_ext_scipy
#   $BUILD/prefix/lib/libf2c.a       the part of libf2c scipy's Fortran needs
#   $BUILD/site-packages/scipy/...   scipy's Python files (tests excluded)
#   $BUILD/setup-scipy.local         line to append to Modules/Setup.local
#   $BUILD/manifest-scipy.json       sources, versions, sha256, licenses, flags
#
# How: scipy's own meson build, cross-configured for wasm32-wasi (numpy's
# cross file plus a Fortran entry), generates the Cython, f2py and Tempita
# sources; ninja compiles only the objects of the extension modules, which
# are archived and linked into python.wasm (see build-pandas.sh). Pythran is
# off (-Duse-pythran=false: scipy falls back to its Cython/Python versions).
#
# Fortran: scipy 1.17 still has Fortran 77 (FITPACK, scipy.interpolate;
# ODRPACK, scipy.odr) and f2py's `*-f2pywrappers.f`. There is no Fortran
# compiler for wasm32-wasi here, so meson's "gfortran" is
# scripts/scipy/wasm-f77.py: f2c translates each file to C, clang-19
# compiles it. f2c's runtime (formatted I/O for ODRPACK's reports, pow_dd,
# ...) comes from Debian's libf2c2 source, compiled for wasm32 into libf2c.a.
#
# C++ (Boost.Math, HiGHS, sparsetools, pybind11 modules, ...): clang-22 with
# wasm exceptions in the standard encoding, as matplotlib's (pybind11 and
# sparsetools report errors by throwing).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${PYBOX_BUILD_DIR:-$ROOT/build}
JOBS=${JOBS:-$(nproc)}
export SOURCE_DATE_EPOCH=1700000000
export LC_ALL=C TZ=UTC

# Newest scipy supporting Python 3.11 (1.18 requires 3.12); numpy>=1.26.4,<2.7.
SCIPY_VERSION=1.17.1
SCIPY_SDIST=scipy-$SCIPY_VERSION.tar.gz
SCIPY_SHA256=95d8e012d8cb8816c226aef832200b1d45109ed4464303e997c5b13122b297c0
# f2c's runtime library (Debian bookworm source package).
F2C_DEB_SRC=libf2c2/bookworm
F2C_ORIG=libf2c2_20140711.orig.tar.xz
F2C_ORIG_SHA256=348c21e93752fd93d80ac5cc75f2e34e09bd7de3ae1aa3539eb8005c5a7e61d6
# Host build tools (build machine only). Cython as pandas' (with the same
# intp-buffer patch); scipy 1.17's pyproject asks Cython <3.3 only as a
# pre-emptive bound. numpy in the venv only for f2py (a code generator).
CYTHON_VERSION=3.3.1
MESON_VERSION=1.12.1
NINJA_VERSION=1.13.2
PYBIND11_VERSION=2.13.6
NUMPY_TOOL_VERSION=2.4.6

CLANG=clang-19
SYSROOT=$BUILD/sysroot
PREFIX=$BUILD/prefix
PREFIX_EH=${PREFIX_EH:-$BUILD/prefix-eh}
PYINC="-I$BUILD/cpython/Include -I$BUILD/cpython/builddir/wasi"
OPT_CFLAGS=${OPT_CFLAGS:--O2}
WASM_FEATURES="-mbulk-memory -mnontrapping-fptoint -msign-ext -mmutable-globals"
HERE=$ROOT/scripts/scipy
SJLJ=$ROOT/scripts/pillow/sjlj
SRC=$BUILD/scipy-src
SB=$BUILD/scipy-build
W=$BUILD/scipy-work
TOOLS=$BUILD/scipy-tools-venv
NPSRC=$BUILD/numpy-src
NPB=$BUILD/numpy-build

# log, sha, check_sha
. "$ROOT/scripts/lib/build-common.sh"

for f in "$BUILD/cpython/builddir/wasi/pyconfig.h" "$BUILD/cpython/Include/Python.h" \
         "$NPB/numpy/_core/_numpyconfig.h" "$NPSRC/numpy/__init__.cython-30.pxd" \
         "$PREFIX/lib/libopenblas.a" "$PREFIX/lib/pkgconfig/openblas.pc" "$PREFIX_EH/lib/libc++.a"; do
  [ -f "$f" ] || { echo "missing $f: build OpenBLAS, libc++ and numpy and configure CPython first (build-runtime.sh)" >&2; exit 1; }
done
command -v f2c >/dev/null || { echo "f2c not found: apt-get install f2c (scripts/setup-toolchain.sh)" >&2; exit 1; }
command -v clang++-22 >/dev/null || { echo "clang++-22 not found (scripts/setup-toolchain.sh)" >&2; exit 1; }

log "scipy $SCIPY_VERSION: sources and host tools"
mkdir -p "$BUILD/src" "$PREFIX/lib"
cd "$BUILD/src"
# pip download --no-binary would prepare the metadata, i.e. configure scipy
# natively, which fails without a Fortran compiler: fetch_sdist.py asks pip's
# index client for the file only.
[ -f "$SCIPY_SDIST" ] || python3 "$ROOT/scripts/lib/fetch_sdist.py" . scipy "$SCIPY_VERSION" >&2
check_sha "$SCIPY_SDIST" "$SCIPY_SHA256"
[ -f "$F2C_ORIG" ] || apt-get source --download-only "$F2C_DEB_SRC" >&2
check_sha "$F2C_ORIG" "$F2C_ORIG_SHA256"

want_tools="Cython==$CYTHON_VERSION meson==$MESON_VERSION ninja==$NINJA_VERSION numpy==$NUMPY_TOOL_VERSION pybind11==$PYBIND11_VERSION"
cy_patch=$ROOT/scripts/pandas/cython-intp-buffers.patch
if [ ! -x "$TOOLS/bin/cython" ] || [ "$("$TOOLS/bin/pip" freeze 2>/dev/null | tr '\n' ' ' | sed 's/ $//')" != "$want_tools" ] \
   || [ "$(cat "$TOOLS/pybox-cython-patch.sha256" 2>/dev/null)" != "$(sha "$cy_patch")" ]; then
  rm -rf "$TOOLS"
  /usr/bin/python3.11 -m venv "$TOOLS"
  "$TOOLS/bin/pip" install -q "cython==$CYTHON_VERSION" "meson==$MESON_VERSION" "ninja==$NINJA_VERSION" \
    "numpy==$NUMPY_TOOL_VERSION" "pybind11==$PYBIND11_VERSION" >&2
  cy_dir=$("$TOOLS/bin/python" -c 'import Cython, os; print(os.path.dirname(os.path.dirname(Cython.__file__)))')
  patch -d "$cy_dir" -p1 -s --no-backup-if-mismatch < "$cy_patch"
  sha "$cy_patch" > "$TOOLS/pybox-cython-patch.sha256"
fi
export PATH=$TOOLS/bin:$PATH

# SCIPY_REUSE=1 (for working on this script): keep an existing source tree
# and meson build dir, so ninja rebuilds only what changed; every step below
# is idempotent. Without it everything starts from the sdist.
if [ "${SCIPY_REUSE:-0}" = 1 ] && [ -f "$SB/build.ninja" ]; then
  reuse=1
else
  reuse=0
  rm -rf "$SRC" "$SB" "$W" && mkdir -p "$SRC" "$W"
  tar -xzf "$BUILD/src/$SCIPY_SDIST" -C "$SRC" --strip-components=1
fi
# scripts/scipy/patches/: fortran-int-subroutines.patch makes the few
# Fortran-called functions scipy defines itself return int (ODRPACK's
# callback, the g77-ABI wrappers), see int-subroutines.py below.
# superlu-no-threads.patch: SuperLU's allocator needs the GIL it released
# (see the patch). special-int64-loops.patch: scipy.special's generated
# ufuncs take int64 where they took intp (32-bit here), so numpy's int64
# integers reach their integer loops (bdtr* warned, eval_hermite raised).
# The patches are made against the sdist's files (before
# int-subroutines.py below); $SRC/.pybox-patches lists those applied, so
# that SCIPY_REUSE=1 applies only new ones.
for p in "$HERE"/patches/*.patch; do
  [ -f "$p" ] || continue
  grep -qxF "$(basename "$p")" "$SRC/.pybox-patches" 2>/dev/null && continue
  (cd "$SRC" && patch -p1 -s --no-backup-if-mismatch < "$p")
  basename "$p" >> "$SRC/.pybox-patches"
done
# One binary holds every module: definitions in xsf's headers become inline
# (scripts/scipy/static-link-fixes.py says which duplicates this removes).
python3 "$HERE/static-link-fixes.py" headers "$SRC"
# Every Fortran subroutine returns int on this target (f2c's translation and
# OpenBLAS's, see scripts/scipy/int-subroutines.py); scipy declares them void.
# Besides BLAS_FUNC/F_FUNC declarations, plain ones (`void dgemm_(...)`,
# `void CURFIT(...)`) of the symbols OpenBLAS defines and of scipy's own
# Fortran routines.
{
  llvm-nm-19 --defined-only --extern-only "$PREFIX/lib/libopenblas.a" 2>/dev/null | awk '$2=="T"{print $3}' | grep '_$'
  grep -hioE '^ +(recursive +)?((double +precision|real\*8|integer|real|logical) +)?(subroutine|function) +[a-z0-9]+' \
    $(find "$SRC/scipy" -name '*.f') | awk '{print tolower($NF) "_"}'
} | sort -u > "$W/fortran-symbols.txt"
[ $reuse = 1 ] || python3 "$HERE/int-subroutines.py" --names "$W/fortran-symbols.txt" "$SRC/scipy" > "$W/int-subroutines-source.txt"

log "scipy: libf2c (f2c's runtime) for wasm32"
F2=$W/libf2c
mkdir -p "$F2/src" "$W/f2c-include"
tar -xJf "$BUILD/src/$F2C_ORIG" -C "$F2/src" --strip-components=1
cp "$F2/src/f2c.h0" "$F2/src/f2c.h"
cp "$F2/src/signal1.h0" "$F2/src/signal1.h"
cp "$F2/src/sysdep1.h0" "$F2/src/sysdep1.h"
# arith.h is normally written by running arithchk on the target: wasm32 is
# little-endian IEEE 754 with 32-bit long.
printf '#define IEEE_8087\n#define Arith_Kind_ASL 1\n' > "$F2/src/arith.h"
cp "$F2/src/f2c.h" "$W/f2c-include/f2c.h"
# What the translated FITPACK/ODRPACK code calls: math helpers, string
# copy/compare, formatted and list-directed writes (ODRPACK's reports, to a
# file opened by OPEN), STOP. sig_die (f2c's fatal-error exit) is ours:
# WASI has no signals (scripts/scipy/f2c/sig_die.c); so are an int s_copy
# and tmpfile (scripts/scipy/f2c/wasi_compat.c).
F2C_OBJS="d_lg10 d_sign pow_dd pow_di pow_ii s_cat s_cmp s_copy s_stop exit_ f77_aloc
  close dfe dolio due endfile err fmt fmtlib iio ilnw inquire lread lwrite open rdfmt
  rewind rsfe rsli rsne sfe sue typesize uio util wref wrtfmt wsfe wsle wsne xwsne
  backspac ftell_ ctype i_dnnt i_nint d_nint d_int d_mod i_len i_indx"
f2c_o=()
for f in $F2C_OBJS; do
  # s_copy is defined void; f2c's translations call it as int
  # (scripts/scipy/f2c/wasi_compat.c defines the int one).
  rename=; [ "$f" = s_copy ] && rename=-Ds_copy=pybox_f2c_s_copy
  $CLANG --target=wasm32-wasi --sysroot="$SYSROOT" $OPT_CFLAGS $WASM_FEATURES -w $rename \
    -ffile-prefix-map="$BUILD"=/pybox-build -I"$F2/src" -c "$F2/src/$f.c" -o "$F2/$f.o"
  f2c_o+=("$F2/$f.o")
done
for f in sig_die wasi_compat; do
  $CLANG --target=wasm32-wasi --sysroot="$SYSROOT" $OPT_CFLAGS $WASM_FEATURES \
    -ffile-prefix-map="$ROOT"=/pybox-src -I"$F2/src" -c "$HERE/f2c/$f.c" -o "$F2/$f.o"
  f2c_o+=("$F2/$f.o")
done
rm -f "$PREFIX/lib/libf2c.a"
llvm-ar-19 rcsD "$PREFIX/lib/libf2c.a" "${f2c_o[@]}"

# setjmp/longjmp: scipy's callback machinery (ccallback.h: a Python
# exception in a callback longjmps out of QUADPACK, the root finders, ...),
# SuperLU's error exit and Qhull's. As for Pillow and matplotlib's Qhull,
# C files go through scripts/pillow/sjlj/wasm-cc (the files that call setjmp
# are compiled again by clang-22, which lowers it to wasm exceptions); C++
# gets the same lowering (-mllvm -wasm-enable-sjlj). Its runtime,
# libwasmsjlj.a, is the one build-pillow.sh makes (same sources and flags).
SJLJ_FLAGS="--target=wasm32-wasip1 --sysroot=$SYSROOT $OPT_CFLAGS $WASM_FEATURES -mexception-handling"
clang-22 $SJLJ_FLAGS -c "$SJLJ/wasm_sjlj_rt.c" -o "$W/wasm_sjlj_rt.o"
clang-22 $SJLJ_FLAGS -c "$SJLJ/c_longjmp.S" -o "$W/c_longjmp.o"
rm -f "$PREFIX/lib/libwasmsjlj.a"
llvm-ar-19 rcsD "$PREFIX/lib/libwasmsjlj.a" "$W/wasm_sjlj_rt.o" "$W/c_longjmp.o"

# The numpy scipy builds against is the bundle's: numpy's headers as its
# install lays them out (+ the ones meson generated for wasm32), f2py's
# fortranobject.c/h (scipy finds them at <include>/../../f2py/src) and
# libnpymath (scipy looks for it at <include>/../lib; the symbols are
# already in python.wasm through numpy, so it only has to exist).
NPINC=$W/numpy/_core/include
mkdir -p "$NPINC" "$W/numpy/_core/lib" "$W/numpy/f2py/src"
cp -r "$NPSRC/numpy/_core/include/numpy" "$NPINC/"
for h in _numpyconfig.h __multiarray_api.h __ufunc_api.h; do
  cp "$NPB/numpy/_core/$h" "$NPINC/numpy/$h"
done
cp "$NPSRC"/numpy/f2py/src/fortranobject.[ch] "$W/numpy/f2py/src/"
npymath=$(find "$NPB" -name libnpymath.a | head -1)
[ -n "$npymath" ] || { echo "libnpymath.a not found in $NPB" >&2; exit 1; }
cp "$npymath" "$W/numpy/_core/lib/"
# Cython's `cimport numpy` gets the bundle's numpy .pxd files.
mkdir -p "$W/npshim/numpy"
cp "$NPSRC/numpy/__init__.pxd" "$NPSRC/numpy/__init__.cython-30.pxd" "$W/npshim/numpy/"

log "scipy: meson setup (cross wasm32-wasi)"
cat > "$W/f77.json" <<JSON
{"cc": ["$CLANG", "--target=wasm32-wasi", "--sysroot=$SYSROOT"],
 "cflags": ["$OPT_CFLAGS", $(printf '"%s", ' $WASM_FEATURES)"-ffile-prefix-map=$BUILD=/pybox-build", "-w"],
 "f2c": "f2c", "f2c_include": "$W/f2c-include"}
JSON
# scipy.fft's pocketfft: no worker threads (it would include pthread.h), as
# numpy's (-DPOCKETFFT_NO_MULTITHREADING in SC_CXXFLAGS below).
# C++: clang-22, wasm exceptions (standard encoding), the exception-enabled
# libc++ headers; linked with wasm-ld 19 (no lld-22 here; meson only needs
# to find a linker, the modules are never linked by meson).
CXXEH_FLAGS="--target=wasm32-wasip1 -fwasm-exceptions -mllvm -wasm-use-legacy-eh=false -nostdinc++ -isystem $PREFIX_EH/include/c++/v1"
pybind11_pc=$("$TOOLS/bin/python" -c 'import pybind11, os; print(os.path.join(os.path.dirname(pybind11.__file__), "share", "pkgconfig"))')
sed "s#@SYSROOT@#$SYSROOT#g" "$ROOT/scripts/numpy/wasm32-wasi.cross.in" > "$W/cross.txt"
python3 - "$W/cross.txt" <<PY
import sys
p = sys.argv[1]
s = open(p).read()
s = s.replace("c = ['clang-19', ", "c = ['$SJLJ/wasm-cc', ")
s = s.replace("pkg-config = 'false'", "pkg-config = 'pkg-config'\n"
    "fortran = ['/usr/bin/python3', '$HERE/wasm-f77.py', '--pybox-config=$W/f77.json']")
s = s.replace("cpp = ['clang++-19', '--target=wasm32-wasi', '--sysroot=$SYSROOT']",
    "cpp = ['clang++-22', '-fuse-ld=/usr/lib/llvm-19/bin/wasm-ld', '--sysroot=$SYSROOT', "
    + ", ".join(repr(a) for a in "$CXXEH_FLAGS".split()) + "]")
assert "clang++-22" in s and "fortran" in s and "wasm-cc" in s, "numpy's cross file changed: revisit build-scipy.sh"
s = s.replace("[properties]", "[properties]\n"
    "pkg_config_libdir = ['$PREFIX/lib/pkgconfig', '$pybind11_pc']\n"
    "numpy-include-dir = '$NPINC'\n"
    "skip_sanity_check = true", 1)
open(p, "w").write(s)
PY
SC_CFLAGS="$PYINC $OPT_CFLAGS $WASM_FEATURES -ffile-prefix-map=$BUILD=/pybox-build"
# C files: f2py's modules share numpy's API pointer (scripts/scipy/f2py_shared_api.h).
SC_CFLAGS_C="$SC_CFLAGS -include $HERE/f2py_shared_api.h"
# Threads: nothreads.h gives the thread-less libc++ single-threaded std::mutex,
# unique_lock, condition_variable, thread, this_thread, future and
# packaged_task (HiGHS's task executor sizes itself by
# hardware_concurrency() == 1 and starts no worker); serial_task_pool.h
# replaces fast_matrix_market's thread pool by one that runs each task when
# it is submitted. HiGHS's Highs.cpp includes <csignal> without using it:
# wasi-libc's signal.h refuses to be included without
# -D_WASI_EMULATED_SIGNAL (nothing calls signal(), so
# -lwasi-emulated-signal is not linked).
SC_CXXFLAGS="$SC_CFLAGS -I$SJLJ -mllvm -wasm-enable-sjlj -Xclang -fexternc-nounwind -Drestrict=__restrict -DPOCKETFFT_NO_MULTITHREADING -D_WASI_EMULATED_SIGNAL -include $ROOT/scripts/matplotlib/nothreads.h -include $HERE/serial_task_pool.h -Wno-unknown-warning-option"
export PYTHONPATH=$W/npshim
[ $reuse = 1 ] || (cd "$SRC" && meson setup "$SB" --cross-file "$W/cross.txt" \
  -Dbuildtype=release -Db_ndebug=if-release \
  -Dblas=openblas -Dlapack=openblas -Duse-pythran=false \
  "-Dc_args=$SC_CFLAGS_C" "-Dcpp_args=$SC_CXXFLAGS") > "$BUILD/scipy-setup.log" 2>&1 \
  || { tail -40 "$BUILD/scipy-setup.log"; exit 1; }
# As in build-numpy.sh: the host Python's include dir becomes the wasm
# build's, and -fPIC (GOT-relative globals in a static link) is dropped.
# So is -pthread (meson's threads dependency, on HiGHS, pocketfft and
# _qmc_cy): for wasm it turns on the atomics feature, so the object keeps
# atomic instructions (pybind11's guarded statics, std::atomic), which make
# python.wasm invalid for wazero, which runs without the threads proposal.
hostinc=$("$TOOLS/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
sed -i -e "s#-I$hostinc\\b#$PYINC#g" -e "s# -fPIC\\b##g" -e "s# -pthread\\b##g" "$SB/build.ninja"
# meson makes each Cython step wait for the shared utility module
# (scipy._cyutility) to be linked as a .so, which never happens here (its
# object is archived like the others): that ordering edge is dropped.
sed -i -E '/^build scipy\/_cyutility\.cpython[^:]*\.so:/! s# scipy/_cyutility\.cpython-[^ ]*\.so( |$)#\1#g' "$SB/build.ninja"

# The modules shipped: every extension module of the build but scipy's
# test-only ones (under tests/, or named _test*).
python3 - "$SB/build.ninja" > "$W/modules.txt" <<'PY'
import re, sys
mods = set()
for line in open(sys.argv[1]):
    m = re.match(r"build (scipy/\S+?|_\S+?)\.cpython-[^ :]*\.so:", line)
    if m:
        mod = m.group(1)
        short = mod.rsplit("/", 1)[-1]
        if "/tests/" in mod or short.startswith("_test") or short in ("_ctest", "_cytest"):
            continue
        mods.add(mod)
print("\n".join(sorted(mods)))
PY
MODULES=$(cat "$W/modules.txt")
# Two modules are named _zeros (scipy.optimize._zeros and
# scipy.optimize.cython_optimize._zeros): in one binary their PyInit__zeros
# would clash, so every module whose short name was already taken gets its
# init function renamed (-DPyInit_x=PyInit_x__N on its objects). So does
# every module whose short name another bundled package uses: Cython's
# shared utility module is pandas._libs._cyutility too, and the linker would
# silently have given scipy pandas' PyInit__cyutility (its
# __pyx_module_is_main__cyutility, defined by both, is renamed with it);
# scipy.spatial._qhull and matplotlib._qhull both had PyInit__qhull.
# build-runtime.sh's link check fails on any other name two packages define.
# The table entries below use the same names (modules-init.txt).
python3 - "$SB/build.ninja" "$W/modules.txt" > "$W/modules-init.txt" <<'PY'
import re, sys
path, mods = sys.argv[1], open(sys.argv[2]).read().split()
OTHER_PACKAGES = {"_cyutility", "_qhull"}
seen, rename = {}, {}
for m in mods:
    short = m.rsplit("/", 1)[-1]
    seen[short] = seen.get(short, 0) + 1
    init = f"PyInit_{short}" if seen[short] == 1 else f"PyInit_{short}__{seen[short]}"
    if short in OTHER_PACKAGES:
        init = f"PyInit_scipy_{short}"
        rename[m] = [(f"PyInit_{short}", init),
                     (f"__pyx_module_is_main_{short}", f"__pyx_module_is_main_scipy_{short}")]
    elif seen[short] > 1:
        rename[m] = [(f"PyInit_{short}", init)]
    print(f"{m} {init}")
lines = open(path).read().split("\n")
cur, n = None, 0
for i, line in enumerate(lines):
    if line.startswith("build "):
        cur = next((m for m in rename if re.match(r"build %s\.[^:]*\.so\.p/[^:]*\.o:" % re.escape(m), line)), None)
    elif cur and line.startswith(" ARGS = "):
        flag = "".join(" -D%s=%s" % r for r in rename[cur])
        if flag not in line:
            lines[i] = line + flag
        n += 1
assert n >= len(rename), "renaming PyInit: objects not found"
open(path, "w").write("\n".join(lines))
PY
# Names two modules define (static-link-fixes.py): renamed per module.
python3 "$HERE/static-link-fixes.py" ninja "$SB/build.ninja"
log "scipy: $(wc -l < "$W/modules.txt") extension modules"
python3 "$ROOT/scripts/numpy/collect_objects.py" "$SB" $MODULES > "$SB/pybox-targets.txt"

# Fortran subroutines return int on this target: f2c translates them so,
# and OpenBLAS's BLAS/LAPACK were made int for numpy
# (scripts/openblas/int-subroutines.py). f2py declares them void and calls
# them through a `void (*f2py_func)(...)` pointer: wasm checks function types
# (at link time for direct calls, at run time for indirect ones), so the
# generated modules are made to say int before they are compiled.
# scipy's own declarations were rewritten after unpacking (above); here the
# generated ones: f2py's modules and the BLAS/LAPACK prototypes of
# cython_blas/cython_lapack.
gen=$(cd "$SB" && ninja -t targets all | awk -F: '{print $1}' \
  | grep -E '^scipy/.*(module\.c|_blas_subroutines\.h|_lapack_subroutines\.h)$' || true)
(cd "$SB" && ninja $gen) > "$BUILD/scipy-ninja.log" 2>&1 || { tail -40 "$BUILD/scipy-ninja.log"; exit 1; }
# (With SCIPY_REUSE=1 they may have been rewritten already: nothing to do.)
(cd "$SB" && python3 "$HERE/int-subroutines.py" --names "$W/fortran-symbols.txt" $gen) > "$W/int-subroutines-generated.txt" \
  || [ $reuse = 1 ]
# cython_lapack's chla_transtype (a CHARACTER function) and xerbla_array
# (hidden CHARACTER length) have other types in OpenBLAS: scipy's
# declarations are replaced by wrappers (scripts/scipy/lapack_char_fixes.h).
# Unfixed, the calls made python.wasm invalid ("type mismatch on call").
lh=$SB/scipy/linalg/_lapack_subroutines.h
sed -i -e '/^char BLAS_FUNC(chla_transtype)(int \*trans);$/d' \
  -e '/^int BLAS_FUNC(xerbla_array)(char \*srname_array, int \*srname_len, int \*info);$/d' "$lh"
if grep -q 'chla_transtype\|xerbla_array' "$lh"; then
  echo "$lh: chla_transtype/xerbla_array declared differently: revisit build-scipy.sh" >&2; exit 1
fi
grep -qF "$HERE/lapack_char_fixes.h" "$lh" || echo "#include \"$HERE/lapack_char_fixes.h\"" >> "$lh"

log "scipy: compile"
(cd "$SB" && ninja -k 0 -j"$JOBS" $(awk '{print $2}' "$SB/pybox-targets.txt")) >> "$BUILD/scipy-ninja.log" 2>&1 \
  || { grep -B2 -A12 -m5 'error' "$BUILD/scipy-ninja.log" | head -80; exit 1; }
# The objects to archive: meson's static libraries expanded into their
# objects, less the ones another definition replaces; then no global name
# may be defined twice, among them or with numpy, OpenBLAS and libf2c
# (static-link-fixes.py).
python3 "$HERE/static-link-fixes.py" inputs "$SB" < "$SB/pybox-targets.txt" > "$SB/pybox-inputs.txt"
python3 "$HERE/static-link-fixes.py" check "$SB" "$SB/pybox-inputs.txt" \
  "$PREFIX/lib/libnumpy.a" "$PREFIX/lib/libopenblas.a" "$PREFIX/lib/libf2c.a"

log "scipy: archive"
# The import name is where meson installs a module, which is not always
# where it is built (scipy/sparse/sparsetools/_sparsetools is installed as
# scipy.sparse._sparsetools, _propack/_propack as
# scipy.sparse.linalg._propack).
meson introspect "$SB" --installed > "$W/installed.json"
python3 - "$W/installed.json" "$SB" "$W/modules-init.txt" > "$W/modules-import.txt" <<'PY'
import json, os, re, sys
installed, sb, mods = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
name = {}
for src, dst in installed.items():
    if src.endswith(".so"):
        build = re.sub(r"\.cpython-[^/]*\.so$", "", os.path.relpath(src, sb))
        name[build] = re.sub(r"\.cpython-[^/]*\.so$", "", dst[dst.index("/scipy/") + 1:]).replace("/", ".")
for line in open(mods):
    m, init = line.split()
    if m not in name:
        sys.exit(f"{m}: not in meson's install list")
    print(f"{name[m]}={init}")
PY
entries=($(cat "$W/modules-import.txt"))
"$ROOT/scripts/numpy/extmod/gen-extmod.sh" _pybox_ext_scipy "$W/_pybox_ext_scipy.c" "${entries[@]}"
$CLANG --target=wasm32-wasi --sysroot="$SYSROOT" $OPT_CFLAGS $WASM_FEATURES $PYINC \
  -ffile-prefix-map="$BUILD"=/pybox-build -I"$ROOT/scripts/numpy/extmod" -c "$W/_pybox_ext_scipy.c" -o "$W/_pybox_ext_scipy.o"
# C++ thread_local objects with destructors (uarray) call
# __cxa_thread_atexit, which the thread-less libc++abi lacks
# (scripts/scipy/cxa_thread_atexit.c).
$CLANG --target=wasm32-wasi --sysroot="$SYSROOT" $OPT_CFLAGS $WASM_FEATURES \
  -c "$HERE/cxa_thread_atexit.c" -o "$W/cxa_thread_atexit.o"
# Qhull: matplotlib (scripts/build-matplotlib.sh) compiles the same release,
# 2020.2, into libmatplotlib.a. Linked together, two copies of every qh_*
# function would clash, so when SCIPY_QHULL_FROM names matplotlib's archive
# (build-runtime.sh does when both are in PACKAGES) scipy's libqhull_r
# objects are left out and scipy.spatial uses that copy. Its headers must be
# the ones scipy.spatial._qhull was compiled against (checked; the two trees
# differ only in a message text and a trace format's arguments).
qhull_filter=cat
if [ -n "${SCIPY_QHULL_FROM:-}" ]; then
  mq=$BUILD/matplotlib/qhull/src/libqhull_r
  [ -f "$SCIPY_QHULL_FROM" ] && [ -d "$mq" ] || { echo "SCIPY_QHULL_FROM=$SCIPY_QHULL_FROM: no such archive, or no Qhull source in $mq (build matplotlib first)" >&2; exit 1; }
  for h in "$SRC"/subprojects/qhull_r/libqhull_r/*.h; do
    cmp -s "$h" "$mq/$(basename "$h")" || { echo "Qhull header $(basename "$h") differs between scipy and $mq: cannot share one Qhull" >&2; exit 1; }
  done
  llvm-nm-19 --defined-only "$SCIPY_QHULL_FROM" 2>/dev/null | grep ' T qh_new_qhull$' >/dev/null \
    || { echo "$SCIPY_QHULL_FROM defines no qh_new_qhull" >&2; exit 1; }
  qhull_filter="grep -v ^obj.subprojects/qhull_r/"
fi
{
  echo "CREATE $PREFIX/lib/libscipy.a"
  echo "ADDMOD $W/_pybox_ext_scipy.o"
  echo "ADDMOD $W/cxa_thread_atexit.o"
  $qhull_filter "$SB/pybox-inputs.txt" | awk -v sb="$SB" '$1=="obj"{print "ADDMOD " sb "/" $2}'
  echo "SAVE"; echo "END"
} > "$W/libscipy.mri"
rm -f "$PREFIX/lib/libscipy.a"
llvm-ar-19 -M < "$W/libscipy.mri"
llvm-ranlib-19 -D "$PREFIX/lib/libscipy.a"

log "scipy: python files"
SP=$BUILD/site-packages
rm -rf "$SP/scipy" && mkdir -p "$SP"
# What scipy's install would lay out (meson introspect --installed: source
# or build path -> install path), but the extension modules (linked into
# python.wasm), tests, Cython sources/declarations and C headers: the Python
# files (the vendored array_api_compat/array_api_extra are installed under
# scipy/_lib/ from other source dirs), generated ones (__config__.py,
# version.py), data (_sobol_direction_numbers.npz) and license files.
python3 - "$W/installed.json" "$SP" "$SB" <<'PY'
import json, os, shutil, subprocess, sys
installed, sp, sb = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
todo = []
for src, dst in sorted(installed.items()):
    rel = dst[dst.index("/scipy/") + 1:]
    if (src.endswith(".so") or "/tests/" in rel or rel.endswith("/conftest.py")
            or rel.endswith((".pyx", ".pxd", ".h", ".pyi"))):
        continue
    todo.append((src, rel))
missing = [os.path.relpath(s, sb) for s, _ in todo if not os.path.exists(s)]
if missing:
    subprocess.run(["ninja", "-C", sb] + missing, check=True, stdout=subprocess.DEVNULL)
for src, rel in todo:
    os.makedirs(os.path.dirname(os.path.join(sp, rel)), exist_ok=True)
    shutil.copyfile(src, os.path.join(sp, rel))
print(f"{len(todo)} files", file=sys.stderr)
PY
cp "$SRC/LICENSE.txt" "$SP/scipy/LICENSE.txt"
# __config__.py records the compiler command lines, which name the wrappers
# under this checkout's scripts/: the bundle must not depend on where the
# checkout is (build-runtime.sh maps the build folder the same way).
sed -i "s#$ROOT/#/pybox-src/#g" "$SP/scipy/__config__.py"
# scipy's vendored array_api_compat clones the numpy module attribute by
# attribute, which imports numpy.f2py (left out by build-numpy.sh): its
# Python files are added when scipy is bundled.
(cd "$NPSRC" && find numpy/f2py -name '*.py' -not -path '*/tests/*' -print0 | sort -z | xargs -0 cp --parents -t "$SP")
cp "$ROOT/scripts/numpy/extmod/_pybox_extfinder.py" "$ROOT/scripts/numpy/extmod/pybox-ext.pth" "$SP/"

# OpenBLAS after scipy (static archives resolve left to right), libf2c for
# the translated Fortran, libc++ with exceptions.
echo "_pybox_ext_scipy -L$PREFIX/lib -lscipy -lopenblas -lf2c -lwasmsjlj -L$PREFIX_EH/lib -lc++" > "$BUILD/setup-scipy.local"

cat > "$BUILD/manifest-scipy.json" <<JSON
[
 {"name": "scipy", "version": "$SCIPY_VERSION", "source": "PyPI sdist", "file": "$SCIPY_SDIST", "sha256": "$SCIPY_SHA256",
  "license": "BSD-3-Clause AND BSL-1.0 AND MIT AND others (scipy/LICENSE.txt, LICENSES_bundled.txt)",
  "modules": "$(echo $MODULES | tr / .)",
  "build_tools": {"meson": "$MESON_VERSION", "cython": "$CYTHON_VERSION", "ninja": "$NINJA_VERSION", "pybind11": "$PYBIND11_VERSION", "f2py": "numpy $NUMPY_TOOL_VERSION", "f2c": "$(dpkg-query -W -f='${Version}' f2c)"},
  "built_against": "numpy from scripts/build-numpy.sh (wasm32 headers), OpenBLAS from scripts/build-openblas.sh",
  "qhull": "$( [ -n "${SCIPY_QHULL_FROM:-}" ] && echo "libqhull_r of ${SCIPY_QHULL_FROM#$BUILD/} (scipy's own copy left out)" || echo "scipy's vendored libqhull_r")",
  "patches": ["scripts/scipy/wasm-f77.py", "scripts/scipy/int-subroutines.py", "scripts/pandas/cython-intp-buffers.patch"$(for p in "$HERE"/patches/*.patch; do [ -f "$p" ] && printf ', "%s"' "${p#$ROOT/}"; done)],
  "flags": {"cflags": "$OPT_CFLAGS $WASM_FEATURES", "cxx": "clang-22 ${CXXEH_FLAGS//$BUILD/<build>} -Xclang -fexternc-nounwind", "meson": "-Dbuildtype=release -Dblas=openblas -Dlapack=openblas -Duse-pythran=false"},
  "archive": {"file": "prefix/lib/libscipy.a", "sha256": "$(sha "$PREFIX/lib/libscipy.a")"}},
 {"name": "libf2c", "version": "20140711", "debian_source": "$F2C_DEB_SRC", "file": "$F2C_ORIG", "sha256": "$F2C_ORIG_SHA256",
  "license": "HPND-like (libf2c's Notice)", "objects": "$(echo $F2C_OBJS) + scripts/scipy/f2c/sig_die.c, wasi_compat.c",
  "archive": {"file": "prefix/lib/libf2c.a", "sha256": "$(sha "$PREFIX/lib/libf2c.a")"}}
]
JSON
log "scipy done: $(stat -c %s "$PREFIX/lib/libscipy.a") bytes in libscipy.a"
