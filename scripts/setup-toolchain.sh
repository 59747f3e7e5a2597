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
apt-get install -y -q --no-install-recommends \
  clang-19 lld-19 llvm-19 wasi-libc libclang-rt-19-dev-wasm32 \
  python3.11 python3.11-dev dpkg-dev make pkg-config zstd xz-utils \
  ca-certificates file
echo "toolchain ready: $(clang-19 --version | head -1)"
