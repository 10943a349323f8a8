#!/usr/bin/env bash
# A real llama.cpp server for the real-engine suite and bench (__tests__/real/, `npm run bench -- --only llamacpp`):
# a CPU `llama-server` built from the llama.cpp source that the npm package node-llama-cpp ships
# (llama/gitRelease.bundle), once per machine, cached by the hash of that source and the build flags in
#   ${XDG_CACHE_HOME:-$HOME/.cache}/wait-for-model-dev/llama-server-<hash>/
# A cold build takes about 9 minutes on 2 cores; a cached one a few milliseconds (no network either). Prints what
# the suite reads, for `eval "$(scripts/real-llamacpp.sh)"`:
#   WAIT_FOR_MODEL_LLAMA_SERVER=<path of llama-server>
#   WAIT_FOR_MODEL_GGUF_PY=<llama.cpp's gguf-py, for scripts/tiny-gguf.py>
# LLAMA_CPP_SEED_DIR: a llama.cpp tree already built with these flags (build/bin/llama-server) from the same source
# commit: copied into the cache instead of building again. NODE_LLAMA_CPP_VERSION: the package (default 3.22.1).
# Needs git, cmake, ninja, a C++ compiler and npm (to fetch the package); python3 with numpy for the models.
set -euo pipefail

version=${NODE_LLAMA_CPP_VERSION:-3.22.1}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/wait-for-model-dev
# The flags of research's CPU build; the hash covers them, so that other flags are another build.
flags=(-DCMAKE_BUILD_TYPE=Release -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_UI=OFF
  -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF)
say() { echo "real-llamacpp: $*" >&2; }
works() { [ -f "$1/complete" ] && "$1/build/bin/llama-server" --version >/dev/null 2>&1; }
found() {
  echo "WAIT_FOR_MODEL_LLAMA_SERVER=$1/build/bin/llama-server"
  echo "WAIT_FOR_MODEL_GGUF_PY=$1/gguf-py"
  exit 0
}
missing=()
for tool in git cmake ninja c++ npm python3; do command -v "$tool" >/dev/null || missing+=("$tool"); done
python3 -c 'import numpy' 2>/dev/null || missing+=("numpy for python3 (Debian: python3-numpy)")
if [ ${#missing[@]} -gt 0 ]; then
  say "missing: ${missing[*]}"
  exit 1
fi
mkdir -p "$cache"
chmod 700 "$cache"

# The package's source hash, once known, is kept beside the build: a cached build needs no download.
known="$cache/node-llama-cpp-$version.key"
if [ -f "$known" ] && works "$cache/llama-server-$(cat "$known")"; then found "$cache/llama-server-$(cat "$known")"; fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(
  cd "$work"
  say "fetching node-llama-cpp@$version (npm pack)"
  npm pack --silent --prefer-offline "node-llama-cpp@$version" >/dev/null
  tar xzf "node-llama-cpp-$version.tgz" package/llama/gitRelease.bundle
  git -c advice.detachedHead=false clone -q package/llama/gitRelease.bundle llama.cpp
)
commit=$(git -C "$work/llama.cpp" rev-parse HEAD)
key=$(printf '%s\n%s\n' "$commit" "${flags[*]}" | sha256sum | cut -c1-16)
dir="$cache/llama-server-$key"

exec 9>"$dir.lock"
# one build per machine at a time: a second caller waits, then finds it built (flock: util-linux, so Linux)
if command -v flock >/dev/null; then flock 9; fi
if ! works "$dir"; then
  rm -rf "$dir"
  mkdir -p "$dir/build"
  seed=${LLAMA_CPP_SEED_DIR:-}
  seeded=false
  if [ -n "$seed" ] && [ -x "$seed/build/bin/llama-server" ] &&
    [ "$(git -C "$seed" rev-parse HEAD 2>/dev/null)" = "$commit" ]; then
    # the same source and flags (each of them as the seed's CMake cache has it), so the same build
    same=true
    for f in "${flags[@]}"; do
      name=${f#-D}
      grep -Eq "^${name%%=*}:[A-Z]+=${name#*=}\$" "$seed/build/CMakeCache.txt" || same=false
    done
    if $same; then
      # its libraries are found by the seed's own run path: should the seed go, `works` fails and it is built
      say "seeding the cache from $seed (source $commit)"
      cp -a "$seed/build/bin" "$dir/build/bin"
      cp -a "$seed/gguf-py" "$dir/gguf-py"
      seeded=true
    fi
  fi
  if ! $seeded; then
    say "building llama-server from source $commit (about 9 minutes on 2 cores)"
    mv "$work/llama.cpp" "$dir/src"
    cmake -S "$dir/src" -B "$dir/build" -G Ninja "${flags[@]}" >"$dir/cmake.log" 2>&1 ||
      { tail -20 "$dir/cmake.log" >&2; exit 1; }
    ninja -C "$dir/build" llama-server >"$dir/ninja.log" 2>&1 || { tail -40 "$dir/ninja.log" >&2; exit 1; }
    cp -a "$dir/src/gguf-py" "$dir/gguf-py"
    # The binary finds its libraries in build/bin (its run path); the sources and objects are not needed again.
    find "$dir/build" -name '*.o' -delete
    rm -rf "$dir/src"
  fi
  "$dir/build/bin/llama-server" --version >/dev/null 2>&1 || { say "the built llama-server does not run"; exit 1; }
  touch "$dir/complete"
fi
echo "$key" >"$known"
found "$dir"
