#!/usr/bin/env bash
# The README's test command: typecheck, lint and unit tests once, then every integration
# suite on both server generations (18.16 and the modern engine), each against throwaway
# servers it starts itself. Set CLICKWIRE_SERVER=18.16 or =modern to run one generation
# only. Runs everything even when something fails, and exits non-zero if anything did.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
pnpm exec turbo run typecheck lint test:unit --concurrency=1 --continue || status=1
generations=${CLICKWIRE_SERVER:-"18.16 modern"}
for generation in $generations; do
  echo "=== integration suites on ClickHouse $generation ==="
  CLICKWIRE_SERVER=$generation pnpm exec turbo run test:integration --concurrency=1 --continue || status=1
done
exit $status
