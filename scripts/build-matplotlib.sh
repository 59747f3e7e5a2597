#!/usr/bin/env bash
# build-matplotlib.sh — matplotlib, contourpy and kiwisolver (C++ with
# exceptions, pybind11/cppy) and Qhull as static extension modules for
# pybox's python.wasm.
#
#   PYBOX_BUILD_DIR=... scripts/build-matplotlib.sh
#
# Needs, in the same build dir: CPython configured (cpython/builddir/wasi),
# numpy built by build-numpy.sh (its wasm32 headers), FreeType and the
# setjmp runtime built by build-pillow.sh (prefix/lib/libfreetype.a,
# libwasmsjlj.a; matplotlib's ft2font uses the same FreeType as Pillow), and
# the exception-enabled libc++ of build-libcxx.sh (prefix-eh). Run it after
# those and before CPython's `make`. Produces:
#   $BUILD/prefix/lib/libmatplotlib.a  matplotlib's 7 compiled modules (no
#                                      _tkagg), contourpy._contourpy,
#                                      kiwisolver._cext, Agg, Qhull
#                                      + _pybox_ext_matplotlib
#   $BUILD/site-packages/{matplotlib,mpl_toolkits,pylab.py,contourpy,kiwisolver}
#   $BUILD/setup-matplotlib.local      line to append to Modules/Setup.local
#   $BUILD/manifest-matplotlib.json
#
# C++ exceptions: pybind11 and kiwisolver turn C++ exceptions into Python
# exceptions, so all C++ here is compiled by clang-22 with WebAssembly
# exception handling in the standard (exnref) encoding, against the libc++
# of prefix-eh (docs/runtime-bundle.md, "C++ exceptions"). python.wasm then
# links that libc++ for every package (build-numpy.sh, build-pandas.sh).
# Qhull is C and reports errors by longjmp: compiled with Pillow's wasm-cc
# (setjmp lowered to wasm exceptions, scripts/pillow/sjlj/).
#
# matplotlib 3.10.x, not 3.11: 3.11 lays text out with libraqm, which needs
# HarfBuzz, SheenBidi and libraqm >= 0.10.4 (Debian bookworm has no libraqm
# source of that version); see docs/runtime-bundle.md, "matplotlib".
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${PYBOX_BUILD_DIR:-$ROOT/build}
JOBS=${JOBS:-$(nproc)}
export SOURCE_DATE_EPOCH=1700000000
export LC_ALL=C TZ=UTC

MPL_VERSION=3.10.9
MPL_SDIST=matplotlib-$MPL_VERSION.tar.gz
MPL_SHA256=fd66508e8c6877d98e586654b608a0456db8d7e8a546eb1e2600efd957302358
CONTOURPY_VERSION=1.3.3
CONTOURPY_SDIST=contourpy-$CONTOURPY_VERSION.tar.gz
CONTOURPY_SHA256=083e12155b210502d0bca491432bb04d56dc3432f95a979b429f2848c3dbe880
KIWI_VERSION=1.5.1
KIWI_SDIST=kiwisolver-$KIWI_VERSION.tar.gz
KIWI_SHA256=f1303ef2eec81262a4b708c3e858afe58d7c75ad91c1c05266eda7673369859a
# Qhull 2020.2 = 8.0.2, the release matplotlib's own subproject pins.
QHULL_VERSION=2020.2
QHULL_DEB_SRC=qhull/bookworm
QHULL_DSC=qhull_2020.2-5.dsc
QHULL_ORIG=qhull_2020.2.orig.tar.gz
QHULL_ORIG_SHA256=b5c2d7eb833278881b952c8a52d20179eab87766b00b865000469a45c1838b7e
QHULL_DEBIAN=qhull_2020.2-5.debian.tar.xz
QHULL_DEBIAN_SHA256=7b37b8465267743d2302374bdc73f50db79b9bc270b4fe89b71b00fa88c4a8ad
# Host build tools: header-only libraries, and matplotlib itself (a wheel)
# to write the bundle's font list (pybox-fontlist.json) at build time.
PYBIND11_VERSION=2.13.6
CPPY_VERSION=1.3.1

