#!/usr/bin/env python3
"""Two builds of dune-replay side by side, alternating, on the logs run.sh made.

    python3 Benchmarks/compare.py BEFORE_BINARY AFTER_BINARY [RUNS]

Times `rebuild` and `ingest` (into an empty log) of the 1M-size logs of both
shapes in Benchmarks/.data (run `RUNS=1 BENCH_SIZES=1M Benchmarks/run.sh` once
to make them; BENCH_DATA=DIR reads DIR's files of the same names instead),
the two binaries taking turns so that the machine's drift hits both alike, and
prints min / median / max of each, then the same as a Markdown table with the
difference of the medians beside the "before" runs' min-max spread.
"""
import os, shutil, statistics, subprocess, sys, tempfile, time

DATA = os.environ.get("BENCH_DATA") or os.path.join(os.path.dirname(os.path.abspath(__file__)), ".data")
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
rows = []
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
    b, a = times["before"], times["after"]
    rows.append(f"| {name} | {min(b):.3f} / {statistics.median(b):.3f} / {max(b):.3f} s | {min(a):.3f} / {statistics.median(a):.3f} / {max(a):.3f} s "
                f"| {statistics.median(a) - statistics.median(b):+.3f} s | {max(b) - min(b):.3f} s |")
print()
print("| | before min / median / max | after min / median / max | after's median − before's | before's spread |")
print("|---|---|---|---|---|")
print("\n".join(rows))
shutil.rmtree(scratch, ignore_errors=True)
