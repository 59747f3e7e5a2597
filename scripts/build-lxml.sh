#!/usr/bin/env bash
# build-lxml.sh — lxml (+ libxml2, libxslt/libexslt) as static extension
# modules for pybox's python.wasm.
#
#   PYBOX_BUILD_DIR=... scripts/build-lxml.sh
#
# Needs CPython configured in $PYBOX_BUILD_DIR/cpython/builddir/wasi (headers,
# and its config.sub, which knows wasi), i.e. run it after build-runtime.sh's
# cpython configure step and before CPython's `make`. Produces:
#   $BUILD/prefix/lib/{liblxml,libexslt,libxslt,libxml2}.a
#   $BUILD/site-packages/lxml/...     lxml's Python files and schematron data
#   $BUILD/site-packages/_pybox_extfinder.py, pybox-ext.pth
#   $BUILD/setup-lxml.local           line to append to Modules/Setup.local
#   $BUILD/manifest-lxml.json
#
# libxml2 and libxslt come from Debian's source packages (security patches
# applied) and are built with their own configure for wasm32-wasi: no threads,
# no ICU (encodings come from wasi-libc's iconv, i.e. musl's), no HTTP/FTP,
# no zlib (libxml2's gzip file reader needs dup(), which WASI lacks; lxml does
# not need it), no lzma, no dlopen modules, no libxslt plugins or crypto.
# Neither library nor lxml calls setjmp. lxml's C files are the ones
# Cython generated for its sdist; they are compiled directly (setup.py wants
# xml2-config and a native toolchain), with the defines lxml's setup uses.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${PYBOX_BUILD_DIR:-$ROOT/build}
JOBS=${JOBS:-$(nproc)}
export SOURCE_DATE_EPOCH=1700000000
export LC_ALL=C TZ=UTC

LXML_VERSION=6.1.3
LXML_SDIST=lxml-$LXML_VERSION.tar.gz
LXML_SHA256=45222d94ddd511536f3b2f7d9deae3b2339b4ce0f075f1ca25703b07cad9dd21
XML2_VERSION=2.9.14
XML2_DEB_VERSION=2.9.14+dfsg-1.3~deb12u6
XML2_DSC=libxml2_$XML2_DEB_VERSION.dsc
XML2_ORIG=libxml2_2.9.14+dfsg.orig.tar.xz
XML2_ORIG_SHA256=4fe913dec8b1ab89d13b489b419a8203176ea39e931eaa0d25b17eafb9c279e9
XML2_DEBIAN=libxml2_$XML2_DEB_VERSION.debian.tar.xz
XML2_DEBIAN_SHA256=f33a99a0018cbb94aadc3bf26661e401cb90dff856aa170faf7239151ee9b9ac
XSLT_VERSION=1.1.35
XSLT_DEB_VERSION=1.1.35-1+deb12u4
XSLT_DSC=libxslt_$XSLT_DEB_VERSION.dsc
XSLT_ORIG=libxslt_1.1.35.orig.tar.xz
XSLT_ORIG_SHA256=8247f33e9a872c6ac859aa45018bc4c4d00b97e2feac9eebc10c93ce1f34dd79
XSLT_DEBIAN=libxslt_$XSLT_DEB_VERSION.debian.tar.xz
XSLT_DEBIAN_SHA256=1f7a6d0724f0daccd0eb9633af3eb0437bc2c74c73e3e8364273bf79cbfd1041

# lxml's compiled modules (setupinfo.py: EXT_MODULES + COMPILED_MODULES).
# All are built in, as in lxml's own wheels; the Python sources of the
# Cython-compiled .py modules are then not shipped.
MODULES="lxml.etree lxml.objectify lxml._elementpath lxml.builder lxml.sax
  lxml.html.diff lxml.html._difflib"

SYSROOT=$BUILD/sysroot
PREFIX=$BUILD/prefix
PYINC="-I$BUILD/cpython/Include -I$BUILD/cpython/builddir/wasi"
OPT_CFLAGS=${OPT_CFLAGS:--O2}
WASM_FEATURES="-mbulk-memory -mnontrapping-fptoint -msign-ext -mmutable-globals"
CFLAGS_C="--target=wasm32-wasi --sysroot=$SYSROOT $OPT_CFLAGS $WASM_FEATURES -ffile-prefix-map=$BUILD=/pybox-build"
W=$BUILD/lxml          # work dir
WP=$W/prefix           # headers of the two libraries (the archives go to $PREFIX)

log() { printf '\n=== %s\n' "$*" >&2; }
sha() { sha256sum "$1" | cut -d' ' -f1; }
check_sha() {
  local got; got=$(sha "$1")
  if [ "$got" != "$2" ]; then
    echo "checksum mismatch for $1: got $got, want $2" >&2; exit 1
  fi
}

for f in "$BUILD/cpython/builddir/wasi/pyconfig.h" "$BUILD/cpython/Include/Python.h" "$BUILD/cpython/config.sub"; do
  [ -f "$f" ] || { echo "missing $f: configure CPython first (build-runtime.sh)" >&2; exit 1; }
