#!/usr/bin/env bash
# DuneHealthKit's sync engine (issue 33), on a decade of samples (3,650 days, six types):
#   - backfill of N samples from a synthetic in-memory source (computed from their index,
#     so the source holds none) through HealthSyncEngine, pages of 1000, one atomic batch
#     and one fsync a page, against `dune-replay ingest` of the same samples as JSON lines,
#     in the same run, alternating: RUNS runs each, min / median / max, and the ratio of medians;
#   - peak RSS (GNU time %M) at 100k and at N: of the engine's backfill, and of the same
#     samples appended through DuneStore.append in pages of 1000 without the engine
#     ("store-only": the store's own per-sample state — idempotency digests, the read
#     models' sample store). The engine's share is the difference of the two;
#   - an observer wake with 10 new samples on a store already open on the backfilled
#     decade log: wake → completion (after the page is durable), WAKES times, p50 / p99.
#
#   Benchmarks/healthkit-backfill.sh              # RUNS=3, N=1000000
#   RUNS=1 N=200000 Benchmarks/healthkit-backfill.sh   # a quicker run
#
# Builds dune-replay (release, .build-perf) and Benchmarks/HealthKitBench (release).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
N=${N:-1000000}
SMALL=${SMALL:-100000}
WAKES=${WAKES:-200}
command -v /usr/bin/time >/dev/null || { echo "GNU time is needed (apt-get install time)" >&2; exit 1; }
swift build -c release --scratch-path .build-perf --product dune-replay >/dev/null
swift build -c release --package-path Benchmarks/HealthKitBench >/dev/null
DUNE=$PWD/.build-perf/release/dune-replay
BENCH=$PWD/Benchmarks/HealthKitBench/.build/release/HealthKitBench
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/healthkit-bench.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT

echo "Benchmarks/healthkit-backfill.sh, RUNS=$RUNS, N=$N, $(git rev-parse --short HEAD), $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
$BENCH lines "$N" "$SCRATCH/samples.jsonl"
$BENCH lines "$SMALL" "$SCRATCH/samples-small.jsonl"

# run LABEL COMMAND…: one run; prints "seconds peak-RSS-MB" (the log is removed first).
run() {
    local log=$1; shift
    rm -f "$log" "$log".*
    local start end
    start=$(date +%s.%N)
    /usr/bin/time -f %M -o "$SCRATCH/rss" "$@" >/dev/null 2>"$SCRATCH/err" || { cat "$SCRATCH/err" >&2; exit 1; }
    end=$(date +%s.%N)
    echo "$(python3 -c "print($end - $start)") $(( $(tail -1 "$SCRATCH/rss") / 1024 ))"
}

declare -a ENGINE INGEST
for _ in $(seq "$RUNS"); do
    ENGINE+=("$(run "$SCRATCH/engine.jsonl" $BENCH backfill "$N" "$SCRATCH/engine.jsonl")")
    INGEST+=("$(run "$SCRATCH/ingest.jsonl" $DUNE ingest --log "$SCRATCH/ingest.jsonl" "$SCRATCH/samples.jsonl")")
done
ENGINE_SMALL=$(run "$SCRATCH/engine-small.jsonl" $BENCH backfill "$SMALL" "$SCRATCH/engine-small.jsonl")
STORE_SMALL=$(run "$SCRATCH/store-small.jsonl" $BENCH store-only "$SMALL" "$SCRATCH/store-small.jsonl")
STORE_LARGE=$(run "$SCRATCH/store.jsonl" $BENCH store-only "$N" "$SCRATCH/store.jsonl")
# The decade log for the wakes: the last engine run's.
$BENCH backfill "$N" "$SCRATCH/wake.jsonl" >/dev/null
WAKE=$($BENCH wake "$SCRATCH/wake.jsonl" "$WAKES")

python3 - "$N" "$SMALL" "$WAKE" "$ENGINE_SMALL" "$STORE_SMALL" "$STORE_LARGE" "${ENGINE[@]}" -- "${INGEST[@]}" <<'PY'
import statistics, sys
n, small, wake, engine_small, store_small, store_large = sys.argv[1:7]
rest = sys.argv[7:]
split = rest.index("--")
engine = [tuple(map(float, r.split())) for r in rest[:split]]
ingest = [tuple(map(float, r.split())) for r in rest[split + 1:]]
def row(label, runs):
    t = sorted(r[0] for r in runs)
    return f"| {label} | {t[0]:.2f} / {statistics.median(t):.2f} / {t[-1]:.2f} s | {int(n) / statistics.median(t):,.0f} samples/s | {max(r[1] for r in runs):.0f} MB |"
print()
print(f"| {int(n):,} samples, a decade, six types | min / median / max | throughput (median) | peak RSS |")
print("|---|---|---|---|")
print(row("HealthSyncEngine backfill from the in-memory source (pages of 1000)", engine))
print(row("`dune-replay ingest` of the same samples as JSON lines", ingest))
ratio = statistics.median(r[0] for r in ingest) / statistics.median(r[0] for r in engine)
print(f"\nengine throughput / ingest throughput (medians): {ratio * 100:.0f} %")
es, ss, sl = (tuple(map(float, x.split())) for x in (engine_small, store_small, store_large))
el = max(r[1] for r in engine)
print()
print("| peak RSS | engine backfill | store-only appends (same pages, no engine) | engine's share |")
print("|---|---|---|---|")
print(f"| {int(small):,} samples | {es[1]:.0f} MB | {ss[1]:.0f} MB | {es[1] - ss[1]:.0f} MB |")
print(f"| {int(n):,} samples | {el:.0f} MB | {sl[1]:.0f} MB | {el - sl[1]:.0f} MB |")
print(f"\nthe engine's share grows by {(el - sl[1]) - (es[1] - ss[1]):.0f} MB from {int(small):,} to {int(n):,} samples; "
      f"the store's own state by {sl[1] - ss[1]:.0f} MB ({(sl[1] - ss[1]) * 1048576 / (int(n) - int(small)):.0f} bytes a sample)")
print(f"\nobserver wake, 10 new samples, store open on the decade log: {wake}")
PY
