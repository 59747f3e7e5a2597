#!/usr/bin/env bash
# build-pillow.sh — Pillow (+ libjpeg-turbo, FreeType, a DejaVu font) as static
# extension modules for pybox's python.wasm.
#
#   PYBOX_BUILD_DIR=... scripts/build-pillow.sh
#
# Needs CPython configured in $PYBOX_BUILD_DIR/cpython/builddir/wasi (headers)
# and zlib in $PYBOX_BUILD_DIR/prefix (build-runtime.sh's zlib stage). Run it
# after CPython's configure and before CPython's `make`. Produces:
#   $BUILD/prefix/lib/{libpillow,libjpeg,libfreetype,libwasmsjlj}.a
#   $BUILD/site-packages/PIL/...     Pillow's Python files
#   $BUILD/site-packages/_pybox_extfinder.py, pybox-ext.pth
#   $BUILD/share/fonts/truetype/dejavu/DejaVuSans.ttf (+ LICENSE): in the
#       bundle at share/, i.e. /usr/local/share/fonts in the guest, where
#       Pillow's ImageFont.truetype("DejaVuSans.ttf") looks by default
#   $BUILD/setup-pillow.local        line(s) to append to Modules/Setup.local
#   $BUILD/manifest-pillow.json
#
# setjmp/longjmp: libjpeg reports errors through a callback that must not
# return; Pillow's handler longjmps back to the decoder (FreeType's cmap
# validator does the same). scripts/pillow/sjlj/wasm-cc compiles the few
# files that call setjmp with clang-22, which lowers setjmp/longjmp to
# WebAssembly exceptions in the standard exnref encoding (LLVM 19 can only
# emit the legacy encoding, which wazero does not run). The resulting
# python.wasm needs wazero's experimental.CoreFeaturesExceptionHandling.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${PYBOX_BUILD_DIR:-$ROOT/build}
JOBS=${JOBS:-$(nproc)}
export SOURCE_DATE_EPOCH=1700000000
export LC_ALL=C TZ=UTC

PILLOW_VERSION=13.0.0
PILLOW_SDIST=pillow-$PILLOW_VERSION.tar.gz
PILLOW_SHA256=cdcd1ba258178f7356d74170c9a81ba4eab6a5d55748bc402a5a2a6fe6be3510
JPEG_VERSION=2.1.5
JPEG_DEB_SRC=libjpeg-turbo/bookworm
JPEG_DSC=libjpeg-turbo_2.1.5-2.dsc
JPEG_ORIG=libjpeg-turbo_2.1.5.orig.tar.gz
JPEG_ORIG_SHA256=254f3642b04e309fee775123133c6464181addc150499561020312ec61c1bf7c
JPEG_DEBIAN=libjpeg-turbo_2.1.5-2.debian.tar.xz
JPEG_DEBIAN_SHA256=cdb2433c2f7101345c1ffa14efb943787c675b86354691a32490845fe4bc9237
FT_VERSION=2.12.1
FT_DEB_SRC=freetype/bookworm
FT_DSC=freetype_2.12.1+dfsg-5+deb12u4.dsc
FT_ORIG=freetype_2.12.1+dfsg.orig.tar.xz
FT_ORIG_SHA256=7dedb6b9adf331559daea614a83b8de42a753e685ec8e1c4bdb4529eb880b0d1
FT_DEBIAN=freetype_2.12.1+dfsg-5+deb12u4.debian.tar.xz
FT_DEBIAN_SHA256=c625a97a78e4c74acd32e5b63b3973c9ea8a5c3d7b7f8f7c02def4421589c61b
FONT_DEB=fonts-dejavu-core_2.37-6_all.deb
FONT_DEB_PKG=fonts-dejavu-core=2.37-6
FONT_DEB_SHA256=8892669e51aab4dc56682c8e39d8ddb7d70fad83c369344e1e240bf3ca22bb76

SYSROOT=$BUILD/sysroot
PREFIX=$BUILD/prefix
PYINC="-I$BUILD/cpython/Include -I$BUILD/cpython/builddir/wasi"
OPT_CFLAGS=${OPT_CFLAGS:--O2}
WASM_FEATURES="-mbulk-memory -mnontrapping-fptoint -msign-ext -mmutable-globals"
HERE=$ROOT/scripts/pillow
SJLJ=$HERE/sjlj
CC_SJLJ=$SJLJ/wasm-cc
W=$BUILD/pillow       # work dir