done

log "lxml: sources"
mkdir -p "$BUILD/src" "$PREFIX/lib"
cd "$BUILD/src"
[ -f "$LXML_SDIST" ] || python3 "$ROOT/scripts/lib/fetch_sdist.py" . lxml "$LXML_VERSION" >&2
[ -f "$XML2_DSC" ] && [ -f "$XML2_ORIG" ] && [ -f "$XML2_DEBIAN" ] || apt-get source --download-only "libxml2=$XML2_DEB_VERSION" >&2
[ -f "$XSLT_DSC" ] && [ -f "$XSLT_ORIG" ] && [ -f "$XSLT_DEBIAN" ] || apt-get source --download-only "libxslt=$XSLT_DEB_VERSION" >&2
check_sha "$LXML_SDIST" "$LXML_SHA256"
check_sha "$XML2_ORIG" "$XML2_ORIG_SHA256"
check_sha "$XML2_DEBIAN" "$XML2_DEBIAN_SHA256"
check_sha "$XSLT_ORIG" "$XSLT_ORIG_SHA256"
check_sha "$XSLT_DEBIAN" "$XSLT_DEBIAN_SHA256"

rm -rf "$W" && mkdir -p "$W/lxml" "$WP"
# Debian's patches applied (security fixes); the tarballs are pinned above.
dpkg-source --no-check -x "$BUILD/src/$XML2_DSC" "$W/libxml2" >/dev/null
dpkg-source --no-check -x "$BUILD/src/$XSLT_DSC" "$W/libxslt" >/dev/null
tar -xzf "$BUILD/src/$LXML_SDIST" -C "$W/lxml" --strip-components=1

autotools_prep() { # dir
  # Their config.sub (2018) does not know wasi; CPython 3.11's does.
  cp "$BUILD/cpython/config.sub" "$BUILD/cpython/config.guess" "$1/"
  # Debian's patches touch Makefile.am/configure.ac (test programs only);
  # keep make from re-running automake (not installed, and not needed for
  # the library: the shipped Makefile.in/configure build it).
  find "$1" \( -name Makefile.am -o -name configure.ac -o -name '*.m4' \) -exec touch -d @1 {} +
}
CONFIGURE_COMMON=(--host=wasm32-unknown-wasi --build=x86_64-pc-linux-gnu
  --prefix="$WP" --enable-static --disable-shared)

log "lxml: libxml2 $XML2_VERSION"
autotools_prep "$W/libxml2"
cd "$W/libxml2"
PKG_CONFIG_LIBDIR=$WP/lib/pkgconfig PKG_CONFIG_PATH= \
CC=clang-19 AR=llvm-ar-19 RANLIB=llvm-ranlib-19 CFLAGS="$CFLAGS_C" \
  ./configure "${CONFIGURE_COMMON[@]}" --without-threads --without-http --without-ftp \
  --without-python --without-lzma --without-zlib --without-icu \
  --without-modules --without-readline --without-history > "$W/libxml2-configure.log" 2>&1 \
  || { tail -30 "$W/libxml2-configure.log"; exit 1; }
# libxml2's iconv calls go to scripts/lxml/iconv_strict.c (musl's iconv
# writes '*' for a character the target encoding lacks; libxml2 wants EILSEQ
# to write a character reference instead).
make -j"$JOBS" libxml2.la CPPFLAGS="-Diconv_open=pybox_iconv_open -Diconv=pybox_iconv -Diconv_close=pybox_iconv_close" \
  > "$W/libxml2-make.log" 2>&1 || { tail -30 "$W/libxml2-make.log"; exit 1; }
make -C include install > /dev/null
clang-19 $CFLAGS_C -c "$ROOT/scripts/lxml/iconv_strict.c" -o "$W/iconv_strict.o"
cp .libs/libxml2.a "$PREFIX/lib/libxml2.a"
llvm-ar-19 rsD "$PREFIX/lib/libxml2.a" "$W/iconv_strict.o"

log "lxml: libxslt $XSLT_VERSION"
autotools_prep "$W/libxslt"
cd "$W/libxslt"
# LIBXML_* set: configure then asks neither pkg-config nor xml2-config.
PKG_CONFIG_LIBDIR=$WP/lib/pkgconfig PKG_CONFIG_PATH= \
LIBXML_CFLAGS="-I$WP/include/libxml2" LIBXML_LIBS="-L$PREFIX/lib -lxml2" \
CC=clang-19 AR=llvm-ar-19 RANLIB=llvm-ranlib-19 CFLAGS="$CFLAGS_C" \
  ./configure "${CONFIGURE_COMMON[@]}" --without-crypto --without-python --without-plugins \
  > "$W/libxslt-configure.log" 2>&1 || { tail -30 "$W/libxslt-configure.log"; exit 1; }
{ make -j"$JOBS" -C libxslt libxslt.la && make -j"$JOBS" -C libexslt libexslt.la; } > "$W/libxslt-make.log" 2>&1 \
  || { tail -30 "$W/libxslt-make.log"; exit 1; }
