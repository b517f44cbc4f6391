# Sourced by store.sh and forget.sh (from the repository root): builds
# dune-replay in release (.build-perf) and, once, generates the long-history
# log (about 120 events a day over 8,300 days, 1.18M events) into
# Benchmarks/.data/long-history.jsonl. Sets DUNE, DATA and LOG.
swift build -c release --scratch-path .build-perf --product dune-replay >/dev/null
DUNE=$PWD/.build-perf/release/dune-replay
DATA=Benchmarks/.data
mkdir -p "$DATA"
LOG=$DATA/long-history.jsonl
if [ ! -f "$LOG" ]; then
    $DUNE generate --days 8300 --seed 1 > "$DATA/long-history-input.jsonl"
    $DUNE ingest --log "$LOG" "$DATA/long-history-input.jsonl" >/dev/null
fi
command -v /usr/bin/time >/dev/null || { echo "GNU time is needed (apt-get install time)" >&2; exit 1; }
