#!/usr/bin/env bash
# build-runtime.sh — build pybox's runtime bundle (assets/runtime.tar.zst)
# from Debian source packages with Debian's clang/lld/wasi-libc.
#
#   scripts/setup-toolchain.sh          # once per machine, as root
#   scripts/build-runtime.sh            # all stages, ~10 min on 2 cores
#   scripts/build-runtime.sh package    # re-run only the packaging stage
#
# Stages: sources -> zlib -> compress -> sqlite -> libcxx -> openblas -> cpython -> package.
# libcxx builds libc++/libc++abi/libunwind with C++ exceptions
# (scripts/build-libcxx.sh, into $PYBOX_BUILD_DIR/prefix-eh), the libc++
# every package links against (matplotlib's C++ needs exceptions). compress builds libbz2 and liblzma (scripts/build-compress.sh) for the _bz2
# and _lzma modules, sqlite builds libsqlite3 (scripts/build-sqlite.sh) for
# _sqlite3; CPython's configure finds them. openblas builds OpenBLAS (BLAS and
# its C LAPACK, scripts/build-openblas.sh) into $PREFIX for numpy's linear
# algebra. The cpython stage also builds
# the bundled extension packages ($PACKAGES: scripts/build-<pkg>.sh) between
# CPython's configure and make, and links them into python.wasm. Work happens in
# $PYBOX_BUILD_DIR (default: build/ in the repo, git-ignored). The result is
# written to assets/runtime.tar.zst and assets/runtime-manifest.json.
#
# Reproducibility: sources are pinned by sha256; the tar is written with
# sorted names, zero mtimes and numeric owners; .pyc files use unchecked-hash
# invalidation (no timestamps), so a rebuild on the same toolchain gives the
# same bytes. See docs/runtime-bundle.md.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${PYBOX_BUILD_DIR:-$ROOT/build}
JOBS=${JOBS:-$(nproc)}
ASSETS=${PYBOX_ASSETS_DIR:-$ROOT/assets}
export SOURCE_DATE_EPOCH=1700000000
export LC_ALL=C TZ=UTC

# Pinned sources (Debian bookworm). The orig tarballs are used unmodified:
# Debian's own patch set renames sysconfigdata without regenerating configure,
# which breaks `make install` for a cross build.
PY_VERSION=3.11.2
PY_DEB_SRC=python3.11/bookworm
PY_ORIG=python3.11_${PY_VERSION}.orig.tar.gz
PY_ORIG_SHA256=2411c74bda5bbcfcddaf4531f66d1adc73f247f529aee981b029513aefdbf849
ZLIB_VERSION=1.2.13
ZLIB_DEB_SRC=zlib/bookworm
ZLIB_ORIG=zlib_${ZLIB_VERSION}.dfsg.orig.tar.bz2
ZLIB_ORIG_SHA256=71feb7947e3c00ef125f83b79a4e529bde31171e5babe48b391f06758d1ab0a1

CLANG=clang-19
SYSROOT=$BUILD/sysroot
PREFIX=$BUILD/prefix          # static libraries built for wasm32-wasi
STAGE=$BUILD/stage            # the bundle tree before packing

