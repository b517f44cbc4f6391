#!/usr/bin/env bash
# The cost of upcasting (issue 23): rebuild of the long-history log (1.18M
# events) stored as it was before sample.ingested v2 (every line "v":1, hrv
# without "measure": each read derives it from the source), against the same
# events stored as v2 (hrv lines store "measure"), alternating, RUNS rounds.
#
#   Benchmarks/upcast.sh             # RUNS=5
#   RUNS=3 BENCH_LOG=small.jsonl Benchmarks/upcast.sh   # another (v2) log, e.g. for a smoke test
#
# The v2 log is the one long-history.sh ingests with this checkout's build;
# its v1 twin (log-long-1M-v1.jsonl) is written from it by v1_log.py, which
# drops each hrv line's "measure" (after checking that the source rule gives
# it back), writes "v":1 and seals the line again: the bytes the encoder
# before v2 wrote for the same events. Prints min / median / max of both: the
# rebuild's wall clock and CPU time (user + sys), and the single-threaded
# "parse + decode" stage of DUNE_REBUILD_PROFILE=1 (where upcasting happens);
# then the differences of the minimums and of the medians (on a shared
# machine the minimum is the least disturbed run).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
source Benchmarks/long-history.sh
V1=${LOG%.jsonl}-v1.jsonl
[ -f "$V1" ] && [ "$V1" -nt "$LOG" ] || python3 Benchmarks/v1_log.py "$LOG" "$V1"

python3 - "$DUNE" "$LOG" "$V1" "$RUNS" <<'PY'
import os, resource, statistics, subprocess, sys, tempfile, time
dune, v2, v1, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
out = tempfile.mkdtemp(prefix="dune-upcast-")
wall = {"v1": [], "v2": []}
cpu = {"v1": [], "v2": []}
decode = {"v1": [], "v2": []}
for run in range(runs):
    order = [("v1", v1), ("v2", v2)] if run % 2 == 0 else [("v2", v2), ("v1", v1)]
    for label, log in order:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([dune, "rebuild", "--log", log, "--out", os.path.join(out, label)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        wall[label].append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu[label].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        # The stage the upcasting is in, on one thread (its thread CPU time): DUNE_REBUILD_PROFILE=1.
        profile = subprocess.run([dune, "rebuild", "--log", log, "--out", os.path.join(out, "profile")],
                                 env=dict(os.environ, DUNE_REBUILD_PROFILE="1"), capture_output=True, text=True, check=True)
        line = next(l for l in (profile.stdout + profile.stderr).splitlines() if "parse + decode" in l)
        decode[label].append(int(line.rsplit(":", 1)[1].split()[0]) / 1000)
def row(name, t):
    return f"{min(t):.3f} / {statistics.median(t):.3f} / {max(t):.3f} s"
for label in ("v1", "v2"):
    print(f"rebuild {label}: wall {row(label, wall[label])}; CPU (user + sys) {row(label, cpu[label])} (min / median / max of {runs})")
same = all(open(os.path.join(out, "v1", name), "rb").read() == open(os.path.join(out, "v2", name), "rb").read()
           for name in os.listdir(os.path.join(out, "v2")))
for label in ("v1", "v2"):
    print(f"parse + decode stage {label} (one thread, thread CPU): {row(label, decode[label])}")
for what, table in (("rebuild wall", wall), ("rebuild CPU", cpu), ("parse + decode", decode)):
    for stat in (min, statistics.median):
        m1, m2 = stat(table["v1"]), stat(table["v2"])
        print(f"upcast cost, {what}, {stat.__name__}: v1 - v2 = {m1 - m2:+.3f} s ({(m1 - m2) / m2 * 100:+.1f} % of v2)")
print(f"read models {'identical' if same else 'DIFFER'}; load average {open('/proc/loadavg').read().split()[0]}")
PY
