#!/usr/bin/env bash
# newpy.sh — CPython 3.13's interpreter against 3.11's, both compiled the
# same way for wasm32-wasi, on the fifteen benchmarks of pyperf.sh
# (docs/cpu.md, "A newer CPython: a measured proposal").
#
#   bash scripts/bench/newpy.sh            # build what is missing, then run
#   bash scripts/bench/newpy.sh build      # only build
#   ROUNDS=3 SIDES="native wz311 wz313" bash scripts/bench/newpy.sh run
#
# It fetches nothing: the two source tarballs must be on disk (PY311_ORIG,
# default build/src of the checkout, where build-runtime.sh puts it;
# PY313_ORIG and WASI_LIBC_DEB, default $WORK/src; sha256 pinned below) and the pyperformance sdist in TOOLS, where
# pyperf.sh keeps it. Where they come from:
#   - 3.11.2: the orig tarball of Debian bookworm's python3.11 source package,
#     the one scripts/build-runtime.sh builds (`apt-get source --download-only
#     python3.11/bookworm`).
#   - 3.13.5: the orig tarball of Debian trixie's python3.13 source package
#     (`apt-get source --download-only python3.13` with a trixie deb-src
#     line; bookworm has no 3.13).
#
# Both are built as plain WASI command modules (_start): no pybox.patch, no
# _pyboxmodule.c, no packages, no PGO; the compiler (clang-19) and flags of
# build-runtime.sh otherwise (-O2 -flto, its WASM_CFLAGS feature flags, the
# 8 MiB stack, -Wl,--stack-first). 3.13 needs a native python3.13 as its
# build python: built first from the same tarball (BUILD_PY313 to give one).
#
# Sides (SIDES, native is always the reference):
#   native  Debian's /usr/bin/python3.11, as in pyperf.sh
#   wz311   3.11.2's python.wasm under pybox's wazero fork (scripts/bench/newpy,
#           guarded memory as pybox, a compilation cache so compiling is not
#           measured)
#   wz313   3.13.5's, the same way
#   wt311   3.11.2's python.wasm under wasmtime (PyPI package, as pyperf.sh;
#           compiled once and kept)
#   wt313   3.13.5's, the same way
# Each run is a fresh process; a round runs each benchmark once on every side
# in turn. Reported: the timed loops' seconds (summarize.py's min and median
# ratios against native) and each run's process CPU.
#
# Environment: WORK (/tmp/newpy: builds, installs, caches), ROUNDS (3),
# SIDES ("native wz311 wz313 wt311 wt313"), BENCHES, JOBS (2), NICE (19),
# PY311_ORIG, PY313_ORIG, BUILD_PY313, TOOLS, OUT (keep the raw runs),
# WASMTIME_VERSION.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SHIM=$ROOT/scripts/bench/pyperf
WORK=${WORK:-/tmp/newpy}
JOBS=${JOBS:-2}
NICE=${NICE:-19}
ROUNDS=${ROUNDS:-3}
SIDES=${SIDES:-native wz311 wz313 wt311 wt313}
NATIVE=${NATIVE:-/usr/bin/python3.11}
TOOLS=${TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/pybox-bench}
WASMTIME_VERSION=${WASMTIME_VERSION:-50.0.1}
PYPERFORMANCE_VERSION=1.14.0
PYPERFORMANCE_SHA256=91f74393997b604375ad5b79bf569a24076d70181c076a53abad5383a238a8aa

PY311_ORIG=${PY311_ORIG:-$ROOT/build/src/python3.11_3.11.2.orig.tar.gz}
PY311_SHA256=2411c74bda5bbcfcddaf4531f66d1adc73f247f529aee981b029513aefdbf849
PY313_ORIG=${PY313_ORIG:-$WORK/src/python3.13_3.13.5.orig.tar.xz}
PY313_SHA256=93e583f243454e6e9e4588ca2c2662206ad961659863277afcdb96801647d640

