#!/usr/bin/env bash
# build-openblas.sh — OpenBLAS (BLAS and its C LAPACK) for wasm32-wasi, the
# BLAS/LAPACK numpy's linear algebra links against in python.wasm.
#
#   PYBOX_BUILD_DIR=... scripts/build-openblas.sh
#
# build-runtime.sh's openblas stage runs it before the cpython stage (numpy
# is built there and finds it through pkg-config). Produces
#   $BUILD/prefix/lib/libopenblas.a            BLAS + LAPACK, one archive
#   $BUILD/prefix/include/openblas/            cblas.h, f77blas.h, lapack.h, ...
#   $BUILD/prefix/lib/pkgconfig/openblas.pc    for numpy's meson
#   $BUILD/openblas-manifest.json              source, version, sha256, flags
#
# Source: OpenBLAS 0.3.31 from PyPI, the sdist of `cmeel-openblas` (its
# OpenBLAS/ directory is the OpenBLAS release tree; the rest is cmeel's
# packaging, unused). Debian's openblas source package (0.3.21+ds) cannot be
# used: its repack drops lapack-netlib, so it has no LAPACK without a
# Fortran compiler. OpenBLAS's C_LAPACK option compiles lapack-netlib's C
# translation of LAPACK (no Fortran).
#
# Build: OpenBLAS's own Makefiles with clang-19 for wasm32-wasi, single
# threaded (USE_THREAD=0, no OpenMP), no Fortran (NOFORTRAN=1, C_LAPACK=1),
# no LAPACKE, static only, no -fPIC (a static link: PIC would route every
# global through wasm-ld's GOT emulation). TARGET=RISCV64_GENERIC: plain C
# kernels (OpenBLAS has no wasm target; this one has no assembly), compiled
# with -msimd128 so clang vectorizes them. Our changes:
#  - scripts/openblas/wasm32-wasi.patch: ctest.c reports wasm32-wasi as
#    ARCH_RISCV64/OS_LINUX; no RISC-V -march/-mabi when the compiler targets
#    wasm32; no YIELDING asm; no syscall() (mbind, set_mempolicy, gettid);
#    kernels of ours in wasm SIMD128 for DGEMM (4x4,
#    scripts/openblas/dgemm_kernel_4x4_wasm.c, with the 4x4 unroll in
#    param.h and the generic 4x4 packing and TRMM kernels), DDOT
#    (ddot_kernel_wasm.c) and DGEMV (dgemv_kernels_wasm.c);
#  - scripts/openblas/compat/sys/: empty sys/ipc.h and sys/syscall.h and a
#    failing sysinfo() (WASI has none; OpenBLAS's memory.c includes them);
#    the headers of wasi-libc's mmap and process-clock emulations are
#    enabled (common.h includes them) but nothing calls them: memory.c takes
#    its buffers from malloc on WASI (the patch), so no emulation library is
#    linked;
#  - every Fortran-callable subroutine returns int (see below).
#
# Why int: wasm checks function signatures at link time, and a call through
# a declaration whose return type differs from the definition's is linked to
# a stub that traps. OpenBLAS says void in some places and int in others for
# the same subroutine; numpy and scipy say int. scripts/openblas/
# int-subroutines.py makes them all int (details there);
# scripts/openblas/selftest.sh links the whole archive and fails on any
# remaining "signature mismatch".
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${PYBOX_BUILD_DIR:-$ROOT/build}
JOBS=${JOBS:-$(nproc)}
export SOURCE_DATE_EPOCH=1700000000
export LC_ALL=C TZ=UTC

OPENBLAS_VERSION=0.3.31
OB_PYPI=cmeel-openblas
OB_SDIST=cmeel_openblas-$OPENBLAS_VERSION.tar.gz
OB_SHA256=a3fe5e5875393a37f569da9bf1403adae45579570e8582b837bd985746d9ac20

