#!/usr/bin/env bash
# Launch and widget (issue 37): what an app pays at launch, in a widget and in
# a background wake, each measured in a process of its own (as a widget runs):
#   - read-only open from the snapshot to the first state: time, and the
#     resident memory it added to the process (VmRSS after − before);
#   - read-write open to the first state;
#   - close() with a snapshot write, on a store that appended (its deciders'
#     and per-sample state loaded): peak RSS (VmHWM) after − before the close;
#     and the same after a correction and a deletion of restored samples;
#   - report from the snapshot against report --no-snapshot;
#   - the first append on a log without <log>.checkpoint (a new user's first
#     write: it replays the deciders' state and writes the checkpoint) against
#     `dune-replay rebuild` of the same log (whole process).
# Each figure is the median of RUNS processes (min–max beside it) and is
# printed with its target.
#
#   Benchmarks/launch.sh                    # RUNS=3; the year, decade and long-history logs
#   LAUNCH_LOGS="long" Benchmarks/launch.sh # one of them
#   BENCH_DATA=DIR Benchmarks/launch.sh      # logs made earlier (only read: copied)
#
# The logs, made once as query.sh and long-history.sh make them (into
# $BENCH_DATA, default Benchmarks/.data): year = query-year.jsonl (generate
# --days 365 --seed 1 --density 2), decade = query-decade.jsonl (--days 3650
# --density 2), long = log-long-1M.jsonl (--days 8300 --density 1, 1.18M
# events). Each is copied into a scratch directory; nothing is written beside
# the originals.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
LAUNCH_LOGS=${LAUNCH_LOGS:-"year decade long"}
swift build -c release --scratch-path .build-perf --product dune-replay >/dev/null
DUNE=$PWD/.build-perf/release/dune-replay
swift build -c release --package-path Benchmarks/StoreBench >/dev/null
BENCH=$PWD/Benchmarks/StoreBench/.build/release/StoreBench
DATA=${BENCH_DATA:-Benchmarks/.data}
command -v /usr/bin/time >/dev/null || { echo "GNU time is needed (apt-get install time)" >&2; exit 1; }
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/launch-bench.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT

source_log() {  # source_log NAME: the log's path, generated and ingested when missing
    local name=$1 file days density
    case $name in
        year) file=query-year.jsonl days=365 density=2 ;;
        decade) file=query-decade.jsonl days=3650 density=2 ;;
        long) file=log-long-1M.jsonl days=8300 density=1 ;;
        *) echo "unknown log $name (year, decade, long)" >&2; exit 64 ;;
    esac
    if [ ! -s "$DATA/$file" ]; then
        mkdir -p "$DATA"
        $DUNE generate --days $days --seed 1 --density $density > "$SCRATCH/input.jsonl"
        $DUNE ingest --log "$DATA/$file" "$SCRATCH/input.jsonl" >/dev/null
        rm -f "$SCRATCH/input.jsonl"
    fi
    echo "$DATA/$file"
}

# median NAME VALUE…: "median (min–max)".
median() {
    python3 -c 'import statistics, sys; v = sorted(float(x) for x in sys.argv[1:]); print(f"{statistics.median(v):.1f} ({v[0]:.1f}–{v[-1]:.1f})")' "$@"
}
# field REGEX FILE: the first group of REGEX on each line of FILE.
field() { sed -nE "s/.*$1.*/\\1/p" "$2"; }
# wall FILE COMMAND…: appends the command's whole-process wall time and CPU
# time (user + system), in ms, to FILE.
wall() {
    local out=$1; shift
    python3 - "$@" >> "$out" <<'PY'
import resource, subprocess, sys, time
def cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
start, cpu_start = time.perf_counter(), cpu()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
print(f"{(time.perf_counter() - start) * 1000:.1f} {(cpu() - cpu_start) * 1000:.1f}")
PY
}
# column N FILE: the Nth number of each line of FILE.
column() { awk -v n="$1" '{print $n}' "$2"; }