CLANG=clang-19
# wasi-libc: bookworm's (snapshot 2022-05-10, the one build-runtime.sh
# uses) has no pthread.h, and 3.13 requires one (Python/thread.c: "Require
# native threads"); trixie's binary package (snapshot 2024-12-09) has
# single-threaded stubs. It is unpacked (dpkg -x) into a private sysroot:
#   apt-get download wasi-libc   # with a trixie "deb" line, in a private apt dir
# LIBC311/LIBC313 pick the libc of each build: 2022 (the system's) or 2024.
WASI_LIBC_DEB=${WASI_LIBC_DEB:-$WORK/src/wasi-libc_0.0~git20241209.574b88d-2_all.deb}
WASI_LIBC_DEB_SHA256=b7716260051d289248b7667f81fa2792c125d888ff51da3fa09c6272cc0bd11d
# Known problem: 3.11 on the 2024 libc finds dlopen, and its `make install`
# stops at sharedinstall (no xxlimited .so) after the standard library is
# installed; python.wasm was then copied from the build folder by hand.
LIBC311=${LIBC311:-2022}
LIBC313=${LIBC313:-2024}
# As build-runtime.sh: WASM_CFLAGS with CPython's -O2 -flto (--sysroot
# added per build).
WASM_CFLAGS="--target=wasm32-wasi -O2 -flto -mbulk-memory -mnontrapping-fptoint -msign-ext -mmutable-globals"
WASM_LDFLAGS="--target=wasm32-wasi -z stack-size=8388608 -Wl,--stack-first -Wl,--max-memory=4294967296"

. "$ROOT/scripts/lib/build-common.sh"
n() { nice -n "$NICE" "$@"; }

# sysroot 2022|2024: a private sysroot (without one Debian's clang adds the
# host's /usr/include) over bookworm's wasi-libc or trixie's.
sysroot() {
	local s=$WORK/sysroot-$1 usr=/usr
	if [ "$1" = 2024 ]; then
		usr=$WORK/wasi-libc-2024/usr
		if [ ! -d "$usr/lib/wasm32-wasi" ]; then
			check_sha "$WASI_LIBC_DEB" "$WASI_LIBC_DEB_SHA256"
			dpkg -x "$WASI_LIBC_DEB" "$WORK/wasi-libc-2024"
		fi
	fi
	mkdir -p "$s/lib"
	ln -sfn "$usr/include/wasm32-wasi" "$s/include"
	ln -sfn "$usr/lib/wasm32-wasi" "$s/lib/wasm32-wasi"
}

# unpack TARBALL DIR: a fresh source tree.
unpack() {
	rm -rf "$2" && mkdir -p "$2"
	tar -xf "$1" -C "$2" --strip-components=1
}

# The build python for 3.13: the same source, built natively.
build_native313() {
	if [ -n "${BUILD_PY313:-}" ]; then return; fi
	BUILD_PY313=$WORK/native313/inst/bin/python3.13
	[ -x "$BUILD_PY313" ] && return
	log "native python 3.13.5 (build python)"
	unpack "$PY313_ORIG" "$WORK/native313/src"
	mkdir -p "$WORK/native313/build" && cd "$WORK/native313/build"
	n ../src/configure --prefix="$WORK/native313/inst" --with-ensurepip=no \
		--disable-test-modules >configure.log 2>&1 || { tail -30 configure.log; exit 1; }
	n make -j"$JOBS" >make.log 2>&1 || { tail -30 make.log; exit 1; }
	n make install >install.log 2>&1 || { tail -30 install.log; exit 1; }
}

