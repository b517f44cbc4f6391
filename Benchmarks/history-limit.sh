#!/usr/bin/env bash
# `history --limit 2`, `history --limit 2` with a task.started among the rows,
# `history --type task.started --limit 1`, `history --limit 2 --json` and
# `tail -n 5` on a 100k-event and the 1.18M-event long-history log, release
# build (issue 35, item 8). RUNS runs each (default 5), min / median / max.
#
#   Benchmarks/history-limit.sh
#
# The 100k log is the first 100,000 lines of the long-history log (a prefix of
# a log is a log). Uses long-history.sh (release build in .build-perf).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
source Benchmarks/long-history.sh
SMALL=$DATA/log-100k.jsonl
[ -f "$SMALL" ] || head -n 100000 "$LOG" > "$SMALL"

python3 - "$DUNE" "$SMALL" "$LOG" "$RUNS" <<'PY'
import statistics, subprocess, sys, time
dune, small, large, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
commands = [
    ("history --limit 2", ["history", "--limit", "2"]),
    ("history --limit 2 --json", ["history", "--limit", "2", "--json"]),
    ("history --type task.started --limit 1 (marks: reads to the end)", ["history", "--type", "task.started", "--limit", "1"]),
    ("tail -n 5", ["tail", "-n", "5"]),
]
print("| command | 100k events | 1.18M events |")
print("|---|---|---|")
for name, arguments in commands:
    cells = []
    for log in (small, large):
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run([dune] + arguments + ["--log", log], stdout=subprocess.DEVNULL, check=True)
            times.append(time.perf_counter() - start)
        cells.append(f"{min(times):.3f} / {statistics.median(times):.3f} / {max(times):.3f} s")
    print(f"| `{name}` | {cells[0]} | {cells[1]} |")
PY
