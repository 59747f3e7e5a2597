#!/usr/bin/env python3
# mcp-first-call.py BINARY CODE: starts `BINARY mcp -q` (the cache folder is
# $PYBOX_CACHE_DIR or the default), sends initialize and then one
# execute_python call with CODE over stdio, and prints the milliseconds
# from start to the initialize answer and to the call's answer, and the
# start of the answer.
import json, subprocess, sys, time
binary, code = sys.argv[1], sys.argv[2]
t0 = time.perf_counter()
p = subprocess.Popen([binary, "mcp", "-q"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
def send(m):
    p.stdin.write((json.dumps(m) + "\n").encode()); p.stdin.flush()
def recv(want_id):
    while True:
        m = json.loads(p.stdout.readline())
        if m.get("id") == want_id:
            return m
send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
recv(1)
t1 = time.perf_counter()
send({"jsonrpc": "2.0", "method": "notifications/initialized"})
send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "execute_python", "arguments": {"code": code}}})
r = recv(2)
t2 = time.perf_counter()
p.stdin.close(); p.wait()
text = r["result"]["content"][0]["text"]
print("%.0f %.0f %s" % ((t1 - t0) * 1000, (t2 - t0) * 1000, text.strip().replace("\n", " ")[:60]))