# Compiler flags for every C file compiled for the guest. Measured choices are
# recorded in docs/runtime-bundle.md.
OPT_CFLAGS=${OPT_CFLAGS:--O2}
# CPython itself is also link-time optimized: measured 7% faster on the CPU
# suite (geomean 3.89x vs 4.17x native, scripts/bench/variants.sh). zlib and
# the packages stay plain (their setjmp files are compiled by clang-22, whose
# bitcode lld-19 cannot read).
PY_OPT_CFLAGS=${PY_OPT_CFLAGS:-$OPT_CFLAGS -flto}
WASM_CFLAGS="--target=wasm32-wasi --sysroot=$SYSROOT $OPT_CFLAGS -mbulk-memory -mnontrapping-fptoint -msign-ext -mmutable-globals -ffile-prefix-map=$BUILD=/pybox-build"
# Stack for the main thread: CPython's default of 512 KiB overflows before
# its recursion limit on deep-but-legal recursion; 8 MiB matches a native thread.
STACK_SIZE=${STACK_SIZE:-8388608}
# Extension packages linked into python.wasm, each built by
# scripts/build-<name>.sh against the configured CPython tree (in this
# order: pandas compiles against the numpy headers numpy's build made).
# pandas needs numpy's index-narrowing patch and its own Cython patch to
# work with numpy's 64-bit default integer (docs/runtime-bundle.md, pandas).
# matplotlib (with contourpy, kiwisolver, Qhull) needs numpy's headers and
# Pillow's FreeType, so it comes after both. scipy needs OpenBLAS and comes
# after matplotlib (it links matplotlib's Qhull instead of its own copy);
# scikit-learn and statsmodels call scipy's cython_blas/cython_lapack and
# statsmodels compiles against scipy's build dir, so they come last.
PACKAGES=${PACKAGES-numpy pillow lxml pandas matplotlib scipy sklearn statsmodels}
# PACKAGES_PREBUILT=1: link the packages already built in $BUILD (their
# setup-<pkg>.local, manifest-<pkg>.json, site-packages/ and archives) instead
# of running their build scripts again, e.g. to relink after rebuilding one
# package by hand. A release build leaves it unset.
PACKAGES_PREBUILT=${PACKAGES_PREBUILT:-0}
# python.wasm's execution model: a reactor with the entry points of
# scripts/cpython/_pyboxmodule.c (pybox_boot, pybox_serve).
REACTOR_LDFLAGS="-mexec-model=reactor -Wl,--export=__stack_pointer"
# Initial linear memory: unset, wasm-ld makes it what the 8 MiB stack and
# the static data need (with scipy, scikit-learn and statsmodels the data
# is about 11 MiB, so the former fixed 16 MiB no longer fitted: "initial
# memory too small"). INITIAL_MEMORY=<bytes> fixes it instead.
INITIAL_MEMORY=${INITIAL_MEMORY:-}
# Extra flags for Modules/_json.c: clang -O2 unswitches only trivial loops,
# so the JSON scanner's per-character loops kept a jump table on the
# string's kind (PyUnicode_READ) inside the loop; this copies each loop per
# kind instead (docs/cpu.md, "Where json_loads' time goes").
JSON_CFLAGS=${JSON_CFLAGS--mllvm -enable-nontrivial-unswitch}
# Profile-guided optimization of CPython's own objects (not zlib's, not the
# packages'): the pinned profile of a training run of the instrumented
# build (scripts/bench/pgo.sh; docs/cpu.md, "PGO of python.wasm"). Functions
# the training never ran, and functions changed since it, are compiled
# without profile data (warnings only). PGO_PROFILE="" builds without it.
PGO_PROFILE=${PGO_PROFILE-$ROOT/scripts/cpython/python.profdata}
# Loop iterations in C code between two yields to the Go scheduler.
LOOP_YIELD=${LOOP_YIELD:-16384}

# log, sha, check_sha
. "$ROOT/scripts/lib/build-common.sh"

stage_sources() {
  log "sources"
  mkdir -p "$BUILD/src" "$SYSROOT"
  # A private sysroot: without it Debian's clang adds the host's /usr/include.
  # clang looks for crt1.o and libc in <sysroot>/lib/wasm32-wasi.
  ln -sfn /usr/include/wasm32-wasi "$SYSROOT/include"
  mkdir -p "$SYSROOT/lib"
  ln -sfn /usr/lib/wasm32-wasi "$SYSROOT/lib/wasm32-wasi"
  cd "$BUILD/src"
  if [ ! -f "$PY_ORIG" ]; then apt-get source --download-only "$PY_DEB_SRC"; fi
  if [ ! -f "$ZLIB_ORIG" ]; then apt-get source --download-only "$ZLIB_DEB_SRC"; fi
  check_sha "$PY_ORIG" "$PY_ORIG_SHA256"
  check_sha "$ZLIB_ORIG" "$ZLIB_ORIG_SHA256"
}

