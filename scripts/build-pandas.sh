#!/usr/bin/env bash
# build-pandas.sh — pandas as static extension modules for pybox's python.wasm.
#
#   PYBOX_BUILD_DIR=... scripts/build-pandas.sh
#
# Needs CPython configured in $PYBOX_BUILD_DIR/cpython/builddir/wasi and numpy
# built by scripts/build-numpy.sh in the same build dir (pandas compiles
# against the numpy headers configured for wasm32, with whatever patches
# build-numpy.sh applied), i.e. run it after build-numpy.sh and before
# CPython's `make`. Produces:
#   $BUILD/prefix/lib/libpandas.a    every compiled module of pandas._libs
#                                    + _pybox_ext_pandas
#   $BUILD/site-packages/pandas/...  pandas' Python files (tests excluded)
#   $BUILD/setup-pandas.local        line to append to Modules/Setup.local
#   $BUILD/manifest-pandas.json      source, version, sha256, license, flags
#
# How: as for numpy, pandas' own meson build configures the project for
# wasm32-wasi (numpy's cross file) and generates its sources (Tempita .pxi,
# Cython C/C++); ninja compiles only the objects of the extension modules,
# which are archived and linked into python.wasm. The Cython modules share
# one utility module (pandas._libs._cyutility), as in pandas' wheels.
# pandas._libs.window.aggregations and the CSV tokenizer (with fast_float)
# are C++: compiled with -fignore-exceptions like numpy's C++ (none of
# pandas' own C++ throws; libc++ would only on allocation failure, which
# then unwinds to the host and the instance is discarded). The rolling-moments kernel
# is pandas' scalar one (its SIMD variants are for SSE2/NEON only).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${PYBOX_BUILD_DIR:-$ROOT/build}
JOBS=${JOBS:-$(nproc)}
export SOURCE_DATE_EPOCH=1700000000
export LC_ALL=C TZ=UTC

# Newest pandas supporting Python 3.11 (requires-python >=3.11; numpy>=2.0.2).
PANDAS_VERSION=3.1.1
PANDAS_SDIST=pandas-$PANDAS_VERSION.tar.gz
PANDAS_SHA256=05fed3e3b7c99b226f160e29d7d6cb7ef39638c758cbfe42b3f24ba34f04b859
# Host build tools (run on the build machine only); Cython as numpy's build.
CYTHON_VERSION=3.3.1
MESON_VERSION=1.12.1
NINJA_VERSION=1.13.2
# imported by pandas' generate_version.py (the version itself comes from the
# sdist's _version_meson.py)
VERSIONEER_VERSION=0.29

CLANG=clang-19
SYSROOT=$BUILD/sysroot
PREFIX=$BUILD/prefix
PYINC="-I$BUILD/cpython/Include -I$BUILD/cpython/builddir/wasi"
OPT_CFLAGS=${OPT_CFLAGS:--O2}
WASM_FEATURES="-mbulk-memory -mnontrapping-fptoint -msign-ext -mmutable-globals"
HERE=$ROOT/scripts/pandas
SRC=$BUILD/pandas-src
PB=$BUILD/pandas-build
W=$BUILD/pandas-work
TOOLS=$BUILD/pandas-tools-venv
NPSRC=$BUILD/numpy-src
NPB=$BUILD/numpy-build

# pandas' compiled modules (meson.build files under pandas/_libs).
MODULES="pandas/_libs/_cyutility
  pandas/_libs/algos pandas/_libs/arrays pandas/_libs/groupby pandas/_libs/hashing
  pandas/_libs/hashtable pandas/_libs/index pandas/_libs/indexing pandas/_libs/internals
  pandas/_libs/interval pandas/_libs/join pandas/_libs/lib pandas/_libs/missing
  pandas/_libs/pandas_datetime pandas/_libs/pandas_parser pandas/_libs/parsers
  pandas/_libs/_ujson pandas/_libs/ops pandas/_libs/ops_dispatch pandas/_libs/properties
  pandas/_libs/reshape pandas/_libs/sas pandas/_libs/byteswap pandas/_libs/sparse
  pandas/_libs/tslib pandas/_libs/testing pandas/_libs/writers
  pandas/_libs/tslibs/base pandas/_libs/tslibs/ccalendar pandas/_libs/tslibs/dtypes
  pandas/_libs/tslibs/conversion pandas/_libs/tslibs/fields pandas/_libs/tslibs/nattype
  pandas/_libs/tslibs/np_datetime pandas/_libs/tslibs/offsets pandas/_libs/tslibs/parsing
  pandas/_libs/tslibs/period pandas/_libs/tslibs/strptime pandas/_libs/tslibs/timedeltas
  pandas/_libs/tslibs/timestamps pandas/_libs/tslibs/timezones
  pandas/_libs/tslibs/tzconversion pandas/_libs/tslibs/vectorized
  pandas/_libs/window/aggregations pandas/_libs/window/indexers"

