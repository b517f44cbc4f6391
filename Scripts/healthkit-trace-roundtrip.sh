#!/usr/bin/env bash
# The trace recorder and `dune-replay sync --trace` agree (issue 33).
#
# Runs Examples/HealthKitApp (a sync from an in-memory stand-in for HealthKit,
# recorded by TraceRecordingSource), replays the recorded trace into a new log
# with `dune-replay sync --trace`, rebuilds both logs, and requires the same
# samples and the same readiness, trends and weekly stats (apart from
# `throughSeq`: the app's log also holds its own sync tasks, one per sync it
# ran, where the replay runs one task per type).
#
# Usage: Scripts/healthkit-trace-roundtrip.sh      Exits non-zero on any difference.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift run --package-path Examples/HealthKitApp HealthKitApp --out "$work/app"
swift build --product dune-replay >/dev/null
replay=$(swift build --product dune-replay --show-bin-path)/dune-replay

"$replay" sync --trace "$work/app/sync-trace.jsonl" --log "$work/replayed.jsonl" --json >"$work/replay-summary.json"
"$replay" rebuild --log "$work/app/events.jsonl" --out "$work/app-models" >/dev/null
"$replay" rebuild --log "$work/replayed.jsonl" --out "$work/replay-models" >/dev/null

python3 - "$work" <<'PYTHON'
import json, sys
work = sys.argv[1]
summary = json.load(open(f"{work}/replay-summary.json"))
def samples(path):
    live = {}
    for line in open(path):
        event = json.loads(line)
        if event["type"] == "sample.ingested":
            live[event["data"]["id"]] = event["data"]
        elif event["type"] == "sample.deleted":
            live.pop(event["data"]["id"], None)
    return live
app, replayed = samples(f"{work}/app/events.jsonl"), samples(f"{work}/replayed.jsonl")
failed = False
if app != replayed:
    print(f"healthkit-trace-roundtrip: live samples differ: {len(app)} in the app's log, {len(replayed)} replayed")
    failed = True
for name in ("readiness.json", "trends.json", "weekly-stats.json"):
    models = []
    for folder in ("app-models", "replay-models"):
        model = json.load(open(f"{work}/{folder}/{name}"))
        model.pop("throughSeq", None)
        models.append(model)
    if models[0] != models[1]:
        print(f"healthkit-trace-roundtrip: {name} differs between the app's log and the replayed trace")
        failed = True
if failed:
    sys.exit(1)
print(f"healthkit-trace-roundtrip: the recorded trace replays to the app's {len(app)} live samples "
      f"and the same readiness, trends and weekly stats (replay summary: {json.dumps(summary, sort_keys=True)[:160]}…)")
PYTHON
