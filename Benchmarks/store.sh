#!/usr/bin/env bash
# DuneStore as an app uses it (issue 21's store: the writer lock per write,
# other processes' appends followed), on the long-history log (about 140
# events a day over 8,300 days, 1.18M events):
#   - open + first state read, from a snapshot and with a full replay;
#   - report from the snapshot and without it;
#   - single-sample appends, one call each (the lock taken per call), at
#     durability none and batch: p50 / p99 per call;
#   - another process's append reaching an observer of an idle store
#     (StoreBench writer → StoreBench observe, CLOCK_MONOTONIC on both sides);
#   - the CPU time of an open, observed, idle store over 10 s.
#
#   Benchmarks/store.sh                          # RUNS=3
#   BENCH_LOG=path/to/small.jsonl Benchmarks/store.sh   # a smoke test on another log
#
# Builds dune-replay (release, .build-perf) and Benchmarks/StoreBench
# (release), generates the log once into Benchmarks/.data/log-long-1M.jsonl
# (the file of run.sh's long 1M rows), works on a copy of it
# (Benchmarks/.data/store.jsonl), and prints each figure min / median / max
# over RUNS runs.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
APPENDS=${APPENDS:-2000}          # timed appends per run, after WARMUP untimed ones
WARMUP=${WARMUP:-200}
NOTIFY_COUNT=${NOTIFY_COUNT:-200} # the writer's appends per run, NOTIFY_INTERVAL ms apart
NOTIFY_INTERVAL=${NOTIFY_INTERVAL:-20}
NOTIFY_DURABILITY=${NOTIFY_DURABILITY:-batch}  # the writer's (an app's default)
IDLE_SECONDS=${IDLE_SECONDS:-10}
source Benchmarks/long-history.sh
swift build -c release --package-path Benchmarks/StoreBench >/dev/null
BENCH=Benchmarks/StoreBench/.build/release/StoreBench
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/store-bench.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT

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
print(f"| {label} | {min(times)*1000:.1f} / {statistics.median(times)*1000:.1f} / {max(times)*1000:.1f} ms | {max(rss):.0f} MB |")
PY
}

# spread LABEL UNIT VALUE…: one table row, min / median / max of the values.
spread() {
    python3 - "$@" <<'PY'
import statistics, sys
label, unit, values = sys.argv[1], sys.argv[2], sorted(float(v) for v in sys.argv[3:])
print(f"| {label} | {values[0]:.3f} / {statistics.median(values):.3f} / {values[-1]:.3f} {unit} | |")
PY
}

STORE=$DATA/store.jsonl
cp "$LOG" "$STORE"; rm -f "$STORE.snapshot" "$STORE.checkpoint" "$STORE.synced"
$DUNE ingest --log "$STORE" - </dev/null >/dev/null 2>&1   # leaves the deciders' checkpoint, as ingest does
$BENCH open "$STORE" >/dev/null   # leaves a snapshot
SNAPSHOT_BYTES=$(stat -c %s "$STORE.snapshot")
SAMPLES=$(python3 -c "import sys; print(sum(1 for l in open(sys.argv[1]) if '\"sample.ingested\"' in l))" "$LOG")
echo "Benchmarks/store.sh, RUNS=$RUNS, $(git rev-parse --short HEAD), $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| measurement (long history, $(wc -l < "$LOG") events) | min / median / max | peak RSS |"
echo "|---|---|---|"
measure "StoreBench open + first state read, from the snapshot (whole process)" $BENCH open "$STORE"
measure "StoreBench open + first state read, full replay, snapshots off (whole process)" $BENCH open-replay "$STORE"
# The same inside the process: the open and the first state read apart.
for mode in open open-replay; do
    for _ in $(seq "$RUNS"); do $BENCH $mode "$STORE"; done > "$SCRATCH/$mode.txt"
    case $mode in open) what="from the snapshot" ;; *) what="full replay" ;; esac
    spread "\`DuneStore.open\`, $what, in the process" ms $(awk '{print $2}' "$SCRATCH/$mode.txt")
    spread "first \`state\` read after it" ms $(awk '{print $6}' "$SCRATCH/$mode.txt")
    spread "the same open, the process's CPU time" ms $(sed -E 's/.*CPU: open ([0-9.]+) ms.*/\1/' "$SCRATCH/$mode.txt")
    spread "the same first \`state\` read, the process's CPU time" ms $(sed -E 's/.*CPU: .*first state ([0-9.]+) ms$/\1/' "$SCRATCH/$mode.txt")
done
measure "report, from the snapshot" $DUNE report --log "$STORE"
measure "report --no-snapshot" $DUNE report --no-snapshot --log "$STORE"
echo
echo "snapshot: $SNAPSHOT_BYTES bytes for about $SAMPLES sample events ($((SNAPSHOT_BYTES / SAMPLES)) bytes each)"
echo "in the process, every run:"
sed 's/^/    open: /' "$SCRATCH/open.txt"
sed 's/^/    open-replay: /' "$SCRATCH/open-replay.txt"