log() { printf '\n=== %s\n' "$*" >&2; }
sha() { sha256sum "$1" | cut -d' ' -f1; }
check_sha() {
  local got; got=$(sha "$1")
  if [ "$got" != "$2" ]; then
    echo "checksum mismatch for $1: got $got, want $2" >&2; exit 1
  fi
}

for f in "$BUILD/cpython/builddir/wasi/pyconfig.h" "$BUILD/cpython/Include/Python.h" \
         "$NPB/numpy/_core/_numpyconfig.h" "$NPSRC/numpy/__init__.cython-30.pxd"; do
  [ -f "$f" ] || { echo "missing $f: configure CPython and build numpy first (build-runtime.sh)" >&2; exit 1; }
done

log "pandas $PANDAS_VERSION: sources and host tools"
mkdir -p "$BUILD/src" "$PREFIX/lib"
# As for numpy: the file only, no native build for pip's metadata.
[ -f "$BUILD/src/$PANDAS_SDIST" ] || python3 "$ROOT/scripts/lib/fetch_sdist.py" "$BUILD/src" pandas "$PANDAS_VERSION" >&2
check_sha "$BUILD/src/$PANDAS_SDIST" "$PANDAS_SHA256"
want_tools="Cython==$CYTHON_VERSION meson==$MESON_VERSION ninja==$NINJA_VERSION versioneer==$VERSIONEER_VERSION"
# Cython's buffer utility code gets scripts/pandas/cython-intp-buffers.patch:
# on wasm32 numpy's default integer (int64) is wider than intp, and pandas
# passes default-integer arrays to read-only intp_t buffers in many places
# (64-bit platforms cannot tell the two apart); they are converted when every
# value fits. The venv is rebuilt when the patch changes.
cy_patch=$HERE/cython-intp-buffers.patch
if [ ! -x "$TOOLS/bin/cython" ] || [ "$("$TOOLS/bin/pip" freeze 2>/dev/null | tr '\n' ' ' | sed 's/ $//')" != "$want_tools" ] \
   || [ "$(cat "$TOOLS/pybox-cython-patch.sha256" 2>/dev/null)" != "$(sha "$cy_patch")" ]; then
  rm -rf "$TOOLS"
  /usr/bin/python3.11 -m venv "$TOOLS"
  "$TOOLS/bin/pip" install -q "cython==$CYTHON_VERSION" "meson==$MESON_VERSION" "ninja==$NINJA_VERSION" \
    "versioneer==$VERSIONEER_VERSION" >&2
  cy_dir=$("$TOOLS/bin/python" -c 'import Cython, os; print(os.path.dirname(os.path.dirname(Cython.__file__)))')
  patch -d "$cy_dir" -p1 -s --no-backup-if-mismatch < "$cy_patch"
  sha "$cy_patch" > "$TOOLS/pybox-cython-patch.sha256"
fi
export PATH=$TOOLS/bin:$PATH

rm -rf "$SRC" "$PB" "$W" && mkdir -p "$SRC" "$W"
tar -xzf "$BUILD/src/$PANDAS_SDIST" -C "$SRC" --strip-components=1
# Imports WASI's CPython cannot satisfy (scripts/pandas/wasi-imports.patch,
# Python files only): pandas.errors and the interchange protocol import
# ctypes at module level (used only for a Windows clipboard message and
# to view foreign buffers): imported where used; mmap (absent in WASI) is
# optional, memory_map=True then reads the file normally, and read_csv's
# multi-threaded path is off on WASI as on Emscripten.
(cd "$SRC" && patch -p1 -s --no-backup-if-mismatch < "$HERE/wasi-imports.patch")

