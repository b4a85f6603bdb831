"""The reference's clickhouse-driver scenarios, over the native protocol.

  rows                          (4)   execute(): every row as a tuple of Python values
  iterate / -strings / -ints    (7) (10) (13)  execute_iter(), one row at a time
  arrow                         (18)  query_arrow()
  arrow-numpy                   (19)  query_arrow() with use_numpy
  arrow-ints / arrow-strings    (21) (23)  projections, use_numpy
  numbers                       ch-bench: SELECT number FROM system.numbers_mt LIMIT N
  numbers-strings               the same over toString(number)
"""
import sys

import bench_config as config

work, point = config.arguments()
if work.startswith("arrow"):
    # query_arrow imports these lazily: load them before the clock, as the reference does.
    import pyarrow  # noqa: F401

    if work != "arrow":
        import numpy  # noqa: F401
        import pandas  # noqa: F401

from clickhouse_driver import Client

from bench_timing import report  # the clock starts here

settings = {"use_numpy": True} if work.startswith("arrow") and work != "arrow" else {}
client = Client(
    host=config.HOST, port=config.NATIVE_PORT, user=config.USER, password=config.PASSWORD, settings=settings
)

if work == "numbers":
    count = 0
    for _ in client.execute_iter("SELECT number FROM system.numbers_mt LIMIT {}".format(int(point))):
        count += 1
    report(count)
elif work == "numbers-strings":
    count = 0
    for _ in client.execute_iter("SELECT toString(number) FROM system.numbers_mt LIMIT {}".format(int(point))):
        count += 1
    report(count)
elif work == "rows":
    report(len(client.execute(config.ontime_query(work, point))))
elif work in ("iterate", "iterate-strings", "iterate-ints"):
    count = 0
    for _ in client.execute_iter(config.ontime_query(work, point)):
        count += 1
    report(count)
elif work in ("arrow", "arrow-numpy", "arrow-ints", "arrow-strings"):
    report(client.query_arrow(config.ontime_query(work, point)).num_rows)
else:
    sys.exit("driver_scenarios: unknown work " + work)
