# cpython-tests.sh — sourced by run-cpython.sh and run-cpython-compat.sh:
# the CPython source the bundle is built from (same source and checksum as
# scripts/build-runtime.sh), and cpython_tests, which unpacks its Lib/test
# into $WORK/src and sets SRC to the unpacked tree. The orig tarball is taken
# from $SDIST_DIR, else fetched there with `apt-get source`.
PY_VERSION=3.11.2
PY_DEB_SRC=python3.11/bookworm
PY_ORIG=python3.11_${PY_VERSION}.orig.tar.gz
PY_ORIG_SHA256=2411c74bda5bbcfcddaf4531f66d1adc73f247f529aee981b029513aefdbf849

cpython_tests() {
  if [ ! -f "$SDIST_DIR/$PY_ORIG" ]; then
    mkdir -p "$SDIST_DIR"
    (cd "$SDIST_DIR" && apt-get source --download-only "$PY_DEB_SRC" >&2)
  fi
  local got
  got=$(sha256sum "$SDIST_DIR/$PY_ORIG" | cut -d' ' -f1)
  [ "$got" = "$PY_ORIG_SHA256" ] || { echo "checksum mismatch for $PY_ORIG: got $got" >&2; exit 1; }
  SRC=$WORK/src/Python-$PY_VERSION
  if [ ! -d "$SRC/Lib/test" ]; then
    rm -rf "$SRC" && mkdir -p "$SRC"
    tar -xzf "$SDIST_DIR/$PY_ORIG" -C "$SRC" --strip-components=1 "Python-$PY_VERSION/Lib/test"
  fi
}