SYSROOT=$BUILD/sysroot
PREFIX=$BUILD/prefix
PREFIX_EH=${PREFIX_EH:-$BUILD/prefix-eh}
PYINC="-I$BUILD/cpython/Include -I$BUILD/cpython/builddir/wasi"
OPT_CFLAGS=${OPT_CFLAGS:--O2}
WASM_FEATURES="-mbulk-memory -mnontrapping-fptoint -msign-ext -mmutable-globals"
HERE=$ROOT/scripts/matplotlib
CC_SJLJ=$ROOT/scripts/pillow/sjlj/wasm-cc
W=$BUILD/matplotlib
TOOLS=$BUILD/mpl-tools-venv
NPSRC=$BUILD/numpy-src
NPB=$BUILD/numpy-build
# Every C++ file: clang-22, wasm exceptions in the standard encoding, the
# exception-enabled libc++ (docs/runtime-bundle.md, "C++ exceptions").
# clang-19 C++ would emit the legacy opcodes wazero does not run.
CXXEH_FLAGS="--target=wasm32-wasip1 -fwasm-exceptions -mllvm -wasm-use-legacy-eh=false -nostdinc++ -isystem $PREFIX_EH/include/c++/v1"
# -fexternc-nounwind: extern "C" functions (Python's C API, FreeType, Qhull)
# are taken not to throw, so calls to them need no landing pad. Sound here:
# no C++ exception crosses a C frame (ft2font's FreeType stream callbacks
# catch before returning to FreeType). Each landing pad entered is a
# try_table, which wazero makes expensive (docs/runtime-bundle.md,
# "matplotlib"): text drawing ~2x faster with it.
CXXFLAGS_ALL="$CXXEH_FLAGS -Xclang -fexternc-nounwind --sysroot=$SYSROOT -I$ROOT/scripts/pillow/sjlj $OPT_CFLAGS $WASM_FEATURES -std=c++17 -DNDEBUG -Drestrict=__restrict -ffile-prefix-map=$BUILD=/pybox-build -Wno-unknown-warning-option"

log() { printf '\n=== %s\n' "$*" >&2; }
sha() { sha256sum "$1" | cut -d' ' -f1; }
check_sha() {
  local got; got=$(sha "$1")
  if [ "$got" != "$2" ]; then
    echo "checksum mismatch for $1: got $got, want $2" >&2; exit 1
  fi
}

for f in "$BUILD/cpython/builddir/wasi/pyconfig.h" "$NPB/numpy/_core/_numpyconfig.h" \
         "$PREFIX/lib/libfreetype.a" "$PREFIX/include/freetype2/ft2build.h" "$PREFIX/lib/libwasmsjlj.a" \
         "$PREFIX_EH/lib/libc++.a" "$PREFIX_EH/include/c++/v1/__config_site"; do
  [ -f "$f" ] || { echo "missing $f: configure CPython, build numpy, pillow and libcxx first (build-runtime.sh)" >&2; exit 1; }
done
command -v clang++-22 >/dev/null || { echo "missing clang++-22 (bookworm-security)" >&2; exit 1; }

log "matplotlib $MPL_VERSION: sources and host tools"
mkdir -p "$BUILD/src" "$PREFIX/lib"
cd "$BUILD/src"
# fetch_sdist.py, not `pip download --no-binary`: pip would build the
# meson-python sdists natively to read their metadata, and matplotlib's
# build downloads FreeType and Qhull from outside the package registries.
for s in "matplotlib $MPL_VERSION $MPL_SDIST" "contourpy $CONTOURPY_VERSION $CONTOURPY_SDIST" \
         "kiwisolver $KIWI_VERSION $KIWI_SDIST"; do
  set -- $s
  [ -f "$3" ] || python3 "$ROOT/scripts/lib/fetch_sdist.py" . "$1" "$2" >&2
