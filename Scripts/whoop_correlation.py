#!/usr/bin/env python3
"""Pearson r between DuneEvents readiness and WHOOP Recovery, matched by date.

Usage:
    python3 Scripts/whoop_correlation.py physiological_cycles.csv readiness.json [--json]

`readiness.json` is the read model `dune-replay rebuild --out DIR` writes:
{"days": [{"date": "YYYY-MM-DD", "score": number|null, ...}, ...]}.

A WHOOP cycle is matched to the readiness day of its wake date: the local date
of "Wake onset" (that is the day whose hrv/restingHeartRate the converter
Scripts/whoop_to_input.py writes, and the morning the night belongs to). Days
with a null score, and cycles without wake time or Recovery, are left out. If
two cycles wake on the same date (travel), the later wake wins.

Prints `r = 0.923 (n = 340)` to stdout (or a JSON object with --json); notes
go to stderr. Python 3 standard library only.
"""

import argparse
import csv
import json
import math
import sys


def recovery_by_wake_date(path):
    """{'YYYY-MM-DD': recovery %} keyed by the local date of "Wake onset"."""
    by_date = {}
    with open(path, newline="", encoding="utf-8-sig") as handle:
        reader = csv.DictReader(handle)
        for row in reader:
            wake = (row.get("Wake onset") or "").strip()
            recovery = (row.get("Recovery score %") or "").strip()
            if len(wake) < 10 or not recovery:
                continue
            try:
                value = float(recovery)
            except ValueError:
                continue
            date = wake[:10]
            if date not in by_date or wake > by_date[date][0]:
                by_date[date] = (wake, value)
    return {date: value for date, (_, value) in by_date.items()}


def readiness_by_date(path):
    with open(path, encoding="utf-8") as handle:
        model = json.load(handle)
    return {day["date"]: float(day["score"]) for day in model.get("days", []) if day.get("score") is not None}


def pearson(xs, ys):
    n = len(xs)
    if n < 3:
        return None
    mean_x, mean_y = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mean_x) ** 2 for x in xs)
    syy = sum((y - mean_y) ** 2 for y in ys)
    sxy = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys))
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Pearson r between readiness score and WHOOP Recovery by date.")
    parser.add_argument("csv", help="WHOOP physiological_cycles.csv")
    parser.add_argument("readiness", help="readiness.json from `dune-replay rebuild --out DIR`")
    parser.add_argument("--json", action="store_true", help="print {\"r\", \"n\"} as JSON")
    args = parser.parse_args(argv)
    try:
        recovery = recovery_by_wake_date(args.csv)
        readiness = readiness_by_date(args.readiness)
    except OSError as error:
        print(f"whoop_correlation: cannot read {error.filename}: {error.strerror}", file=sys.stderr)
        return 66
    except (ValueError, KeyError, TypeError) as error:
        print(f"whoop_correlation: unexpected content: {error}", file=sys.stderr)
        return 65
    dates = sorted(set(recovery) & set(readiness))
    r = pearson([readiness[d] for d in dates], [recovery[d] for d in dates])
    print(f"whoop_correlation: {len(recovery)} WHOOP days with Recovery, {len(readiness)} readiness days "
          f"with a score, {len(dates)} matched", file=sys.stderr)
    if args.json:
        print(json.dumps({"n": len(dates), "r": None if r is None else round(r, 4)}, sort_keys=True))
    elif r is None:
        print(f"r = undefined (n = {len(dates)})")
    else:
        print(f"r = {r:.3f} (n = {len(dates)})")
    return 0 if r is not None else 65


if __name__ == "__main__":
    sys.exit(main())