# build_wasm VER TARBALL BUILDPY LIBC: $WORK/wasm-VER/python.wasm and its
# standard library in $WORK/wasm-VER/inst/usr/local/lib/pythonVER.
build_wasm() {
	local ver=$1 tarball=$2 buildpy=$3 d=$WORK/wasm-$1 sr=$WORK/sysroot-$4
	sysroot "$4"
	[ -f "$d/python.wasm" ] && [ -d "$d/inst/usr/local/lib/python$ver" ] && return
	log "CPython $ver for wasm32-wasi"
	unpack "$tarball" "$d/src"
	mkdir -p "$d/src/builddir/wasi" && cd "$d/src/builddir/wasi"
	PKG_CONFIG_LIBDIR=$WORK/empty-pkgconfig PKG_CONFIG_PATH= \
	CONFIG_SITE=$d/src/Tools/wasm/config.site-wasm32-wasi \
	ac_cv_func_clock_nanosleep=no ac_cv_lib_rt_clock_nanosleep=no \
	ax_cv_c_float_words_bigendian=no \
	CC="$CLANG" CPP="$CLANG -E" AR=llvm-ar-19 RANLIB=llvm-ranlib-19 READELF=true \
	CFLAGS="$WASM_CFLAGS --sysroot=$sr -Wno-error=int-conversion -Wno-int-conversion" \
	LDFLAGS="$WASM_LDFLAGS --sysroot=$sr" \
		n ../../configure \
		--host=wasm32-unknown-wasi --build=x86_64-pc-linux-gnu \
		--with-build-python="$buildpy" \
		--prefix=/usr/local --disable-ipv6 --disable-test-modules \
		--with-ensurepip=no --without-static-libpython --with-pymalloc \
		>"$d/configure.log" 2>&1 || { tail -40 "$d/configure.log"; exit 1; }
	# configure appends its own stack size and initial memory after ours
	# (3.11: 512 KiB and 10 MiB; 3.13: 8 MiB and 20 MiB): drop them, as
	# build-runtime.sh does, so both builds link with the same ones.
	sed -i -e 's/-z stack-size=524288//' -e 's/-z stack-size=8388608 -Wl,--stack-first -Wl,--initial-memory=20971520//' \
		-e 's/-Wl,--initial-memory=10485760//' Makefile.pre Makefile
	# configure takes the platform triplet from the preprocessor (CPP, which
	# has no --target here, as in build-runtime.sh): x86_64-linux-gnu. 3.13
	# then turns on the perf trampoline, x86-64 assembly that clang cannot
	# assemble for wasm32 (Python/asm_trampoline.o); 3.11 has none.
	perl -0pi -e 's| \\\n\t\tPython/asm_trampoline.o\n|\n|' Makefile.pre Makefile
	sed -i -e 's|^#define PY_HAVE_PERF_TRAMPOLINE 1|/* #undef PY_HAVE_PERF_TRAMPOLINE */|' pyconfig.h
	n make -j"$JOBS" >"$d/make.log" 2>&1 || { tail -40 "$d/make.log"; exit 1; }
	rm -rf "$d/inst"
	# -o python.wasm: install would otherwise relink it (getbuildinfo.o is
	# remade), another LTO link of 10 minutes on a busy machine.
	n make install DESTDIR="$d/inst" -o python.wasm -o Modules/getbuildinfo.o >"$d/install.log" 2>&1 ||
		{ tail -40 "$d/install.log"; exit 1; }
	cp python.wasm "$d/python.wasm"
}

build() {
	mkdir -p "$WORK/empty-pkgconfig"
	check_sha "$PY311_ORIG" "$PY311_SHA256"
	check_sha "$PY313_ORIG" "$PY313_SHA256"
	build_native313
	build_wasm 3.11 "$PY311_ORIG" /usr/bin/python3.11 "$LIBC311"
	build_wasm 3.13 "$PY313_ORIG" "$BUILD_PY313" "$LIBC313"
	log "runner"
	(cd "$ROOT" && go build -o "$WORK/newpy-run" ./scripts/bench/newpy)
}