# The numpy pandas builds against is the bundle's: its headers as numpy's
# install would lay them out (sources + the ones meson generated for
# wasm32: _numpyconfig.h, the C-API tables), and its Cython declarations.
# pandas' meson.build asks `import numpy; numpy.get_include()` of the
# host Python: a stand-in package (only on PYTHONPATH during meson setup and
# the build) answers with that directory and carries numpy's .pxd files.
NPINC=$W/numpy-include
mkdir -p "$NPINC" "$W/npshim/numpy"
cp -r "$NPSRC/numpy/_core/include/numpy" "$NPINC/"
for h in _numpyconfig.h __multiarray_api.h __ufunc_api.h; do
  cp "$NPB/numpy/_core/$h" "$NPINC/numpy/$h"
done
cp "$NPSRC/numpy/__init__.pxd" "$NPSRC/numpy/__init__.cython-30.pxd" "$W/npshim/numpy/"
printf 'def get_include():\n    return %s\n' "'$NPINC'" > "$W/npshim/numpy/__init__.py"
export PYTHONPATH=$W/npshim

log "pandas: meson setup (cross wasm32-wasi)"
sed "s#@SYSROOT@#$SYSROOT#g" "$ROOT/scripts/numpy/wasm32-wasi.cross.in" > "$W/cross.txt"
PD_CFLAGS="$PYINC $OPT_CFLAGS $WASM_FEATURES -ffile-prefix-map=$BUILD=/pybox-build"
# clang-19 C++: CPython 3.11's WASI pthread stubs header uses C's `restrict`.
PD_CXXFLAGS="$PD_CFLAGS -Drestrict=__restrict -fignore-exceptions"
(cd "$SRC" && meson setup "$PB" --cross-file "$W/cross.txt" \
  -Dbuildtype=release -Db_ndebug=if-release \
  "-Dc_args=$PD_CFLAGS" "-Dcpp_args=$PD_CXXFLAGS") > "$BUILD/pandas-setup.log" 2>&1 \
  || { tail -40 "$BUILD/pandas-setup.log"; exit 1; }
