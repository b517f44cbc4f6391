"""A peer for Benchmarks/run.sh: Python's stdlib json on every line of a
DuneEvents log. It counts the events, and groups the `sample.ingested` events
by kind and local day with a count and a sum of their numeric values.

The local day is the one the product uses: the date written in `start`
(its own offset), and for sleep the local date of `end` + 6 h.

Usage: python3 python_fold.py LOG
  ->  "events N samples S groups G value-sum V"   (the same line as every peer)
"""
import datetime
import json
import sys

ONE_DAY = datetime.timedelta(days=1)


def local_day(kind, data):
    if kind == "sleep":
        end = data["end"]
        day = end[:10]
        if int(end[11:13]) >= 18:  # end + 6 h crosses midnight
            day = (datetime.date.fromisoformat(day) + ONE_DAY).isoformat()
        return day
    return data["start"][:10]


events = 0
groups = {}
with open(sys.argv[1], "rb") as log:
    for line in log:
        if not line.strip():
            continue
        event = json.loads(line)
        events += 1
        if event["type"] == "sample.ingested":
            data = event["data"]
            kind = data["kind"]
            key = (kind, local_day(kind, data))
            count, total = groups.get(key, (0, 0.0))
            value = data.get("value")
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                total += value
            groups[key] = (count + 1, total)
samples = sum(count for count, _ in groups.values())
value_sum = sum(total for _, total in groups.values())
print(f"events {events} samples {samples} groups {len(groups)} value-sum {value_sum:.2f}")
