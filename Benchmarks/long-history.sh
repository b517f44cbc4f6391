# Sourced by store.sh and forget.sh (from the repository root): builds
# dune-replay in release (.build-perf) and sets DUNE, DATA and LOG, the
# long-history log (about 140 events a day over 8,300 days, 1.18M events):
# the same file run.sh's `long` 1M rows use, Benchmarks/.data/log-long-1M.jsonl,
# generated and ingested here the same way when run.sh has not made it yet.
# BENCH_LOG=PATH uses another (existing) log instead, e.g. a small one for a smoke test.
swift build -c release --scratch-path .build-perf --product dune-replay >/dev/null
DUNE=$PWD/.build-perf/release/dune-replay
DATA=Benchmarks/.data
mkdir -p "$DATA"
LOG=${BENCH_LOG:-$DATA/log-long-1M.jsonl}
if [ -z "${BENCH_LOG:-}" ] && [ ! -f "$LOG" ]; then
    $DUNE generate --days 8300 --seed 1 --density 1 > "$DATA/input-long-1M.jsonl"
    $DUNE ingest --log "$LOG" "$DATA/input-long-1M.jsonl" >/dev/null
fi
command -v /usr/bin/time >/dev/null || { echo "GNU time is needed (apt-get install time)" >&2; exit 1; }
