"""Clock for one benchmark process, like the reference's timing module.

Importing it starts the clock, so a script imports it after everything else; at exit
it prints one ``@@bench {json}`` line with the wall time since then and the peak RSS
of the whole process (imported packages included). ``report(rows)`` records how many
rows the script read, which the runner checks against the server's count.
"""
import atexit
import json
import resource
import sys
import time

_started = time.monotonic()
_seen = {"rows": None}


def report(rows):
    _seen["rows"] = rows


@atexit.register
def _finish():
    elapsed_ms = (time.monotonic() - _started) * 1000
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if sys.platform != "darwin":
        peak *= 1024  # kilobytes on Linux, bytes on macOS
    line = {"elapsedMs": elapsed_ms, "maxRssBytes": peak, "rows": _seen["rows"]}
    sys.stdout.write("@@bench " + json.dumps(line) + "\n")
    sys.stdout.flush()