echo "Benchmarks/launch.sh, RUNS=$RUNS, $(git rev-parse --short HEAD), $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
for name in $LAUNCH_LOGS; do
    original=$(source_log "$name")
    STORE=$SCRATCH/$name.jsonl
    cp "$original" "$STORE"
    $DUNE ingest --log "$STORE" - </dev/null >/dev/null 2>&1   # the deciders' checkpoint, as ingest leaves it
    $BENCH open "$STORE" >/dev/null                             # a snapshot, as a closing store leaves it
    R=$SCRATCH/$name; mkdir -p "$R"
    for _ in $(seq "$RUNS"); do
        $BENCH first-state "$STORE" read-only >> "$R/ro.txt"
        $BENCH first-state "$STORE" read-write >> "$R/rw.txt"
        $BENCH close "$STORE" >> "$R/close.txt"
        $BENCH close "$STORE" correcting >> "$R/close-correcting.txt"
        wall "$R/report.txt" $DUNE report --log "$STORE"
        wall "$R/report-replay.txt" $DUNE report --no-snapshot --log "$STORE"
        wall "$R/rebuild.txt" $DUNE rebuild --log "$STORE"
        rm -f "$STORE.checkpoint"
        wall "$R/first-append-process.txt" $BENCH first-append "$STORE"
        rm -f "$STORE.checkpoint"
        $BENCH first-append "$STORE" >> "$R/first-append.txt"
    done
    for what in report report-replay rebuild first-append-process; do
        column 1 "$R/$what.txt" > "$R/$what.wall"; column 2 "$R/$what.txt" > "$R/$what.cpu"
    done
    field 'first-append: ([0-9.]+) ms' "$R/first-append.txt" > "$R/first-append-call.wall"
    field 'process CPU ([0-9.]+) ms' "$R/first-append.txt" > "$R/first-append-call.cpu"
    ratio() { python3 -c 'import statistics, sys; a, b = sys.argv[1].split(), sys.argv[2].split(); print(f"{statistics.median(map(float, a)) / statistics.median(map(float, b)):.2f}×")' "$(cat "$1")" "$(cat "$2")"; }
    echo
    echo "### $name: $(wc -l < "$original") events, $(( $(stat -c %s "$original") / 1048576 )) MB log, $(( $(stat -c %s "$STORE.snapshot") / 1048576 )) MB snapshot"
    echo
    echo "| measurement (one process each) | median (min–max) | target |"
    echo "|---|---|---|"
    echo "| read-only open → first state | $(median $(field 'read-only: ([0-9.]+) ms' "$R/ro.txt")) ms | ≤ 30 ms |"
    echo "| the same, process CPU time | $(median $(field 'read-only: [0-9.]+ ms, process CPU ([0-9.]+) ms' "$R/ro.txt")) ms | |"
    echo "| read-only open → first state, resident memory added | $(median $(field 'resident \+([0-9.-]+) MB' "$R/ro.txt")) MB | ≤ 30 MB |"
    echo "| read-write open → first state | $(median $(field 'read-write: ([0-9.]+) ms' "$R/rw.txt")) ms | ≤ 50 ms |"
    echo "| the same, process CPU time | $(median $(field 'read-write: [0-9.]+ ms, process CPU ([0-9.]+) ms' "$R/rw.txt")) ms | |"
    echo "| read-write open → first state, resident memory added | $(median $(field 'resident \+([0-9.-]+) MB' "$R/rw.txt")) MB | |"
    echo "| \`close()\` with a snapshot write, after an append: peak RSS added | $(median $(field '\(\+([0-9.]+) MB\)' "$R/close.txt")) MB | ≤ 20 MB |"
    echo "| \`close()\` with a snapshot write: time | $(median $(field 'close: ([0-9.]+) ms' "$R/close.txt")) ms | |"
    echo "| the same after a correction and a deletion of restored samples: peak RSS added | $(median $(field '\(\+([0-9.]+) MB\)' "$R/close-correcting.txt")) MB | |"
    echo "| \`report\` from the snapshot / \`report --no-snapshot\` (whole process, wall) | $(median $(cat "$R/report.wall")) / $(median $(cat "$R/report-replay.wall")) ms = $(ratio "$R/report.wall" "$R/report-replay.wall") | ≤ 0.2× |"
    echo "| the same, CPU time | $(median $(cat "$R/report.cpu")) / $(median $(cat "$R/report-replay.cpu")) ms = $(ratio "$R/report.cpu" "$R/report-replay.cpu") | |"
    echo "| first append without a checkpoint (the call) / \`rebuild\` (whole process), wall | $(median $(cat "$R/first-append-call.wall")) / $(median $(cat "$R/rebuild.wall")) ms = $(ratio "$R/first-append-call.wall" "$R/rebuild.wall") | ≤ 1× |"
    echo "| the same, CPU time | $(median $(cat "$R/first-append-call.cpu")) / $(median $(cat "$R/rebuild.cpu")) ms = $(ratio "$R/first-append-call.cpu" "$R/rebuild.cpu") | |"
    echo "| the first-append process (open, append, close with its snapshot) / \`rebuild\`, wall | $(median $(cat "$R/first-append-process.wall")) / $(median $(cat "$R/rebuild.wall")) ms = $(ratio "$R/first-append-process.wall" "$R/rebuild.wall") | |"
    echo "| the second append of that process (the write and its sync, which every append pays) | $(median $(field 'the second append ([0-9.]+) ms' "$R/first-append.txt")) ms | |"
    echo "| first append without a checkpoint: peak RSS added by the call | $(median $(field '\(\+([0-9.]+) MB\)' "$R/first-append.txt")) MB | |"
    echo
    echo "every run:"
    cat "$R/ro.txt" "$R/rw.txt" "$R/close.txt" "$R/close-correcting.txt" "$R/first-append.txt" | sed 's/^/    /'
done
