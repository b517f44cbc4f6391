"""Measures DuneEvents against its targets and its peers, in one run; prints a table.

Run through Benchmarks/run.sh, which builds the release binaries first.
Python stdlib only. Every figure is the wall-clock time of a whole process
(start to exit) measured RUNS times: min / median / max; peak RSS is the
largest `ru_maxrss` of those runs (os.wait4). Peers read the same 1M-event
log in the same run, so ratios compare like with like on this machine.

Environment: RUNS (default 5), BENCH_SIZES (default "100k 1M 3M"), DUNE (the
dune-replay binary), FOLD (the FoundationFold binary), PYTHON_DUCKDB (a python
with duckdb, optional).
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "Benchmarks", ".data")
DUNE = os.environ.get("DUNE", os.path.join(ROOT, ".build-perf", "release", "dune-replay"))
FOLD = os.environ.get("FOLD", "")
PYTHON_DUCKDB = os.environ.get("PYTHON_DUCKDB", "")
RUNS = int(os.environ.get("RUNS", "5"))
# name -> (days, density): density 33 is ~2 700 events a day, so days scale the count.
SIZES = {"100k": (37, 33), "1M": (365, 33), "3M": (1100, 33)}
WANTED = os.environ.get("BENCH_SIZES", "100k 1M 3M").split()


GNU_TIME = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None


def run_once(command, stdout_path=os.devnull):
    """Runs `command`; returns (seconds, peak RSS in MiB, exit status).

    Peak RSS comes from GNU time when installed: a child forked from this
    Python process starts with Python's own high-water mark, which os.wait4
    would report for small commands (`cat`)."""
    rss_file = os.path.join(DATA, "rss.txt")
    wrapped = [GNU_TIME, "-f", "%M", "-o", rss_file] + command if GNU_TIME else command
    with open(stdout_path, "wb") as out:
        start = time.perf_counter()
        process = subprocess.Popen(wrapped, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
    peak = usage.ru_maxrss / 1024
    if GNU_TIME:
        with open(rss_file) as file:
            peak = int(file.read().split()[-1]) / 1024
    return elapsed, peak, os.waitstatus_to_exitcode(status)


def measure(command, runs=RUNS, before=None, expect=(0,)):
    """Runs `command` `runs` times (calling `before(i)` first); returns stats."""
    times, rss = [], []
    for index in range(runs):
        if before:
            before(index)
        elapsed, peak, status = run_once(command(index) if callable(command) else command)
        if status not in expect:
            raise SystemExit(f"benchmark command failed ({status}): {command}")
        times.append(elapsed)
        rss.append(peak)
    return {"min": min(times), "median": statistics.median(times), "max": max(times), "rss": max(rss)}


def events_in(log):
    with open(log, "rb") as file:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: file.read(1 << 24), b""))


def prepare(name):
    """The input and log of size `name`, generated and ingested once (kept in Benchmarks/.data)."""
    days, density = SIZES[name]
    source = os.path.join(DATA, f"input-{name}.jsonl")
    log = os.path.join(DATA, f"log-{name}.jsonl")
    if not os.path.exists(source):
        with open(source, "wb") as out:
            subprocess.run([DUNE, "generate", "--days", str(days), "--seed", "1", "--density", str(density)], stdout=out, check=True)
    if not os.path.exists(log):
        subprocess.run([DUNE, "ingest", "--log", log, source], stdout=subprocess.DEVNULL, check=True)
    return source, log


def row(label, stats, count=None, unit="events/s", ratio_to=None):
    line = f"| {label} | {stats['min']:.3f} / {stats['median']:.3f} / {stats['max']:.3f} s | {stats['rss']:.0f} MB |"
    line += f" {count / stats['median'] / 1e6:.2f} M {unit} |" if count else " |"
    if ratio_to:
        line += f" {stats['median'] / ratio_to['median']:.2f}× |"
    else:
        line += " |"
    return line


def main():
    if "1M" not in WANTED:
        sys.exit("Benchmarks: BENCH_SIZES must include 1M (the targets and the peers are measured on the 1M-event log)")
    os.makedirs(DATA, exist_ok=True)
    results = {}
    print(f"# DuneEvents benchmarks — {RUNS} runs each (min / median / max), {os.cpu_count()} cores", flush=True)
    logs = {}
    for name in WANTED:
        print(f"preparing {name} …", file=sys.stderr, flush=True)
        logs[name] = prepare(name)
    source, log = logs["1M"]
    events = events_in(log)
    lines = events_in(source)
    out = os.path.join(DATA, "out")

    # Rebuild at every size: the linear-scaling rows.
    scaling = []
    for name in WANTED:
        _, sized_log = logs[name]
        count = events_in(sized_log)
        stats = measure([DUNE, "rebuild", "--log", sized_log, "--out", out])
        scaling.append((name, count, stats))
        results[f"rebuild-{name}"] = stats
    rebuild = results["rebuild-1M"]

    # Peers on the same 1M-event log.
    peers = [("`cat log > /dev/null` (physical floor)", ["cat", log])]
    if FOLD:
        peers.append(("Foundation `JSONDecoder` fold (Swift)", [FOLD, log]))
    peers.append(("Python stdlib `json` fold", [sys.executable, os.path.join(ROOT, "Benchmarks", "python_fold.py"), log]))
    if PYTHON_DUCKDB:
        peers.append(("DuckDB `read_json` aggregate (2 threads)", [PYTHON_DUCKDB, os.path.join(ROOT, "Benchmarks", "duckdb_fold.py"), log]))
    peer_rows = []
    for label, command in peers:
        runs = RUNS if "cat" in label or "DuckDB" in label else max(1, min(RUNS, 3))
        peer_rows.append((label, measure(command, runs=runs)))

    # Ingest 1M lines into an empty log, one fsync per batch.
    scratch = os.path.join(DATA, "ingest.jsonl")

    def fresh(_):
        for path in (scratch, scratch + ".checkpoint"):
            if os.path.exists(path):
                os.remove(path)

    ingest = measure([DUNE, "ingest", "--log", scratch, source], runs=max(1, min(RUNS, 3)), before=fresh)

    # Append one event to the 1M-event log (its checkpoint is written by the ingest above).
    append_log = os.path.join(DATA, "append.jsonl")
    shutil.copyfile(scratch, append_log)
    if os.path.exists(scratch + ".checkpoint"):
        shutil.copyfile(scratch + ".checkpoint", append_log + ".checkpoint")
    one = os.path.join(DATA, "one.jsonl")

    def one_line(index):
        with open(one, "w") as file:
            file.write(json.dumps({"type": "sample", "kind": "hrv", "id": f"BENCH-APPEND-{time.time_ns()}-{index}",
                                   "start": "2027-01-05T06:00:00+01:00", "end": "2027-01-05T06:01:00+01:00",
                                   "value": 50, "unit": "ms", "source": "Benchmark"}) + "\n")

    append = measure([DUNE, "ingest", "--log", append_log, one], before=one_line)

    # history over 1M events.
    history = measure([DUNE, "history", "--log", log, "--kind", "hrv", "--since", "2026-12-01"])

    # The table.
    print()
    print("| measurement | wall min / median / max | peak RSS | throughput | time ÷ rebuild's |")
    print("|---|---|---|---|---|")
    print(row(f"**rebuild** 1M events ({events:,}, {os.path.getsize(log) / 1e6:.0f} MB), all four models", rebuild, events))
    for label, stats in peer_rows:
        print(row(label, stats, events, ratio_to=rebuild))
    print(row(f"**ingest** {lines:,} lines into an empty log (fsync per batch)", ingest, lines, unit="lines/s"))
    print(row("**append** one event to the 1M-event log (process start to exit)", append))
    print(row("**history** `--kind hrv --since 2026-12-01` over 1M events", history))
    print()
    print("| rebuild at | events | wall min / median / max | peak RSS | events/s |")
    print("|---|---|---|---|---|")
    for name, count, stats in scaling:
        print(f"| {name} | {count:,} | {stats['min']:.3f} / {stats['median']:.3f} / {stats['max']:.3f} s | {stats['rss']:.0f} MB |"
              f" {count / stats['median'] / 1e6:.2f} M |")
    print()
    targets = [
        ("rebuild 1M ≥ 2M events/s", events / rebuild["median"] >= 2e6),
        ("rebuild faster than DuckDB", all(rebuild["median"] < stats["median"] for label, stats in peer_rows if "DuckDB" in label)
         if PYTHON_DUCKDB else None),
        ("ingest ≥ 500k lines/s", lines / ingest["median"] >= 5e5),
        ("append one event ≤ 250 ms", append["median"] <= 0.25),
        ("history ≤ 0.5 s", history["median"] <= 0.5),
        ("rebuild 1M peak RSS ≤ 200 MB", rebuild["rss"] <= 200),
    ]
    for label, met in targets:
        print(f"- {label}: {'met' if met else ('not measured' if met is None else 'NOT met')}")


if __name__ == "__main__":
    main()
