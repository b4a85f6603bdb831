"""The reference's clickhouse-connect scenarios, over HTTP, compression off, no implicit LIMIT.

  rows                          (14)  query().result_rows
  iterate / -strings / -ints    (17) (15) (16)  query_rows_stream()
  arrow / -ints / -strings      (20) (22) (24)  query_arrow() with Arrow strings as strings

Native results decode with clickhouse-connect's compiled Rust codec when clickhouse-connect-core
is installed (``native_codec="rust_strict"``: a query it cannot serve fails instead of quietly
falling back to Python, so the report's "native_codec=rust" holds for every run), else with its
Python/Cython codec. The Arrow methods do not use that codec.
"""
import sys

import bench_config as config

work, point = config.arguments()
if work.startswith("arrow"):
    import pyarrow  # noqa: F401  (imported lazily by query_arrow: load it before the clock)

import clickhouse_connect

try:
    import _ch_core  # noqa: F401  (clickhouse-connect-core, the rust extra)

    native_codec = "rust_strict"
except ImportError:
    native_codec = "python"

from bench_timing import report  # the clock starts here

client = clickhouse_connect.get_client(
    host=config.HOST,
    port=config.HTTP_PORT,
    username=config.USER,
    password=config.PASSWORD,
    query_limit=None,
    compress=False,
    native_codec=native_codec,
)
query = config.ontime_query(work, point)

if work == "rows":
    report(len(client.query(query).result_rows))
elif work in ("iterate", "iterate-strings", "iterate-ints"):
    count = 0
    with client.query_rows_stream(query) as stream:
        for _ in stream:
            count += 1
    report(count)
elif work in ("arrow", "arrow-ints", "arrow-strings"):
    table = client.query_arrow(query, settings={"output_format_arrow_string_as_string": 1})
    report(table.num_rows)
else:
    sys.exit("connect_scenarios: unknown work " + work)