# As in build-numpy.sh: the host Python's include dir becomes the wasm
# build's, and -fPIC (GOT-relative globals in a static link) is dropped.
hostinc=$("$TOOLS/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
sed -i -e "s#-I$hostinc\\b#$PYINC#g" -e "s# -fPIC\\b##g" "$PB/build.ninja"
# pandas._libs.pandas_datetime's vendored copy of numpy's datetime code
# defines four of numpy's global names: renamed in that module's objects
# (scripts/pandas/np_datetime_rename.h), or the static link has duplicates.
python3 - "$PB/build.ninja" "$HERE/np_datetime_rename.h" <<'PY'
import re, sys
path, hdr = sys.argv[1], sys.argv[2]
out, inmod, n = [], False, 0
for line in open(path).read().split("\n"):
    if line.startswith("build "):
        inmod = re.match(r"build pandas/_libs/pandas_datetime\.[^:]*\.so\.p/[^:]*\.c\.o:", line) is not None
    elif inmod and line.startswith(" ARGS = "):
        line += f" -include {hdr}"
        n += 1
    out.append(line)
assert n == 4, f"expected pandas_datetime's 4 C files, found {n}: revisit build-pandas.sh"
open(path, "w").write("\n".join(out))
PY

# pandas._libs._cyutility (the Cython utility code shared by all modules) is
# built at the top of meson's build dir.
python3 "$ROOT/scripts/numpy/collect_objects.py" "$PB" ${MODULES/pandas\/_libs\/_cyutility/_cyutility} > "$PB/pybox-inputs.txt"

log "pandas: compile"
(cd "$PB" && ninja -j"$JOBS" $(awk '{print $2}' "$PB/pybox-inputs.txt")) > "$BUILD/pandas-ninja.log" 2>&1 \
  || { grep -B2 -A12 -m5 'error' "$BUILD/pandas-ninja.log" | head -80; exit 1; }

log "pandas: archive"
entries=()
for m in $MODULES; do entries+=("${m//\//.}=PyInit_${m##*/}"); done
"$ROOT/scripts/numpy/extmod/gen-extmod.sh" _pybox_ext_pandas "$W/_pybox_ext_pandas.c" "${entries[@]}"
$CLANG --target=wasm32-wasi --sysroot="$SYSROOT" $OPT_CFLAGS $WASM_FEATURES $PYINC \
  -ffile-prefix-map="$BUILD"=/pybox-build -I"$ROOT/scripts/numpy/extmod" -c "$W/_pybox_ext_pandas.c" -o "$W/_pybox_ext_pandas.o"
{
  echo "CREATE $PREFIX/lib/libpandas.a"
  echo "ADDMOD $W/_pybox_ext_pandas.o"
  awk -v pb="$PB" '$1=="obj"{print "ADDMOD " pb "/" $2} $1=="lib"{print "ADDLIB " pb "/" $2}' "$PB/pybox-inputs.txt"
  echo "SAVE"; echo "END"
} > "$W/libpandas.mri"
rm -f "$PREFIX/lib/libpandas.a"
llvm-ar-19 -M < "$W/libpandas.mri"
llvm-ranlib-19 -D "$PREFIX/lib/libpandas.a"

log "pandas: python files"
SP=$BUILD/site-packages
rm -rf "$SP/pandas" && mkdir -p "$SP"
# Not shipped: pandas' tests and its conftest.py (scripts/upstream-tests
# runs them from the sdist; a second conftest.py in the bundle would clash
# with the sdist's in pytest).
(cd "$SRC" && find pandas -name '*.py' -not -path 'pandas/tests/*' -not -path pandas/conftest.py -print0 \
 | sort -z | xargs -0 cp --parents -t "$SP")
# DataFrame.style, to_latex, to_html(..., styler) and Styler.to_typst render
# these Jinja templates (pandas' wheels ship them; the only data files
# under pandas/ outside its tests).
(cd "$SRC" && cp --parents -t "$SP" pandas/io/formats/templates/*.tpl)
cp "$SRC/_version_meson.py" "$SP/pandas/_version_meson.py"
# pandas.test() and pandas' own conftest read it (as pandas' wheels ship it).
cp "$SRC/pyproject.toml" "$SP/pandas/pyproject.toml"
cp "$SRC/LICENSE" "$SP/pandas/LICENSE"
mkdir -p "$SP/pandas/LICENSES" && cp "$SRC"/LICENSES/* "$SP/pandas/LICENSES/"
cp "$ROOT/scripts/numpy/extmod/_pybox_extfinder.py" "$ROOT/scripts/numpy/extmod/pybox-ext.pth" "$SP/"

# libc++: the exception-enabled one of build-libcxx.sh (see build-numpy.sh).
echo "_pybox_ext_pandas -L$PREFIX/lib -lpandas -L$BUILD/prefix-eh/lib -lc++" > "$BUILD/setup-pandas.local"

cat > "$BUILD/manifest-pandas.json" <<JSON
[
 {"name": "pandas", "version": "$PANDAS_VERSION", "source": "PyPI sdist", "file": "$PANDAS_SDIST", "sha256": "$PANDAS_SHA256",
  "license": "BSD-3-Clause AND BSD-2-Clause AND Apache-2.0 AND MIT AND PSF-2.0 AND BSL-1.0 (pandas/LICENSE, pandas/LICENSES/)",
  "modules": "$(echo $MODULES | tr / .)",
  "build_tools": {"meson": "$MESON_VERSION", "cython": "$CYTHON_VERSION", "ninja": "$NINJA_VERSION", "versioneer": "$VERSIONEER_VERSION"},
  "built_against": "numpy from scripts/build-numpy.sh (wasm32 headers)",
  "patches": ["scripts/pandas/wasi-imports.patch", "scripts/pandas/np_datetime_rename.h", "scripts/pandas/cython-intp-buffers.patch"],
  "flags": {"cflags": "$OPT_CFLAGS $WASM_FEATURES", "cxxflags": "-fignore-exceptions -Drestrict=__restrict", "meson": "-Dbuildtype=release"},
  "archive": {"file": "prefix/lib/libpandas.a", "sha256": "$(sha "$PREFIX/lib/libpandas.a")"}}
]
JSON
log "pandas done: $(stat -c %s "$PREFIX/lib/libpandas.a") bytes in libpandas.a"
