#!/usr/bin/env bash
# Extreme-but-valid logs against a normal one of the same size (issue 11).
#
#   Benchmarks/extreme.sh              # RUNS=3, 50 000 events per case
#   RUNS=5 EVENTS=100000 Benchmarks/extreme.sh
#
# Builds dune-replay (release, scratch path .build-perf), generates every
# `generate --extreme CASE` input and a normal log (`generate --days 345`, the
# generator's usual mix over about a year, ~50k lines) into
# Benchmarks/.data/extreme, ingests each, then rebuilds each RUNS times and
# prints a Markdown table: wall time (median) and peak RSS (largest) of ingest
# and rebuild, and the rebuild's ratio to the normal log's.
# Needs GNU time (/usr/bin/time -f %M): `apt-get install time` if it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/time ] || ! /usr/bin/time -f %M true >/dev/null 2>&1; then
    echo "GNU time is missing: install it with 'sudo apt-get install time' (peak RSS is read from /usr/bin/time -f %M)" >&2
    exit 69
fi
swift build -c release --scratch-path .build-perf --product dune-replay
export DUNE=.build-perf/release/dune-replay
exec python3 Benchmarks/extreme.py