log() { printf '\n=== %s\n' "$*" >&2; }
sha() { sha256sum "$1" | cut -d' ' -f1; }
check_sha() {
  local got; got=$(sha "$1")
  if [ "$got" != "$2" ]; then
    echo "checksum mismatch for $1: got $got, want $2" >&2; exit 1
  fi
}

for f in "$BUILD/cpython/builddir/wasi/pyconfig.h" "$BUILD/cpython/Include/Python.h" "$PREFIX/lib/libz.a"; do
  [ -f "$f" ] || { echo "missing $f: run build-runtime.sh's zlib stage and CPython configure first" >&2; exit 1; }
done
for t in clang-19 clang-22 cmake; do
  command -v $t >/dev/null || { echo "missing $t (scripts/setup-toolchain.sh; clang-22 is in bookworm-security)" >&2; exit 1; }
done

log "pillow: sources"
mkdir -p "$BUILD/src" "$PREFIX/lib" "$PREFIX/include"
cd "$BUILD/src"
[ -f "$PILLOW_SDIST" ] || python3 "$ROOT/scripts/lib/fetch_sdist.py" . pillow "$PILLOW_VERSION" >&2
[ -f "$JPEG_DSC" ] && [ -f "$JPEG_ORIG" ] && [ -f "$JPEG_DEBIAN" ] || apt-get source --download-only "$JPEG_DEB_SRC" >&2
[ -f "$FT_DSC" ] && [ -f "$FT_ORIG" ] && [ -f "$FT_DEBIAN" ] || apt-get source --download-only "$FT_DEB_SRC" >&2
[ -f "$FONT_DEB" ] || apt-get download "$FONT_DEB_PKG" >&2
check_sha "$PILLOW_SDIST" "$PILLOW_SHA256"
check_sha "$JPEG_ORIG" "$JPEG_ORIG_SHA256"
check_sha "$JPEG_DEBIAN" "$JPEG_DEBIAN_SHA256"
check_sha "$FT_ORIG" "$FT_ORIG_SHA256"
check_sha "$FT_DEBIAN" "$FT_DEBIAN_SHA256"
check_sha "$FONT_DEB" "$FONT_DEB_SHA256"

rm -rf "$W" && mkdir -p "$W"
# Debian's patches applied (security fixes); the orig tarballs are pinned above.
dpkg-source --no-check -x "$BUILD/src/$JPEG_DSC" "$W/libjpeg-turbo" >/dev/null
dpkg-source --no-check -x "$BUILD/src/$FT_DSC" "$W/freetype" >/dev/null
mkdir -p "$W/Pillow" && tar -xzf "$BUILD/src/$PILLOW_SDIST" -C "$W/Pillow" --strip-components=1
(cd "$W/Pillow" && patch -p1 -s < "$HERE/wasi-font-dirs.patch")
# wasm32 fixes: the Arrow export methods take the args their METH_VARARGS
# flag promises (a wasm trap otherwise), and the PDF plugin imports mmap
# only if it exists (WASI has none, which made Pillow unable to save PDF).
(cd "$W/Pillow" && patch -p1 -s < "$HERE/wasm32-fixes.patch")

# CMake toolchain for the two C libraries. FreeType uses the zlib built by
# build-runtime.sh (its bundled copy would clash with it at link time).
cat > "$W/wasi.cmake" <<EOF
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR wasm32)
set(CMAKE_C_COMPILER $CC_SJLJ)
set(CMAKE_C_COMPILER_TARGET wasm32-wasi)
set(CMAKE_AR /usr/bin/llvm-ar-19)
set(CMAKE_RANLIB /usr/bin/llvm-ranlib-19)
set(CMAKE_SYSROOT $SYSROOT)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
EOF
CMAKE_COMMON=(-G "Unix Makefiles" -DCMAKE_TOOLCHAIN_FILE="$W/wasi.cmake"
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS="$OPT_CFLAGS $WASM_FEATURES -ffile-prefix-map=$BUILD=/pybox-build"
  -DCMAKE_C_FLAGS_RELEASE=-DNDEBUG -DCMAKE_INSTALL_PREFIX="$PREFIX")

log "pillow: setjmp/longjmp runtime (libwasmsjlj.a)"
SJLJ_FLAGS="--target=wasm32-wasip1 --sysroot=$SYSROOT $OPT_CFLAGS $WASM_FEATURES -mexception-handling"
clang-22 $SJLJ_FLAGS -c "$SJLJ/wasm_sjlj_rt.c" -o "$W/wasm_sjlj_rt.o"
clang-22 $SJLJ_FLAGS -c "$SJLJ/c_longjmp.S" -o "$W/c_longjmp.o"
rm -f "$PREFIX/lib/libwasmsjlj.a"
llvm-ar-19 rcsD "$PREFIX/lib/libwasmsjlj.a" "$W/wasm_sjlj_rt.o" "$W/c_longjmp.o"

