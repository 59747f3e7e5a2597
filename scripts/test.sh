#!/usr/bin/env bash
# test.sh — the project's test command (README, .ci/run). Needs Go, and
# PostgreSQL from Debian's packages (scripts/test-postgres.sh installs it):
# the runtime bundle is committed under assets/, so nothing is rebuilt here.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s (%s)\n' "$*" "$(date +%H:%M:%S)"; }

step "gofmt and go vet"

# third_party/wazero is wazero's code (its own module, tested below).
unformatted=$(gofmt -l $( (git ls-files '*.go' 2>/dev/null || find . -name '*.go') | grep -v '^\(\./\)\{0,1\}third_party/'))
if [ -n "$unformatted" ]; then
  echo "gofmt needed on:" >&2
  echo "$unformatted" >&2
  exit 1
fi
# fsbridge implements wazero's sys.File, whose Seek signature differs from
# io.Seeker's; vet's stdmethods check would flag it.
go vet $(go list ./... | grep -v /fsbridge)
go vet -stdmethods=false ./fsbridge
# pybox's fork of wazero (third_party/wazero/README.pybox.md) is a module of
# its own, so ./... above does not reach it: vet it (wazero's Seek/ReadByte
# and its assembly argument names are not vet-clean upstream) and run the
# tests it kept, those of the patched compiler and of exception handling.
step "wazero fork: go vet and go test (third_party/wazero)"
(cd third_party/wazero && go vet -stdmethods=false -asmdecl=false ./... && go test -count=1 ./...)
# The fork's patches touch both backends, and macOS laptops run the arm64
# one: its compiler and exception-handling tests run here too, under
# qemu-user (Debian's qemu-user-static, installed when missing).
step "wazero fork: arm64 tests under qemu-user"
if ! command -v qemu-aarch64-static >/dev/null; then
  echo "test.sh: installing qemu-user-static (apt-get)" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends qemu-user-static >&2
fi
(cd third_party/wazero && GOARCH=arm64 go test -exec qemu-aarch64-static -count=1 \
  ./internal/engine/wazevo/... ./internal/integration_test/...)
# The binary must stay static and build for macOS as well (it is not run
# there by this script).
step "static builds for linux/amd64 and darwin/arm64"
for target in linux/amd64 darwin/arm64; do
  GOOS=${target%/*} GOARCH=${target#*/} CGO_ENABLED=0 go build -o /dev/null ./cmd/pybox
done
# The real MCP clients (scripts/mcp-clients, installed with npm ci) must run
# here: without node/npm the test fails instead of skipping.
export PYBOX_REQUIRE_NODE=1
# Likewise the README's Python Agents SDK snippet (scripts/py-agents, pinned
# with hashes, installed into scripts/py-agents/.venv): it needs Python 3.10+
# with venv and pip, and fails instead of skipping without them.
export PYBOX_REQUIRE_PYAGENTS=1
# A throwaway PostgreSQL for the agent's PostgreSQL store (installed from
# Debian's packages if missing; stopped when this script exits).
step "a throwaway PostgreSQL"
source scripts/test-postgres.sh
# The tests share one compilation cache ($PYBOX_CACHE_DIR or the user cache
# folder): compile the runtime into it once, here, instead of in whichever
# test packages start first (a no-op when it is already there).
step "compile the runtime once (pybox setup)"
go run ./cmd/pybox setup
# -race everywhere: the runtime, sessions and servers are concurrent.
step "go test -race ./... (15-45 minutes on 2 cores; each package prints ok when done)"
go test -race -count=1 -timeout 30m ./...
