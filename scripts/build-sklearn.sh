#!/usr/bin/env bash
# build-sklearn.sh — scikit-learn as static extension modules for pybox's python.wasm.
#
#   PYBOX_BUILD_DIR=... scripts/build-sklearn.sh
#
# Needs, in the same build dir: CPython configured in cpython/builddir/wasi,
# numpy built by scripts/build-numpy.sh (its wasm32 headers), libc++ with
# exceptions (scripts/build-libcxx.sh), and scipy (scripts/build-scipy.sh,
# which needs OpenBLAS): scikit-learn's Cython code cimports
# scipy.linalg.cython_blas, whose functions it reaches at run time through
# the capsule table of the scipy.linalg.cython_blas module linked into
# python.wasm. So in build-runtime.sh's PACKAGES the order is
# "numpy ... scipy sklearn" (openblas is a stage of its own, before cpython).
# Produces:
#   $BUILD/prefix/lib/libsklearn.a    the compiled modules + _pybox_ext_sklearn
#   $BUILD/site-packages/sklearn/...  scikit-learn's Python files (no tests)
#   $BUILD/setup-sklearn.local        line to append to Modules/Setup.local
#   $BUILD/manifest-sklearn.json      sources, versions, sha256, license, flags
#
# How: as build-scipy.sh. scikit-learn's meson build, cross-configured for
# wasm32-wasi, generates the Cython and Tempita sources; ninja compiles only
# the extension modules' objects, which are archived with a table of init
# functions and linked into python.wasm. OpenMP is off: meson's
# dependency('OpenMP') is not found for this target, so every prange runs
# single-threaded (sklearn's own fallback when built without OpenMP).
# C++ (trees' and _loss's Cython in C++ mode, libsvm, liblinear, the
# pairwise-distance reductions): clang-22 with wasm exceptions in the
# standard encoding, as scipy's and matplotlib's (Cython's `except +`
# translates C++ exceptions into Python ones by catching them).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${PYBOX_BUILD_DIR:-$ROOT/build}
JOBS=${JOBS:-$(nproc)}
export SOURCE_DATE_EPOCH=1700000000
export LC_ALL=C TZ=UTC

# Newest scikit-learn: 1.9.1 (requires-python >=3.11; builds against
# numpy >=2,<2.6 and scipy >=1.10,<1.19).
SKLEARN_VERSION=1.9.1
SKLEARN_SDIST=scikit_learn-$SKLEARN_VERSION.tar.gz
SKLEARN_SHA256=629cada3e33e2b9bf376cdc7614a47a4140b8aedc1d836579e359736fbd82977
# Host build tools (build machine only). scikit-learn 1.9.1 asks for
# Cython >=3.1.2,<3.2.6 (a bug in 3.2.6+ it works around): 3.2.5, with
# pandas' intp-buffer patch (it applies unchanged). scipy (the wheel of the
# bundled version) is installed in the venv for its .pxd files only
# (cimport scipy.linalg.cython_blas); numpy with it.
CYTHON_VERSION=3.2.5
MESON_VERSION=1.12.1
NINJA_VERSION=1.13.2
NUMPY_TOOL_VERSION=2.4.6
SCIPY_TOOL_VERSION=1.17.1

CLANG=clang-19
SYSROOT=$BUILD/sysroot
PREFIX=$BUILD/prefix
PREFIX_EH=${PREFIX_EH:-$BUILD/prefix-eh}
PYINC="-I$BUILD/cpython/Include -I$BUILD/cpython/builddir/wasi"
OPT_CFLAGS=${OPT_CFLAGS:--O2}
WASM_FEATURES="-mbulk-memory -mnontrapping-fptoint -msign-ext -mmutable-globals"
HERE=$ROOT/scripts/sklearn
SRC=$BUILD/sklearn-src
SB=$BUILD/sklearn-build
W=$BUILD/sklearn-work
TOOLS=$BUILD/sklearn-tools-venv
NPSRC=$BUILD/numpy-src
NPB=$BUILD/numpy-build

