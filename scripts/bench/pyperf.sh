#!/usr/bin/env bash
# pyperf.sh — CPU: fifteen pyperformance benchmarks on Debian's python3.11,
# pybox, pybox's own python.wasm under wasmtime, and Pyodide on Node.
#
#   bash scripts/bench/pyperf.sh
#   ROUNDS=3 BENCHES="nbody richards" SIDES="native pybox" bash scripts/bench/pyperf.sh
#   PYBOX=/path/to/pybox OUT=/tmp/runs.txt bash scripts/bench/pyperf.sh
#   PYBOX=new/pybox PYBOX2=old/pybox PYBOX2_CACHE_DIR=/tmp/old-cache \
#     ROUNDS=3 SIDES="native pybox pybox2" bash scripts/bench/pyperf.sh
#
# The benchmark files are pyperformance's own (bm_*/run_benchmark.py from its
# sdist, fetched from PyPI at run time, version and sha256 pinned below), run
# through our pyperf stand-in (scripts/bench/pyperf/pyperf.py) by
# scripts/bench/pyperf/bench.py, which fixes each benchmark's loop count:
# every side does the same work with the same files. Each run is a fresh
# process. A round runs every benchmark once on every side, one benchmark
# after the other, so a change in the machine's load hits all sides of a
# benchmark alike. Output: per benchmark the native median time and, for
# every other side, the min ratio (fastest run / native's fastest) and the
# median ratio (median / native's median), then their geometric means.
# docs/cpu.md explains the sides and has a measured table.
#
# Sides (SIDES, default all four; native is always the reference):
#   native    $NATIVE, Debian's /usr/bin/python3.11
#   pybox     $PYBOX, or built from this checkout; the benchmark folder is
#             mounted read-only at /bench
#   pybox2    $PYBOX2, a second pybox binary (say, the build before a change)
#             run the same way, interleaved with the others, with its own
#             compilation cache folder $PYBOX2_CACHE_DIR if set (a build
#             with other compiled code recompiles python.wasm otherwise)
#             and the runtime bundle $PYBOX2_BUNDLE if set (two bundles, one
#             binary: PYBOX_BUNDLE for the pybox side, PYBOX2_BUNDLE here)
#   wasmtime  pybox's python.wasm and standard library (the bundle pybox
#             extracted into its cache folder, or assets/runtime.tar.zst)
#             under the wasmtime package from PyPI, installed by this script
#             in a venv of $NATIVE (driver: scripts/bench/pyperf/wasmtime_run.py)
#   pyodide   the pyodide npm package on node, installed by this script
#             (driver: scripts/bench/pyperf/pyodide_run.mjs)
#   pyodide2  a second Pyodide release, $PYODIDE2_VERSION (default 314.0.7,
#             CPython 3.14), installed and run the same way, so that both
#             Pyodides are measured in the same rounds
# A side whose runtime cannot be installed is skipped with a message. A side
# that runs but produces no time for a benchmark stops the script (exit 1).
#
# Environment: ROUNDS (5), BENCHES (all fifteen), SIDES, NATIVE, PYBOX,
# PYBOX2, PYBOX2_CACHE_DIR, PYBOX2_BUNDLE,
# TOOLS (downloads kept between runs: ${XDG_CACHE_HOME:-~/.cache}/pybox-bench),
# OUT (keep the raw runs, "SIDE BENCH ROUND SECONDS" per line, in this file,
# and each run's process CPU seconds in the same form in OUT.cpu),
# NICE (nice level of the benchmark processes, 0), PYODIDE_VERSION,
# PYODIDE2_VERSION, WASMTIME_VERSION.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SHIM=$ROOT/scripts/bench/pyperf

PYPERFORMANCE_VERSION=1.14.0
PYPERFORMANCE_SHA256=91f74393997b604375ad5b79bf569a24076d70181c076a53abad5383a238a8aa
WASMTIME_VERSION=${WASMTIME_VERSION:-50.0.1}
PYODIDE_VERSION=${PYODIDE_VERSION:-0.25.1} # CPython 3.11, as the other sides
PYODIDE2_VERSION=${PYODIDE2_VERSION:-314.0.7} # CPython 3.14