SYSROOT=$BUILD/sysroot
PREFIX=$BUILD/prefix
W=$BUILD/openblas
HERE=$ROOT/scripts/openblas
# Optimization and SIMD for OpenBLAS's objects (measured in
# docs/runtime-bundle.md, "OpenBLAS").
OB_OPT_CFLAGS=${OB_OPT_CFLAGS:--O2}
# -mrelaxed-simd makes the DGEMM kernel's multiply-adds f64x2.relaxed_madd:
# one fused instruction where pybox's wazero can (fork patch 0063: amd64
# with FMA, arm64), a multiply and an add elsewhere (docs/runtime-bundle.md,
# "Fused multiply-add"). OB_SIMD=-msimd128 builds the unfused kernel.
OB_SIMD=${OB_SIMD--msimd128 -mrelaxed-simd}
WASM_FEATURES="-mbulk-memory -mnontrapping-fptoint -msign-ext -mmutable-globals"
OB_CFLAGS="$OB_OPT_CFLAGS $OB_SIMD $WASM_FEATURES -D_WASI_EMULATED_MMAN -D_WASI_EMULATED_PROCESS_CLOCKS -DNO_SYSV_IPC -I$HERE/compat -Wno-return-mismatch -Wno-return-type -ffile-prefix-map=$BUILD=/pybox-build -ffile-prefix-map=$HERE=/pybox-build/openblas-compat"
OB_MAKEFLAGS=(TARGET=RISCV64_GENERIC BINARY=32 DYNAMIC_ARCH=0
  NOFORTRAN=1 C_LAPACK=1 NO_LAPACKE=1 USE_THREAD=0 USE_OPENMP=0 NUM_THREADS=1
  NO_AFFINITY=1 NO_SHARED=1 NEED_PIC=0
  "CC=clang-19 --target=wasm32-wasi --sysroot=$SYSROOT" HOSTCC=clang-19
  AR=llvm-ar-19 RANLIB=llvm-ranlib-19 "COMMON_OPT=$OB_CFLAGS")

log() { printf '\n=== %s\n' "$*" >&2; }
sha() { sha256sum "$1" | cut -d' ' -f1; }
check_sha() {
  local got; got=$(sha "$1")
  if [ "$got" != "$2" ]; then
    echo "checksum mismatch for $1: got $got, want $2" >&2; exit 1
  fi
}

log "openblas $OPENBLAS_VERSION: sources"
mkdir -p "$BUILD/src" "$PREFIX/lib/pkgconfig" "$PREFIX/include"
# fetch_sdist.py fetches the file only: `pip download` would prepare the
# sdist's metadata, which for cmeel means building OpenBLAS natively (35
# minutes on a busy 2-core machine).
[ -f "$BUILD/src/$OB_SDIST" ] || python3 "$ROOT/scripts/lib/fetch_sdist.py" "$BUILD/src" "$OB_PYPI" "$OPENBLAS_VERSION" >&2
check_sha "$BUILD/src/$OB_SDIST" "$OB_SHA256"
if [ "${OB_RESUME:-}" = 1 ] && [ -f "$W/src/Makefile" ]; then
  # Development only: recompile what changed in an existing $W/src.
  cd "$W/src"
  cp "$HERE/dgemm_kernel_4x4_wasm.c" "$HERE/ddot_kernel_wasm.c" "$HERE/dgemv_kernels_wasm.c" kernel/riscv64/
  python3 "$HERE/int-subroutines.py" "$W/src"
else
  rm -rf "$W" && mkdir -p "$W/src"
  tar -xzf "$BUILD/src/$OB_SDIST" -C "$W/src" --strip-components=2 "cmeel_openblas-$OPENBLAS_VERSION/OpenBLAS"
  cd "$W/src"
  patch -p1 -s < "$HERE/wasm32-wasi.patch"
  # DGEMM micro-kernel of ours (SIMD128, 4x4; the patch selects it and sets
  # the matching unroll in param.h): the generic 2x2 C kernel is what
  # RISCV64_GENERIC has, several times slower (docs/runtime-bundle.md).
  cp "$HERE/dgemm_kernel_4x4_wasm.c" "$HERE/ddot_kernel_wasm.c" "$HERE/dgemv_kernels_wasm.c" kernel/riscv64/
  # Subroutines return int everywhere (see the header and
  # scripts/openblas/int-subroutines.py).
  INT_SUBROUTINES_FRESH=1 python3 "$HERE/int-subroutines.py" "$W/src"
  # lapack-netlib's C translation of SGELSD (C_LAPACK=1 only) carries
  # upstream's debugging prints, fprintf(stdout, "start of SGELSD\n") and
  # 18 more, each alone on its line: float32 least squares
  # (scipy.linalg.lstsq, so sklearn's LinearRegression on float32 data)
  # printed them into the user's output (docs/upstream-tests.md, issue 15).
  sed -i '/fprintf(stdout,/d' lapack-netlib/SRC/sgelsd.c
  if grep -n 'fprintf(stdout' lapack-netlib/SRC/sgelsd.c; then
    echo "sgelsd.c still prints to stdout: revisit this step" >&2; exit 1
  fi