stage_zlib() {
  log "zlib $ZLIB_VERSION"
  rm -rf "$BUILD/zlib" && mkdir -p "$BUILD/zlib" "$PREFIX/lib" "$PREFIX/include"
  tar -xjf "$BUILD/src/$ZLIB_ORIG" -C "$BUILD/zlib" --strip-components=1
  cd "$BUILD/zlib"
  local objs=()
  for f in adler32 compress crc32 deflate gzclose gzlib gzread gzwrite infback \
           inffast inflate inftrees trees uncompr zutil; do
    $CLANG $WASM_CFLAGS -D_LARGEFILE64_SOURCE=1 -DHAVE_HIDDEN -c "$f.c" -o "$f.o"
    objs+=("$f.o")
  done
  llvm-ar-19 rcsD "$PREFIX/lib/libz.a" "${objs[@]}"
  cp zlib.h zconf.h "$PREFIX/include/"
}

stage_compress() {
  PYBOX_BUILD_DIR=$BUILD JOBS=$JOBS OPT_CFLAGS=$OPT_CFLAGS "$ROOT/scripts/build-compress.sh"
}

stage_sqlite() {
  PYBOX_BUILD_DIR=$BUILD JOBS=$JOBS OPT_CFLAGS=$OPT_CFLAGS "$ROOT/scripts/build-sqlite.sh"
}

stage_libcxx() {
  PYBOX_BUILD_DIR=$BUILD JOBS=$JOBS "$ROOT/scripts/build-libcxx.sh"
}

stage_openblas() {
  PYBOX_BUILD_DIR=$BUILD JOBS=$JOBS "$ROOT/scripts/build-openblas.sh"
}

