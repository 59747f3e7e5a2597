#!/usr/bin/env bash
# wazero-fork.sh — regenerate third_party/wazero, pybox's fork of wazero, from
# the released module and the patches in third_party/wazero/pybox-patches.
#
#   scripts/wazero-fork.sh    # then: git status third_party/wazero (no change)
#
# What it does (third_party/wazero/README.pybox.md says why the fork exists):
#   1. copies github.com/tetratelabs/wazero@$BASE from the Go module cache
#      (`go mod download` fetches it if it is missing);
#   2. applies pybox-patches/*.patch in order (git apply);
#   3. keeps only what pybox builds (its imports on every GOOS/GOARCH it may
#      be built for) and the tests of the packages the patches change, with
#      the test data those tests embed; everything else is deleted.
# README.pybox.md and pybox-patches/ are kept as they are.
set -euo pipefail
shopt -s nullglob
cd "$(dirname "$0")/.."

BASE=v1.12.0
FORK=third_party/wazero
MOD=github.com/tetratelabs/wazero

# Packages whose tests stay (the patched ones, with the amd64 and arm64
# backends, internal/platform and internal/wasm since relaxed SIMD (0063)
# patched them; the integration and spec tests of exception handling; the
# guarded-memory spec tests, which read the released spec test data from the
# module cache).
TESTED=(
  internal/engine/wazevo
  internal/engine/wazevo/backend
  internal/engine/wazevo/backend/isa/amd64
  internal/engine/wazevo/backend/isa/arm64
  internal/engine/wazevo/frontend
  internal/engine/wazevo/ssa
  internal/engine/wazevo/wazevoapi
  internal/integration_test/engine
  internal/integration_test/spectest/exception-handling
  internal/integration_test/spectest/guarded
  internal/platform
  internal/sigguard
  internal/wasm
)
# In internal/integration_test/engine only the exception-handling tests
# (exceptions_test.go, eh_*_test.go) stay.
# Platforms the pybox binary may be built for; their imports are kept.
PLATFORMS='linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 freebsd/amd64'

src=$(go mod download -json "$MOD@$BASE" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -d "$src" ] || { echo "wazero-fork.sh: $MOD@$BASE not in the module cache" >&2; exit 1; }

mkdir -p "$FORK"
find "$FORK" -mindepth 1 -maxdepth 1 ! -name README.pybox.md ! -name pybox-patches -exec rm -rf {} +
cp -r "$src"/. "$FORK"/
chmod -R u+w "$FORK"
for p in "$FORK"/pybox-patches/*.patch; do
  git apply --directory="$FORK" "$p"
done

# Which packages are needed: pybox's imports (this repo's go.mod replaces
# wazero with $FORK, so go list sees the fork) plus the tested packages and
# their test imports, on every platform.
needed=$(mktemp)
trap 'rm -f "$needed"' EXIT
for platform in $PLATFORMS; do
  GOOS=${platform%/*} GOARCH=${platform#*/} go list -deps ./...
  (cd "$FORK" && GOOS=${platform%/*} GOARCH=${platform#*/} \
    go list -deps -test $(printf './%s ' "${TESTED[@]}"))
done | sed -n "s#^$MOD\(/[^ ]*\)\{0,1\}\( .*\)\{0,1\}\$#.\1#p" | sed 's/\.test$//' | sort -u >"$needed"

is_tested() {
  local d
  for d in "${TESTED[@]}"; do [ "$1" = "./$d" ] && return 0; done
  return 1
}

(
  cd "$FORK"
  # Directories holding Go files that pybox does not import: gone, with
  # their test data.
  find . -name '*.go' ! -path '*/testdata/*' -printf '%h\n' | sort -u | while read -r dir; do
    grep -qxF "$dir" "$needed" || find "$dir" -maxdepth 1 -type f -delete
  done
  # Tests of packages that are not patched, and their test data.
  find . -name '*.go' -printf '%h\n' | sort -u | while read -r dir; do
    is_tested "$dir" && continue
    find "$dir" -maxdepth 1 -name '*_test.go' -delete
  done
  (
    cd internal/integration_test/engine
    for f in *_test.go; do
      case $f in exceptions_test.go | eh_*_test.go | urem_regalloc_test.go) ;; *) rm "$f" ;; esac
    done
    find testdata -type f ! -name 'eh_*' ! -name 'urem_regalloc.*' -delete
  )
  find . -type d -name testdata | while read -r dir; do
    parent=${dir%/testdata}
    is_tested "$parent" && continue
    # dwarftestdata's data.go embeds its testdata (used by wazevo's tests).
    [ "$parent" = ./internal/testing/dwarftestdata ] && continue
    [ "$parent" = ./internal/integration_test/spectest ] && continue
    rm -rf "$dir"
  done
  # Everything else that is neither code, test data nor licence.
  find . -type f ! -name '*.go' ! -name '*.s' ! -path '*/testdata/*' \
    ! -path ./LICENSE ! -path ./NOTICE ! -path ./go.mod ! -path ./go.sum \
    ! -path ./README.pybox.md ! -path './pybox-patches/*' -delete
  find . -type d -empty -delete
)
