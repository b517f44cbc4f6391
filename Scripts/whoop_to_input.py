#!/usr/bin/env python3
"""Convert a WHOOP "physiological_cycles.csv" export into DuneEvents input lines.

Usage:
    python3 Scripts/whoop_to_input.py physiological_cycles.csv > whoop.jsonl
    python3 Scripts/whoop_to_input.py - < physiological_cycles.csv > whoop.jsonl

Writes DuneEvents input lines (docs/input-format.md) to stdout (nothing else);
a summary and any skipped rows go to stderr. Python 3 standard library only.

Per WHOOP cycle (one row), in chronological order:
  * a `sleep` sample, stage `asleepUnspecified`, from "Sleep onset" to
    onset + "Asleep duration (min)";
  * an `hrv` sample at "Wake onset" with "Heart rate variability (ms)";
  * a `restingHeartRate` sample at "Wake onset" with "Resting heart rate (bpm)".

Decisions:
  * Times. "Sleep onset" / "Wake onset" are local wall-clock times in the
    row's "Cycle timezone" ("UTC-08:00"): sleep hours are the same in every
    zone of the export (local, not UTC), so each timestamp is written with that
    offset, e.g. 2024-12-09T12:24:58-08:00.
  * HRV. WHOOP reports rMSSD, Apple Watch SDNN; both are ms-scale HRV and the
    readiness score only uses each day's value against its own 60-day baseline,
    so rMSSD is written as kind `hrv` unchanged.
  * Sleep. One asleep interval of exactly the asleep minutes, starting at
    onset: the day's sleepMinutes (the union of asleep intervals) then equals
    WHOOP's "Asleep duration" to the minute. Scaling onset→wake down to the
    asleep minutes gives the same length but suggests a precision about where
    the awake minutes fell that the CSV does not have; an interval ending at
    the real wake time would move sleep later than it was. With --in-bed an
    `inBed` sample onset→wake is added too (it does not change sleepMinutes).
  * Days. The hrv/restingHeartRate samples start at wake, so they count for
    the wake date; the sleep sample ends before 18:00 local on the wake date in
    all but travel nights, so it counts for the same date (a night belongs
    to the morning it ends, docs/input-format.md).
  * Ids. uuid5 of "whoop/<cycle start>/<cycle timezone>/<kind>": stable, so
    converting the same export again re-sends identical lines, which ingest
    reports as already appended.
"""

import argparse
import csv
import datetime as dt
import json
import re
import sys
import uuid

NAMESPACE = uuid.UUID("9c3f6f0e-4d4f-4c1b-9a7e-2f1f5d7c0b11")
TIMEZONE = re.compile(r"^UTC(?:([+-])(\d{1,2})(?::?(\d{2}))?)?$")


def parse_offset(text):
    """'UTC-08:00' -> datetime.timezone(-8 h); None when unreadable."""
    match = TIMEZONE.match(text.strip())
    if not match:
        return None
    sign, hours, minutes = match.groups()
    if sign is None:
        return dt.timezone.utc
    delta = dt.timedelta(hours=int(hours), minutes=int(minutes or 0))
    return dt.timezone(-delta if sign == "-" else delta)


def parse_local(text, zone):
    """'2024-12-09 03:40:05' in `zone` -> aware datetime; None when empty."""
    text = text.strip()
    if not text:
        return None
    return dt.datetime.strptime(text, "%Y-%m-%d %H:%M:%S").replace(tzinfo=zone)


def rfc3339(moment):
    """RFC 3339 with seconds and the moment's own offset ('Z' for UTC)."""
    text = moment.isoformat(timespec="seconds")
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def number(text):
    """A float from a CSV cell, or None when empty or not a number."""
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if value == value and abs(value) != float("inf") else None


def json_number(value):
    return int(value) if value == int(value) else value


def sample_id(cycle_key, kind):
    return str(uuid.uuid5(NAMESPACE, f"whoop/{cycle_key}/{kind}")).upper()