stage_cpython() {
  log "cpython $PY_VERSION"
  local src=$BUILD/cpython
  rm -rf "$src" && mkdir -p "$src"
  tar -xzf "$BUILD/src/$PY_ORIG" -C "$src" --strip-components=1
  cd "$src"
  patch -p1 < "$ROOT/scripts/cpython/pybox.patch"
  if [ "${PYBOX_NO_YIELD:-}" = 1 ]; then
    # Benchmark-only: the same build without the periodic yield, to measure
    # what the countdown costs. Such a bundle must never ship: a busy guest
    # would stall the Go process (docs/RATIONALE.md).
    sed -i 's/do { if (--_Py_pybox_tick < 0) { _Py_pybox_yield(); } } while (0)//' \
      Include/internal/pycore_emscripten_signal.h
  fi
  cp "$ROOT/scripts/cpython/_pyboxmodule.c" Modules/
  # The profile is read from inside $BUILD, so that the compiler flags
  # sysconfig records are rewritten like every other build path.
  local pgo_cflags=""
  if [ -n "$PGO_PROFILE" ]; then
    [ -f "$PGO_PROFILE" ] || { echo "PGO_PROFILE=$PGO_PROFILE: no such file (PGO_PROFILE= builds without PGO)" >&2; exit 1; }
    mkdir -p "$BUILD/pgo" && cp "$PGO_PROFILE" "$BUILD/pgo/python.profdata"
    pgo_cflags=" -fprofile-instr-use=$BUILD/pgo/python.profdata -Wno-profile-instr-unprofiled -Wno-profile-instr-out-of-date"
  fi

  mkdir -p builddir/wasi && cd builddir/wasi
  # clock_nanosleep: wazero's poll_oneoff rejects absolute-time clocks, so
  # time.sleep() would fail with ENOTSUP; the relative fallback works.
  # pkg-config must only see libraries built for wasm (none are registered
  # with it), never the host's: configure would otherwise enable modules
  # such as _lzma against host headers.
  mkdir -p "$PREFIX/lib/pkgconfig"
  PKG_CONFIG_LIBDIR=$PREFIX/lib/pkgconfig PKG_CONFIG_PATH= \
  CONFIG_SITE=$src/Tools/wasm/config.site-wasm32-wasi \
  ac_cv_func_clock_nanosleep=no ac_cv_lib_rt_clock_nanosleep=no \
  ax_cv_c_float_words_bigendian=no \
  CC="$CLANG" CPP="$CLANG -E" AR=llvm-ar-19 RANLIB=llvm-ranlib-19 READELF=true \
  CFLAGS="${WASM_CFLAGS/$OPT_CFLAGS/$PY_OPT_CFLAGS}$pgo_cflags -Wno-error=int-conversion -Wno-int-conversion" \
  CPPFLAGS="-I$PREFIX/include" \
  LDFLAGS="--target=wasm32-wasi --sysroot=$SYSROOT -L$PREFIX/lib -z stack-size=$STACK_SIZE -Wl,--stack-first ${INITIAL_MEMORY:+-Wl,--initial-memory=$INITIAL_MEMORY }-Wl,--max-memory=4294967296" \
  ZLIB_CFLAGS="-I$PREFIX/include" ZLIB_LIBS="-L$PREFIX/lib -lz" \
  "$src/configure" \
    --host=wasm32-unknown-wasi --build=x86_64-pc-linux-gnu \
    --with-build-python=/usr/bin/python3.11 \
    --prefix=/usr/local --disable-ipv6 --disable-test-modules \
    --with-ensurepip=no --without-static-libpython --with-pymalloc \
    > "$BUILD/cpython-configure.log" 2>&1 || { tail -40 "$BUILD/cpython-configure.log"; exit 1; }
  # configure.ac appends its own stack size (512 KiB) and initial memory
  # (10 MiB) after ours in LDFLAGS_NODIST; drop them so ours win.
  # Makefile.pre too: makesetup regenerates Makefile from it once
  # Modules/Setup.local is newer, which undid this edit (python.wasm had a
  # 512 KiB stack).
  sed -i -e "s/-z stack-size=524288//" -e "s/-Wl,--initial-memory=10485760//" Makefile.pre Makefile
  # getpath.c is compiled with the source dir as VPATH (only used to spot a
  # build tree, which the guest never is): a fixed name instead, so that
  # python.wasm does not depend on where it was built.
  sed -i -e "s|-DVPATH='\"\$(VPATH)\"'|-DVPATH='\"/pybox-build/cpython\"'|" Makefile.pre Makefile
  # sys.version's build date and time (getbuildinfo.c's __DATE__/__TIME__)
  # from SOURCE_DATE_EPOCH, written into the rule: clang reads the variable
  # only from the environment, so a later `make` in this tree without it (a
  # relink after rebuilding one package) put the wall clock into python.wasm
  # (the bundle of commit 8641438 has "Nov 23 2026, 22:39:27"; with that date
  # a rebuild reproduces its python.wasm byte for byte).
  local bdate btime
  bdate=$(date -u -d "@$SOURCE_DATE_EPOCH" '+%b %e %Y')
  btime=$(date -u -d "@$SOURCE_DATE_EPOCH" '+%H:%M:%S')
  sed -i -e "s|-o \$@ \$(srcdir)/Modules/getbuildinfo.c|-DDATE='\"$bdate\"' -DTIME='\"$btime\"' &|" Makefile.pre Makefile
  grep -qF -- "-DDATE='\"$bdate\"' -DTIME='\"$btime\"' -o" Makefile
  # python.wasm is a WASI reactor (no _start): the host calls _initialize,
  # then pybox_boot, which starts the interpreter and returns with it at
  # rest, so its memory can be snapshotted and mapped into new instances
  # (docs/RATIONALE.md, "Fresh interpreters from a memory snapshot").
  # __stack_pointer is exported so the host can check the guest is at rest.
  # Only python.wasm is linked with these flags (not configure's tests).
  sed -i -e "s/^CONFIGURE_LDFLAGS_NODIST=.*/& $REACTOR_LDFLAGS/" Makefile.pre Makefile
  # Builtin modules of ours; makesetup reads Setup.local from the build dir.
  cp "$ROOT/scripts/cpython/Setup.local.in" Modules/Setup.local
  # Extension packages: compiled against this configured tree (pyconfig.h),
  # archived into $PREFIX/lib; each adds one _pybox_ext_<pkg> line.
  if [ "$PACKAGES_PREBUILT" != 1 ]; then
    rm -rf "$BUILD/site-packages" "$BUILD/share" "$BUILD"/setup-*.local "$BUILD"/manifest-*.json
  fi
  # One Qhull: scipy.spatial links matplotlib's (build-scipy.sh).
  case " $PACKAGES " in *" matplotlib "*) export SCIPY_QHULL_FROM=$PREFIX/lib/libmatplotlib.a ;; esac
  for pkg in $PACKAGES; do
    if [ "$PACKAGES_PREBUILT" != 1 ]; then
      PYBOX_BUILD_DIR=$BUILD JOBS=$JOBS OPT_CFLAGS=$OPT_CFLAGS "$ROOT/scripts/build-$pkg.sh"
    fi
    [ -f "$BUILD/setup-$pkg.local" ] && [ -f "$BUILD/manifest-$pkg.json" ] \
      || { echo "$pkg: no setup-$pkg.local/manifest-$pkg.json in $BUILD (build it, or unset PACKAGES_PREBUILT)" >&2; exit 1; }
    cat "$BUILD/setup-$pkg.local" >> Modules/Setup.local
  done
  # No global name may be defined by two packages' archives: the linker
  # would bind one of them silently to the other's code.
  python3 "$ROOT/scripts/lib/link-dups.py" Modules/Setup.local
  make -j"$JOBS" MODULE__JSON_CFLAGS="$JSON_CFLAGS" > "$BUILD/cpython-make.log" 2>&1 || { tail -40 "$BUILD/cpython-make.log"; exit 1; }
  rm -rf "$BUILD/install"
  make install DESTDIR="$BUILD/install" > "$BUILD/cpython-install.log" 2>&1 || { tail -40 "$BUILD/cpython-install.log"; exit 1; }
  grep -E "^(Python build finished|The necessary bits|Failed to build|Following modules built)" -A4 "$BUILD/cpython-make.log" > "$BUILD/cpython-modules.txt" || true
}