# log, sha, check_sha
. "$ROOT/scripts/lib/build-common.sh"

for f in "$BUILD/cpython/builddir/wasi/pyconfig.h" "$BUILD/cpython/Include/Python.h" \
         "$NPB/numpy/_core/_numpyconfig.h" "$NPSRC/numpy/__init__.cython-30.pxd" \
         "$PREFIX_EH/lib/libc++.a" "$PREFIX/lib/libscipy.a"; do
  [ -f "$f" ] || { echo "missing $f: build libc++, OpenBLAS, numpy and scipy and configure CPython first (build-runtime.sh with PACKAGES=\"numpy scipy sklearn\")" >&2; exit 1; }
done
command -v clang++-22 >/dev/null || { echo "clang++-22 not found (scripts/setup-toolchain.sh)" >&2; exit 1; }

log "scikit-learn $SKLEARN_VERSION: sources and host tools"
mkdir -p "$BUILD/src" "$PREFIX/lib"
cd "$BUILD/src"
# As for scipy: pip's index client fetches the file only (pip download
# --no-binary would run a native meson build to get the metadata).
[ -f "$SKLEARN_SDIST" ] || python3 "$ROOT/scripts/lib/fetch_sdist.py" . scikit-learn "$SKLEARN_VERSION" >&2
check_sha "$SKLEARN_SDIST" "$SKLEARN_SHA256"

want_tools="Cython==$CYTHON_VERSION meson==$MESON_VERSION ninja==$NINJA_VERSION numpy==$NUMPY_TOOL_VERSION scipy==$SCIPY_TOOL_VERSION"
cy_patch=$ROOT/scripts/pandas/cython-intp-buffers.patch
if [ ! -x "$TOOLS/bin/cython" ] || [ "$("$TOOLS/bin/pip" freeze 2>/dev/null | tr '\n' ' ' | sed 's/ $//')" != "$want_tools" ] \
   || [ "$(cat "$TOOLS/pybox-cython-patch.sha256" 2>/dev/null)" != "$(sha "$cy_patch")" ]; then
  rm -rf "$TOOLS"
  /usr/bin/python3.11 -m venv "$TOOLS"
  "$TOOLS/bin/pip" install -q "cython==$CYTHON_VERSION" "meson==$MESON_VERSION" "ninja==$NINJA_VERSION" \
    "numpy==$NUMPY_TOOL_VERSION" "scipy==$SCIPY_TOOL_VERSION" >&2
  cy_dir=$("$TOOLS/bin/python" -c 'import Cython, os; print(os.path.dirname(os.path.dirname(Cython.__file__)))')
  patch -d "$cy_dir" -p1 -s --no-backup-if-mismatch < "$cy_patch"
  sha "$cy_patch" > "$TOOLS/pybox-cython-patch.sha256"
fi
export PATH=$TOOLS/bin:$PATH