log "pillow: libjpeg-turbo $JPEG_VERSION"
mkdir -p "$W/jpeg-build" && cd "$W/jpeg-build"
cmake "$W/libjpeg-turbo" "${CMAKE_COMMON[@]}" -DENABLE_SHARED=0 -DENABLE_STATIC=1 \
  -DWITH_SIMD=0 -DWITH_TURBOJPEG=0 -DWITH_JAVA=0 -DBUILD=20230208 > "$W/jpeg-cmake.log" 2>&1 \
  || { tail -30 "$W/jpeg-cmake.log"; exit 1; }
make -j"$JOBS" jpeg-static > "$W/jpeg-make.log" 2>&1 || { tail -30 "$W/jpeg-make.log"; exit 1; }
cp libjpeg.a "$PREFIX/lib/libjpeg.a"
cp jconfig.h "$W/libjpeg-turbo/jpeglib.h" "$W/libjpeg-turbo/jmorecfg.h" "$W/libjpeg-turbo/jerror.h" "$PREFIX/include/"

log "pillow: freetype $FT_VERSION"
mkdir -p "$W/ft-build" && cd "$W/ft-build"
cmake "$W/freetype" "${CMAKE_COMMON[@]}" -DBUILD_SHARED_LIBS=OFF \
  -DFT_REQUIRE_ZLIB=ON -DZLIB_LIBRARY="$PREFIX/lib/libz.a" -DZLIB_INCLUDE_DIR="$PREFIX/include" \
  -DFT_DISABLE_BZIP2=ON -DFT_DISABLE_PNG=ON \
  -DFT_DISABLE_HARFBUZZ=ON -DFT_DISABLE_BROTLI=ON > "$W/ft-cmake.log" 2>&1 \
  || { tail -30 "$W/ft-cmake.log"; exit 1; }
make -j"$JOBS" freetype > "$W/ft-make.log" 2>&1 || { tail -30 "$W/ft-make.log"; exit 1; }
cp libfreetype.a "$PREFIX/lib/libfreetype.a"
rm -rf "$PREFIX/include/freetype2" && mkdir -p "$PREFIX/include/freetype2"
cp -r "$W/freetype/include/." "$PREFIX/include/freetype2/"
cp include/freetype/config/ftoption.h "$PREFIX/include/freetype2/freetype/config/"  # the configured one (system zlib)

log "pillow $PILLOW_VERSION: extension modules"
P=$W/Pillow
# Exactly the package's own source lists, read from its setup.py.
python3 - "$P/setup.py" > "$W/pillow-sources.txt" <<'PY'
import ast, sys
tree = ast.parse(open(sys.argv[1]).read())
vals = {}
for node in tree.body:
    if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) \
            and node.targets[0].id in ("_IMAGING", "_LIB_IMAGING"):
        vals[node.targets[0].id] = ast.literal_eval(node.value)
print("_imaging src/_imaging.c")
for s in vals["_IMAGING"]:
    print(f"_imaging src/{s}.c")
for s in vals["_LIB_IMAGING"]:
    print(f"_imaging src/libImaging/{s}.c")
print("_imaging src/libImaging/Mode.c")  # the pil_imaging_mode helper library
for m in ("_imagingft", "_imagingmath", "_imagingmorph"):
    print(f"{m} src/{m}.c")
