"""Measures DuneEvents against its targets and its peers, in one run; prints a table.

Run through Benchmarks/run.sh, which builds the release binaries first.
Python stdlib only. Every figure is the wall-clock time of a whole process
(start to exit) measured RUNS times: min / median / max; peak RSS is the
largest `ru_maxrss` of those runs (os.wait4). Peers read the same 1M-event
log in the same run, so ratios compare like with like on this machine.

Two data shapes, each at every size: `dense` (about 2,700 events a day over a
year at 1M) and `long` (about 140 a day over 8,300 days at 1M: a long
history, where the per-day work shows). Every peer prints the same totals
line; the run stops if two peers disagree.

Environment: RUNS (default 5), BENCH_SIZES (default "100k 1M 3M"), BENCH_SHAPES
(default "dense long"), DUNE (the
dune-replay binary), FOLD (the FoundationFold binary), PYTHON_DUCKDB (a python
with duckdb, optional).
"""
import json
import os
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
# shape -> size -> (days, density). Density 33 is ~2 700 events a day, so days scale
# the count; density 1 is ~142 a day (the long-history log: 8,300 days, 1,179,494 events).
SHAPES = {
    "dense": {"100k": (37, 33), "1M": (365, 33), "3M": (1100, 33)},
    "long": {"100k": (830, 1), "1M": (8300, 1), "3M": (24900, 1)},
}
SHAPE_TITLES = {
    "dense": "dense: about 2,700 events a day, a year at 1M",
    "long": "long history: about 140 events a day, 8,300 days at 1M",
}
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


def prepare(shape, name):
    """The input and log of `shape` and size `name`, generated and ingested once (kept in Benchmarks/.data)."""
    days, density = SHAPES[shape][name]
    prefix = "" if shape == "dense" else f"{shape}-"
    source = os.path.join(DATA, f"input-{prefix}{name}.jsonl")
    log = os.path.join(DATA, f"log-{prefix}{name}.jsonl")
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


def measure_peer(command, runs):
    """Like `measure`, and returns the totals line the peer printed (the same for every peer)."""
    totals_path = os.path.join(DATA, "peer.txt")
    times, rss = [], []
    totals = None
    for _ in range(runs):
        elapsed, peak, status = run_once(command, stdout_path=totals_path)
        if status != 0:
            raise SystemExit(f"benchmark command failed ({status}): {command}")
        with open(totals_path) as file:
            totals = file.read().strip()
        times.append(elapsed)
        rss.append(peak)
    return {"min": min(times), "median": statistics.median(times), "max": max(times), "rss": max(rss)}, totals


def parse_totals(line):
    """`events N samples S groups G value-sum V` -> (N, S, G, V)."""
    words = line.split()
    fields = dict(zip(words[0::2], words[1::2]))
    return int(fields["events"]), int(fields["samples"]), int(fields["groups"]), float(fields["value-sum"])


def agree(first, second):
    return first[:3] == second[:3] and abs(first[3] - second[3]) <= 1e-9 * max(1.0, abs(first[3]))


