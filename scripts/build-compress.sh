#!/usr/bin/env bash
# build-compress.sh — libbz2 and liblzma for wasm32-wasi, so CPython's
# configure enables the _bz2 and _lzma modules (bz2, lzma, tarfile's bz2/xz
# modes, shutil's archive formats).
#
#   PYBOX_BUILD_DIR=... scripts/build-compress.sh
#
# build-runtime.sh's compress stage runs it before CPython's configure, which
# finds bzlib.h/lzma.h and the archives through CPPFLAGS/LDFLAGS ($PREFIX).
# Produces $BUILD/prefix/lib/{libbz2,liblzma}.a with their headers in
# $BUILD/prefix/include, and $BUILD/compress-manifest.json.
#
# bzip2 is compiled directly (its Makefile builds native tools too). liblzma
# is built with xz's configure, single-threaded, library only, with one patch:
# a static helper around sigprocmask (used by the xz tool, not the library)
# is left out on WASI, which has no signal masks.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${PYBOX_BUILD_DIR:-$ROOT/build}
JOBS=${JOBS:-$(nproc)}
export SOURCE_DATE_EPOCH=1700000000
export LC_ALL=C TZ=UTC

BZ2_VERSION=1.0.8
BZ2_DEB_VERSION=1.0.8-5
BZ2_DSC=bzip2_$BZ2_DEB_VERSION.dsc
BZ2_ORIG=bzip2_1.0.8.orig.tar.gz
BZ2_ORIG_SHA256=ab5a03176ee106d3f0fa90e381da478ddae405918153cca248e682cd0c4a2269
BZ2_DEBIAN=bzip2_$BZ2_DEB_VERSION.debian.tar.bz2
BZ2_DEBIAN_SHA256=d68c6eba11d70e14319e24ef1451880a03023b2b75364646adb117086db36039
XZ_VERSION=5.4.1
XZ_DEB_VERSION=5.4.1-1+deb12u2
XZ_DSC=xz-utils_$XZ_DEB_VERSION.dsc
XZ_ORIG=xz-utils_5.4.1.orig.tar.xz
XZ_ORIG_SHA256=5d9827aa1875b21c288f78864bb26d2650b436ea8d2cad364e4921eb6266a5a5
XZ_DEBIAN=xz-utils_$XZ_DEB_VERSION.debian.tar.xz
XZ_DEBIAN_SHA256=7e0b1d1448520ea4f88ec05136a88f07564cc4a1abd6dfcf53c1f822a3e4f64f

SYSROOT=$BUILD/sysroot
PREFIX=$BUILD/prefix
OPT_CFLAGS=${OPT_CFLAGS:--O2}
WASM_FEATURES="-mbulk-memory -mnontrapping-fptoint -msign-ext -mmutable-globals"
CFLAGS_C="--target=wasm32-wasi --sysroot=$SYSROOT $OPT_CFLAGS $WASM_FEATURES -ffile-prefix-map=$BUILD=/pybox-build"
W=$BUILD/compress

log() { printf '\n=== %s\n' "$*" >&2; }
sha() { sha256sum "$1" | cut -d' ' -f1; }
check_sha() {
  local got; got=$(sha "$1")
  if [ "$got" != "$2" ]; then
    echo "checksum mismatch for $1: got $got, want $2" >&2; exit 1
  fi
}

