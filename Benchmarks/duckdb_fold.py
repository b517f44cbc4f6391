"""A peer for Benchmarks/run.sh: one DuckDB read_json aggregate over a
DuneEvents log — events counted, stepCount values summed per local day.

Usage: python3 duckdb_fold.py LOG  ->  "events N steps-days D steps-total T"
(needs the duckdb module; run.sh installs it into Benchmarks/.venv)
"""
import sys

import duckdb

connection = duckdb.connect()
connection.execute("SET threads TO 2")
query = """
WITH events AS (
    SELECT type, data FROM read_json(?, format = 'newline_delimited',
                                     columns = {'seq': 'BIGINT', 'type': 'VARCHAR', 'data': 'JSON'})
), steps AS (
    SELECT substr(data->>'start', 1, 10) AS day, sum(TRY_CAST(data->>'value' AS DOUBLE)) AS total
    FROM events WHERE type = 'sample.ingested' AND data->>'kind' = 'stepCount' GROUP BY day
)
SELECT (SELECT count(*) FROM events), (SELECT count(*) FROM steps), (SELECT sum(total) FROM steps)
"""
events, days, total = connection.execute(query, [sys.argv[1]]).fetchone()
print(f"events {events} steps-days {days} steps-total {int(total)}")
