#!/usr/bin/env bash
# Several processes on one log, as an app, its extension and its widget share one
# in an App Group container (issue 21): two writers and one read-only observer of
# Examples/EmbeddingApp run at the same time on one log.
#
#   Scripts/embedding-demo.sh [LOG]     (default: a new temporary folder's events.jsonl)
#
# The observer starts first, read-only, before the log exists, and observes for 8 s.
# Then writers A and B each append 50 HRV samples, one append call each (the writer
# lock is taken per call, so their appends interleave), and observe for 3 s.
# Expected: both writers print `appended 50`; all three print `state throughSeq=100`
# as their last `state` line. Exit status 0 only then.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --package-path Examples/EmbeddingApp >&2
app="$(swift build --package-path Examples/EmbeddingApp --show-bin-path)/EmbeddingApp"

if [ $# -ge 1 ]; then
    log="$1"
else
    dir="$(mktemp -d)"
    log="$dir/events.jsonl"
fi
out="$(mktemp -d)"
trap 'rm -rf "$out" ${dir:+"$dir"}' EXIT

"$app" --log "$log" --read-only --hold 8 >"$out/observer" 2>"$out/observer.err" &
observer=$!
sleep 1   # the observer is open on a log that does not exist yet
"$app" --log "$log" --append 50 --source A --hold 3 >"$out/A" 2>"$out/A.err" &
writer_a=$!
"$app" --log "$log" --append 50 --source B --hold 3 >"$out/B" 2>"$out/B.err" &
writer_b=$!

status=0
declare -A exit_status
wait "$writer_a" && exit_status[A]=0 || exit_status[A]=$?
wait "$writer_b" && exit_status[B]=0 || exit_status[B]=$?
wait "$observer" && exit_status[observer]=0 || exit_status[observer]=$?

for name in A B observer; do
    label="writer $name: --append 50 --source $name --hold 3"
    [ "$name" != observer ] || label="observer: --read-only --hold 8"
    echo "== $label (exit ${exit_status[$name]})"
    [ "${exit_status[$name]}" = 0 ] || status=1
    cat "$out/$name"
    if [ -s "$out/$name.err" ]; then
        echo "-- stderr:"
        cat "$out/$name.err"
    fi
done

# The writers' appends in log order, one letter per line: where they alternate, the
# two processes took the lock in turn.
order=$(grep -o '"source":"[AB]"' "$log" | cut -d'"' -f4 | tr -d '\n')
echo "== the log: $(wc -l <"$log") lines, sources in seq order: $order"
for name in A B; do
    grep -qx 'appended 50' "$out/$name" || { echo "writer $name did not append 50" >&2; status=1; }
done
for name in A B observer; do
    last=$(grep '^state ' "$out/$name" | tail -n 1)
    [ "$last" = "state throughSeq=100" ] || { echo "$name: last state line is '$last', not 'state throughSeq=100'" >&2; status=1; }
done
exit "$status"
