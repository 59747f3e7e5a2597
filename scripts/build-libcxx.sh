#!/usr/bin/env bash
# build-libcxx.sh — libc++, libc++abi and libunwind for wasm32-wasi WITH C++
# exceptions in the standard WebAssembly exception-handling encoding (exnref:
# try_table / throw / throw_ref), the only one wazero 1.12 runs.
#
#   scripts/build-libcxx.sh        # ~7 min on 2 busy cores, result in
#                                  # $PYBOX_BUILD_DIR/prefix-eh
#   CLEAN=1 scripts/build-libcxx.sh   # rebuild from scratch
#
# Debian's libc++-19-dev-wasm32 and libc++-22-dev-wasm32 are both built with
# exceptions off (their libc++abi has cxa_noexception.cpp, no __cxa_throw),
# and the llvm-toolchain-22 source is not served by the Debian mirror here
# (404), so this builds LLVM 19.1.7's runtimes (the llvm-toolchain-19 source
# package, the same release as the installed libc++-19 headers that numpy is
# compiled against) with clang-22. clang-22 is needed for the encoding: LLVM
# 19 lowers C++ exceptions only to the legacy try/catch/delegate opcodes.
#
# The configuration is Debian's for libc++-19-dev-wasm32 (debian/rules:
# ABI version 2, no threads, no filesystem, static, musl) with exceptions
# and <fstream> (see below) turned on and libunwind's wasm part
# (Unwind-wasm.c: _Unwind_RaiseException = the wasm `throw` of tag __cpp_exception, _Unwind_CallPersonality,
# __wasm_lpad_context) added. scripts/cxxeh/cpp_exception_tag.S defines the
# tag (clang-22's objects expect the runtime to define it; LLVM 19's
# libunwind does not).
#
# Every C/C++ file that links against this must be compiled by clang-22 with
# $CXXEH_FLAGS below, or with -fignore-exceptions (no landing pads: a throw
# still calls __cxa_throw and unwinds through such code without running its
# destructors). Objects from clang-22 must not be bitcode (-flto): wasm-ld-19
# cannot read LLVM 22 bitcode. wazero v1.12.0 gives catch handlers stale
# locals, which breaks some C++ handlers; see docs/runtime-bundle.md, "C++
# exceptions".
#
# Output ($PREFIX_EH):
#   include/c++/v1/   libc++ + libc++abi headers (ABI v2, __config_site)
#   lib/libc++.a      libc++ with libc++abi and libunwind merged in
#   lib/libc++abi.a   libc++abi with libunwind merged in
#   lib/libunwind.a   Unwind-wasm.o + the __cpp_exception tag
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
HERE=$ROOT/scripts/cxxeh
BUILD=${PYBOX_BUILD_DIR:-$ROOT/build}
JOBS=${JOBS:-2}
PREFIX_EH=${PREFIX_EH:-$BUILD/prefix-eh}
export SOURCE_DATE_EPOCH=1700000000
export LC_ALL=C TZ=UTC

LLVM_VERSION=19.1.7
LLVM_DEB_SRC=llvm-toolchain-19/bookworm
LLVM_ORIG=llvm-toolchain-19_${LLVM_VERSION}.orig.tar.xz
LLVM_ORIG_SHA256=ae498f3bc58ae2d9f64ef5f0c035c4240152bf015a5b7738b15c22e93bdc97ce
LLVM_DIR=llvm-toolchain-19_${LLVM_VERSION}

CC22=clang-22
CXX22=clang++-22
AR=llvm-ar-19
RANLIB=llvm-ranlib-19
SYSROOT=$BUILD/sysroot

