#!/usr/bin/env bash
# DuneEvents benchmarks: the one command (see Benchmarks/README.md).
#
#   Benchmarks/run.sh            # RUNS=5, sizes 100k 1M 3M
#   RUNS=3 BENCH_SIZES="100k 1M" Benchmarks/run.sh
#
# Builds dune-replay (release) and the Foundation peer, installs DuckDB into
# Benchmarks/.venv if it can (skipped, and said so, when it cannot), generates
# the logs once into Benchmarks/.data (about 1.5 GB at 3M events), measures
# and prints a Markdown table with min / median / max of every figure.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -c release --scratch-path .build-perf --product dune-replay
swift build -c release --package-path Benchmarks/FoundationFold --scratch-path .build-perf-fold

python=Benchmarks/.venv/bin/python
if [ ! -x "$python" ]; then
    python3 -m venv Benchmarks/.venv && "$python" -m pip install --quiet duckdb || echo "DuckDB not installed: its row is left out" >&2
fi
if [ -x "$python" ] && "$python" -c 'import duckdb' 2>/dev/null; then
    export PYTHON_DUCKDB="$python"
fi

export DUNE=.build-perf/release/dune-replay
export FOLD=.build-perf-fold/release/FoundationFold
exec python3 Benchmarks/bench.py
