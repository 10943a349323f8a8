#!/usr/bin/env bash
# The llama.cpp source that the npm package node-llama-cpp ships (llama/gitRelease.bundle), checked out once per
# machine under ${XDG_CACHE_HOME:-$HOME/.cache}/wait-for-model-dev/llama-source-<version>/, for
# `npm run engines:check -- llama.cpp <checkout>` (the one engine source reachable from CI). Prints the checkout's
# path. NODE_LLAMA_CPP_VERSION: the package (default 3.22.1, as scripts/real-llamacpp.sh). Needs npm and git.
set -euo pipefail
version=${NODE_LLAMA_CPP_VERSION:-3.22.1}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/wait-for-model-dev
dir="$cache/llama-source-$version"
if [ ! -f "$dir/complete" ]; then
  mkdir -p "$cache"
  chmod 700 "$cache"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  (
    cd "$work"
    echo "llamacpp-source: fetching node-llama-cpp@$version (npm pack)" >&2
    npm pack --silent --prefer-offline "node-llama-cpp@$version" >/dev/null
    tar xzf "node-llama-cpp-$version.tgz" package/llama/gitRelease.bundle
    git -c advice.detachedHead=false clone -q package/llama/gitRelease.bundle llama.cpp
  )
  rm -rf "$dir"
  mv "$work/llama.cpp" "$dir"
  touch "$dir/complete"
fi
echo "$dir"