done
[ -f "$QHULL_DSC" ] && [ -f "$QHULL_ORIG" ] && [ -f "$QHULL_DEBIAN" ] || apt-get source --download-only "$QHULL_DEB_SRC" >&2
check_sha "$MPL_SDIST" "$MPL_SHA256"
check_sha "$CONTOURPY_SDIST" "$CONTOURPY_SHA256"
check_sha "$KIWI_SDIST" "$KIWI_SHA256"
check_sha "$QHULL_ORIG" "$QHULL_ORIG_SHA256"
check_sha "$QHULL_DEBIAN" "$QHULL_DEBIAN_SHA256"
want_tools="cppy==$CPPY_VERSION matplotlib==$MPL_VERSION pybind11==$PYBIND11_VERSION"
if [ ! -x "$TOOLS/bin/python" ] || [ "$("$TOOLS/bin/pip" freeze 2>/dev/null | grep -E '^(cppy|matplotlib|pybind11)==' | tr '\n' ' ' | sed 's/ $//')" != "$want_tools" ]; then
  rm -rf "$TOOLS"
  /usr/bin/python3.11 -m venv "$TOOLS"
  "$TOOLS/bin/pip" install -q "pybind11==$PYBIND11_VERSION" "cppy==$CPPY_VERSION" "matplotlib==$MPL_VERSION" >&2
fi
PYBIND11_INC=$("$TOOLS/bin/python" -c 'import pybind11; print(pybind11.get_include())')
CPPY_INC=$("$TOOLS/bin/python" -c 'import cppy; print(cppy.get_include())')

rm -rf "$W" && mkdir -p "$W/obj"
M=$W/matplotlib C=$W/contourpy K=$W/kiwisolver
for d in "$M:$MPL_SDIST" "$C:$CONTOURPY_SDIST" "$K:$KIWI_SDIST"; do
  mkdir -p "${d%%:*}" && tar -xzf "$BUILD/src/${d#*:}" -C "${d%%:*}" --strip-components=1
done
dpkg-source --no-check -x "$BUILD/src/$QHULL_DSC" "$W/qhull" >/dev/null
# The bundle's font list instead of a scan of ~40 font files on a guest's
# first import (scripts/matplotlib/bundled-fontlist.patch).
(cd "$M" && patch -p1 -s --no-backup-if-mismatch < "$HERE/bundled-fontlist.patch")
# ft2font's enum declarations (src/_enums.h) call into Python from C++
# static constructors, which in python.wasm run in _initialize, before the
# interpreter exists: deferred to module init
# (scripts/matplotlib/static-init-enums.patch).
(cd "$M" && patch -p1 -s --no-backup-if-mismatch < "$HERE/static-init-enums.patch")

# kiwisolver declares its METH_NOARGS methods with one parameter; CPython
# calls them with two, which wasm's typed indirect calls turn into a trap
# ("indirect call type mismatch", the interpreter dies): the second
# parameter is added (scripts/matplotlib/kiwisolver-meth-noargs.patch; found
# with scripts/upstream-tests/check_method_signatures.py).
(cd "$K" && patch -p1 -s --no-backup-if-mismatch < "$HERE/kiwisolver-meth-noargs.patch")

# numpy's headers as configured for wasm32 (as build-pandas.sh does).
NPINC=$W/numpy-include
mkdir -p "$NPINC"
cp -r "$NPSRC/numpy/_core/include/numpy" "$NPINC/"
for h in _numpyconfig.h __multiarray_api.h __ufunc_api.h; do
  cp "$NPB/numpy/_core/$h" "$NPINC/numpy/$h"
done

# One compile job per line: "<compiler+flags> -c src -o obj".
JOBS_FILE=$W/compile.txt
: > "$JOBS_FILE"
objs=()
add() { # objname flags... -- source
  local name=$1; shift
  local flags=()
  while [ "$1" != -- ]; do flags+=("$1"); shift; done
  shift
  objs+=("$W/obj/$name.o")
  echo "${flags[*]} -c $1 -o $W/obj/$name.o" >> "$JOBS_FILE"
}

# Qhull (libqhull_r, the reentrant library matplotlib uses; the file list of
# matplotlib's Qhull subproject).
QH=$W/qhull/src/libqhull_r
for f in geom2_r geom_r global_r io_r libqhull_r mem_r merge_r poly2_r poly_r qset_r \
         random_r rboxlib_r stat_r usermem_r userprintf_rbox_r userprintf_r user_r; do
  add "qhull_$f" "$CC_SJLJ --target=wasm32-wasi --sysroot=$SYSROOT $OPT_CFLAGS $WASM_FEATURES -ffile-prefix-map=$BUILD=/pybox-build -I$W/qhull/src" -- "$QH/$f.c"
done