def convert(rows, source, in_bed, warn):
    """Yields (instant, order, line object) for every row; skipped rows are reported via warn."""
    for number_in_file, row in enumerate(rows, start=2):
        zone = parse_offset(row.get("Cycle timezone", ""))
        if zone is None:
            warn(f"line {number_in_file}: unreadable Cycle timezone {row.get('Cycle timezone')!r}; row skipped")
            continue
        try:
            onset = parse_local(row.get("Sleep onset", ""), zone)
            wake = parse_local(row.get("Wake onset", ""), zone)
        except ValueError as error:
            warn(f"line {number_in_file}: {error}; row skipped")
            continue
        if onset is None or wake is None:
            warn(f"line {number_in_file}: no sleep onset/wake (cycle {row.get('Cycle start time')}); row skipped")
            continue
        cycle_key = f"{row.get('Cycle start time', '').strip()}/{row.get('Cycle timezone', '').strip()}"
        asleep = number(row.get("Asleep duration (min)"))
        if asleep is not None and 0 < asleep <= 24 * 60:
            end = onset + dt.timedelta(minutes=asleep)
            yield end, 0, {
                "type": "sample", "kind": "sleep", "id": sample_id(cycle_key, "sleep"),
                "start": rfc3339(onset), "end": rfc3339(end), "value": "asleepUnspecified", "source": source,
            }
        if in_bed and wake >= onset and wake - onset <= dt.timedelta(hours=24):
            yield wake, 1, {
                "type": "sample", "kind": "sleep", "id": sample_id(cycle_key, "inBed"),
                "start": rfc3339(onset), "end": rfc3339(wake), "value": "inBed", "source": source,
            }
        hrv = number(row.get("Heart rate variability (ms)"))
        if hrv is not None and 1 <= hrv <= 500:
            yield wake, 2, {
                "type": "sample", "kind": "hrv", "id": sample_id(cycle_key, "hrv"),
                "start": rfc3339(wake), "end": rfc3339(wake), "value": json_number(hrv), "unit": "ms",
                "source": source,
            }
        elif hrv is not None:
            warn(f"line {number_in_file}: HRV {hrv} ms outside 1–500; not written")
        resting = number(row.get("Resting heart rate (bpm)"))
        if resting is not None and 20 <= resting <= 250:
            yield wake, 3, {
                "type": "sample", "kind": "restingHeartRate", "id": sample_id(cycle_key, "restingHeartRate"),
                "start": rfc3339(wake), "end": rfc3339(wake), "value": json_number(resting), "unit": "bpm",
                "source": source,
            }
        elif resting is not None:
            warn(f"line {number_in_file}: resting HR {resting} outside 20–250; not written")


def main(argv=None):
    parser = argparse.ArgumentParser(description="Convert a WHOOP physiological_cycles.csv into DuneEvents input lines.")
    parser.add_argument("csv", help="the WHOOP export (physiological_cycles.csv), or - for stdin")
    parser.add_argument("--source", default="WHOOP", help="the source name written on every sample (default WHOOP)")
    parser.add_argument("--in-bed", action="store_true", help="also write an inBed sample from sleep onset to wake")
    args = parser.parse_args(argv)

    warnings = []
    try:
        handle = sys.stdin if args.csv == "-" else open(args.csv, newline="", encoding="utf-8-sig")
    except OSError as error:
        print(f"whoop_to_input: cannot read {args.csv}: {error.strerror}", file=sys.stderr)
        return 66
    with handle:
        reader = csv.DictReader(handle)
        missing = {"Cycle start time", "Cycle timezone", "Sleep onset", "Wake onset"} - set(reader.fieldnames or [])
        if missing:
            print(f"whoop_to_input: {args.csv} is not a WHOOP physiological_cycles.csv: missing columns "
                  f"{', '.join(sorted(missing))}", file=sys.stderr)
            return 65
        rows = list(reader)
        records = sorted(convert(rows, args.source, args.in_bed, warnings.append),
                         key=lambda record: (record[0].timestamp(), record[1], record[2]["id"]))
    out = sys.stdout
    for _, _, line in records:
        out.write(json.dumps(line, separators=(",", ":"), ensure_ascii=False))
        out.write("\n")
    for warning in warnings:
        print(f"whoop_to_input: {warning}", file=sys.stderr)
    print(f"whoop_to_input: {len(rows)} cycles -> {len(records)} lines", file=sys.stderr)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        sys.exit(0)
