"""Runs the ClickHouse 26.9 engine of PyPI's chdb-core wheel as a server process for tests.

    python3 chdb-core-server.py WHEEL_DIR DATA_DIR

The working directory must hold the harness's config.xml: the engine is clickhouse-local,
which reads config.xml from there (ports, users, logs, and the query id of the query below).
The wheel exports no chdb_query_cmdline, and its public chdb.query()/connect() cannot start
listeners, so this uses the private _chdb.query(), which runs clickhouse-local's command
line: one long query opens the TCP and HTTP listeners, then keeps the process serving until
it is signalled. Only the wheel's own files are needed (chdb/ and chdb_core.libs/).
TabSeparated, because the output format of this query becomes the default of HTTP answers.
"""
import sys

wheel, data = sys.argv[1], sys.argv[2]
sys.path.insert(0, wheel)
import chdb._chdb as engine  # noqa: E402

LISTEN = (
    "SYSTEM START LISTEN TCP; SYSTEM START LISTEN HTTP; "
    "SELECT sleepEachRow(1) FROM system.numbers SETTINGS max_block_size = 1 FORMAT Null"
)

try:
    engine.query(LISTEN, "TabSeparated", path=data)
except Exception as error:  # the engine reports a failed start as an exception
    print(f"chdb-core-server: {error}", file=sys.stderr, flush=True)
    sys.exit(1)
# The keeper query only ends when the engine shuts down, for whatever reason.
print("chdb-core-server: the engine returned", file=sys.stderr, flush=True)
sys.exit(1)
