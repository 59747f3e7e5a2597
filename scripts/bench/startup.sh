#!/usr/bin/env bash
# startup.sh — issue 13's start-up numbers for one or two pybox binaries,
# side by side with native python3.11 where there is a native equivalent:
#
#   1. cold first run: `pybox setup` on an empty cache folder, the compile
#      alone, and `pybox run -c 'print(1)'` on an empty cache folder
#      (scripts/bench/cold-compile.sh): wall, CPU, peak RSS;
#   2. `pybox mcp`: time from start to the answer of tools/list (after
#      initialize), on an empty cache and on a warm one;
#   3. warm `print(1)` and `import numpy` (scripts/bench/warm-start.sh).
#
#   NATIVE=/tmp/venv-native/bin/python bash scripts/bench/startup.sh /tmp/old-pybox /tmp/new-pybox
#   COLD_ROUNDS=3 ROUNDS=10 NATIVE=/tmp/venv-native/bin/python bash scripts/bench/startup.sh ./pybox
#
# Binaries built from different wazero fork versions must not share a cache
# folder (they recompile over each other's entry): each binary gets its own
# warm folder under $WORK.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 PYBOX [PYBOX2]" >&2; exit 2; }
COLD_ROUNDS=${COLD_ROUNDS:-1}
NATIVE=${NATIVE:-/usr/bin/python3.11}
"$NATIVE" -c 'import numpy' 2>/dev/null || {
  echo "$0: NATIVE=$NATIVE has no numpy; e.g. python3.11 -m venv /tmp/venv-native && /tmp/venv-native/bin/pip install numpy, then NATIVE=/tmp/venv-native/bin/python" >&2
  exit 1
}
export NATIVE
MCP_ROUNDS=${MCP_ROUNDS:-5}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
progs=("$@")

# mcp_ms PYBOX CACHE: ms from start to the tools/list answer.
mcp_ms() {
  python3 - "$1" "$2" <<'PY'
import json, os, subprocess, sys, time
pybox, cache = sys.argv[1], sys.argv[2]
t0 = time.perf_counter()
p = subprocess.Popen([pybox, "mcp", "--cache-dir", cache], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
def send(m):
    p.stdin.write(json.dumps(m) + "\n"); p.stdin.flush()
def answer(want):
    for line in p.stdout:
        m = json.loads(line)
        if m.get("id") == want:
            return m
    raise SystemExit("mcp: no answer to request %d" % want)
send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "startup.sh", "version": "1"}}})
answer(1)
send({"jsonrpc": "2.0", "method": "notifications/initialized"})
send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
tools = answer(2)["result"]["tools"]
ms = (time.perf_counter() - t0) * 1000
assert tools, "tools/list returned no tools"
p.stdin.close()
p.terminate()
p.wait()
# A server may have started the compile in a detached `pybox setup` on this
# cache folder: stop it (by its pid), it would run on beside the next
# measurements.
for pid in os.listdir("/proc"):
    try:
        argv = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
    except OSError:
        continue
    if pid.isdigit() and b"setup" in argv and cache.encode() in argv:
        try:
            os.kill(int(pid), 15)
        except OSError:
            continue
        # Not our child: wait for it to be gone before the folder is removed.
        deadline = time.monotonic() + 30
        while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
            time.sleep(0.05)
print(round(ms, 1))
PY
}

if [ "$COLD_ROUNDS" != 0 ]; then # COLD_ROUNDS=0: the mcp and warm numbers only
  echo "== cold first run (scripts/bench/cold-compile.sh)"
  ROUNDS=$COLD_ROUNDS SPLIT=1 FIRSTRUN=1 bash "$ROOT/scripts/bench/cold-compile.sh" "${progs[@]}"
fi

echo "== pybox mcp: start to tools/list answer"
for i in "${!progs[@]}"; do
  "${progs[$i]}" setup --cache-dir "$WORK/warm-$i" >/dev/null 2>&1
done
for i in "${!progs[@]}"; do
  pb=${progs[$i]}
  empty=() warm=()
  for r in $(seq "$MCP_ROUNDS"); do
    empty+=("$(mcp_ms "$pb" "$WORK/mcp-empty-$i-$r")")
    rm -rf "$WORK/mcp-empty-$i-$r"
    warm+=("$(mcp_ms "$pb" "$WORK/warm-$i")")
  done
  printf '%-28s empty cache ms: %s | warm cache ms: %s\n' "$pb" "${empty[*]}" "${warm[*]}"
done

echo "== warm print(1) and import numpy"
# Each binary with the warm cache folder made above (BINARY@DIR).
withcache=()
for i in "${!progs[@]}"; do
  withcache+=("$(readlink -f "${progs[$i]}")@$WORK/warm-$i")
done
bash "$ROOT/scripts/bench/warm-start.sh" "${withcache[@]}"