cp libxslt/.libs/libxslt.a "$PREFIX/lib/libxslt.a"
cp libexslt/.libs/libexslt.a "$PREFIX/lib/libexslt.a"

log "lxml $LXML_VERSION: extension modules"
L=$W/lxml
# The defines of lxml's setupinfo.py for this configuration; -w as its
# setup.py passes by default (Cython output).
LX_CFLAGS="$CFLAGS_C $PYINC -I$L/src -I$L/src/lxml/includes -I$WP/include/libxml2 -I$W/libxslt"
LX_CFLAGS+=" -DNDEBUG -DCYTHON_CLINE_IN_TRACEBACK=0 -DWITHOUT_THREADING -w"
mkdir -p "$W/obj"
objs=() entries=()
for m in $MODULES; do
  src=src/${m//.//}.c
  o=$W/obj/${m//./_}.o
  objs+=("$o")
  entries+=("$m=PyInit_${m##*.}")
  echo "clang-19 $LX_CFLAGS -c $src -o $o"
done > "$W/compile.sh"
(cd "$L" && xargs -d '\n' -P "$JOBS" -I{} sh -c '{}' < "$W/compile.sh") > "$W/lxml-cc.log" 2>&1 \
  || { grep -B2 -A8 error "$W/lxml-cc.log" | head -60; exit 1; }
"$ROOT/scripts/numpy/extmod/gen-extmod.sh" _pybox_ext_lxml "$W/_pybox_ext_lxml.c" "${entries[@]}"
clang-19 --target=wasm32-wasi --sysroot="$SYSROOT" $OPT_CFLAGS $WASM_FEATURES $PYINC \
  -ffile-prefix-map="$BUILD"=/pybox-build -I"$ROOT/scripts/numpy/extmod" -c "$W/_pybox_ext_lxml.c" -o "$W/obj/_pybox_ext_lxml.o"
rm -f "$PREFIX/lib/liblxml.a"
llvm-ar-19 rcsD "$PREFIX/lib/liblxml.a" "$W/obj/_pybox_ext_lxml.o" "${objs[@]}"

log "lxml: python files"
SP=$BUILD/site-packages
rm -rf "$SP/lxml" && mkdir -p "$SP"
compiled=()
for m in $MODULES; do compiled+=(-not -path "${m//.//}.py"); done
(cd "$L/src" && find lxml -name '*.py' -not -path '*/tests/*' "${compiled[@]}" -print0 \
 | sort -z | xargs -0 cp --parents -t "$SP")
# isoschematron's RelaxNG and XSLT resources (read at import).
(cd "$L/src" && cp -r --parents lxml/isoschematron/resources "$SP/")
cp "$L/LICENSE.txt" "$L/LICENSES.txt" "$SP/lxml/"
cp "$ROOT/scripts/numpy/extmod/_pybox_extfinder.py" "$ROOT/scripts/numpy/extmod/pybox-ext.pth" "$SP/"

echo "_pybox_ext_lxml -L$PREFIX/lib -llxml -lexslt -lxslt -lxml2" > "$BUILD/setup-lxml.local"

cat > "$BUILD/manifest-lxml.json" <<JSON
[
 {"name": "lxml", "version": "$LXML_VERSION", "source": "PyPI sdist (Cython-generated C)", "file": "$LXML_SDIST", "sha256": "$LXML_SHA256",
  "license": "BSD-3-Clause AND PSF-2.0 AND HPND (lxml/LICENSES.txt)", "modules": "$(echo $MODULES)",
  "flags": {"defines": "-DNDEBUG -DCYTHON_CLINE_IN_TRACEBACK=0 -DWITHOUT_THREADING"}},
 {"name": "libxml2", "version": "$XML2_VERSION", "debian_source": "libxml2=$XML2_DEB_VERSION", "file": "$XML2_ORIG", "sha256": "$XML2_ORIG_SHA256",
  "debian_file": "$XML2_DEBIAN", "debian_sha256": "$XML2_DEBIAN_SHA256", "license": "MIT AND ISC",
  "configure": "--without-threads --without-http --without-ftp --without-python --without-lzma --without-zlib --without-icu --without-modules"},
 {"name": "libxslt", "version": "$XSLT_VERSION", "debian_source": "libxslt=$XSLT_DEB_VERSION", "file": "$XSLT_ORIG", "sha256": "$XSLT_ORIG_SHA256",
  "debian_file": "$XSLT_DEBIAN", "debian_sha256": "$XSLT_DEBIAN_SHA256", "license": "X11 AND MIT", "libraries": "libxslt libexslt",
  "configure": "--without-crypto --without-python --without-plugins"}
]
JSON
log "lxml done: liblxml.a $(stat -c %s "$PREFIX/lib/liblxml.a") bytes, libxml2.a $(stat -c %s "$PREFIX/lib/libxml2.a"), libxslt.a $(stat -c %s "$PREFIX/lib/libxslt.a"), libexslt.a $(stat -c %s "$PREFIX/lib/libexslt.a")"
