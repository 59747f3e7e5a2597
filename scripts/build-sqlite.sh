#!/usr/bin/env bash
# build-sqlite.sh — SQLite for wasm32-wasi, so CPython's configure enables
# the _sqlite3 module (the sqlite3 package of the standard library).
#
#   PYBOX_BUILD_DIR=... scripts/build-sqlite.sh
#
# build-runtime.sh's sqlite stage runs it before CPython's configure, which
# finds sqlite3.h and libsqlite3.a through CPPFLAGS/LDFLAGS ($PREFIX).
# Produces $BUILD/prefix/lib/libsqlite3.a, $BUILD/prefix/include/sqlite3.h
# and $BUILD/sqlite-manifest.json.
#
# Source: Debian's sqlite3 source package (its patches applied: security and
# bug fixes, and build-system changes we do not use). The amalgamation
# (sqlite3.c, one file with FTS5 included) is generated on the build machine
# with SQLite's own configure and `make sqlite3.c` (host clang, tclsh), then
# compiled once for wasm32-wasi. One patch of ours
# (scripts/sqlite/wasi-os-unix.patch): the unix VFS without fcntl locks,
# fchmod/fchown or mmap, which WASI does not have (see docs/runtime-bundle.md).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${PYBOX_BUILD_DIR:-$ROOT/build}
JOBS=${JOBS:-$(nproc)}
export SOURCE_DATE_EPOCH=1700000000
export LC_ALL=C TZ=UTC

SQLITE_VERSION=3.40.1
SQLITE_DEB_VERSION=3.40.1-2+deb12u2
SQLITE_DSC=sqlite3_$SQLITE_DEB_VERSION.dsc
SQLITE_ORIG=sqlite3_$SQLITE_VERSION.orig.tar.xz
SQLITE_ORIG_SHA256=aaa776260ab4dc976db34aa7891819484c8676b5b2783123ebc6301e2ca5d655
# The documentation tarball: not built, but part of the source package.
SQLITE_ORIG_WWW=sqlite3_$SQLITE_VERSION.orig-www.tar.xz
SQLITE_ORIG_WWW_SHA256=a5e95a18d1b59729278860559ded78751b9163ffb5bb906c5cd24c015f71d5fd
SQLITE_DEBIAN=sqlite3_$SQLITE_DEB_VERSION.debian.tar.xz
SQLITE_DEBIAN_SHA256=0843bc12e4364076477935ce313a6d0796fd899a989ff18ebb6545540e10e4ca

SYSROOT=$BUILD/sysroot
PREFIX=$BUILD/prefix
OPT_CFLAGS=${OPT_CFLAGS:--O2}
WASM_FEATURES="-mbulk-memory -mnontrapping-fptoint -msign-ext -mmutable-globals"
CFLAGS_C="--target=wasm32-wasi --sysroot=$SYSROOT $OPT_CFLAGS $WASM_FEATURES -ffile-prefix-map=$BUILD=/pybox-build"
W=$BUILD/sqlite

# Compile-time options. Features: FTS5 and FTS3/4 full-text search, R*Tree,
# math functions, the dbstat virtual table (JSON is built in since 3.38).
# WASI: one thread (no mutexes), no memory-mapped I/O, no loadable
# extensions (no dlopen); temporary tables and indices in memory (a guest's
# /tmp is memory anyway); usleep for busy-timeout waits (else whole seconds).
SQLITE_DEFINES="-DSQLITE_THREADSAFE=0 -DSQLITE_MAX_MMAP_SIZE=0 -DSQLITE_OMIT_LOAD_EXTENSION
  -DSQLITE_TEMP_STORE=2 -DHAVE_USLEEP=1 -DHAVE_LOCALTIME_R=1 -DHAVE_GMTIME_R=1
  -DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_FTS4 -DSQLITE_ENABLE_FTS3_PARENTHESIS
  -DSQLITE_ENABLE_RTREE -DSQLITE_ENABLE_MATH_FUNCTIONS -DSQLITE_ENABLE_DBSTAT_VTAB
  -DSQLITE_ENABLE_COLUMN_METADATA -DSQLITE_SOUNDEX -DSQLITE_LIKE_DOESNT_MATCH_BLOBS
  -DSQLITE_MAX_VARIABLE_NUMBER=250000"

log() { printf '\n=== %s\n' "$*" >&2; }
sha() { sha256sum "$1" | cut -d' ' -f1; }
check_sha() {
  local got; got=$(sha "$1")
  if [ "$got" != "$2" ]; then
    echo "checksum mismatch for $1: got $got, want $2" >&2; exit 1
  fi
}

log "sqlite: sources"
mkdir -p "$BUILD/src" "$PREFIX/lib" "$PREFIX/include"
cd "$BUILD/src"
[ -f "$SQLITE_DSC" ] && [ -f "$SQLITE_ORIG" ] && [ -f "$SQLITE_ORIG_WWW" ] && [ -f "$SQLITE_DEBIAN" ] \
  || apt-get source --download-only "sqlite3=$SQLITE_DEB_VERSION" >&2
check_sha "$SQLITE_ORIG" "$SQLITE_ORIG_SHA256"
check_sha "$SQLITE_ORIG_WWW" "$SQLITE_ORIG_WWW_SHA256"
check_sha "$SQLITE_DEBIAN" "$SQLITE_DEBIAN_SHA256"
rm -rf "$W" && mkdir -p "$W"
dpkg-source --no-check -x "$BUILD/src/$SQLITE_DSC" "$W/src" >/dev/null
(cd "$W/src" && patch -p1 -s < "$ROOT/scripts/sqlite/wasi-os-unix.patch")

log "sqlite $SQLITE_VERSION: amalgamation (host tools)"
# SQLite's configure for the build machine, only to generate sqlite3.c and
# sqlite3.h (lemon, mkkeywordhash and the tcl scripts run here).
mkdir -p "$W/host" && cd "$W/host"
CC=clang-19 "$W/src/configure" --disable-tcl --disable-readline --disable-shared \
  > "$W/host-configure.log" 2>&1 || { tail -30 "$W/host-configure.log"; exit 1; }
make sqlite3.c > "$W/host-make.log" 2>&1 || { tail -30 "$W/host-make.log"; exit 1; }
grep -q 'sqlite3Fts5Init' sqlite3.c || { echo "sqlite3.c lacks FTS5" >&2; exit 1; }

log "sqlite: compile for wasm32-wasi"
# shellcheck disable=SC2086
clang-19 $CFLAGS_C $SQLITE_DEFINES -c sqlite3.c -o "$W/sqlite3.o"
rm -f "$PREFIX/lib/libsqlite3.a"
llvm-ar-19 rcsD "$PREFIX/lib/libsqlite3.a" "$W/sqlite3.o"
cp sqlite3.h sqlite3ext.h "$PREFIX/include/"

cat > "$BUILD/sqlite-manifest.json" <<JSON
[
 {"name": "sqlite", "version": "$SQLITE_VERSION", "debian_source": "sqlite3=$SQLITE_DEB_VERSION", "file": "$SQLITE_ORIG", "sha256": "$SQLITE_ORIG_SHA256",
  "debian_file": "$SQLITE_DEBIAN", "debian_sha256": "$SQLITE_DEBIAN_SHA256", "license": "public-domain", "modules": "_sqlite3",
  "defines": "$(echo $SQLITE_DEFINES)", "patches": ["scripts/sqlite/wasi-os-unix.patch"]}
]
JSON
log "sqlite done: libsqlite3.a $(stat -c %s "$PREFIX/lib/libsqlite3.a") bytes"
