#!/usr/bin/env bash
# Installs what the tests and the benchmark need from the OS: Debian's clickhouse-server and
# clickhouse-client (18.16 on bookworm), openssl (test certificates), chromium (the browser
# test), GNU time (peak memory of benchmark peers) and zookeeper (the replicated test
# cluster), when they are missing. It never starts the system service: tests start their
# own servers.
set -euo pipefail

packages=()
command -v clickhouse-server >/dev/null 2>&1 || command -v clickhouse >/dev/null 2>&1 || packages+=(clickhouse-server)
command -v clickhouse-client >/dev/null 2>&1 || command -v clickhouse >/dev/null 2>&1 || packages+=(clickhouse-client)
command -v openssl >/dev/null 2>&1 || packages+=(openssl)
# GNU time measures the peak memory of the peer programs in the benchmark.
[ -x /usr/bin/time ] || packages+=(time)
# A C compiler builds the launcher of the modern test server (packages/testing/native).
command -v cc >/dev/null 2>&1 || packages+=(gcc libc6-dev)
# ZooKeeper (3.8, with a Java runtime) coordinates the replicated test cluster.
[ -f /usr/share/java/zookeeper.jar ] || packages+=(zookeeper)
if [ "${CLICKWIRE_SKIP_BROWSER:-}" = "" ]; then
  command -v chromium >/dev/null 2>&1 || packages+=(chromium)
fi
[ ${#packages[@]} -eq 0 ] && exit 0

if [ ! -f /etc/debian_version ] || ! command -v apt-get >/dev/null 2>&1; then
  cat >&2 <<MSG
Missing: ${packages[*]}. This is not a Debian machine, so install them yourself:
  - ClickHouse: https://clickhouse.com/docs/install (a 'clickhouse' binary on PATH works),
    or set CLICKHOUSE_SERVER_BIN, or run a Docker engine, or set CLICKHOUSE_URL.
  - openssl and chromium from your package manager.
MSG
  exit 1
fi

sudo=()
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo=(sudo); else
    echo "Missing: ${packages[*]}. Run as root: apt-get update && apt-get install -y ${packages[*]}" >&2
    exit 1
  fi
fi
echo "Installing ${packages[*]} (apt)..." >&2
"${sudo[@]}" apt-get update -q >/dev/null
# policy-rc.d keeps the package from starting the system service where there is one.
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "${packages[@]}" >/dev/null
