#!/usr/bin/env bash
# forget against rebuild on the long-history log (1.18M events, 377 MB):
# forget of about 2 % of its samples (every body-mass, body-fat, BMI and
# workout sample), and a rebuild of the same log, alternating, RUNS rounds.
#
#   Benchmarks/forget.sh          # RUNS=5
#
# Each forget runs on a fresh copy of the log that first got its deciders'
# checkpoint (an `ingest` of nothing, as a log left by ingest has one), and
# `sync` runs after preparing the copy so that its dirty pages are not written
# back during the forget. Prints min / median / max of both, their ratio, and
# the median time of each step of the forget (DUNE_FORGET_TIMING=1), the
# fsync of the new log and its directory on a line of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
source Benchmarks/long-history.sh

python3 - "$DUNE" "$LOG" "$DATA" "$RUNS" <<'PY'
import os, shutil, statistics, subprocess, sys, tempfile, time
dune, log, data, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
copy, out = os.path.join(data, "forget.jsonl"), os.path.join(data, "forget-rebuild")
selectors = ["--kind", "bodyMass", "--kind", "workout", "--kind", "bodyFatPercentage", "--kind", "bodyMassIndex"]

def timed(command, env=None):
    with tempfile.NamedTemporaryFile() as rss:
        start = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss.name] + command, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
        seconds = time.perf_counter() - start
        return seconds, int(open(rss.name).read().split()[-1]) / 1024, done.stderr

forgets, rebuilds, rss = [], [], {"forget": 0, "rebuild": 0}
steps = {}
for _ in range(runs):
    for name in os.listdir(data):
        if name.startswith("forget.jsonl"):
            os.remove(os.path.join(data, name))
    shutil.copyfile(log, copy)
    subprocess.run([dune, "ingest", "--log", copy, "-"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    os.sync()
    seconds, peak, stderr = timed([dune, "forget", "--log", copy] + selectors, env=dict(os.environ, DUNE_FORGET_TIMING="1"))
    forgets.append(seconds); rss["forget"] = max(rss["forget"], peak)
    previous = 0.0
    for line in stderr.splitlines():
        # "forget timing: <what> at <seconds> s"
        if line.startswith("forget timing: "):
            what, at = line[len("forget timing: "):].rsplit(" at ", 1)
            at = float(at.split()[0])
            steps.setdefault(what, []).append(at - previous)
            previous = at
    shutil.rmtree(out, ignore_errors=True)
    seconds, peak, _ = timed([dune, "rebuild", "--log", log, "--out", out])
    rebuilds.append(seconds); rss["rebuild"] = max(rss["rebuild"], peak)

def row(label, values, peak):
    return f"| {label} | {' '.join(f'{v:.2f}' for v in values)} s | {min(values):.3f} / {statistics.median(values):.3f} / {max(values):.3f} s | {peak:.0f} MB |"
print(f"| long history ({sum(1 for _ in open(log, 'rb'))} events), {runs} runs each, alternating | runs | min / median / max | peak RSS |")
print("|---|---|---|---|")
print(row("forget (" + " ".join(selectors) + ")", forgets, rss["forget"]))
print(row("rebuild of the same log", rebuilds, rss["rebuild"]))
print(f"\nforget / rebuild, medians: {statistics.median(forgets) / statistics.median(rebuilds):.2f}x (target: at most 2x)")
print("\nsteps of the forget (median seconds each, from DUNE_FORGET_TIMING=1):")
for what, values in steps.items():
    print(f"  {statistics.median(values):.3f} s  up to '{what}'")
synced = steps.get("synced")
if synced:
    print(f"\nfsync of the new log and its directory (the 'synced' step): median {statistics.median(synced):.3f} s")
PY
rm -rf "$DATA"/forget.jsonl* "$DATA/forget-rebuild"
