#!/usr/bin/env bash
# setup-toolchain.sh — install what scripts/build-runtime.sh needs on a Debian
# bookworm machine: clang/lld 19, wasi-libc, compiler-rt and libc++ for
# wasm32-wasi, the build Python, and a deb-src entry so `apt-get source` works.
#
# The deb-src entry is derived from the machine's own
# /etc/apt/sources.list.d/debian.sources (same URIs, suites and keyring, with
# "Types: deb-src"), so no mirror host name is written into this repository.
set -euo pipefail

need_root() { if [ "$(id -u)" != 0 ]; then echo "run as root (or via sudo)" >&2; exit 1; fi; }
need_root

src=/etc/apt/sources.list.d/debian.sources
dst=/etc/apt/sources.list.d/pybox-deb-src.sources
if [ -f "$src" ] && [ ! -f "$dst" ]; then
  sed -e 's/^Types:.*/Types: deb-src/' "$src" > "$dst"
  echo "added $dst (deb-src derived from $src)"
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# clang-22 (bookworm-security) compiles only the few files that use
# setjmp/longjmp (libjpeg error handling in Pillow, FreeType): it emits the
# standard wasm exception-handling encoding that wazero runs; LLVM 19 only
# emits the legacy one. libc++ for numpy's C++ parts.
# tcl: SQLite generates its amalgamation with tclsh (scripts/build-sqlite.sh).
# f2c: scipy's Fortran 77 is translated to C (scripts/scipy/wasm-f77.py).
apt-get install -y -q --no-install-recommends \
  clang-19 lld-19 llvm-19 wasi-libc libclang-rt-19-dev-wasm32 \
  clang-22 libc++-19-dev-wasm32 libc++abi-19-dev-wasm32 \
  python3.11 python3.11-dev python3.11-venv python3-pip dpkg-dev make cmake ninja-build pkg-config \
  zstd xz-utils bzip2 ca-certificates file tcl f2c
echo "toolchain ready: $(clang-19 --version | head -1)"
