"""Measures Benchmarks/extreme.sh's table (Python stdlib only; see extreme.sh)."""
import os
import shutil
import statistics
import subprocess
import time

DUNE = os.environ.get("DUNE", ".build-perf/release/dune-replay")
RUNS = int(os.environ.get("RUNS", "3"))
EVENTS = int(os.environ.get("EVENTS", "50000"))
DATA = "Benchmarks/.data/extreme"
CASES = ["centuries", "sources", "tasks", "refreshes", "corrections", "oneDay", "sleepOverlap", "deleteReingest", "longStrings"]
# The normal log: the generator's usual mix, about 145 lines a day.
NORMAL_DAYS = max(1, round(EVENTS / 145))


def timed(args, stdout=subprocess.DEVNULL):
    """Runs args under GNU time; returns (wall seconds, peak RSS in MB, exit code)."""
    stats = os.path.join(DATA, ".time")
    # Wall time from perf_counter (GNU time's %e has 10 ms steps; a rebuild here takes tens of ms).
    began = time.perf_counter()
    code = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", stats] + args, stdout=stdout, stderr=subprocess.DEVNULL).returncode
    wall = time.perf_counter() - began
    with open(stats) as f:
        rss = f.read().split()[-1]
    return wall, int(rss) / 1024, code


def main():
    shutil.rmtree(DATA, ignore_errors=True)
    os.makedirs(DATA)
    rows = []
    for name in ["normal"] + CASES:
        source = os.path.join(DATA, name + ".jsonl")
        log = os.path.join(DATA, name + ".log")
        generate = [DUNE, "generate", "--seed", "1"] + (["--days", str(NORMAL_DAYS)] if name == "normal" else ["--extreme", name, "--events", str(EVENTS)])
        with open(source, "wb") as out:
            subprocess.run(generate, stdout=out, check=True)
        ingest_wall, ingest_rss, code = timed([DUNE, "ingest", "--log", log, "--durability", "batch", source])
        if code != 0:
            raise SystemExit(f"{name}: ingest exited {code}")
        walls, rsses = [], []
        for _ in range(RUNS):
            out_dir = os.path.join(DATA, name + "-models")
            wall, rss, code = timed([DUNE, "rebuild", "--log", log, "--out", out_dir])
            if code != 0:
                raise SystemExit(f"{name}: rebuild exited {code}")
            walls.append(wall)
            rsses.append(rss)
        with open(log, "rb") as f:
            events = sum(1 for _ in f)
        models = sum(os.path.getsize(os.path.join(out_dir, f)) for f in os.listdir(out_dir))
        rows.append(dict(name=name, events=events, log_mb=os.path.getsize(log) / 1e6, ingest_wall=ingest_wall, ingest_rss=ingest_rss,
                         wall=statistics.median(walls), rss=max(rsses), models_kb=models / 1e3))
    normal = rows[0]
    print(f"| case | events | log MB | ingest wall s | ingest peak RSS MB | rebuild wall s (median of {RUNS}) | rebuild peak RSS MB | read models KB | time × normal | RSS × normal |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        time_ratio = row["wall"] / normal["wall"] if normal["wall"] > 0 else float("nan")
        rss_ratio = row["rss"] / normal["rss"]
        flag = " ⚠" if time_ratio > 3 or rss_ratio > 2 else ""
        print(f"| {row['name']}{flag} | {row['events']} | {row['log_mb']:.1f} | {row['ingest_wall']:.3f} | {row['ingest_rss']:.0f} | "
              f"{row['wall']:.3f} | {row['rss']:.0f} | {row['models_kb']:.0f} | {time_ratio:.2f} | {rss_ratio:.2f} |")


if __name__ == "__main__":
    main()
