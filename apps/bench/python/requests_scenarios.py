"""Scenarios (1)-(3) of the reference: the HTTP interface read with requests.

  raw-tsv / raw-json  (1)    the whole body, not parsed
  tsv-split           (2)    lines split on tabs
  tsv-cast            (2.5)  and each value cast to its column's Python type
  json-parse          (3)    JSONEachRow lines parsed with ujson, values kept in order
"""
from datetime import date

import requests
import ujson

import bench_config as config
from bench_timing import report  # the clock starts here

work, cutoff = config.arguments()
auth = (config.USER, config.PASSWORD)


def fetch(fmt, stream):
    query = "{} FORMAT {}".format(config.ontime_query(work, cutoff), fmt)
    response = requests.get(config.HTTP_URL, params={"query": query}, auth=auth, stream=stream)
    response.raise_for_status()
    return response


def caster(ch_type):
    if ch_type.startswith(("Int", "UInt")):
        return int
    if ch_type == "Date":
        return lambda text: date(*map(int, text.split("-")))
    if ch_type == "String" or ch_type.startswith("FixedString"):
        return None
    raise ValueError("no cast for " + ch_type)


if work in ("raw-tsv", "raw-json"):
    body = fetch("TSV" if work == "raw-tsv" else "JSONEachRow", False).content
    report(body.count(b"\n"))
elif work == "tsv-split":
    rows = [line.decode("utf-8").split("\t") for line in fetch("TSV", True).iter_lines(chunk_size=10000)]
    report(len(rows))
elif work == "tsv-cast":
    described = requests.get(
        config.HTTP_URL, params={"query": "DESCRIBE TABLE perftest.ontime FORMAT TSV"}, auth=auth
    ).text
    casts = [caster(line.split("\t")[1]) for line in described.split("\n") if line]
    rows = []
    for line in fetch("TSV", True).iter_lines(chunk_size=10000):
        values = line.decode("utf-8").split("\t")
        rows.append([cast(value) if cast else value for value, cast in zip(values, casts)])
    report(len(rows))
elif work == "json-parse":
    rows = [list(ujson.loads(line).values()) for line in fetch("JSONEachRow", True).iter_lines(chunk_size=10000)]
    report(len(rows))
else:
    raise SystemExit("requests_scenarios: unknown work " + work)