# Appends: one sample per call, the writer lock taken per call.
echo
echo "| appends, one sample per call, $APPENDS after $WARMUP warm-up, lock per call | p50 min / median / max | p99 min / median / max |"
echo "|---|---|---|"
for durability in none batch; do
    for _ in $(seq "$RUNS"); do $BENCH append "$STORE" "$APPENDS" $durability "$WARMUP"; done > "$SCRATCH/append-$durability.txt"
    python3 - "$durability" "$SCRATCH/append-$durability.txt" <<'PY'
import re, statistics, sys
durability, lines = sys.argv[1], open(sys.argv[2]).read().splitlines()
p50 = sorted(float(re.search(r"p50 ([0-9.]+)", l).group(1)) for l in lines)
p99 = sorted(float(re.search(r"p99 ([0-9.]+)", l).group(1)) for l in lines)
print(f"| durability `{durability}` | {p50[0]:.3f} / {statistics.median(p50):.3f} / {p50[-1]:.3f} ms | {p99[0]:.3f} / {statistics.median(p99):.3f} / {p99[-1]:.3f} ms |")
PY
done
for durability in none batch; do sed 's/^/    /' "$SCRATCH/append-$durability.txt"; done

# Another process's append reaching an observer of an idle store: the writer
# prints the CLOCK_MONOTONIC time when each append call returned, the observer
# the time each state arrived; a seq's latency is the arrival of the first
# state that contains it minus its writer's return.
echo
echo "| another process's append → an idle store's observer ($NOTIFY_COUNT appends, $NOTIFY_INTERVAL ms apart, writer at $NOTIFY_DURABILITY), from the call's return | p50 | p99 | max | from the call's start: p50 / p99 |"
echo "|---|---|---|---|---|"
for access in read-write read-only; do
    for run in $(seq "$RUNS"); do
        observed=$SCRATCH/observe-$access-$run.txt written=$SCRATCH/writer-$access-$run.txt
        $BENCH observe "$STORE" "$NOTIFY_COUNT" $access > "$observed" &
        observer=$!
        for _ in $(seq 600); do grep -q '^ready' "$observed" && break; sleep 0.1; done
        grep -q '^ready' "$observed" || { echo "the observer did not start" >&2; kill "$observer"; exit 1; }
        $BENCH writer "$STORE" "$NOTIFY_COUNT" "$NOTIFY_INTERVAL" "$NOTIFY_DURABILITY" > "$written" \
            || { echo "the writer failed" >&2; kill "$observer"; exit 1; }
        wait "$observer"
    done
    python3 - "$access" "$SCRATCH" "$RUNS" <<'PY'
import os, statistics, sys
access, scratch, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
def pct(values, p): return values[min(len(values) - 1, int(len(values) * p))]
pooled, pooledCall, rows = [], [], []
for run in range(1, runs + 1):
    written = [line.split() for line in open(os.path.join(scratch, f"writer-{access}-{run}.txt"))]
    states = [line.split() for line in open(os.path.join(scratch, f"observe-{access}-{run}.txt")) if line.startswith("state ")]
    arrivals = sorted((int(seq), int(ns)) for _, seq, ns in states)
    latencies, fromCall, missed = [], [], 0
    for _, seq, returned, called in written:
        seen = next((ns for s, ns in arrivals if s >= int(seq)), None)
        if seen is None:
            missed += 1
        else:
            latencies.append((seen - int(returned)) / 1e6)
            fromCall.append((seen - int(called)) / 1e6)
    latencies.sort(); fromCall.sort()
    pooled += latencies; pooledCall += fromCall
    rows.append(f"    {access} run {run}: {len(written)} appends, {len(arrivals)} states, {missed} never observed; from the return: "
                f"p50 {pct(latencies, 0.5):.2f} ms, p99 {pct(latencies, 0.99):.2f} ms, min {latencies[0]:.2f} ms, max {latencies[-1]:.2f} ms, "
                f"{sum(1 for l in latencies if l < 0)} before the return; from the call: p50 {pct(fromCall, 0.5):.2f} ms, p99 {pct(fromCall, 0.99):.2f} ms")
pooled.sort(); pooledCall.sort()
print(f"| observer on a {access} store, {len(pooled)} appends over {runs} run(s) | {pct(pooled, 0.5):.2f} ms | {pct(pooled, 0.99):.2f} ms "
      f"| {pooled[-1]:.2f} ms | {pct(pooledCall, 0.5):.2f} / {pct(pooledCall, 0.99):.2f} ms |")
open(os.path.join(scratch, f"notify-{access}.txt"), "w").write("\n".join(rows) + "\n")
PY
done
cat "$SCRATCH"/notify-*.txt

# An open, observed store left idle: the process's CPU time over IDLE_SECONDS.
echo
echo "| an open store with one \`states\` observer, idle $IDLE_SECONDS s: the process's CPU time (getrusage) | min / median / max | |"
echo "|---|---|---|"
for access in read-write read-only; do
    for _ in $(seq "$RUNS"); do $BENCH idle "$STORE" "$IDLE_SECONDS" $access; done > "$SCRATCH/idle-$access.txt"
    spread "$access" ms $(awk '{print $6}' "$SCRATCH/idle-$access.txt")
done
cat "$SCRATCH"/idle-*.txt | sed 's/^/    /'