# matplotlib: Agg (vendored, patched) and the modules of src/meson.build.
MPLFLAGS="clang++-22 $CXXFLAGS_ALL -Wno-c++11-narrowing $PYINC -I$NPINC -I$PYBIND11_INC -I$M/extern/agg24-svn/include -I$M/src -I$PREFIX/include/freetype2 -I$PREFIX/include"
for f in agg_bezier_arc agg_curves agg_image_filters agg_trans_affine agg_vcgen_contour \
         agg_vcgen_dash agg_vcgen_stroke agg_vpgen_segmentator; do
  add "agg_$f" "$MPLFLAGS" -- "$M/extern/agg24-svn/src/$f.cpp"
done
add mpl_backend_agg "$MPLFLAGS" -- "$M/src/_backend_agg.cpp"
add mpl_backend_agg_wrapper "$MPLFLAGS" -- "$M/src/_backend_agg_wrapper.cpp"
add mpl_c_internal_utils "$MPLFLAGS" -- "$M/src/_c_internal_utils.cpp"
add mpl_ft2font "$MPLFLAGS -DFREETYPE_BUILD_TYPE='\"system\"'" -- "$M/src/ft2font.cpp"
add mpl_ft2font_wrapper "$MPLFLAGS -DFREETYPE_BUILD_TYPE='\"system\"'" -- "$M/src/ft2font_wrapper.cpp"
add mpl_image_wrapper "$MPLFLAGS" -- "$M/src/_image_wrapper.cpp"
add mpl_py_converters "$MPLFLAGS" -- "$M/src/py_converters.cpp"
add mpl_path_wrapper "$MPLFLAGS" -- "$M/src/_path_wrapper.cpp"
add mpl_qhull_wrapper "$MPLFLAGS -I$W/qhull/src -DMPL_DEVNULL=/dev/null" -- "$M/src/_qhull_wrapper.cpp"
add mpl_tri "$MPLFLAGS" -- "$M/src/tri/_tri.cpp"
add mpl_tri_wrapper "$MPLFLAGS" -- "$M/src/tri/_tri_wrapper.cpp"

# contourpy: its "threaded" algorithm with single-threaded stand-ins for
# std::mutex/thread (scripts/matplotlib/nothreads.h).
CPFLAGS="clang++-22 $CXXFLAGS_ALL $PYINC -I$PYBIND11_INC -DCONTOURPY_VERSION=$CONTOURPY_VERSION -include $HERE/nothreads.h"
for f in chunk_local contour_generator converter fill_type line_type mpl2005_original mpl2005 \
         mpl2014 outer_or_hole serial threaded util wrap z_interp; do
  add "contourpy_$f" "$CPFLAGS" -- "$C/src/$f.cpp"
done

# kiwisolver: the solver (kiwi/, header-only) and its cppy-based wrapper.
KWFLAGS="clang++-22 $CXXFLAGS_ALL $PYINC -I$K -I$CPPY_INC -include $HERE/nothreads.h"
for f in kiwisolver constraint expression solver strength term variable; do
  add "kiwi_$f" "$KWFLAGS" -- "$K/py/src/$f.cpp"
done

log "matplotlib, contourpy, kiwisolver, qhull: compile ${#objs[@]} files"
xargs -d '\n' -P "$JOBS" -I{} sh -c '{}' < "$JOBS_FILE" > "$W/cc.log" 2>&1 \
  || { grep -B2 -A10 -m8 'error' "$W/cc.log" | head -80; exit 1; }

log "matplotlib: archive"
"$ROOT/scripts/numpy/extmod/gen-extmod.sh" _pybox_ext_matplotlib "$W/_pybox_ext_matplotlib.c" \
  matplotlib.backends._backend_agg=PyInit__backend_agg \
  matplotlib._c_internal_utils=PyInit__c_internal_utils \
  matplotlib.ft2font=PyInit_ft2font matplotlib._image=PyInit__image \
  matplotlib._path=PyInit__path matplotlib._qhull=PyInit__qhull matplotlib._tri=PyInit__tri \
  contourpy._contourpy=PyInit__contourpy kiwisolver._cext=PyInit__cext