PY
PIL_CFLAGS="--target=wasm32-wasi --sysroot=$SYSROOT $OPT_CFLAGS $WASM_FEATURES $PYINC"
PIL_CFLAGS+=" -I$P/src/libImaging -I$PREFIX/include -I$PREFIX/include/freetype2"
PIL_CFLAGS+=" -ffile-prefix-map=$BUILD=/pybox-build -DHAVE_LIBJPEG -DHAVE_LIBZ -DPILLOW_VERSION=\\\"$PILLOW_VERSION\\\" -DNDEBUG"
mkdir -p "$W/obj"
objs=()
while read -r mod src; do
  o="$W/obj/$(echo "${src#src/}" | tr / _).o"
  objs+=("$o")
  echo "$CC_SJLJ $PIL_CFLAGS -c $P/$src -o $o"
done < "$W/pillow-sources.txt" > "$W/compile.sh"
(cd "$P" && xargs -d '\n' -P "$JOBS" -I{} sh -c '{}' < "$W/compile.sh") > "$W/pillow-cc.log" 2>&1 \
  || { grep -B2 -A8 error "$W/pillow-cc.log" | head -60; exit 1; }
"$ROOT/scripts/numpy/extmod/gen-extmod.sh" _pybox_ext_pillow "$W/_pybox_ext_pillow.c" \
  PIL._imaging=PyInit__imaging PIL._imagingft=PyInit__imagingft \
  PIL._imagingmath=PyInit__imagingmath PIL._imagingmorph=PyInit__imagingmorph
clang-19 --target=wasm32-wasi --sysroot="$SYSROOT" $OPT_CFLAGS $WASM_FEATURES $PYINC \
  -ffile-prefix-map="$BUILD"=/pybox-build -I"$ROOT/scripts/numpy/extmod" -c "$W/_pybox_ext_pillow.c" -o "$W/obj/_pybox_ext_pillow.o"
rm -f "$PREFIX/lib/libpillow.a"
llvm-ar-19 rcsD "$PREFIX/lib/libpillow.a" "$W/obj/_pybox_ext_pillow.o" "${objs[@]}"
echo "setjmp lowered to wasm EH in: $(for o in "${objs[@]}"; do llvm-nm-19 -u "$o" | grep -q __wasm_setjmp && basename "$o"; done | tr '\n' ' ')" >&2

log "pillow: python files and font"
SP=$BUILD/site-packages
rm -rf "$SP/PIL" && mkdir -p "$SP/PIL"
cp "$P"/src/PIL/*.py "$SP/PIL/"
cp "$P/LICENSE" "$SP/PIL/LICENSE"
cp "$ROOT/scripts/numpy/extmod/_pybox_extfinder.py" "$ROOT/scripts/numpy/extmod/pybox-ext.pth" "$SP/"
FD=$BUILD/share/fonts/truetype/dejavu
rm -rf "$W/fontdeb" "$FD" && mkdir -p "$FD"
dpkg-deb -x "$BUILD/src/$FONT_DEB" "$W/fontdeb"
cp "$W/fontdeb/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf" "$FD/"
cp "$W/fontdeb/usr/share/doc/fonts-dejavu-core/copyright" "$FD/LICENSE"

# Link order: Pillow, then the libraries it uses. libwasmsjlj: runtime of
# the setjmp/longjmp lowering (see scripts/pillow/sjlj/).
echo "_pybox_ext_pillow -L$PREFIX/lib -lpillow -lfreetype -ljpeg -lwasmsjlj -lz" > "$BUILD/setup-pillow.local"

cat > "$BUILD/manifest-pillow.json" <<JSON
[
 {"name": "pillow", "version": "$PILLOW_VERSION", "source": "PyPI sdist", "file": "$PILLOW_SDIST", "sha256": "$PILLOW_SHA256", "license": "MIT-CMU", "patches": ["scripts/pillow/wasi-font-dirs.patch", "scripts/pillow/wasm32-fixes.patch"],
  "modules": "PIL._imaging PIL._imagingft PIL._imagingmath PIL._imagingmorph", "features": "zlib jpeg freetype2"},
 {"name": "libjpeg-turbo", "version": "$JPEG_VERSION", "debian_source": "$JPEG_DEB_SRC", "file": "$JPEG_ORIG", "sha256": "$JPEG_ORIG_SHA256",
  "debian_file": "$JPEG_DEBIAN", "debian_sha256": "$JPEG_DEBIAN_SHA256", "license": "IJG AND BSD-3-Clause AND Zlib"},
 {"name": "freetype", "version": "$FT_VERSION", "debian_source": "$FT_DEB_SRC", "file": "$FT_ORIG", "sha256": "$FT_ORIG_SHA256",
  "debian_file": "$FT_DEBIAN", "debian_sha256": "$FT_DEBIAN_SHA256", "license": "FTL OR GPL-2.0-or-later"},
 {"name": "fonts-dejavu-core", "version": "2.37-6", "debian_binary": "$FONT_DEB", "sha256": "$FONT_DEB_SHA256",
  "files": ["share/fonts/truetype/dejavu/DejaVuSans.ttf"], "license": "Bitstream-Vera AND LicenseRef-DejaVu-public-domain"}
]
JSON
log "pillow done: libpillow.a $(stat -c %s "$PREFIX/lib/libpillow.a") bytes"
