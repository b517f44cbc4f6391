#!/usr/bin/env bash
# Two commits' dune-replay side by side: `rebuild` and `ingest` of the 1M
# logs of both shapes, alternating (Benchmarks/compare.py), as issue 15 did.
#
#   Benchmarks/before-after.sh BEFORE AFTER [RUNS]     # e.g. main store 7
#
# BEFORE and AFTER are git revisions (a branch, a tag, a commit) or paths to
# dune-replay binaries. A revision is exported with `git archive` into
# Benchmarks/.data/builds/SHA and built in release there once (the binary is
# kept for the next run). The 1M inputs and logs are made as run.sh makes them
# (generate --seed 1, then ingest with this checkout's release build) when
# missing; BENCH_DATA=DIR uses DIR's files of the same names instead.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: Benchmarks/before-after.sh BEFORE AFTER [RUNS]" >&2; exit 64; }
RUNS=${3:-7}
BUILDS=Benchmarks/.data/builds
mkdir -p "$BUILDS"

# binary REVISION|PATH: prints the path of that revision's release dune-replay, building it once.
binary() {
    if [ -x "$1" ] && [ -f "$1" ]; then echo "$1"; return; fi
    local sha; sha=$(git rev-parse --verify "$1^{commit}")
    local dir=$BUILDS/$sha
    if [ ! -x "$dir/dune-replay" ]; then
        rm -rf "$dir/src" && mkdir -p "$dir/src"
        git archive "$sha" | tar -x -C "$dir/src"
        echo "building $1 ($sha) in release…" >&2
        swift build -c release --package-path "$dir/src" --scratch-path "$dir/.build" --product dune-replay >&2
        cp "$dir/.build/release/dune-replay" "$dir/dune-replay"
        rm -rf "$dir/src" "$dir/.build"
    fi
    echo "$PWD/$dir/dune-replay"
}
BEFORE=$(binary "$1")
AFTER=$(binary "$2")

if [ -z "${BENCH_DATA:-}" ]; then
    swift build -c release --scratch-path .build-perf --product dune-replay >/dev/null
    DUNE=.build-perf/release/dune-replay
    DATA=Benchmarks/.data
    # prepare NAME DAYS DENSITY: input-NAME.jsonl and log-NAME.jsonl, as bench.py's prepare makes them.
    prepare() {
        [ -f "$DATA/input-$1.jsonl" ] || $DUNE generate --days "$2" --seed 1 --density "$3" > "$DATA/input-$1.jsonl"
        [ -f "$DATA/log-$1.jsonl" ] || $DUNE ingest --log "$DATA/log-$1.jsonl" "$DATA/input-$1.jsonl" >/dev/null
    }
    prepare 1M 365 33
    prepare long-1M 8300 1
fi

echo "Benchmarks/before-after.sh $1 $2 $RUNS: before $(git rev-parse --short "$1" 2>/dev/null || echo "$1"), after $(git rev-parse --short "$2" 2>/dev/null || echo "$2"), $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
python3 Benchmarks/compare.py "$BEFORE" "$AFTER" "$RUNS"