clang-19 --target=wasm32-wasi --sysroot="$SYSROOT" $OPT_CFLAGS $WASM_FEATURES $PYINC \
  -ffile-prefix-map="$BUILD"=/pybox-build -I"$ROOT/scripts/numpy/extmod" -c "$W/_pybox_ext_matplotlib.c" -o "$W/obj/_pybox_ext_matplotlib.o"
rm -f "$PREFIX/lib/libmatplotlib.a"
llvm-ar-19 rcsD "$PREFIX/lib/libmatplotlib.a" "$W/obj/_pybox_ext_matplotlib.o" "${objs[@]}"

log "matplotlib: python files, data and font list"
SP=$BUILD/site-packages
rm -rf "$SP/matplotlib" "$SP/mpl_toolkits" "$SP/pylab.py" "$SP/contourpy" "$SP/kiwisolver" && mkdir -p "$SP"
# Not shipped: the test suites (matplotlib.testing stays: seaborn and
# users' code import it), type stubs, and the Tk/Wx/Qt/GTK/macOS backends'
# compiled parts (there are none here; their Python files fail to import).
(cd "$M/lib" && find matplotlib mpl_toolkits pylab.py -name '*.py' -not -path '*/tests/*' -print0 \
  | sort -z | xargs -0 cp --parents -t "$SP")
cp -r "$M/lib/matplotlib/mpl-data" "$SP/matplotlib/"
rm -f "$SP/matplotlib/mpl-data/meson.build"
# Default backend Agg (the guest has no display): as matplotlib's
# tools/generate_matplotlibrc.py does for packagers, but uncommented.
sed -i 's/^##backend: Agg$/backend: Agg/' "$SP/matplotlib/mpl-data/matplotlibrc"
grep -q '^backend: Agg$' "$SP/matplotlib/mpl-data/matplotlibrc"
printf 'version = "%s"\n__version__ = version\n' "$MPL_VERSION" > "$SP/matplotlib/_version.py"
cp -r "$M/LICENSE" "$SP/matplotlib/LICENSE"
# The font list the guest would build on its first import, made here by the
# same matplotlib release (natively) from the same font files: mpl-data's
# fonts (stored relative to mpl-data) and the bundle's DejaVu Sans at
# /usr/local/share/fonts (one of matplotlib's X11 font dirs).
"$TOOLS/bin/python" - "$SP/matplotlib/mpl-data" "$BUILD/share/fonts" /usr/local/share/fonts \
  "$SP/matplotlib/mpl-data/pybox-fontlist.json" <<'PY'
import json, os, sys
from pathlib import Path
data, fonts_here, fonts_guest, out = sys.argv[1:5]
import matplotlib
matplotlib.get_data_path = lambda: data  # mpl-data of the sdist (same release)
from matplotlib import font_manager as fm
fm.cbook._get_data_path = lambda *a: Path(data, *a)
own = fm.findSystemFonts
fm.findSystemFonts = lambda fontpaths=None, fontext="ttf": own(fontpaths if fontpaths is not None else [fonts_here], fontext)
m = fm.FontManager()
fm.json_dump(m, out)
d = json.load(open(out))
for e in d["ttflist"] + d["afmlist"]:
    if e["fname"].startswith(fonts_here):
        e["fname"] = fonts_guest + e["fname"][len(fonts_here):]
    assert not os.path.isabs(e["fname"]) or e["fname"].startswith(fonts_guest), e["fname"]
# findSystemFonts returns a set: its order changed from build to build (str
# hashes are salted), and so did the file and which font findfont picks on a
# tie (first in the list wins). Sorted: matplotlib's own files first (its
# DejaVu Sans over the same family in /usr/local/share/fonts), the PDF core
# fonts' metrics before the other AFM files, then by content. Against the
# order of the bundle of commit 8641438, findfont picks the same TTF file for
# 456 family/style/weight/stretch probes; AFM ties went either way before.
def order(e):
    return (os.path.isabs(e["fname"]), "/pdfcorefonts/" not in e["fname"], json.dumps(e, sort_keys=True))
for k in ("ttflist", "afmlist"):
    d[k].sort(key=order)
json.dump(d, open(out, "w"), indent=1, sort_keys=True)
print(f"font list: {len(d['ttflist'])} ttf, {len(d['afmlist'])} afm", file=sys.stderr)
PY

