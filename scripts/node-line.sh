#!/usr/bin/env bash
# Runs a command on one Node line of the test matrix, as installed by scripts/install-runtimes.sh:
#   scripts/node-line.sh <20|22|24|26|lts> <command> [args...]
# `lts` is the newest LTS line (26), the default for the tests and the bench. The line's
# bin/node goes first on PATH, so pnpm, turbo's tasks, vitest and every child process they
# start run on it; CLICKWIRE_NODE names the line, and the test reports carry it in their names
# (.reports/unit-node22.json, .reports/integration-26.9-node26.json).
set -euo pipefail
lts=26
line=${1:?usage: scripts/node-line.sh <20|22|24|26|lts> <command> [args...]}
shift
[ "$line" = lts ] && line=$lts
bin="$(cd "$(dirname "$0")/.." && pwd)/packages/testing/node_modules/.cache/clickwire/runtimes/node$line/bin"
if [ ! -x "$bin/node" ]; then
  echo "node-line: Node $line is not installed: run scripts/install-runtimes.sh node$line" >&2
  exit 1
fi
PATH="$bin:$PATH" CLICKWIRE_NODE=$line exec "$@"
