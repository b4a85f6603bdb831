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
# and exits non-zero if anything did. Reports: .reports/<run>-node<line>.json per package.
#
# The Node matrix (scripts/node-line.sh; the lines are pinned by scripts/install-runtimes.sh):
#   Node 26, the newest LTS: everything above (typecheck, lint, every unit and integration suite)
#   Node 20 (the floor in engines), 22 and 24: the unit suites of protocol, native, http,
#     client and kysely; and Node 20 runs the 26.7 wire suites, so the floor meets a server too.
# CLICKWIRE_NODE_LINES="22 24" picks the extra lines (empty for none).
#
# Two lanes run at the same time, each one run after another: 18.16 and the unit suites on
# Node 20 and 22 in one; 26.9, 26.7 on Node 20 and the unit suites on Node 24 in the other.
# Their servers are separate processes on free ports, and most of an integration suite's
# time is spent waiting on the network and on deadlines, so two at once take little more
# than the longer one (about 14 of the 22 minutes two lines took in turn on 2 cores). A
# third lane at once would put three vitest runs and three servers on 2 cores, and the
# timing tests with them. Each line is prefixed with its run, and each run reports how long
# it took. CLICKWIRE_SERIAL=1 runs all in turn.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
lts=26
started=$(date +%s)
# Also builds every package, so the integration runs below need no build of their own.
scripts/node-line.sh $lts pnpm exec turbo run build typecheck lint test:unit --concurrency=1 --continue || status=1
echo "=== build, typecheck, lint and unit suites on Node $lts took $(( $(date +%s) - started )) s ==="

wire_suites=(--filter=@clickwire/protocol --filter=@clickwire/native --filter=@clickwire/http)
matrix_suites=("${wire_suites[@]}" --filter=@clickwire/client --filter=@clickwire/kysely)

# One run, on Node LINE (default the LTS):
#   "SERVER[@LINE]"       every integration suite on that ClickHouse server line
#   "SERVER:wire[@LINE]"  the wire layers' integration suites only
#   "unit@LINE"           the unit suites of protocol, native, http, client and kysely
run() {
  local spec=${1%@*} node=$lts filters=() task=test:integration env=() which
  [ "$1" != "$spec" ] && node=${1##*@}
  local server=${spec%%:*}
  if [ "$spec" = unit ]; then
    task=test:unit filters=("${matrix_suites[@]}") which="the unit suites (protocol, native, http, client, kysely)"
  else
    env=(CLICKWIRE_SERVER="$server") which="every integration suite on ClickHouse $server"
    if [ "$spec" != "$server" ]; then
      filters=("${wire_suites[@]}") which="the wire suites (protocol, native, http) on ClickHouse $server"
    fi
  fi
  local tag="$spec node$node" began
  began=$(date +%s)
  echo "=== $which, Node $node ==="
  # --only: the builds above are done; two turbo runs rebuilding at once would race.
  env ${env[@]+"${env[@]}"} scripts/node-line.sh "$node" pnpm exec turbo run "$task" --only --concurrency=1 --continue \
    ${filters[@]+"${filters[@]}"} 2>&1 | sed -u "s/^/[$tag] /"
  local code=${PIPESTATUS[0]}
  echo "=== $which, Node $node: took $(( $(date +%s) - began )) s, exit $code ==="
  return "$code"
}

# A lane runs its runs in turn and fails if any of them did.
lane() {
  local failed=0
  for spec in "$@"; do run "$spec" || failed=1; done
  return $failed
}

lines=${CLICKWIRE_NODE_LINES-20 22 24}
extra() { [[ " $lines " == *" $1 "* ]] && echo "$2"; }
if [ -n "${CLICKWIRE_SERVER:-}" ]; then
  lanes=()
  for server in $CLICKWIRE_SERVER; do lanes+=("$server"); done
else
  lanes=("18.16 $(extra 20 unit@20) $(extra 22 unit@22)"
    "26.9 26.7:wire$(extra 20 @20) $(extra 24 unit@24)")
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
echo "=== test-all took $(( $(date +%s) - started )) s ==="
exit $status