(cd "$C/lib" && find contourpy -name '*.py' -print0 | sort -z | xargs -0 cp --parents -t "$SP")
cp "$C/LICENSE" "$SP/contourpy/LICENSE"
sed -e "s|@python_version@|3.11.2|" -e "s|@contourpy_version@|$CONTOURPY_VERSION|" \
    -e "s|@pybind11_version@|$PYBIND11_VERSION|" -e "s|@cross_build@|True|" \
    -e "s|@cpp_std@|c++17|" -e "s|@buildtype@|release|" -e "s|@b_ndebug@|true|" \
    -e 's|@[a-z_]*@|pybox|g' "$C/lib/contourpy/util/_build_config.py.in" > "$SP/contourpy/util/_build_config.py"
(cd "$K/py" && find kiwisolver -name '*.py' -print0 | sort -z | xargs -0 cp --parents -t "$SP")
cp "$K/LICENSE" "$SP/kiwisolver/LICENSE"
cp "$ROOT/scripts/numpy/extmod/_pybox_extfinder.py" "$ROOT/scripts/numpy/extmod/pybox-ext.pth" "$SP/"

# Qhull's longjmp: libwasmsjlj (build-pillow.sh). libc++ with exceptions
# (libc++abi and libunwind merged in) from prefix-eh: the only libc++ in
# python.wasm.
echo "_pybox_ext_matplotlib -L$PREFIX/lib -lmatplotlib -lfreetype -lwasmsjlj -lz -L$PREFIX_EH/lib -lc++" > "$BUILD/setup-matplotlib.local"

cat > "$BUILD/manifest-matplotlib.json" <<JSON
[
 {"name": "matplotlib", "version": "$MPL_VERSION", "source": "PyPI sdist", "file": "$MPL_SDIST", "sha256": "$MPL_SHA256",
  "license": "PSF-2.0-derived matplotlib license AND BSD-3-Clause (Agg 2.4, bundled) AND others (matplotlib/LICENSE/)",
  "modules": "matplotlib.backends._backend_agg matplotlib._c_internal_utils matplotlib.ft2font matplotlib._image matplotlib._path matplotlib._qhull matplotlib._tri",
  "patches": ["scripts/matplotlib/bundled-fontlist.patch", "scripts/matplotlib/static-init-enums.patch", "mpl-data/matplotlibrc: backend: Agg"],
  "built_with": {"freetype": "prefix/lib/libfreetype.a (build-pillow.sh)", "pybind11": "$PYBIND11_VERSION", "numpy_headers": "build-numpy.sh (wasm32)"},
  "flags": {"cxx": "clang-22 ${CXXEH_FLAGS//$BUILD/<build>} -Xclang -fexternc-nounwind -std=c++17 $OPT_CFLAGS $WASM_FEATURES" },
  "archive": {"file": "prefix/lib/libmatplotlib.a", "sha256": "$(sha "$PREFIX/lib/libmatplotlib.a")"}},
 {"name": "contourpy", "version": "$CONTOURPY_VERSION", "source": "PyPI sdist", "file": "$CONTOURPY_SDIST", "sha256": "$CONTOURPY_SHA256",
  "license": "BSD-3-Clause", "modules": "contourpy._contourpy", "patches": ["scripts/matplotlib/nothreads.h"]},
 {"name": "kiwisolver", "version": "$KIWI_VERSION", "source": "PyPI sdist", "file": "$KIWI_SDIST", "sha256": "$KIWI_SHA256",
  "license": "BSD-3-Clause", "modules": "kiwisolver._cext", "patches": ["scripts/matplotlib/kiwisolver-meth-noargs.patch", "scripts/matplotlib/nothreads.h"], "built_with": {"cppy": "$CPPY_VERSION"}},
 {"name": "qhull", "version": "$QHULL_VERSION", "debian_source": "$QHULL_DEB_SRC", "file": "$QHULL_ORIG", "sha256": "$QHULL_ORIG_SHA256",
  "debian_file": "$QHULL_DEBIAN", "debian_sha256": "$QHULL_DEBIAN_SHA256", "license": "Qhull", "library": "libqhull_r (setjmp lowered by scripts/pillow/sjlj/wasm-cc)"}
]
JSON
log "matplotlib done: libmatplotlib.a $(stat -c %s "$PREFIX/lib/libmatplotlib.a") bytes"
