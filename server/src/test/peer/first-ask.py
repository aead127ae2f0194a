#!/usr/bin/env python3
"""Keyword recall's first ask over stdio, from a client without a JIT (docs/performance.md).

The Java benchmark's own client is compiled by its JIT as it runs, so its first questions carry
its own warm-up besides the server's. This client is plain Python: one blocking pipe, one JSON
parse per answer (about 0.03 ms). It starts gram-mcp on the vault and index that
ConversationRecallBench left behind, waits until every vector is computed and the server's CPU
is idle (as the benchmark does), then asks every question of the corpus once per mode and prints
p50 per mode, next to ping's. Not part of any test run.

  python3 server/src/test/peer/first-ask.py [path/to/gram-mcp.jar] [bench-dir/conversations]

Linux only (reads the server's CPU time from /proc). Runs on a copy of the vault's folder.
"""
import json, os, shutil, subprocess, sys, tempfile, time

root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
jar = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "target", "gram-mcp.jar")
bench = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "target", "bench", "conversations")
questions = json.load(open(os.path.join(bench, "questions.json")))
work = tempfile.mkdtemp(prefix="first-ask-")
for part in ("vault", "index"):
    shutil.copytree(os.path.join(bench, part), os.path.join(work, part))
err = open(os.path.join(work, "server-stderr.log"), "w")
server = subprocess.Popen([os.environ.get("JAVA", "java"), "-jar", jar, "--vault", os.path.join(work, "vault"),
                           "--index", os.path.join(work, "index"), "--no-welcome", "--no-http"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err)
ids = [0]


def call(method, params):
    ids[0] += 1
    server.stdin.write((json.dumps({"jsonrpc": "2.0", "id": ids[0], "method": method, "params": params}) + "\n").encode())
    server.stdin.flush()
    while True:
        message = json.loads(server.stdout.readline())
        if message.get("id") == ids[0]:
            return message


def recall(args):
    return call("tools/call", {"name": "gram_recall", "arguments": args})["result"]["structuredContent"]


def cpu_ticks():
    with open("/proc/%d/stat" % server.pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def p50(nanos):
    return sorted(nanos)[(len(nanos) - 1) // 2] / 1e6


call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "first-ask", "version": "1"}})
server.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
server.stdin.flush()
while any(k in recall({"query": "anything", "mode": "semantic"}) for k in ("partial", "fallback", "unembeddedChunks")):
    time.sleep(0.5)
# Idle: under 5% of a core over two seconds.
while True:
    before = cpu_ticks()
    time.sleep(2)
    if cpu_ticks() - before < 0.05 * 2 * os.sysconf("SC_CLK_TCK"):
        break
pings = []
for _ in range(2000):
    t0 = time.perf_counter_ns()
    call("ping", {})
    pings.append(time.perf_counter_ns() - t0)
print("ping p50 %.3f ms" % p50(pings))
modes = ["keyword", "semantic", "hybrid", "auto"]
share = len(questions) // len(modes)
for m, mode in enumerate(modes):
    took = []
    for q in questions[m * share:(m + 1) * share]:
        t0 = time.perf_counter_ns()
        recall({"query": q["q"], "mode": mode, "top_k": 10, "folder": q["folder"]})
        took.append(time.perf_counter_ns() - t0)
    print("%-8s first ask p50 %.3f ms (%d questions)" % (mode, p50(took), len(took)))
server.stdin.close()
server.wait(timeout=60)
shutil.rmtree(work) if not os.environ.get("KEEP") else print("kept", work)
