#!/usr/bin/env python3
"""Two builds of dune-replay side by side, alternating, on the logs run.sh made.

    python3 Benchmarks/compare.py BEFORE_BINARY AFTER_BINARY [RUNS]

Times `rebuild` and `ingest` (into an empty log) of the 1M-size logs of both
shapes in Benchmarks/.data (run `RUNS=1 BENCH_SIZES=1M Benchmarks/run.sh` once
to make them), the two binaries taking turns so that the machine's drift hits
both alike, and prints min / median / max of each.
"""
import os, shutil, statistics, subprocess, sys, tempfile, time

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), ".data")
before, after = sys.argv[1], sys.argv[2]
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
scratch = tempfile.mkdtemp(prefix="dune-compare-")


def rebuild(binary, log):
    return [binary, "rebuild", "--log", os.path.join(DATA, log), "--out", os.path.join(scratch, "models")]


def ingest(binary, source):
    target = os.path.join(scratch, "ingest")
    shutil.rmtree(target, ignore_errors=True)
    os.makedirs(target)
    return [binary, "ingest", "--log", os.path.join(target, "log.jsonl"), os.path.join(DATA, source)]


cases = [("rebuild dense 1M", lambda b: rebuild(b, "log-1M.jsonl")),
         ("rebuild long 1M", lambda b: rebuild(b, "log-long-1M.jsonl")),
         ("ingest dense 1M", lambda b: ingest(b, "input-1M.jsonl")),
         ("ingest long 1M", lambda b: ingest(b, "input-long-1M.jsonl"))]
for name, command in cases:
    times = {"before": [], "after": []}
    for run in range(runs):
        order = [("before", before), ("after", after)]
        for label, binary in (order if run % 2 == 0 else order[::-1]):
            arguments = command(binary)
            start = time.perf_counter()
            subprocess.run(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            times[label].append(time.perf_counter() - start)
    print(name, " | ".join(f"{label}: {min(t):.3f} / {statistics.median(t):.3f} / {max(t):.3f} s" for label, t in times.items()), flush=True)
shutil.rmtree(scratch, ignore_errors=True)