log "compress: sources"
mkdir -p "$BUILD/src" "$PREFIX/lib" "$PREFIX/include"
cd "$BUILD/src"
[ -f "$BZ2_DSC" ] && [ -f "$BZ2_ORIG" ] && [ -f "$BZ2_DEBIAN" ] || apt-get source --download-only "bzip2=$BZ2_DEB_VERSION" >&2
[ -f "$XZ_DSC" ] && [ -f "$XZ_ORIG" ] && [ -f "$XZ_DEBIAN" ] || apt-get source --download-only "xz-utils=$XZ_DEB_VERSION" >&2
check_sha "$BZ2_ORIG" "$BZ2_ORIG_SHA256"
check_sha "$BZ2_DEBIAN" "$BZ2_DEBIAN_SHA256"
check_sha "$XZ_ORIG" "$XZ_ORIG_SHA256"
check_sha "$XZ_DEBIAN" "$XZ_DEBIAN_SHA256"
rm -rf "$W" && mkdir -p "$W"
dpkg-source --no-check -x "$BUILD/src/$BZ2_DSC" "$W/bzip2" >/dev/null
dpkg-source --no-check -x "$BUILD/src/$XZ_DSC" "$W/xz" >/dev/null

log "compress: bzip2 $BZ2_VERSION"
cd "$W/bzip2"
objs=()
for f in blocksort huffman crctable randtable compress decompress bzlib; do
  clang-19 $CFLAGS_C -D_FILE_OFFSET_BITS=64 -c "$f.c" -o "$f.o"
  objs+=("$f.o")
done
rm -f "$PREFIX/lib/libbz2.a"
llvm-ar-19 rcsD "$PREFIX/lib/libbz2.a" "${objs[@]}"
cp bzlib.h "$PREFIX/include/"

log "compress: xz (liblzma) $XZ_VERSION"
cd "$W/xz"
patch -p1 -s < "$ROOT/scripts/compress/xz-wasi-no-sigprocmask.patch"
# Debian's patches touch Makefile.am (translations); the shipped
# Makefile.in/configure still build the library, and automake is not needed.
find . \( -name Makefile.am -o -name configure.ac -o -name '*.m4' \) -exec touch -d @1 {} +
CC=clang-19 AR=llvm-ar-19 RANLIB=llvm-ranlib-19 CFLAGS="$CFLAGS_C" \
  ./configure --host=wasm32-unknown-wasi --build=x86_64-pc-linux-gnu --prefix=/usr/local \
  --enable-static --disable-shared --disable-threads --disable-xz --disable-xzdec \
  --disable-lzmadec --disable-lzmainfo --disable-lzma-links --disable-scripts --disable-doc \
  --disable-nls > "$W/xz-configure.log" 2>&1 || { tail -30 "$W/xz-configure.log"; exit 1; }
make -j"$JOBS" -C src/liblzma > "$W/xz-make.log" 2>&1 || { tail -30 "$W/xz-make.log"; exit 1; }
cp src/liblzma/.libs/liblzma.a "$PREFIX/lib/liblzma.a"
rm -rf "$PREFIX/include/lzma" && cp -r src/liblzma/api/lzma.h src/liblzma/api/lzma "$PREFIX/include/"

cat > "$BUILD/compress-manifest.json" <<JSON
[
 {"name": "bzip2", "version": "$BZ2_VERSION", "debian_source": "bzip2=$BZ2_DEB_VERSION", "file": "$BZ2_ORIG", "sha256": "$BZ2_ORIG_SHA256",
  "debian_file": "$BZ2_DEBIAN", "debian_sha256": "$BZ2_DEBIAN_SHA256", "license": "bzip2-1.0.6", "modules": "_bz2"},
 {"name": "xz-utils", "version": "$XZ_VERSION", "debian_source": "xz-utils=$XZ_DEB_VERSION", "file": "$XZ_ORIG", "sha256": "$XZ_ORIG_SHA256",
  "debian_file": "$XZ_DEBIAN", "debian_sha256": "$XZ_DEBIAN_SHA256", "license": "public-domain (liblzma 5.4, see COPYING)", "modules": "_lzma",
  "patches": ["scripts/compress/xz-wasi-no-sigprocmask.patch"]}
]
JSON
log "compress done: libbz2.a $(stat -c %s "$PREFIX/lib/libbz2.a") bytes, liblzma.a $(stat -c %s "$PREFIX/lib/liblzma.a") bytes"