rm -rf "$SRC" "$SB" "$W" && mkdir -p "$SRC" "$W"
tar -xzf "$BUILD/src/$SKLEARN_SDIST" -C "$SRC" --strip-components=1
for p in "$HERE"/patches/*.patch; do
  [ -f "$p" ] && (cd "$SRC" && patch -p1 -s --no-backup-if-mismatch < "$p")
done

# numpy's headers as its install lays them out (+ the ones meson generated
# for wasm32), and the bundle's numpy .pxd files for `cimport numpy`.
NPINC=$W/numpy/_core/include
mkdir -p "$NPINC" "$W/npshim/numpy"
cp -r "$NPSRC/numpy/_core/include/numpy" "$NPINC/"
for h in _numpyconfig.h __multiarray_api.h __ufunc_api.h; do
  cp "$NPB/numpy/_core/$h" "$NPINC/numpy/$h"
done
cp "$NPSRC/numpy/__init__.pxd" "$NPSRC/numpy/__init__.cython-30.pxd" "$W/npshim/numpy/"
# Cython finds scipy's .pxd files in the venv's scipy (same version as
# the bundle's); numpy's come first from the shim.
export PYTHONPATH=$W/npshim

log "scikit-learn: meson setup (cross wasm32-wasi)"
CXXEH_FLAGS="--target=wasm32-wasip1 -fwasm-exceptions -mllvm -wasm-use-legacy-eh=false -nostdinc++ -isystem $PREFIX_EH/include/c++/v1"
sed "s#@SYSROOT@#$SYSROOT#g" "$ROOT/scripts/numpy/wasm32-wasi.cross.in" > "$W/cross.txt"
python3 - "$W/cross.txt" <<PY
import sys
p = sys.argv[1]
s = open(p).read()
s = s.replace("cpp = ['clang++-19', '--target=wasm32-wasi', '--sysroot=$SYSROOT']",
    "cpp = ['clang++-22', '-fuse-ld=/usr/lib/llvm-19/bin/wasm-ld', '--sysroot=$SYSROOT', "
    + ", ".join(repr(a) for a in "$CXXEH_FLAGS".split()) + "]")
assert "clang++-22" in s, "numpy's cross file changed: revisit build-sklearn.sh"
s = s.replace("[properties]", "[properties]\n"
    "numpy-include-dir = '$NPINC'\n"
    "skip_sanity_check = true", 1)
open(p, "w").write(s)
PY
SK_CFLAGS="$PYINC $OPT_CFLAGS $WASM_FEATURES -ffile-prefix-map=$BUILD=/pybox-build"
SK_CXXFLAGS="$SK_CFLAGS -Xclang -fexternc-nounwind -Drestrict=__restrict -include $ROOT/scripts/matplotlib/nothreads.h -Wno-unknown-warning-option"
(cd "$SRC" && meson setup "$SB" --cross-file "$W/cross.txt" \
  -Dbuildtype=release -Db_ndebug=if-release \
  "-Dc_args=$SK_CFLAGS" "-Dcpp_args=$SK_CXXFLAGS") > "$BUILD/sklearn-setup.log" 2>&1 \
  || { tail -40 "$BUILD/sklearn-setup.log"; exit 1; }
if grep -q 'Run-time dependency OpenMP found: YES' "$BUILD/sklearn-setup.log"; then
  echo "meson found OpenMP for wasm32: this build must be single-threaded, revisit build-sklearn.sh" >&2; exit 1
fi
# As for numpy and scipy: the host Python's include dir becomes the wasm
# build's, -fPIC is dropped, and the Cython steps' wait for the shared
# utility module (sklearn._cyutility) linked as a .so is removed.
hostinc=$("$TOOLS/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
sed -i -e "s#-I$hostinc\\b#$PYINC#g" -e "s# -fPIC\\b##g" "$SB/build.ninja"
sed -i -E '/^build sklearn\/_cyutility\.cpython[^:]*\.so:/! s# sklearn/_cyutility\.cpython-[^ ]*\.so( |$)#\1#g' "$SB/build.ninja"
# Reproducibility: Cython 3.2's --generate-shared compiles the utility module
# from an empty _cyutility.pyx in a new tempfile.TemporaryDirectory and puts
# that file's path, relative to the working directory, in the module's file
# table (__pyx_f, used in tracebacks): "../../../tmp/tmp8dv9y7ya/_cyutility.pyx",
# a new random name on every run. It was the one difference between two clean
# builds' libsklearn.a (same size, different sha256; every other generated
# file was identical). Cython 3.3 writes "_cyutility.pyx" there; the generating
# step now rewrites its output to the same.
python3 - "$SB/build.ninja" <<'PY'
import re, sys
path = sys.argv[1]
s = open(path).read()
s, n = re.subn(r"^( COMMAND = \S*cython .*--generate-shared=(\S+))$",
               lambda m: m.group(1) + " && sed -i -E 's#\"[^\"]*/_cyutility\\.pyx\"#\"_cyutility.pyx\"#g' " + m.group(2),
               s, flags=re.M)