# The flags for C++ with WebAssembly exceptions in the standard encoding.
# -fwasm-exceptions selects the wasm EH model (and the exception-handling
# target feature); clang-22 still emits the legacy opcodes by default, so
# -wasm-use-legacy-eh=false selects try_table/throw_ref.
CXXEH_FLAGS="-fwasm-exceptions -mllvm -wasm-use-legacy-eh=false"
WASM_FEATURES="-mbulk-memory -mnontrapping-fptoint -msign-ext -mmutable-globals"
OPT_CFLAGS=${OPT_CFLAGS:--O2}
TARGET=wasm32-wasip1
FLAGS="--sysroot=$SYSROOT $OPT_CFLAGS $WASM_FEATURES $CXXEH_FLAGS -fno-stack-protector -ffile-prefix-map=$BUILD=/pybox-build"

log() { printf '\n=== %s\n' "$*" >&2; }
sha() { sha256sum "$1" | cut -d' ' -f1; }
check_sha() { # file expected
  local got; got=$(sha "$1")
  if [ "$got" != "$2" ]; then
    echo "checksum mismatch for $1: got $got, want $2" >&2
    echo "the Debian source changed; update the pin in $0 after reviewing it" >&2
    exit 1
  fi
}

for tool in $CC22 $CXX22 $AR $RANLIB cmake ninja; do
  command -v "$tool" >/dev/null || { echo "missing tool: $tool (scripts/setup-toolchain.sh)" >&2; exit 1; }
done

log "sources: $LLVM_DEB_SRC"
mkdir -p "$BUILD/src" "$SYSROOT/lib"
# The private sysroot of build-runtime.sh (without it Debian's clang adds the
# host's /usr/include); clang-22 looks for wasm32-wasip1 where clang-19
# looks for wasm32-wasi.
ln -sfn /usr/include/wasm32-wasi "$SYSROOT/include"
ln -sfn /usr/lib/wasm32-wasi "$SYSROOT/lib/wasm32-wasi"
ln -sfn /usr/lib/wasm32-wasi "$SYSROOT/lib/wasm32-wasip1"
cd "$BUILD/src"
if [ ! -f "$LLVM_ORIG" ]; then apt-get source --download-only "$LLVM_DEB_SRC"; fi
check_sha "$LLVM_ORIG" "$LLVM_ORIG_SHA256"
# Only the runtimes and the CMake modules they use (the whole tree is 1.5 GB).
SRC=$BUILD/libcxx-eh-src
if [ ! -f "$SRC/.extracted" ]; then
  rm -rf "$SRC" && mkdir -p "$SRC"
  nice -n 19 tar -xJf "$LLVM_ORIG" -C "$SRC" --strip-components=1 \
    "$LLVM_DIR/libcxx" "$LLVM_DIR/libcxxabi" "$LLVM_DIR/libunwind" \
    "$LLVM_DIR/runtimes" "$LLVM_DIR/cmake" "$LLVM_DIR/llvm/cmake" \
    "$LLVM_DIR/llvm/utils/llvm-lit" "$LLVM_DIR/third-party"
  touch "$SRC/.extracted"
fi

# <fstream> (std::ifstream/ofstream: HiGHS's and fast_matrix_market's
# readers in scipy) is declared only when libc++ is configured with
# filesystem support, which also compiles std::filesystem's operations
# (src/filesystem/*.cpp): those call POSIX functions wasi-libc lacks
# (statvfs, fchmod, fchmodat, realpath, DT_SOCK). So filesystem support is
# on, and those sources are left out of the build: <fstream> works
# (src/fstream.cpp and the headers, over wasi-libc's FILE*), while a program
# calling std::filesystem::exists(), copy(), ... fails to link (undefined
# symbol), which nothing in the bundle does.
python3 - "$SRC/libcxx/src/CMakeLists.txt" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
block = re.search(r"if \(LIBCXX_ENABLE_FILESYSTEM\)\n  list\(APPEND LIBCXX_SOURCES\n(.*?)    \)\n", s, re.S)
if block is None:
    if "pybox: std::filesystem operations left out" not in s:
        sys.exit(p + ": the filesystem sources block changed: revisit build-libcxx.sh")