run_all() {
	local bench=$WORK/bench sdist=$TOOLS/pyperformance-$PYPERFORMANCE_VERSION.tar.gz
	[ -f "$sdist" ] || { echo "newpy.sh: no $sdist (bash scripts/bench/pyperf.sh fetches it)" >&2; exit 1; }
	echo "$PYPERFORMANCE_SHA256  $sdist" | sha256sum -c --quiet -
	rm -rf "$bench" && mkdir -p "$bench/shim"
	local data=pyperformance-$PYPERFORMANCE_VERSION/pyperformance/data-files/benchmarks
	tar -xzf "$sdist" -C "$WORK" "$data"
	mv "$WORK/$data"/bm_* "$bench/" && rm -rf "$WORK/pyperformance-$PYPERFORMANCE_VERSION"
	cp "$SHIM/pyperf.py" "$SHIM/bench.py" "$bench/shim/"
	local benches=${BENCHES:-$("$NATIVE" -c "import sys; sys.path.insert(0, '$SHIM'); import bench; print(*bench.BENCHMARKS)")}

	local have=(native) side ver
	local wt=$TOOLS/wasmtime-$WASMTIME_VERSION
	for side in $SIDES; do
		case $side in
		native) ;;
		wz311 | wz313)
			ver=3.${side#wz3}
			# Fill the compile cache, so no run compiles.
			n "$WORK/newpy-run" -wasm "$WORK/wasm-$ver/python.wasm" -cache "$WORK/wazero-cache" -compile-only
			have+=("$side")
			;;
		wt311 | wt313)
			ver=3.${side#wt3}
			if [ ! -x "$wt/bin/python" ] || ! "$wt/bin/python" -c 'import wasmtime' 2>/dev/null; then
				echo "newpy.sh: $side skipped (no wasmtime venv in $wt: run pyperf.sh with SIDES=wasmtime once)" >&2
				continue
			fi
			[ -f "$WORK/wasm-$ver/python.cwasm" ] ||
				n "$wt/bin/python" "$ROOT/scripts/bench/newpy/wasmtime_cmd.py" --wasm "$WORK/wasm-$ver/python.wasm" \
					--cwasm "$WORK/wasm-$ver/python.cwasm" --compile-only
			have+=("$side")
			;;
		*) echo "newpy.sh: unknown side $side" >&2; exit 1 ;;
		esac
	done

	local results=${OUT:-$WORK/results} loads=() round b out secs cpu cmd
	: >"$results" && : >"$results.cpu"
	echo "newpy.sh: sides ${have[*]}; $ROUNDS rounds" >&2
	for round in $(seq "$ROUNDS"); do
		loads+=("$(cut -d' ' -f1 /proc/loadavg)")
		for b in $benches; do
			local line="round $round/$ROUNDS $b:"
			for side in "${have[@]}"; do
				case $side in
				native) cmd=("$NATIVE" "$bench/shim/bench.py" "$bench" "$b") ;;
				wz3*)
					ver=3.${side#wz3}
					cmd=("$WORK/newpy-run" -wasm "$WORK/wasm-$ver/python.wasm" -cache "$WORK/wazero-cache"
						-dir "$WORK/wasm-$ver/inst/usr/local:/usr/local" -dir "$bench:/bench"
						-- python -I -u -X utf8 /bench/shim/bench.py /bench "$b") ;;
				wt3*)
					ver=3.${side#wt3}
					cmd=("$wt/bin/python" "$ROOT/scripts/bench/newpy/wasmtime_cmd.py" --wasm "$WORK/wasm-$ver/python.wasm"
						--cwasm "$WORK/wasm-$ver/python.cwasm" --dir "$WORK/wasm-$ver/inst/usr/local:/usr/local"
						--dir "$bench:/bench" -- python -I -u -X utf8 /bench/shim/bench.py /bench "$b") ;;
				esac
				# The subshell's `times`: the side's process CPU, children included.
				out=$( (
					n "${cmd[@]}" 2>"$WORK/stderr" || exit
					times >"$WORK/times"
				)) || { cat "$WORK/stderr" >&2; echo "newpy.sh: $side failed on $b: ${cmd[*]}" >&2; exit 1; }
				cpu=$(sed -n 2p "$WORK/times" | awk '{ n = 0; for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); n += t[1] * 60 + t[2] } printf "%.3f", n }')
				secs=$(printf '%s\n' "$out" | sed -n 's/^pyperf-shim: {.*"seconds": \([0-9.eE+-]*\)}$/\1/p')
				[ -n "$secs" ] || { printf '%s\n' "$out" >&2; cat "$WORK/stderr" >&2; echo "newpy.sh: $side gave no time for $b" >&2; exit 1; }
				echo "$side $b $round $secs" >>"$results"
				echo "$side $b $round $cpu" >>"$results.cpu"
				line+=" $side $(printf '%.3f' "$secs")"
			done
			echo "$line" >&2
		done
	done
	loads+=("$(cut -d' ' -f1 /proc/loadavg)")
	echo
	"$NATIVE" "$SHIM/summarize.py" "$results" "${have[@]}"
	echo
	echo "process CPU (user+sys, start-up included) against native:"
	"$NATIVE" "$SHIM/summarize.py" --cpu "$results.cpu" "${have[@]}"
	for pair in "wz311 wz313" "wt311 wt313"; do
		case " ${have[*]} " in *" ${pair% *} "*) ;; *) continue ;; esac
		case " ${have[*]} " in *" ${pair#* } "*)
			echo
			echo "process CPU of ${pair#* } against ${pair% *} in the same rounds:"
			"$NATIVE" "$SHIM/summarize.py" --cpu "$results.cpu" $pair
			echo
			echo "timed loops of ${pair#* } against ${pair% *}:"
			"$NATIVE" "$SHIM/summarize.py" "$results" $pair ;;
		esac
	done
	echo
	echo "native: $("$NATIVE" -VV | head -1); nice $NICE; $(nproc) CPUs; 1-min load average at each round's start and the end: ${loads[*]}"
}

case ${1:-all} in
build) build ;;
wasm311) mkdir -p "$WORK/empty-pkgconfig"; build_wasm 3.11 "$PY311_ORIG" /usr/bin/python3.11 "$LIBC311" ;;
wasm313) mkdir -p "$WORK/empty-pkgconfig"; build_native313; build_wasm 3.13 "$PY313_ORIG" "$BUILD_PY313" "$LIBC313" ;;
run) run_all ;;
all) build && run_all ;;
*) echo "usage: newpy.sh [build|wasm311|wasm313|run|all]" >&2; exit 2 ;;
esac