assert n == 1, f"--generate-shared command: {n} found, expected 1"
open(path, "w").write(s)
PY

# The modules shipped: every extension module but the test-only ones.
python3 - "$SB/build.ninja" > "$W/modules.txt" <<'PY'
import re, sys
mods = set()
for line in open(sys.argv[1]):
    m = re.match(r"build (sklearn/\S+?)\.cpython-[^ :]*\.so:", line)
    if m:
        mod = m.group(1)
        short = mod.rsplit("/", 1)[-1]
        if "/tests/" in mod or short.startswith("_test"):
            continue
        mods.add(mod)
print("\n".join(sorted(mods)))
PY
MODULES=$(cat "$W/modules.txt")
# Every module's init function is renamed after its dotted path
# (-DPyInit__tree=PyInit_sklearn_tree__tree on its objects): several
# sklearn modules share a short name (tree._utils, manifold._utils), and
# other packages in the same python.wasm have modules of the same short
# name (scipy._cyutility). With the short names, wasm-ld silently resolved
# sklearn's table entry for _cyutility to scipy's PyInit__cyutility (the
# first archive defining it) and never loaded sklearn's object: every
# Cython module then failed with "C function
# scipy._cyutility.memoryview_fromslice has wrong signature".
python3 - "$SB/build.ninja" "$W/modules.txt" > "$W/modules-init.txt" <<'PY'
import re, sys
path, mods = sys.argv[1], open(sys.argv[2]).read().split()
rename = {}
for m in mods:
    short = m.rsplit("/", 1)[-1]
    init = "PyInit_" + m.replace("/", "_")
    rename[m] = (f"PyInit_{short}", init)
    print(f"{m} {init}")
lines = open(path).read().split("\n")
cur, n = None, 0
for i, line in enumerate(lines):
    if line.startswith("build "):
        cur = next((m for m in rename if re.match(r"build %s\.[^:]*\.so\.p/[^:]*\.o:" % re.escape(m), line)), None)
    elif cur and line.startswith(" ARGS = "):
        lines[i] = line + " -D%s=%s" % rename[cur]
        n += 1
assert n >= len(rename), "renaming PyInit: objects not found"
open(path, "w").write("\n".join(lines))
PY
# Global C functions that several modules define, each its own (one .so
# each, natively): the svm modules' helpers (libsvm_helper.c and
# libsvm_sparse_helper.c, included by _libsvm and _libsvm_sparse, both
# define copy_intercept, set_parameter, ... for dense and sparse models;
# liblinear_helper.c has more of the same names) and newrand.h's random
# generator (mt_rand, set_seed: one per module natively, here one per
# library). They are renamed by macros on the objects of one side, so each
# module keeps its own; the duplicate check after archiving catches new ones.
python3 - "$SB/build.ninja" <<'PY'
import re, sys
path = sys.argv[1]
newrand = "mt_rand set_seed bounded_rand_int".split()
renames = [
    # (objects: regex on the ninja output path, prefix, names)
    (r"sklearn/svm/_newrand\.", "pybox_newrand_", newrand),
    # Cython's shared utility module (--generate-shared) is generated as
    # "_cyutility", not "sklearn._cyutility": its one global clashes with
    # scipy's.
    (r"sklearn/_cyutility\.", "pybox_sklearn", ["__pyx_module_is_main__cyutility"]),
    (r"sklearn/svm/(_liblinear\.|libliblinear-skl\.a\.p/)", "pybox_liblinear_", newrand +
     "set_verbosity set_parameter set_problem csr_set_problem free_problem free_parameter copy_w get_bias".split()),
    (r"sklearn/svm/_libsvm_sparse\.", "pybox_svmsparse_",
     """copy_intercept copy_label copy_nSV copy_n_iter copy_probA copy_probB copy_support copy_sv_coef
     csr_copy_SV csr_copy_predict csr_copy_predict_proba csr_copy_predict_values csr_set_model
     csr_set_problem csr_to_libsvm free_model free_model_SV free_param free_problem get_l
     get_nonzero_SV get_nr set_parameter set_verbosity""".split()),
]
lines = open(path).read().split("\n")
cur, hits = None, [0] * len(renames)
for i, line in enumerate(lines):
    if line.startswith("build "):
        out = line[6:].split(":", 1)[0]
        cur = next((k for k, (rx, _, _) in enumerate(renames) if out.endswith(".o") and re.match(rx, out)), None)
    elif cur is not None and line.startswith(" ARGS = "):
        _, prefix, names = renames[cur]
        lines[i] = line + "".join(f" -D{n}={prefix}{n}" for n in names)
        hits[cur] += 1