else:
    s = s[:block.start()] + "if (LIBCXX_ENABLE_FILESYSTEM)\n  # pybox: std::filesystem operations left out (build-libcxx.sh)\n  list(APPEND LIBCXX_SOURCES\n    )\n" + s[block.end():]
    open(p, "w").write(s)
PY

log "configure libc++abi + libc++ (clang-22, wasm exceptions)"
B=$BUILD/libcxx-eh
# An existing build directory is reused (ninja rebuilds what changed);
# CLEAN=1 starts over.
if [ "${CLEAN:-0}" = 1 ]; then rm -rf "$B"; fi
rm -rf "$PREFIX_EH"
mkdir -p "$B"
# -nostdinc++: the sysroot's include/c++/v1 holds Debian's libc++-19
# headers, which clang would otherwise search after the build's own (their
# include guards then hide the C headers that #include_next should reach).
# CMAKE_*_COMPILER_WORKS: the compilers cannot link a program before the
# libraries exist (Debian's rules do the same). CMAKE_BUILD_TYPE=Release
# with our own optimization flags only.
nice -n 19 cmake -G Ninja -S "$SRC/runtimes" -B "$B" \
  -DCMAKE_C_COMPILER=$CC22 -DCMAKE_CXX_COMPILER=$CXX22 \
  -DCMAKE_C_COMPILER_TARGET=$TARGET -DCMAKE_CXX_COMPILER_TARGET=$TARGET \
  -DCMAKE_ASM_COMPILER_TARGET=$TARGET \
  -DCMAKE_C_COMPILER_WORKS=ON -DCMAKE_CXX_COMPILER_WORKS=ON -DLLVM_COMPILER_CHECKED=ON \
  -DCMAKE_AR="$(command -v $AR)" -DCMAKE_RANLIB="$(command -v $RANLIB)" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_FLAGS="$FLAGS" -DCMAKE_CXX_FLAGS="$FLAGS -nostdinc++" -DCMAKE_ASM_FLAGS="$FLAGS" \
  -DCMAKE_C_FLAGS_RELEASE="-DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="-DNDEBUG" \
  -DCMAKE_INSTALL_PREFIX="$PREFIX_EH" \
  -DLLVM_ENABLE_RUNTIMES="libcxxabi;libcxx" \
  -DLIBCXXABI_USE_LLVM_UNWINDER=OFF \
  -DLIBCXX_USE_COMPILER_RT=ON -DLIBCXXABI_USE_COMPILER_RT=ON \
  -DLIBCXX_ENABLE_STATIC_ABI_LIBRARY=ON \
  -DLIBCXX_STATICALLY_LINK_ABI_IN_STATIC_LIBRARY=ON \
  -DLIBCXX_CXX_ABI=libcxxabi \
  -DLIBCXX_ABI_VERSION=2 \
  -DLIBCXX_HAS_MUSL_LIBC=ON \
  -DLIBCXX_ENABLE_SHARED=OFF \
  -DLIBCXX_ENABLE_EXPERIMENTAL_LIBRARY=OFF \
  -DLIBCXX_ENABLE_EXCEPTIONS=ON \
  -DLIBCXX_ENABLE_FILESYSTEM=ON -DLIBCXX_ENABLE_TIME_ZONE_DATABASE=OFF \
  -DLIBCXX_ENABLE_THREADS=OFF -DLIBCXX_HAS_PTHREAD_API=OFF \
  -DLIBCXX_HAS_EXTERNAL_THREAD_API=OFF -DLIBCXX_BUILD_EXTERNAL_THREAD_LIBRARY=OFF \
  -DLIBCXX_INCLUDE_BENCHMARKS=OFF -DLIBCXX_INCLUDE_TESTS=OFF \
  -DLIBCXXABI_INCLUDE_TESTS=OFF \
  -DLIBCXXABI_ENABLE_SHARED=OFF \
  -DLIBCXXABI_ENABLE_EXCEPTIONS=ON \
  -DLIBCXXABI_SILENT_TERMINATE=ON \
  -DLIBCXXABI_ENABLE_THREADS=OFF -DLIBCXXABI_HAS_PTHREAD_API=OFF \
  -DLIBCXXABI_HAS_EXTERNAL_THREAD_API=OFF -DLIBCXXABI_BUILD_EXTERNAL_THREAD_LIBRARY=OFF \
  > "$B/configure.log" 2>&1 || { tail -40 "$B/configure.log"; exit 1; }