NATIVE=${NATIVE:-/usr/bin/python3.11}
ROUNDS=${ROUNDS:-5}
SIDES=${SIDES:-native pybox wasmtime pyodide}
NICE=${NICE:-0}
TOOLS=${TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/pybox-bench}
PYBOX=${PYBOX:-}
PYBOX2=${PYBOX2:-}
PYBOX2_CACHE_DIR=${PYBOX2_CACHE_DIR:-${PYBOX_CACHE_DIR:-}}
PYBOX2_BUNDLE=${PYBOX2_BUNDLE:-}

say() { echo "pyperf.sh: $*" >&2; }
die() {
	say "$*"
	exit 1
}

[ -x "$NATIVE" ] || die "need $NATIVE (apt-get install python3.11)"
"$NATIVE" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' ||
	die "$NATIVE is not Python 3.11"
BENCHES=${BENCHES:-$("$NATIVE" -c "import sys; sys.path.insert(0, '$SHIM'); import bench; print(*bench.BENCHMARKS)")}
mkdir -p "$TOOLS"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# --- the benchmark folder: pyperformance's files and our shim -------------
sdist=$TOOLS/pyperformance-$PYPERFORMANCE_VERSION.tar.gz
if [ ! -f "$sdist" ]; then
	say "fetching the pyperformance $PYPERFORMANCE_VERSION sdist"
	"$NATIVE" -m pip download -q --no-deps --no-binary :all: -d "$WORK/sdist" \
		"pyperformance==$PYPERFORMANCE_VERSION" >&2 ||
		die "pip download pyperformance==$PYPERFORMANCE_VERSION failed (Debian: apt-get install python3-pip)"
	mv "$WORK/sdist/pyperformance-$PYPERFORMANCE_VERSION.tar.gz" "$sdist"
fi
echo "$PYPERFORMANCE_SHA256  $sdist" | sha256sum -c --quiet - || die "$sdist: sha256 mismatch"
BENCH=$WORK/bench
mkdir -p "$BENCH/shim"
folders=$("$NATIVE" -c "import sys; sys.path.insert(0, '$SHIM'); import bench; print(*sorted({f for f, _, _ in bench.BENCHMARKS.values()}))")
data=pyperformance-$PYPERFORMANCE_VERSION/pyperformance/data-files/benchmarks
tar -xzf "$sdist" -C "$WORK" $(for f in $folders; do echo "$data/$f"; done)
mv "$WORK/$data"/bm_* "$BENCH/"
cp "$SHIM/pyperf.py" "$SHIM/bench.py" "$BENCH/shim/"