def bench_shape(shape):
    """Measures one data shape; prints its tables; returns the target lines."""
    logs = {}
    for name in WANTED:
        print(f"preparing {shape} {name} …", file=sys.stderr, flush=True)
        logs[name] = prepare(shape, name)
    source, log = logs["1M"]
    events = events_in(log)
    lines = events_in(source)
    out = os.path.join(DATA, "out")
    results = {}

    # Rebuild at every size: the linear-scaling rows.
    scaling = []
    for name in WANTED:
        _, sized_log = logs[name]
        count = events_in(sized_log)
        stats = measure([DUNE, "rebuild", "--log", sized_log, "--out", out])
        scaling.append((name, count, stats))
        results[f"rebuild-{name}"] = stats
    rebuild = results["rebuild-1M"]

    # Peers on the same 1M-event log, each printing the same totals.
    here = os.path.join(ROOT, "Benchmarks")
    peers = [("`cat log > /dev/null` (physical floor)", ["cat", log])]
    if FOLD:
        peers.append(("Foundation `JSONDecoder` fold (Swift)", [FOLD, log]))
    peers.append(("Python stdlib `json` fold", [sys.executable, os.path.join(here, "python_fold.py"), log]))
    if PYTHON_DUCKDB:
        peers.append(("DuckDB `read_json`, declared struct columns, `GROUP BY` kind, local day (2 threads)",
                      [PYTHON_DUCKDB, os.path.join(here, "duckdb_fold.py"), "struct", log]))
        peers.append(("DuckDB `read_json`, `data` as JSON, fields by `->>` (2 threads)",
                      [PYTHON_DUCKDB, os.path.join(here, "duckdb_fold.py"), "json", log]))
    peer_rows = []
    agreed = None
    for label, command in peers:
        runs = RUNS if "cat" in label or "DuckDB" in label else max(1, min(RUNS, 3))
        stats, totals = measure_peer(command, runs)
        if "cat" not in label:
            parsed = parse_totals(totals)
            if agreed is None:
                agreed = (label, totals, parsed)
            elif not agree(agreed[2], parsed):
                raise SystemExit(f"peers disagree on the {shape} log: {agreed[0]} printed '{agreed[1]}', {label} printed '{totals}'")
        peer_rows.append((label, stats))
    struct = next((stats for label, stats in peer_rows if "struct" in label), None)

    # Ingest 1M lines into an empty log, default durability (one fsync per batch).
    scratch = os.path.join(DATA, "ingest.jsonl")

    def fresh(_):
        for path in (scratch, scratch + ".checkpoint"):
            if os.path.exists(path):
                os.remove(path)

    ingest = measure([DUNE, "ingest", "--log", scratch, source], runs=max(1, min(RUNS, 3)), before=fresh)

    # Append one event to the 1M-event log the ingest above wrote, with the checkpoint it
    # wrote (a checkpoint names its log file: a copied log would be replayed in full).
    append_log = scratch
    one = os.path.join(DATA, "one.jsonl")

    def one_line(index):
        with open(one, "w") as file:
            file.write(json.dumps({"type": "sample", "kind": "hrv", "id": f"BENCH-APPEND-{time.time_ns()}-{index}",
                                   "start": "2027-01-05T06:00:00+01:00", "end": "2027-01-05T06:01:00+01:00",
                                   "value": 50, "unit": "ms", "source": "Benchmark"}) + "\n")

    append = measure([DUNE, "ingest", "--log", append_log, one], before=one_line)

    # history over 1M events.
    history = measure([DUNE, "history", "--log", log, "--kind", "hrv", "--since", "2026-12-01"])

    # The tables.
    print()
    print(f"### {SHAPE_TITLES[shape]}")
    print()
    if agreed:
        print(f"Every peer printed `{agreed[1]}`.")
        print()
    print("| measurement | wall min / median / max | peak RSS | throughput | time ÷ rebuild's |")
    print("|---|---|---|---|---|")
    print(row(f"**rebuild** 1M events ({events:,}, {os.path.getsize(log) / 1e6:.0f} MB), all four models", rebuild, events))
    for label, stats in peer_rows:
        print(row(label, stats, events, ratio_to=rebuild))
    print(row(f"**ingest** {lines:,} lines into an empty log (default durability: fsync per batch)", ingest, lines, unit="lines/s"))
    print(row("**append** one event to the 1M-event log (process start to exit)", append))
    print(row("**history** `--kind hrv --since 2026-12-01` over 1M events", history))
    print()
    print("| rebuild at | events | wall min / median / max | peak RSS | events/s |")
    print("|---|---|---|---|---|")
    for name, count, stats in scaling:
        print(f"| {name} | {count:,} | {stats['min']:.3f} / {stats['median']:.3f} / {stats['max']:.3f} s | {stats['rss']:.0f} MB |"
              f" {count / stats['median'] / 1e6:.2f} M |")
    print(flush=True)
    ratio = rebuild["median"] / struct["median"] if struct else None
    return [
        (f"{shape}: rebuild 1M ≥ 2M events/s ({events / rebuild['median'] / 1e6:.2f} M)", events / rebuild["median"] >= 2e6),
        (f"{shape}: rebuild ≤ 0.6× DuckDB's struct-column query ({ratio:.2f}×)" if ratio else f"{shape}: rebuild ≤ 0.6× DuckDB",
         ratio <= 0.6 if ratio else None),
        (f"{shape}: rebuild 1M peak RSS ≤ 160 MB ({rebuild['rss']:.0f} MB)", rebuild["rss"] <= 160),
        (f"{shape}: ingest ≥ 500k lines/s ({lines / ingest['median'] / 1e3:.0f}k)", lines / ingest["median"] >= 5e5),
        (f"{shape}: ingest peak RSS ≤ 150 MB ({ingest['rss']:.0f} MB)", ingest["rss"] <= 150),
        (f"{shape}: append one event ≤ 250 ms", append["median"] <= 0.25),
        (f"{shape}: history ≤ 0.5 s", history["median"] <= 0.5),
    ]


def main():
    if "1M" not in WANTED:
        sys.exit("Benchmarks: BENCH_SIZES must include 1M (the targets and the peers are measured on the 1M-event logs)")
    os.makedirs(DATA, exist_ok=True)
    print(f"# DuneEvents benchmarks — {RUNS} runs each (min / median / max), {os.cpu_count()} cores", flush=True)
    targets = []
    for shape in os.environ.get("BENCH_SHAPES", "dense long").split():
        targets += bench_shape(shape)
    print()
    for label, met in targets:
        print(f"- {label}: {'met' if met else ('not measured' if met is None else 'NOT met')}")


if __name__ == "__main__":
    main()