# Trimmed from the stdlib: tests, GUI, packaging bootstrap and modules that
# cannot work without processes, sockets or a terminal in WASI.
# config-3.11-*: the build's Makefile, Setup and config.c (named after the
# build machine, config-3.11-x86_64-linux-gnu, in this cross build), which
# hold build-dir paths; nothing in the sandbox builds extensions.
STDLIB_DROP="test idlelib tkinter turtledemo turtle.py ensurepip lib2to3 venv
  pydoc_data config-3.11-* __phello__ unittest/test sqlite3/test
  ctypes/test distutils/tests tkinter/test"

stage_package() {
  log "package"
  local lib=$BUILD/install/usr/local/lib/python3.11
  rm -rf "$STAGE" && mkdir -p "$STAGE/lib"
  cp -a "$lib" "$STAGE/lib/python3.11"
  local sl=$STAGE/lib/python3.11
  local drops; set -f; drops=($STDLIB_DROP); set +f
  for d in "${drops[@]}"; do rm -rf "${sl:?}"/$d; done
  # Modules CPython builds in C only where the OS has users and limits
  # (pwd, grp, resource): pybox's pure-Python ones answer for the sandbox.
  cp "$ROOT"/scripts/cpython/stdlib/*.py "$sl/"
  # Bundled packages' Python files (compiled to .pyc below with the stdlib)
  # and data under share/ (fonts: /usr/local/share/fonts in the guest).
  mkdir -p "$sl/site-packages"
  if [ -d "$BUILD/site-packages" ]; then cp -a "$BUILD/site-packages/." "$sl/site-packages/"; fi
  if [ -d "$BUILD/share" ]; then cp -a "$BUILD/share" "$STAGE/share"; fi
  # Pure-Python packages (openpyxl, sympy, jinja2, ...) and dist-info for
  # the built-in ones: scripts/build-purepy.sh.
  if [ "${PUREPY:-1}" = 1 ]; then
    PYBOX_BUILD_DIR=$BUILD "$ROOT/scripts/build-purepy.sh"
    cp -a "$BUILD/site-packages-pure/." "$sl/site-packages/"
    # Their test suites are not needed to use them (sympy's alone is ~20 MB).
    for pkg in sympy networkx mpmath; do
      [ -d "$sl/site-packages/$pkg" ] && find "$sl/site-packages/$pkg" -type d -name tests -prune -exec rm -rf {} +
    done
  fi
  find "$sl" -name __pycache__ -type d -prune -exec rm -rf {} +
  # The build dir's path, in sysconfig's data (configure's variables) and
  # numpy's __config__ (compiler command lines), as the objects have it
  # (-ffile-prefix-map): the bundle must not depend on where it was built.
  grep -rlF --include='*.py' "$BUILD" "$sl" | xargs -r sed -i "s#$BUILD#/pybox-build#g"
  if grep -rqF "$BUILD" "$sl"; then
    echo "build dir path left in:" >&2; grep -rlF "$BUILD" "$sl" >&2; exit 1
  fi
  # Likewise the checkout's path: scipy's __config__ names the compiler
  # wrappers under scripts/ (scripts/pillow/sjlj/wasm-cc, ...);
  # build-scipy.sh maps it already, for the checkout that built scipy.
  { grep -rlF --include='*.py' "$ROOT/" "$sl" || true; } | xargs -r sed -i "s#$ROOT/#/pybox-src/#g"
  if grep -rqF "$ROOT/" "$sl"; then
    echo "checkout path left in:" >&2; grep -rlF "$ROOT/" "$sl" >&2; exit 1
  fi
  # Sourceless .pyc next to where the .py was: no stat of sources at import.
  /usr/bin/python3.11 -m compileall -q -b -j "$JOBS" \
    --invalidation-mode unchecked-hash -d /usr/local/lib/python3.11 "$sl" >/dev/null
  find "$sl" -name '*.py' -delete
  find "$sl" -name __pycache__ -type d -prune -exec rm -rf {} +
  # lib-dynload is empty (every extension is built in) but must exist:
  # it is the landmark CPython uses to find exec_prefix.
  mkdir -p "$sl/site-packages" "$sl/lib-dynload"
  # The loop guard (internal/loopguard): every loop in C code counts down a
  # shared counter and yields to Go every $LOOP_YIELD iterations, and traps
  # once the host sets pybox_loop_kill. The eval loop is skipped: it yields
  # through CPython's own eval-breaker hook (scripts/cpython/pybox.patch).
  # -strip drops custom sections (names, producers, debug info).
  if [ "${PYBOX_NO_LOOPGUARD:-}" = 1 ]; then
    # Benchmark-only baseline (see PYBOX_NO_YIELD): never ship it.
    llvm-strip-19 -o "$STAGE/python.wasm" "$BUILD/cpython/builddir/wasi/python.wasm"
    echo "loop guard: none (benchmark baseline)" > "$BUILD/loopguard.log"
  else
    (cd "$ROOT" && go run ./scripts/loopguard -in "$BUILD/cpython/builddir/wasi/python.wasm" \
      -out "$STAGE/python.wasm" -skip _PyEval_EvalFrameDefault -yield "$LOOP_YIELD" -strip) \
      > "$BUILD/loopguard.log"
  fi
  cat "$BUILD/loopguard.log" >&2

  write_manifest > "$STAGE/manifest.json"
  mkdir -p "$ASSETS"
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --format=gnu \
    -C "$STAGE" -cf "$BUILD/runtime.tar" .
  zstd -q -19 -f "$BUILD/runtime.tar" -o "$ASSETS/runtime.tar.zst"
  # pybox keys the extracted bundle by this (assets.RuntimeSHA256) instead
  # of hashing 31 MB in every process.
  (cd "$ASSETS" && sha256sum runtime.tar.zst | cut -d' ' -f1 > runtime.tar.zst.sha256)
  cp "$STAGE/manifest.json" "$ASSETS/runtime-manifest.json"
  # The package list the tool descriptions show, read without unpacking the
  # bundle (assets.Packages); only for the bundle embedded in pybox.
  if [ "$ASSETS" = "$ROOT/assets" ]; then
    (cd "$ROOT" && go test -count=1 ./packages -run '^TestEmbeddedPackages$' -update)
  fi
  log "wrote $ASSETS/runtime.tar.zst ($(stat -c %s "$ASSETS/runtime.tar.zst") bytes)"
}

# pgo_manifest: the profile CPython was optimized with, as a JSON value.
pgo_manifest() {
  if [ -z "$PGO_PROFILE" ]; then echo null; return; fi
  local name=$PGO_PROFILE
  case $name in "$ROOT"/*) name=${name#"$ROOT"/} ;; *) name=$(basename "$name") ;; esac
  echo "{\"file\": \"$name\", \"sha256\": \"$(sha256sum "$PGO_PROFILE" | cut -d' ' -f1)\"}"
}

write_manifest() {
  local wasm=$STAGE/python.wasm
  local nfiles; nfiles=$(find "$STAGE/lib" -type f | wc -l)
  local libsize; libsize=$(du -sb "$STAGE/lib" | cut -f1)
  cat <<JSON
{
  "format": 1,
  "python": "$PY_VERSION",
  "sources": [
    {"name": "cpython", "version": "$PY_VERSION", "debian_source": "$PY_DEB_SRC", "file": "$PY_ORIG", "sha256": "$PY_ORIG_SHA256", "license": "PSF-2.0", "patches": ["scripts/cpython/pybox.patch", "scripts/cpython/_pyboxmodule.c"]},
    {"name": "zlib", "version": "$ZLIB_VERSION", "debian_source": "$ZLIB_DEB_SRC", "file": "$ZLIB_ORIG", "sha256": "$ZLIB_ORIG_SHA256", "license": "Zlib"}$(
    for m in $BUILD/compress-manifest.json $BUILD/sqlite-manifest.json $BUILD/libcxx-manifest.json $( [ -f "$BUILD/openblas-manifest.json" ] && echo "$BUILD/openblas-manifest.json") $(for pkg in $PACKAGES; do echo "$BUILD/manifest-$pkg.json"; done) $( [ "${PUREPY:-1}" = 1 ] && echo "$BUILD/manifest-purepy.json"); do python3 -c 'import json,sys; print("".join(", " + json.dumps(e) for e in json.load(open(sys.argv[1]))), end="")' "$m"; done)
  ],
  "toolchain": {"cc": "$($CLANG --version | head -1)", "cc_sjlj": "$(clang-22 --version 2>/dev/null | head -1)", "wasi_libc": "$(dpkg-query -W -f='${Version}' wasi-libc)", "build_python": "$(/usr/bin/python3.11 -V 2>&1)"},
  "flags": {"cflags": "${WASM_CFLAGS//$BUILD/<build>}", "cpython_opt": "$PY_OPT_CFLAGS", "cpython_json": "$JSON_CFLAGS", "cpython_pgo_profile": $(pgo_manifest), "stack_size": $STACK_SIZE, "initial_memory": "${INITIAL_MEMORY:-wasm-ld minimum}", "ldflags_python": "$REACTOR_LDFLAGS", "loop_yield": $LOOP_YIELD, "loopguard": "$(sed -e "s#$BUILD#<build>#g" -e 's/  */ /g' "$BUILD/loopguard.log" | paste -sd ';' - | sed -e 's/;/; /g' -e 's/"/\\"/g')"},
  "files": {
    "python.wasm": {"size": $(stat -c %s "$wasm"), "sha256": "$(sha "$wasm")"},
    "lib": {"files": $nfiles, "size": $libsize}
  },
  "builtin_modules": "$(cd "$BUILD/cpython/builddir/wasi" && grep -h '^[A-Za-z_]' Modules/Setup.stdlib Modules/Setup.local Modules/Setup.bootstrap 2>/dev/null | grep -v '^\*' | awk '{print $1}' | sort -u | tr '\n' ' ')"
}
JSON
}

stages=${*:-sources zlib compress sqlite libcxx openblas cpython package}
for s in $stages; do "stage_$s"; done
