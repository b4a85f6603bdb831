#!/usr/bin/env bash
# Makes a fresh clone runnable: OS packages (ClickHouse 18.16 from Debian, openssl,
# chromium, zookeeper; see install-clickhouse.sh), pnpm 12.4.2 (pinned in package.json),
# the workspace dependencies (they bring ClickHouse 26.7, npm @chdb/lib-linux-x64-gnu), then
# ClickHouse 26.9 (PyPI chdb-core, see install-chdb-core.sh), then the runtimes of the test matrix
# (Node 22/24/26, Bun, Deno, workerd from the npm registry, see install-runtimes.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-clickhouse.sh

want=$(node -p "require('./package.json').packageManager.split('@')[1]")
have=$(pnpm --version 2>/dev/null || true)
if [ "$have" != "$want" ]; then
  echo "Installing pnpm $want..." >&2
  if ! npm install -g --silent "pnpm@$want" >/dev/null 2>&1; then
    # No global npm prefix we can write to: fall back to corepack. Its bundled signing
    # keys predate pnpm 12, hence the integrity override.
    COREPACK_INTEGRITY_KEYS=0 COREPACK_ENABLE_DOWNLOAD_PROMPT=0 corepack enable pnpm
    COREPACK_INTEGRITY_KEYS=0 COREPACK_ENABLE_DOWNLOAD_PROMPT=0 corepack prepare "pnpm@$want" --activate >/dev/null
  fi
fi

pnpm install --frozen-lockfile

scripts/install-chdb-core.sh

scripts/install-runtimes.sh
