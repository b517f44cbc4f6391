"""A peer for Benchmarks/run.sh: Python's stdlib json on every line of a
DuneEvents log, summing stepCount values per local day (date prefix of start).

Usage: python3 python_fold.py LOG  ->  "events N steps-days D steps-total T"
"""
import json
import sys
from collections import defaultdict

events = 0
steps = defaultdict(float)
with open(sys.argv[1], "rb") as log:
    for line in log:
        if not line.strip():
            continue
        event = json.loads(line)
        events += 1
        if event["type"] == "sample.ingested":
            data = event["data"]
            if data.get("kind") == "stepCount":
                steps[data["start"][:10]] += data["value"]
print(f"events {events} steps-days {len(steps)} steps-total {int(sum(steps.values()))}")
