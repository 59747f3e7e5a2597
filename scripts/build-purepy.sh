#!/usr/bin/env bash
# build-purepy.sh — the pure-Python packages of the runtime bundle.
#
#   PYBOX_BUILD_DIR=... scripts/build-purepy.sh
#
# Downloads the files pinned in scripts/purepy/packages.txt (name, sha256,
# license), checks their hashes, and lays them out in
# $BUILD/site-packages-pure/ as pip would (wheels through packages.AddWheel;
# for markupsafe and pyyaml, whose wheels are platform-specific, the pure
# Python code of the sdist, which they fall back to without their C
# speed-ups). It also writes .dist-info metadata for the packages built into
# python.wasm (numpy, Pillow, lxml, pandas, matplotlib, scipy, scikit-learn, statsmodels) so importlib.metadata finds them, and
# $BUILD/manifest-purepy.json for the bundle manifest. build-runtime.sh's
# package stage calls it; it compiles nothing.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${PYBOX_BUILD_DIR:-$ROOT/build}
SRC=$BUILD/src
OUT=$BUILD/site-packages-pure
LIST=$ROOT/scripts/purepy/packages.txt
mkdir -p "$SRC"
rm -rf "$OUT" && mkdir -p "$OUT"

wheels=()
manifest="["
while read -r file sha license; do
  license=${license%$'\r'}
  [[ -z "$file" || "$file" == \#* ]] && continue
  if [ ! -f "$SRC/$file" ]; then
    name=${file%%-[0-9]*}
    rest=${file#"$name"-}
    version=${rest%%-*}; version=${version%.tar.gz}
    if [[ "$file" == *.whl ]]; then
      # --platform any: the py3-none-any wheel even where the project also
      # publishes compiled ones for the build machine (fonttools).
      python3 -m pip download -q --no-deps --only-binary=:all: --platform any -d "$SRC" "$name==$version"
    else
      # The file only: `pip download --no-binary=:all:` would build the
      # sdist's build dependencies from source (Cython, for pyyaml) to
      # prepare its metadata.
      python3 "$ROOT/scripts/lib/fetch_sdist.py" "$SRC" "$name" "$version" >&2
    fi
  fi
  got=$(sha256sum "$SRC/$file" | cut -d' ' -f1)
  if [ "$got" != "$sha" ]; then
    echo "checksum mismatch for $file: got $got, want $sha" >&2
    exit 1
  fi
  case "$file" in
    *.whl) wheels+=("$SRC/$file") ;;
    markupsafe-*.tar.gz|pyyaml-*.tar.gz)
      tmp=$(mktemp -d)
      tar -xzf "$SRC/$file" -C "$tmp"
      top=$(ls "$tmp")
      version=${top##*-}
      if [[ "$file" == markupsafe-* ]]; then
        cp -a "$tmp/$top/src/markupsafe" "$OUT/"; dist=markupsafe; pkgname=MarkupSafe
      else
        cp -a "$tmp/$top/lib/yaml" "$OUT/"; dist=pyyaml; pkgname=PyYAML
      fi
      find "$OUT/${dist/pyyaml/yaml}" -name '*.c' -delete
      mkdir -p "$OUT/$dist-$version.dist-info"
      printf 'Metadata-Version: 2.1\nName: %s\nVersion: %s\nLicense: %s\nSummary: pure-Python build for pybox (no C speed-ups)\n' \
        "$pkgname" "$version" "$license" > "$OUT/$dist-$version.dist-info/METADATA"
      rm -rf "$tmp" ;;
    *) echo "unexpected file type: $file" >&2; exit 1 ;;
  esac
  name=${file%%-[0-9]*}
  rest=${file#"$name"-}; version=${rest%%-*}; version=${version%.tar.gz}
  patches=""
  for p in "$ROOT"/scripts/purepy/patches/"$name"-*.patch; do
    [ -f "$p" ] && patches+="${patches:+, }\"scripts/purepy/patches/$(basename "$p")\""
  done
  manifest+="{\"name\": \"$name\", \"version\": \"$version\", \"file\": \"$file\", \"sha256\": \"$sha\", \"license\": \"$license\", \"pure_python\": true${patches:+, \"patches\": [$patches]}},"
done < "$LIST"
(cd "$ROOT" && go run ./scripts/purepy -into "$OUT" "${wheels[@]}") > "$BUILD/purepy.log"
# Source patches, named after the distribution they change (listed in the
# manifest): sympy imports ctypes, which WASI has no _ctypes for, only to
# learn the size of a C long.
for p in "$ROOT"/scripts/purepy/patches/*.patch; do
  [ -f "$p" ] && patch -s -d "$OUT" -p1 --no-backup-if-mismatch < "$p"
done

# dist-info for the packages linked into python.wasm.
for m in "$BUILD"/manifest-numpy.json "$BUILD"/manifest-pillow.json "$BUILD"/manifest-lxml.json \
         "$BUILD"/manifest-matplotlib.json "$BUILD"/manifest-pandas.json "$BUILD"/manifest-scipy.json \
         "$BUILD"/manifest-sklearn.json "$BUILD"/manifest-statsmodels.json; do
  [ -f "$m" ] || continue
  python3 - "$m" "$OUT" <<'PY'
import json, os, sys
entries = json.load(open(sys.argv[1]))
# The package itself comes first; C libraries follow. Other Python packages
# of the same build (contourpy, kiwisolver with matplotlib) list "modules".
for i, e in enumerate(entries):
    if i > 0 and "modules" not in e:
        continue
    name = {"pillow": "Pillow"}.get(e["name"], e["name"])
    d = os.path.join(sys.argv[2], f"{name.replace('-', '_')}-{e['version']}.dist-info")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "METADATA"), "w") as f:
        f.write(f"Metadata-Version: 2.1\nName: {name}\nVersion: {e['version']}\nLicense: {e.get('license', '')}\n"
                "Summary: built into pybox's python.wasm\n")
PY
done
echo "${manifest%,}]" > "$BUILD/manifest-purepy.json"
echo "pure-Python packages: $(wc -l < "$BUILD/purepy.log") wheels + markupsafe, pyyaml into $OUT" >&2
