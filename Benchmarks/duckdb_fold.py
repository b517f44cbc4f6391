"""A peer for Benchmarks/run.sh: DuckDB over a DuneEvents log, 2 threads.

It counts the events, and groups the `sample.ingested` events by kind and
local day with a count and a sum of their numeric values; the totals are
printed as every peer prints them. Two ways of reading the log:

- `struct`: `read_json` with declared columns, `data` a STRUCT of the fields
  the query needs (how DuckDB's users write it; the other members of `data`
  are skipped). `start` and `end` are declared as text: an inferred
  TIMESTAMPTZ would group by the UTC day, while the local day is the date
  written in `start` (its own offset), and for sleep the date of `end` + 6 h.
- `json`: `data` read as JSON and every field extracted with `->>`.

Usage: python3 duckdb_fold.py struct|json LOG
  ->  "events N samples S groups G value-sum V"
(needs the duckdb module; run.sh installs it into Benchmarks/.venv)
"""
import sys

import duckdb

READERS = {
    "struct": """
        SELECT type, data.kind AS kind, data.start AS start, data."end" AS "end",
               TRY_CAST(data.value AS DOUBLE) AS value
        FROM read_json(?, format = 'newline_delimited', columns = {
            'type': 'VARCHAR',
            'data': 'STRUCT(kind VARCHAR, start VARCHAR, "end" VARCHAR, value VARCHAR)'})
    """,
    "json": """
        SELECT type, data->>'kind' AS kind, data->>'start' AS start, data->>'end' AS "end",
               TRY_CAST(data->>'value' AS DOUBLE) AS value
        FROM read_json(?, format = 'newline_delimited', columns = {'type': 'VARCHAR', 'data': 'JSON'})
    """,
}

mode, log = sys.argv[1], sys.argv[2]
connection = duckdb.connect()
connection.execute("SET threads TO 2")
query = f"""
WITH events AS ({READERS[mode]}),
groups AS (
    SELECT kind,
           CASE WHEN kind = 'sleep'
                THEN CAST(CAST(substr("end", 1, 19) AS TIMESTAMP) + INTERVAL 6 HOUR AS DATE)
                ELSE CAST(substr(start, 1, 10) AS DATE) END AS day,
           count(*) AS samples, sum(value) AS total
    FROM events WHERE type = 'sample.ingested' GROUP BY ALL
)
SELECT (SELECT count(*) FROM events), sum(samples), count(*), sum(total) FROM groups
"""
events, samples, groups, total = connection.execute(query, [log]).fetchone()
print(f"events {events} samples {samples} groups {groups} value-sum {total or 0:.2f}")
