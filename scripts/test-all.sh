#!/usr/bin/env bash
# The README's test command: typecheck, lint and unit tests once, then the integration suites
# on three server lines, each against throwaway servers it starts itself:
#   18.16 (the oldest we support, revision 54412)  every suite
#   26.9  (the newest, revision 54492)             every suite
#   26.7  (the server users run, revision 54488)   the wire layers only: protocol, native, http
# The suites above the wire (client, kysely, codegen, testing, reliability, bench) speak
# through those layers and run on the oldest and the newest. Set CLICKWIRE_SERVER to one or
# more lines ("18.16", "26.7" or "modern", "26.9" or "latest", space-separated) to run every
# suite on those only, each in a lane of its own. Runs everything even when something fails,
# and exits non-zero if anything did. Reports: .reports/integration-<value>.json per package.
#
# Two lanes run at the same time, each one suite after another: 18.16 in one, 26.9 and then
# 26.7 in the other. Their servers are separate processes on free ports, and most of a
# suite's time is spent waiting on the network and on deadlines, so two at once take little
# more than the longer one (about 14 of the 22 minutes two lines took in turn on 2 cores).
# A third lane at once would put three vitest runs and three servers on 2 cores, and the
# timing tests with them; 26.7's short run after 26.9 keeps the longest lane about as long
# as 18.16's (26.7's three suites took 96 s alone). Each line is prefixed with its server.
# CLICKWIRE_SERIAL=1 runs all in turn.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
# Also builds every package, so the integration runs below need no build of their own.
pnpm exec turbo run build typecheck lint test:unit --concurrency=1 --continue || status=1

wire_suites=(--filter=@clickwire/protocol --filter=@clickwire/native --filter=@clickwire/http)

# One run: "LINE" runs every suite on it, "LINE:wire" the wire layers only.
integration() {
  local server=${1%%:*} filters=() which="every integration suite"
  if [ "$1" != "$server" ]; then filters=("${wire_suites[@]}") which="the wire suites (protocol, native, http)"; fi
  echo "=== $which on ClickHouse $server ==="
  # --only: the builds above are done; two turbo runs rebuilding at once would race.
  CLICKWIRE_SERVER=$server pnpm exec turbo run test:integration --only --concurrency=1 --continue \
    ${filters[@]+"${filters[@]}"} 2>&1 | sed -u "s/^/[$server] /"
  return "${PIPESTATUS[0]}"
}

# A lane runs its runs in turn and fails if any of them did.
lane() {
  local failed=0
  for run in "$@"; do integration "$run" || failed=1; done
  return $failed
}

if [ -n "${CLICKWIRE_SERVER:-}" ]; then
  lanes=()
  for server in $CLICKWIRE_SERVER; do lanes+=("$server"); done
else
  lanes=("18.16" "26.9 26.7:wire")
fi

if [ "${CLICKWIRE_SERIAL:-}" = 1 ] || [ "${#lanes[@]}" -eq 1 ]; then
  # shellcheck disable=SC2048,SC2086 # each lane is a list of runs
  lane ${lanes[*]} || status=1
else
  pids=()
  for runs in "${lanes[@]}"; do
    # shellcheck disable=SC2086 # a lane is a list of runs
    lane $runs &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || status=1; done
fi
exit $status
