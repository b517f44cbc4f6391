#!/usr/bin/env bash
# DuneStore as an app uses it, on the long-history log (about 120 events a day
# over 8,300 days, 1.18M events): open + first readiness read with and without
# a snapshot, report with and without one, and single-sample appends.
#
#   Benchmarks/store.sh          # RUNS=3
#
# Builds dune-replay (release, .build-perf) and Benchmarks/StoreBench (release),
# generates the log once into Benchmarks/.data/log-long-1M.jsonl (the file of
# run.sh's long 1M rows), and prints
# each figure min / median / max with peak RSS (GNU time).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
source Benchmarks/long-history.sh
swift build -c release --package-path Benchmarks/StoreBench >/dev/null
BENCH=Benchmarks/StoreBench/.build/release/StoreBench

# measure LABEL COMMAND…: RUNS runs; wall min/median/max and the largest peak RSS.
measure() {
    local label=$1; shift
    python3 - "$label" "$RUNS" "$@" <<'PY'
import statistics, subprocess, sys, time, os, tempfile
label, runs, command = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
times, rss = [], []
for _ in range(runs):
    with tempfile.NamedTemporaryFile() as out:
        start = time.perf_counter()
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out.name] + command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
        rss.append(int(open(out.name).read().split()[-1]) / 1024)
print(f"| {label} | {min(times):.3f} / {statistics.median(times):.3f} / {max(times):.3f} s | {max(rss):.0f} MB |")
PY
}

STORE=$DATA/store.jsonl
cp "$LOG" "$STORE"; rm -f "$STORE.snapshot" "$STORE.checkpoint"
$DUNE ingest --log "$STORE" - </dev/null >/dev/null 2>&1   # leaves the deciders' checkpoint, as ingest does
$BENCH open "$STORE" >/dev/null   # leaves a snapshot
SNAPSHOT_BYTES=$(stat -c %s "$STORE.snapshot")
SAMPLES=$(python3 -c "import sys; print(sum(1 for l in open(sys.argv[1]) if '\"sample.ingested\"' in l))" "$LOG")
echo "| measurement (long history, $(wc -l < "$LOG") events) | wall min / median / max | peak RSS |"
echo "|---|---|---|"
measure "StoreBench open + first readiness read, from the snapshot" $BENCH open "$STORE"
measure "StoreBench open + first readiness read, full replay (snapshots off)" $BENCH open-replay "$STORE"
# The same two inside the process (what StoreBench prints: open + first read, without process start and exit).
inprocess() {
    local label=$1; shift
    for _ in $(seq "$RUNS"); do "$@"; done | python3 -c "
import statistics, sys
ms = sorted(float(line.split()[1]) for line in sys.stdin)
print(f'| {sys.argv[1]}, in the process | {ms[0]/1000:.3f} / {statistics.median(ms)/1000:.3f} / {ms[-1]/1000:.3f} s | |')" "$label"
}
inprocess "StoreBench open + first readiness read, from the snapshot" $BENCH open "$STORE"
inprocess "StoreBench open + first readiness read, full replay" $BENCH open-replay "$STORE"
measure "report, from the snapshot" $DUNE report --log "$STORE"
measure "report --no-snapshot" $DUNE report --no-snapshot --log "$STORE"
echo
echo "snapshot: $SNAPSHOT_BYTES bytes for about $SAMPLES sample events ($((SNAPSHOT_BYTES / SAMPLES)) bytes each)"
echo
$BENCH append "$STORE" 5000 none
$BENCH append "$STORE" 500 batch