# --- the sides ----------------------------------------------------------------
# pybox2's command: "$PYBOX2" run, with its own cache folder and bundle if
# given.
pybox2env=()
[ -z "$PYBOX2_CACHE_DIR" ] || pybox2env+=("PYBOX_CACHE_DIR=$PYBOX2_CACHE_DIR")
[ -z "$PYBOX2_BUNDLE" ] || pybox2env+=("PYBOX_BUNDLE=$PYBOX2_BUNDLE")
pybox2=(env "${pybox2env[@]}" "$PYBOX2" run)
have=(native)
for side in $SIDES; do
	case $side in
	native) ;;
	pybox)
		if [ -z "$PYBOX" ]; then
			say "building pybox from $ROOT"
			(cd "$ROOT" && go build -o "$WORK/pybox" ./cmd/pybox) || die "go build ./cmd/pybox failed"
			PYBOX=$WORK/pybox
		fi
		"$PYBOX" run -q -c pass || die "$PYBOX does not run"
		have+=(pybox)
		;;
	pybox2)
		[ -n "$PYBOX2" ] || die "side pybox2 needs PYBOX2 (a pybox binary)"
		"${pybox2[@]}" -q -c pass || die "$PYBOX2 does not run"
		have+=(pybox2)
		;;
	wasmtime)
		# The python.wasm pybox runs: its sha256 starts with what `pybox
		# version` prints. The bundle is extracted in pybox's cache folder.
		if [ -z "$PYBOX" ]; then
			say "building pybox from $ROOT (for its bundle)"
			(cd "$ROOT" && go build -o "$WORK/pybox" ./cmd/pybox) || die "go build ./cmd/pybox failed"
			PYBOX=$WORK/pybox
		fi
		"$PYBOX" run -q -c pass >/dev/null || die "$PYBOX does not run"
		prefix=$("$PYBOX" version | sed -n 's/.*bundle \([0-9a-f]*\).*/\1/p')
		stdlib=
		cache=${PYBOX_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pybox}
		for w in "$cache"/bundle-*/files/python.wasm; do
			[ -f "$w" ] || continue
			case $(sha256sum "$w") in "$prefix"*) stdlib=$(dirname "$w") && break ;; esac
		done
		if [ -z "$stdlib" ] && [ -f "$ROOT/assets/runtime.tar.zst" ]; then
			mkdir -p "$WORK/bundle"
			tar --zstd -xf "$ROOT/assets/runtime.tar.zst" -C "$WORK/bundle" || true
			case $(sha256sum "$WORK/bundle/python.wasm" 2>/dev/null) in "$prefix"*) stdlib=$WORK/bundle ;; esac
		fi
		if [ -z "$stdlib" ]; then
			say "wasmtime: skipped (no extracted bundle with python.wasm $prefix in $cache or assets/)"
			continue
		fi
		wt=$TOOLS/wasmtime-$WASMTIME_VERSION
		if [ ! -x "$wt/bin/python" ] || ! "$wt/bin/python" -c 'import wasmtime' 2>/dev/null; then
			say "installing wasmtime $WASMTIME_VERSION (PyPI) into $wt"
			if ! { "$NATIVE" -m venv "$wt" && "$wt/bin/python" -m pip install -q "wasmtime==$WASMTIME_VERSION"; } >&2; then
				rm -rf "$wt"
				say "wasmtime: skipped (no venv of $NATIVE, or pip install wasmtime==$WASMTIME_VERSION failed; Debian: apt-get install python3.11-venv)"
				continue
			fi
		fi
		WT_PY=$wt/bin/python
		WT_WASM=$stdlib/python.wasm
		WT_CWASM=$wt/python-$prefix.cwasm
		if [ ! -f "$WT_CWASM" ]; then
			say "wasmtime: compiling python.wasm with Cranelift (once, ~1 min)"
			"$WT_PY" "$SHIM/wasmtime_run.py" --wasm "$WT_WASM" --cwasm "$WT_CWASM" --compile-only ||
				die "wasmtime could not compile $WT_WASM"
		fi
		WT_STDLIB=$stdlib
		have+=(wasmtime)
		;;
	pyodide | pyodide2)
		if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
			say "$side: skipped (needs node and npm)"
			continue
		fi
		version=$PYODIDE_VERSION
		[ "$side" = pyodide ] || version=$PYODIDE2_VERSION
		dir=$TOOLS/pyodide-$version/node_modules/pyodide
		if [ ! -f "$dir/pyodide.asm.wasm" ]; then
			say "installing pyodide $version (npm) into $TOOLS/pyodide-$version"
			if ! npm install -s --no-audit --no-fund --prefix "$TOOLS/pyodide-$version" \
				"pyodide@$version" >&2 || [ ! -f "$dir/pyodide.asm.wasm" ]; then
				say "$side: skipped (npm install pyodide@$version failed)"
				continue
			fi
		fi
		if [ "$side" = pyodide ]; then PYODIDE_DIR=$dir; else PYODIDE2_DIR=$dir; fi
		have+=("$side")
		;;
	*) die "unknown side $side (native, pybox, pybox2, wasmtime, pyodide, pyodide2)" ;;
	esac
done

