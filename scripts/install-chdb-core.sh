#!/usr/bin/env bash
# Installs the newest test server, ClickHouse 26.9.2.1 (native revision 54492): the engine
# inside PyPI's chdb-core 26.9.0 wheel (181 MB, pinned by version and hash). The wheel is
# downloaded with the machine's python3 -m pip (no dependencies: the harness needs only the
# wheel's own chdb/_chdb.abi3.so and chdb_core.libs/, not pandas or pyarrow) and unzipped into
#   packages/testing/node_modules/.cache/clickwire/chdb-core-26.9.0/
# where @clickwire/testing looks for it (CLICKWIRE_SERVER=latest). Idempotent: does nothing
# when that folder is complete. Run by scripts/bootstrap.sh after pnpm install.
set -euo pipefail
cd "$(dirname "$0")/.."

version=26.9.0
sha256=707e2ec3fe0f7953bac97942eaeb7a1ed1d66b1e56ecef3f0aa2130f61f6e735
cache=packages/testing/node_modules/.cache/clickwire
target=$cache/chdb-core-$version

if [ -f "$target/chdb/_chdb.abi3.so" ] && [ -d "$target/chdb_core.libs" ]; then
  exit 0
fi

python=${PYTHON:-python3}
if ! command -v "$python" >/dev/null 2>&1; then
  echo "install-chdb-core: $python not found; ClickHouse 26.9 (CLICKWIRE_SERVER=latest) needs python3 with pip" >&2
  exit 1
fi

mkdir -p "$cache"
scratch=$(mktemp -d "$cache/chdb-core-$version.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
echo "Downloading chdb-core $version (ClickHouse 26.9.2.1, 181 MB) from PyPI..." >&2
echo "chdb-core==$version --hash=sha256:$sha256" >"$scratch/requirements.txt"
"$python" -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
  --require-hashes -r "$scratch/requirements.txt" --dest "$scratch/download"
wheel=$(ls "$scratch"/download/chdb_core-"$version"-*.whl)
"$python" -m zipfile -e "$wheel" "$scratch/wheel"
if [ ! -f "$scratch/wheel/chdb/_chdb.abi3.so" ]; then
  echo "install-chdb-core: $wheel has no chdb/_chdb.abi3.so" >&2
  exit 1
fi
# Another bootstrap may have finished first; either copy is the same wheel.
rm -rf "$target"
mv "$scratch/wheel" "$target"
echo "chdb-core $version is in $target" >&2
