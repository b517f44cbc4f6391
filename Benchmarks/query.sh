#!/usr/bin/env bash
# Issue 34's query: `DuneStore.samples(of: .hrv, in: last 90 days)` on a
# decade log (1M events) and on its first year (100k events, the same days'
# density), so that the cost is shown to follow the result, not the log.
#
#   Benchmarks/query.sh            # COUNT=200 queries per log, p50 / p99 per call
#
# Builds dune-replay and Benchmarks/StoreBench in release, generates both
# inputs (generate --seed 1 --density 2: about 270 events a day) into
# Benchmarks/.data/query-{year,decade}.jsonl once, ingests them, opens each
# read-only (one replay, no snapshot written) and times the query.
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${COUNT:-200}
data=Benchmarks/.data
mkdir -p "$data"
swift build -c release --product dune-replay >&2
replay="$(swift build -c release --show-bin-path)/dune-replay"
swift build -c release --package-path Benchmarks/StoreBench >&2
bench="$(swift build -c release --package-path Benchmarks/StoreBench --show-bin-path)/StoreBench"
for shape in year:365 decade:3650; do
    name=${shape%%:*}; days=${shape##*:}
    log="$data/query-$name.jsonl"
    if [ ! -s "$log" ]; then
        "$replay" generate --days "$days" --seed 1 --density 2 > "$data/query-$name.input.jsonl"
        rm -f "$log" "$log".*
        "$replay" ingest --log "$log" "$data/query-$name.input.jsonl" > /dev/null
    fi
    echo "$name: $(wc -l < "$log") events"
    "$bench" query "$log" 90 "$COUNT"
done