# --- the rounds -------------------------------------------------------------
# run SIDE BENCH prints the seconds the side's timed loops took and the
# process CPU seconds of the run, or stops the script with the side's output.
run() {
	local side=$1 bench=$2 cmd out secs
	case $side in
	native) cmd=("$NATIVE" "$BENCH/shim/bench.py" "$BENCH" "$bench") ;;
	pybox) cmd=("$PYBOX" run -q --mount "$BENCH:/bench:ro" "$BENCH/shim/bench.py" /bench "$bench") ;;
	pybox2) cmd=("${pybox2[@]}" -q --mount "$BENCH:/bench:ro" "$BENCH/shim/bench.py" /bench "$bench") ;;
	wasmtime) cmd=("$WT_PY" "$SHIM/wasmtime_run.py" --wasm "$WT_WASM" --cwasm "$WT_CWASM"
		--stdlib "$WT_STDLIB" --bench "$BENCH" -- /bench/shim/bench.py /bench "$bench") ;;
	pyodide) cmd=(node "$SHIM/pyodide_run.mjs" "$PYODIDE_DIR" "$BENCH" /bench/shim/bench.py /bench "$bench") ;;
	pyodide2) cmd=(node "$SHIM/pyodide_run.mjs" "$PYODIDE2_DIR" "$BENCH" /bench/shim/bench.py /bench "$bench") ;;
	esac
	# The subshell's `times` gives the side's process CPU (user and system,
	# its children included): less moved by other load than the wall time.
	if ! out=$( (
		nice -n "$NICE" "${cmd[@]}" 2>"$WORK/stderr" || exit
		times >"$WORK/times"
	)); then
		cat "$WORK/stderr" >&2
		die "$side failed on $bench: ${cmd[*]}"
	fi
	cpu=$(sed -n 2p "$WORK/times" | awk '{ n = 0; for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); n += t[1] * 60 + t[2] } printf "%.3f", n }')
	secs=$(printf '%s\n' "$out" | sed -n 's/^pyperf-shim: {.*"seconds": \([0-9.eE+-]*\)}$/\1/p')
	if [ -z "$secs" ]; then
		printf '%s\n' "$out" >&2
		cat "$WORK/stderr" >&2
		die "$side produced no time for $bench: ${cmd[*]}"
	fi
	echo "$secs $cpu"
}

results=${OUT:-$WORK/results}
: >"$results"
: >"$results.cpu"
loads=()
say "sides: ${have[*]}; benchmarks: $BENCHES; $ROUNDS rounds"
for round in $(seq "$ROUNDS"); do
	loads+=("$(cut -d' ' -f1 /proc/loadavg)")
	for bench in $BENCHES; do
		line="round $round/$ROUNDS $bench:"
		for side in "${have[@]}"; do
			read -r secs cpu < <(run "$side" "$bench")
			[ -n "$secs" ] || exit 1
			echo "$side $bench $round $secs" >>"$results"
			echo "$side $bench $round $cpu" >>"$results.cpu"
			line+=" $side $(printf '%.3f' "$secs")"
		done
		say "$line"
	done
done
loads+=("$(cut -d' ' -f1 /proc/loadavg)")

echo
"$NATIVE" "$SHIM/summarize.py" "$results" "${have[@]}"
case " ${have[*]} " in *" pybox2 "*) case " ${have[*]} " in *" pybox "*)
	echo
	echo "process CPU (user+sys, start-up included) of pybox against pybox2 in the same rounds:"
	"$NATIVE" "$SHIM/summarize.py" --cpu "$results.cpu" pybox2 pybox
	;;
esac ;; esac
echo
echo "native:   $("$NATIVE" -VV | head -1)"
case " ${have[*]} " in *" pybox "*) echo "pybox:    $PYBOX ($("$PYBOX" version | tr '\n' ' '))${PYBOX_BUNDLE:+, bundle $PYBOX_BUNDLE}" ;; esac
case " ${have[*]} " in *" pybox2 "*) echo "pybox2:   $PYBOX2 ($(env "${pybox2env[@]}" "$PYBOX2" version | tr '\n' ' ')), cache ${PYBOX2_CACHE_DIR:-default}${PYBOX2_BUNDLE:+, bundle $PYBOX2_BUNDLE}" ;; esac
case " ${have[*]} " in *" wasmtime "*) echo "wasmtime: $WASMTIME_VERSION (PyPI wasmtime, Cranelift, opt level speed) running $WT_WASM" ;; esac
case " ${have[*]} " in *" pyodide "*) echo "pyodide:  $PYODIDE_VERSION on node $(node --version)" ;; esac
case " ${have[*]} " in *" pyodide2 "*) echo "pyodide2: $PYODIDE2_VERSION on node $(node --version)" ;; esac
echo "pyperformance $PYPERFORMANCE_VERSION benchmark files; $(nproc) CPUs; 1-min load average at each round's start and the end: ${loads[*]}"