assert all(hits), f"symbol renames: objects not found {hits}"
open(path, "w").write("\n".join(lines))
PY
log "scikit-learn: $(wc -l < "$W/modules.txt") extension modules"
python3 "$ROOT/scripts/numpy/collect_objects.py" "$SB" $MODULES > "$SB/pybox-inputs.txt"

log "scikit-learn: compile"
(cd "$SB" && ninja -k 0 -j"$JOBS" $(awk '{print $2}' "$SB/pybox-inputs.txt")) > "$BUILD/sklearn-ninja.log" 2>&1 \
  || { grep -B2 -A12 -m5 'error' "$BUILD/sklearn-ninja.log" | head -80; exit 1; }
if ! grep -q '^  "_cyutility.pyx",$' "$SB/sklearn/_cyutility.c" || grep -q 'tmp/tmp' "$SB/sklearn/_cyutility.c"; then
  echo "sklearn/_cyutility.c still names a temporary file: the build would not be reproducible (see the rewrite after meson setup)" >&2; exit 1
fi

log "scikit-learn: archive"
entries=()
while read -r m init; do entries+=("${m//\//.}=$init"); done < "$W/modules-init.txt"
"$ROOT/scripts/numpy/extmod/gen-extmod.sh" _pybox_ext_sklearn "$W/_pybox_ext_sklearn.c" "${entries[@]}"
$CLANG --target=wasm32-wasi --sysroot="$SYSROOT" $OPT_CFLAGS $WASM_FEATURES $PYINC \
  -ffile-prefix-map="$BUILD"=/pybox-build -I"$ROOT/scripts/numpy/extmod" -c "$W/_pybox_ext_sklearn.c" -o "$W/_pybox_ext_sklearn.o"
{
  echo "CREATE $PREFIX/lib/libsklearn.a"
  echo "ADDMOD $W/_pybox_ext_sklearn.o"
  awk -v sb="$SB" '$1=="obj"{print "ADDMOD " sb "/" $2} $1=="lib"{print "ADDLIB " sb "/" $2}' "$SB/pybox-inputs.txt"
  echo "SAVE"; echo "END"
} > "$W/libsklearn.mri"
rm -f "$PREFIX/lib/libsklearn.a"
llvm-ar-19 -M < "$W/libsklearn.mri"
llvm-ranlib-19 -D "$PREFIX/lib/libsklearn.a"
# Strong global symbols defined by two members would fail python.wasm's
# link (wasm-ld has no --allow-multiple-definition): name them here.
dups=$(llvm-nm-19 -A --defined-only --extern-only "$PREFIX/lib/libsklearn.a" 2>/dev/null \
  | awk '$(NF-1) ~ /^[TDBR]$/ {print $NF}' | sort | uniq -d)
if [ -n "$dups" ]; then
  echo "libsklearn.a: symbols defined by more than one object (rename them, see the svm renames above):" $dups >&2; exit 1
fi