log "build (ninja -j$JOBS)"
nice -n 19 ninja -C "$B" -j "$JOBS" cxx cxxabi > "$B/build.log" 2>&1 \
  || { grep -B2 -A20 -m3 'error' "$B/build.log" | head -80; exit 1; }
nice -n 19 ninja -C "$B" install-cxx install-cxxabi >> "$B/build.log" 2>&1 \
  || { tail -40 "$B/build.log"; exit 1; }

# libunwind: on wasm the unwinding is done by the engine, and libunwind is
# one file, Unwind-wasm.c. LLVM 19's libunwind CMake has no wasm case (it
# compiles the register save/restore assembly, which has no wasm version),
# so the file is compiled here, with the tag that its `throw` uses.
log "libunwind (Unwind-wasm.c) and the __cpp_exception tag"
$CC22 --target=$TARGET $FLAGS -std=c11 -D_LIBUNWIND_IS_NATIVE_ONLY \
  -D_LIBUNWIND_HAS_NO_THREADS -D_LIBUNWIND_HIDE_SYMBOLS -DNDEBUG \
  -I"$SRC/libunwind/include" -c "$SRC/libunwind/src/Unwind-wasm.c" -o "$B/Unwind-wasm.o"
$CC22 --target=$TARGET $FLAGS -c "$HERE/cpp_exception_tag.S" -o "$B/cpp_exception_tag.o"
rm -f "$PREFIX_EH/lib/libunwind.a"
$AR rcD "$PREFIX_EH/lib/libunwind.a" "$B/Unwind-wasm.o" "$B/cpp_exception_tag.o"
# One archive to link, as Debian's libc++.a already holds libc++abi.
for lib in libc++abi.a libc++.a; do
  $AR rD "$PREFIX_EH/lib/$lib" "$B/Unwind-wasm.o" "$B/cpp_exception_tag.o"
done
for lib in libunwind.a libc++abi.a libc++.a; do $RANLIB -D "$PREFIX_EH/lib/$lib"; done

llvm-nm-19 "$PREFIX_EH/lib/libc++.a" > "$B/libc++.nm" 2>/dev/null
for sym in __cxa_throw __gxx_personality_wasm0 _Unwind_RaiseException \
           _Unwind_CallPersonality __wasm_lpad_context __cpp_exception; do
  grep -qE " [TDBR] $sym\$" "$B/libc++.nm" \
    || { echo "libc++.a does not define $sym" >&2; exit 1; }
done
ls -l "$PREFIX_EH/lib"/*.a
# For the bundle's runtime-manifest.json (build-runtime.sh's package stage).
cat > "$BUILD/libcxx-manifest.json" <<JSON
[
 {"name": "libc++/libc++abi/libunwind (LLVM runtimes)", "version": "$LLVM_VERSION", "debian_source": "$LLVM_DEB_SRC",
  "file": "$LLVM_ORIG", "sha256": "$LLVM_ORIG_SHA256", "license": "Apache-2.0 WITH LLVM-exception",
  "flags": "clang-22, -fwasm-exceptions -mllvm -wasm-use-legacy-eh=false, ABI version 2, no threads, <fstream> without std::filesystem operations, static",
  "patches": ["scripts/cxxeh/cpp_exception_tag.S", "libunwind's Unwind-wasm.c compiled by build-libcxx.sh"]}
]
JSON
log "done: $PREFIX_EH"