fi

log "openblas: compile (libs, netlib)"
nice -n 19 make -j"$JOBS" "${OB_MAKEFLAGS[@]}" libs netlib > "$W/make.log" 2>&1 || { grep -m20 -E 'error|Error' "$W/make.log"; tail -20 "$W/make.log"; exit 1; }
rm -rf "$W/install"
make "${OB_MAKEFLAGS[@]}" PREFIX="$W/install" install > "$W/install.log" 2>&1 || { tail -30 "$W/install.log"; exit 1; }

log "openblas: install into the prefix"
rm -rf "$PREFIX/include/openblas"
mkdir -p "$PREFIX/include/openblas"
cp "$W"/install/include/*.h "$PREFIX/include/openblas/"
cp "$W/install/lib/libopenblas.a" "$PREFIX/lib/libopenblas.a"
llvm-ranlib-19 -D "$PREFIX/lib/libopenblas.a"
# pkg-config file for numpy's meson (only $PREFIX/lib/pkgconfig is searched).
# symbol_suffix: none; the interface is LP64 (32-bit integers). One library
# only: meson's symbol probe links with --start-group/--end-group around
# several, which wasm-ld 19 rejects (so OpenBLAS needs no emulation library:
# its buffers come from malloc, see the patch).
cat > "$PREFIX/lib/pkgconfig/openblas.pc" <<PC
prefix=$PREFIX
libdir=\${prefix}/lib
includedir=\${prefix}/include/openblas
openblas_config=USE_64BITINT= NO_CBLAS= NO_LAPACK= NO_LAPACKE=1 DYNAMIC_ARCH=0 NO_AFFINITY=1 USE_OPENMP=0 RISCV64_GENERIC MAX_THREADS=1
version=$OPENBLAS_VERSION

Name: openblas
Description: OpenBLAS $OPENBLAS_VERSION for wasm32-wasi (pybox, single-threaded, C LAPACK)
Version: $OPENBLAS_VERSION
Libs: -L\${libdir} -lopenblas
Cflags: -I\${includedir}
PC

cat > "$BUILD/openblas-manifest.json" <<JSON
[
 {"name": "openblas", "version": "$OPENBLAS_VERSION", "source": "PyPI sdist $OB_PYPI $OPENBLAS_VERSION (its OpenBLAS/ tree)", "file": "$OB_SDIST", "sha256": "$OB_SHA256",
  "license": "BSD-3-Clause (OpenBLAS; lapack-netlib: BSD-3-Clause)",
  "patches": ["scripts/openblas/wasm32-wasi.patch", "scripts/openblas/compat/sys/", "scripts/openblas/int-subroutines.py", "scripts/openblas/dgemm_kernel_4x4_wasm.c", "scripts/openblas/ddot_kernel_wasm.c", "scripts/openblas/dgemv_kernels_wasm.c"],
  "make": "$(printf '%s ' "${OB_MAKEFLAGS[@]}" | sed -e "s#$BUILD#<build>#g" -e "s#$ROOT#<repo>#g" -e 's/"/\\"/g')",
  "archive": {"file": "prefix/lib/libopenblas.a", "size": $(stat -c %s "$PREFIX/lib/libopenblas.a"), "sha256": "$(sha "$PREFIX/lib/libopenblas.a")"}}
]
JSON
# DGEMM/SGEMM over every remainder shape, LU and Cholesky solves, and no
# signature mismatch in the whole archive (scripts/openblas/selftest.sh).
if command -v node >/dev/null; then
  PYBOX_BUILD_DIR=$BUILD "$HERE/selftest.sh" >&2
else
  echo "node not found: scripts/openblas/selftest.sh not run" >&2
fi
log "openblas done: libopenblas.a $(stat -c %s "$PREFIX/lib/libopenblas.a") bytes"
