#!/usr/bin/env bash
# The README's test command: typecheck, lint and unit tests once, then every integration
# suite on both server generations (18.16 and the modern engine), each against throwaway
# servers it starts itself. Set CLICKWIRE_SERVER=18.16 or =modern to run one generation
# only. Runs everything even when something fails, and exits non-zero if anything did.
#
# The two generations run at the same time, each one suite after another: their servers
# are separate processes on free ports, and most of a suite's time is spent waiting on
# the network and on deadlines, so two at once take little more than the longer one
# (about 14 of the 22 minutes they took in turn on 2 cores). Each line is prefixed with
# its generation. CLICKWIRE_SERIAL=1 runs them in turn instead.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
# Also builds every package, so the integration runs below need no build of their own.
pnpm exec turbo run build typecheck lint test:unit --concurrency=1 --continue || status=1
generations=${CLICKWIRE_SERVER:-"18.16 modern"}

integration() {
  # --only: the builds above are done; two turbo runs rebuilding at once would race.
  CLICKWIRE_SERVER=$1 pnpm exec turbo run test:integration --only --concurrency=1 --continue
}

if [ "${CLICKWIRE_SERIAL:-}" = 1 ] || [ "$(wc -w <<<"$generations")" -eq 1 ]; then
  for generation in $generations; do
    echo "=== integration suites on ClickHouse $generation ==="
    integration "$generation" || status=1
  done
else
  pids=()
  for generation in $generations; do
    echo "=== integration suites on ClickHouse $generation (at the same time as the others) ==="
    (integration "$generation" 2>&1 | sed -u "s/^/[$generation] /"; exit "${PIPESTATUS[0]}") &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || status=1; done
fi
exit $status