log "scikit-learn: python files"
SP=$BUILD/site-packages
rm -rf "$SP/sklearn" && mkdir -p "$SP"
# What meson's install would lay out, without the extension modules (linked
# into python.wasm), tests, Cython sources and declarations, C/C++ sources
# and headers; the datasets' data files (CSV, RST descriptions) are kept.
meson introspect "$SB" --installed > "$W/installed.json"
python3 - "$W/installed.json" "$SP" "$SB" <<'PY'
import json, os, re, shutil, subprocess, sys
installed, sp, sb = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
# The table names each module after its build path; a module meson installs
# elsewhere (subdir:) would be unimportable under that name.
for src, dst in installed.items():
    if src.endswith(".so"):
        built = os.path.relpath(src, sb).split(".cpython-")[0]
        inst = re.search(r"/(sklearn/.*)$", dst).group(1).split(".cpython-")[0]
        if built != inst:
            sys.exit(f"{built} is installed as {inst}: name the table entry after the install path")
skip_ext = (".pyx", ".pxd", ".pxi", ".tp", ".h", ".c", ".cpp", ".pyi", ".in", ".build")
todo = []
for src, dst in sorted(installed.items()):
    # install_subdir('sklearn') is one entry: the source dir -> .../sklearn.
    rel = re.search(r"/(sklearn(/.*)?)$", dst).group(1)
    if os.path.isdir(src):
        for dirpath, dirnames, filenames in os.walk(src):
            dirnames[:] = [d for d in dirnames if d not in ("tests", "__pycache__")]
            for fn in filenames:
                full = os.path.join(dirpath, fn)
                r = os.path.join(rel, os.path.relpath(full, src))
                if fn.endswith(skip_ext) or fn == "conftest.py" or fn == "meson.build":
                    continue
                todo.append((full, r))
        continue
    if (src.endswith(".so") or "/tests/" in rel or rel.endswith("/conftest.py")
            or rel.endswith(skip_ext)):
        continue
    todo.append((src, rel))
missing = [os.path.relpath(s, sb) for s, _ in todo if not os.path.exists(s)]
if missing:
    subprocess.run(["ninja", "-C", sb] + missing, check=True, stdout=subprocess.DEVNULL)
for src, rel in todo:
    os.makedirs(os.path.dirname(os.path.join(sp, rel)), exist_ok=True)
    shutil.copyfile(src, os.path.join(sp, rel))
print(f"{len(todo)} files", file=sys.stderr)
PY
cp "$SRC/COPYING" "$SP/sklearn/COPYING"

echo "_pybox_ext_sklearn -L$PREFIX/lib -lsklearn -L$PREFIX_EH/lib -lc++" > "$BUILD/setup-sklearn.local"

cat > "$BUILD/manifest-sklearn.json" <<JSON
[
 {"name": "scikit-learn", "version": "$SKLEARN_VERSION", "source": "PyPI sdist", "file": "$SKLEARN_SDIST", "sha256": "$SKLEARN_SHA256",
  "license": "BSD-3-Clause (sklearn/COPYING; vendored libsvm and liblinear: BSD-3-Clause)",
  "modules": "$(echo $MODULES | tr / .)",
  "build_tools": {"meson": "$MESON_VERSION", "cython": "$CYTHON_VERSION", "ninja": "$NINJA_VERSION", "scipy_pxd": "scipy $SCIPY_TOOL_VERSION"},
  "built_against": "numpy from scripts/build-numpy.sh (wasm32 headers); scipy.linalg.cython_blas from scripts/build-scipy.sh at run time",
  "patches": ["scripts/pandas/cython-intp-buffers.patch"$(for p in "$HERE"/patches/*.patch; do [ -f "$p" ] && printf ', "%s"' "${p#$ROOT/}"; done)],
  "flags": {"cflags": "$OPT_CFLAGS $WASM_FEATURES", "cxx": "clang-22 ${CXXEH_FLAGS//$BUILD/<build>} -Xclang -fexternc-nounwind", "meson": "-Dbuildtype=release (OpenMP not found: single-threaded)"},
  "archive": {"file": "prefix/lib/libsklearn.a", "sha256": "$(sha "$PREFIX/lib/libsklearn.a")"}}
]
JSON
log "scikit-learn done: $(stat -c %s "$PREFIX/lib/libsklearn.a") bytes in libsklearn.a"
