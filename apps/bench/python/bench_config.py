"""Where the server is and what to select, from the environment the runner sets."""
import os
import sys

HOST = os.environ.get("BENCH_HOST", "127.0.0.1")
NATIVE_PORT = int(os.environ.get("BENCH_NATIVE_PORT", "9000"))
HTTP_PORT = int(os.environ.get("BENCH_HTTP_PORT", "8123"))
USER = os.environ.get("BENCH_USER", "default")
PASSWORD = os.environ.get("BENCH_PASSWORD", "")
HTTP_URL = "http://{}:{}/".format(HOST, HTTP_PORT)


def columns_for(work):
    """The projection of a scenario: every column, or the string / int column lists."""
    if work.endswith("strings"):
        return os.environ["BENCH_STRING_COLUMNS"]
    if work.endswith("ints"):
        return os.environ["BENCH_INT_COLUMNS"]
    return "*"


def ontime_query(work, cutoff):
    return "SELECT {} FROM perftest.ontime WHERE FlightDate < '{}'".format(columns_for(work), cutoff)


def arguments():
    if len(sys.argv) != 3:
        sys.exit("usage: {} <work> <cutoff date | rows>".format(sys.argv[0]))
    return sys.argv[1], sys.argv[2]
