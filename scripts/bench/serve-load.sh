#!/usr/bin/env bash
# serve-load.sh — 200 concurrent HTTP executions against pybox serve's API,
# three rounds: throughput, p50/p99 latency, busy answers, memory before and
# after each round. Extra flags go to the load program (see -h).
set -euo pipefail
cd "$(dirname "$0")/../.."
exec go run ./scripts/bench/serveload -n 200 -rounds 3 "$@"
