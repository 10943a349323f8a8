#!/usr/bin/env bash
# The checks that need real NVIDIA GPUs, which no CI machine has: run by hand on a GPU machine, from the repository
# root (dist/ is committed: nothing to build of ours):
#   scripts/gpu-check.sh --llama-src DIR|FILE.tar.xz [--out DIR] [--llama-server PATH] [--only nccl,placement,fleet]
# DIR (or the tarball) is llama.cpp's source (scripts/real-llamacpp.sh says where CI gets it); it is built with CUDA
# unless --llama-server names a CUDA build. Needs nvidia-smi, node >= 20, python3 with numpy and torch (NCCL),
# cmake, ninja and nvcc for the build. Cases (each one's files and a line in OUT/results.md):
#   placement  a real llama-server with -ngl below the model's layer count, then all of them: output placement
#   nccl       a real torch.distributed NCCL group (one rank a GPU, all GPUs) with NCCL_DEBUG=INFO: its log
#   fleet      two servers pinned by CUDA_VISIBLE_DEVICES (GPU 0 and the last GPU), a foreign process holding memory
#              on the last GPU: gpu-check fail refuses the server there only (both, on one GPU); then without it:
#              each server's gpu-memory-mib against nvidia-smi, and the job-end step's release timed by an
#              independent nvidia-smi poll
set -uo pipefail

out=gpu-check-out
src=
server=
only=nccl,placement,fleet
while [ $# -gt 0 ]; do
  case $1 in
    --llama-src) src=$2; shift 2 ;;
    --llama-server) server=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    *) echo "gpu-check: unknown argument $1" >&2; exit 2 ;;
  esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
# the CLI and the action write their history and caches here, not in the user's home
export HOME=$work/home XDG_CACHE_HOME=$work/cache
mkdir -p "$HOME"
results=$out/results.md
: >"$results"
say() { echo "gpu-check: $*" >&2; }
record() { echo "- $*" | tee -a "$results" >&2; }
cleanup() {
  [ -n "${foreign:-}" ] && kill "$foreign" 2>/dev/null
  pkill -f "$work/" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
last=$((gpus - 1))
nvidia-smi --query-gpu=index,name,driver_version,memory.total,compute_cap --format=csv >"$out/gpus.csv"
record "GPUs: $gpus ($(sed -n 2p "$out/gpus.csv"))"

want() { case ",$only," in *",$1,"*) return 0 ;; esac; return 1; }

# nccl (first: it needs no build): NCCL's own start-up lines from a real group, the variables the seeds' campaign set
if want nccl; then
  ranks=$gpus
  NCCL_DEBUG=INFO NCCL_PROTO=LL NCCL_ALGO=Ring NCCL_SOCKET_IFNAME=lo NCCL_IB_DISABLE=1 NCCL_NVLS_ENABLE=0 \
    python3 "$root/scripts/nccl-capture.py" "$ranks" 29511 >"$out/nccl.log" 2>&1
  record "nccl: exit $? with $ranks rank(s); $(head -1 "$out/nccl.log"); $(grep -c 'NCCL INFO' "$out/nccl.log") NCCL INFO lines, $(grep -c 'set by environment' "$out/nccl.log") 'set by environment', $(grep -c 'Init COMPLETE' "$out/nccl.log") 'Init COMPLETE'"
fi
want placement || want fleet || { cat "$results"; exit 0; }

# llama-server with CUDA, for the GPU's own architecture
if [ -z "$server" ]; then
  llama=$work/llama
  if [ -f "$src" ]; then mkdir -p "$llama" && tar xJf "$src" -C "$llama"; else cp -a "$src" "$llama"; fi
  arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d '. ')
  started=$(date +%s)
  cmake -S "$llama" -B "$llama/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLLAMA_BUILD_TESTS=OFF \
    -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF \
    -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES="$arch" -DGGML_CUDA_NCCL=OFF -DGGML_CUDA_FA=OFF >"$out/build.log" 2>&1 &&
    ninja -C "$llama/build" llama-server >>"$out/build.log" 2>&1 || { say "build failed: $out/build.log"; exit 1; }
  server=$llama/build/bin/llama-server
  record "llama-server built with CUDA for sm_$arch in $(($(date +%s) - started)) s ($("$server" --version 2>&1 | head -1))"
  gguf_py=$llama/gguf-py
else
  gguf_py=${GGUF_PY:?GGUF_PY: llama.cpp gguf-py, with --llama-server}
fi
model=$work/model.gguf
GGUF_PY=$gguf_py python3 "$root/scripts/tiny-gguf.py" "$model" --size big >/dev/null || { say "model failed"; exit 1; }
layers=$(GGUF_PY=$gguf_py python3 -c "
import sys; sys.path.insert(0, '$gguf_py'); import gguf
r = gguf.GGUFReader('$model'); f = r.fields['llama.block_count']; print(int(f.parts[f.data[0]][0]))")
record "model: $(du -h "$model" | cut -f1) random-weight llama, $layers layers"

cli() { node "$root/dist/cli.js" "$@"; }
free_port() { while (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; do sleep 0.1; done; }
json() { node -e "const o=JSON.parse(require('fs').readFileSync('$1','utf8')); console.log($2)"; }

# placement: a real offload line, partial and whole; llama.cpp prints it only at -lv 4 (libllama's INFO is TRACE)
if want placement; then
  for run in "2" "2 -lv 4" "99 -lv 4"; do
    port=18180
    name=placement-ngl${run// /}
    cli --url "http://127.0.0.1:$port/v1/models" --model m --timeout 3m --history-file '' --json \
      --log-file "$out/$name.log" \
      --start "exec $server -m $model --alias m --host 127.0.0.1 --port $port -ngl $run" >"$out/$name.json" \
      2>"$out/$name.stderr"
    pid=$(json "$out/$name.json" 'o.pid')
    record "placement -ngl $run: ready=$(json "$out/$name.json" 'o.ready') placement=$(json "$out/$name.json" 'o.placement') gpu-memory-mib=$(json "$out/$name.json" "o['gpu-memory-mib']") startup=$(json "$out/$name.json" "o['startup-seconds']") s; offload line: $(grep -o 'offloaded [0-9]*/[0-9]* layers to GPU' "$out/$name.log" | head -1); said: $(grep -o 'Placement not told[^(]*\|Model is ready [^:]*\|The model is ready [^:]*' "$out/$name.stderr" | head -1)"
    [ -n "$pid" ] && cli stop --pid "$pid" --timeout 30s >/dev/null 2>&1
    free_port $port
  done
fi

# fleet: one server pinned to GPU 0, one to the last GPU; a foreign process on the last GPU
if want fleet; then
  fleet() { # $1: folder, then inputs
    local dir=$1
    shift
    node "$root/scripts/action-steps.mjs" main "$dir" \
      "url=http://127.0.0.1:18181/v1/models\nhttp://127.0.0.1:18182/v1/models" model=m timeout=3m history-file= \
      "start=CUDA_VISIBLE_DEVICES=0 exec $server -m $model --alias m --host 127.0.0.1 --port 18181 -ngl 99\nCUDA_VISIBLE_DEVICES=$last exec $server -m $model --alias m --host 127.0.0.1 --port 18182 -ngl 99" \
      "$@" >"$dir.stdout" 2>&1
  }
  # (python: no indentation inside the string)
  CUDA_VISIBLE_DEVICES=$last python3 -c "
import time, torch
x = torch.empty(2 * 1024**3, dtype=torch.uint8, device='cuda')
print('holding', flush=True)
time.sleep(600)" >"$work/foreign.log" 2>&1 &
  foreign=$!
  for _ in $(seq 1 300); do grep -q holding "$work/foreign.log" && break; sleep 0.1; done
  grep -q holding "$work/foreign.log" || { say "the foreign process holds no GPU memory: $(tail -3 "$work/foreign.log")"; exit 1; }
  fleet "$out/fleet-refused" gpu-check=fail
  node "$root/scripts/action-steps.mjs" post "$out/fleet-refused" >>"$out/fleet-refused.stdout" 2>&1
  record "fleet with a foreign process (pid $foreign) on GPU $last, gpu-check fail: exit $(json "$out/fleet-refused/outputs.json" 'o.exit'); per server: $(json "$out/fleet-refused/outputs.json" "JSON.parse(o.outputs.results||'[]').map(r=>r.url.split(':')[2].split('/')[0]+' ready='+r.ready+' reason='+r.reason).join('; ')"); names the foreign pid: $(grep -c "$foreign" "$out/fleet-refused.stdout") line(s)"
  kill "$foreign" 2>/dev/null
  wait "$foreign" 2>/dev/null
  foreign=
  free_port 18181
  free_port 18182
  fleet "$out/fleet" gpu-check=fail
  nvidia-smi --query-compute-apps=pid,used_memory,gpu_uuid --format=csv,noheader >"$out/fleet-apps.csv"
  nvidia-smi --query-gpu=index,uuid --format=csv,noheader >"$out/fleet-gpus.csv"
  record "fleet, no foreign process: exit $(json "$out/fleet/outputs.json" 'o.exit'); gpu-memory-mib per server: $(json "$out/fleet/outputs.json" "JSON.parse(o.outputs.results||'[]').map(r=>'pid '+r.pid+': '+r['gpu-memory-mib']+' MiB').join('; ')"); nvidia-smi: $(tr '\n' ';' <"$out/fleet-apps.csv")"
  # the job-end step, and an independent poll of nvidia-smi until no process of ours holds GPU memory
  pids=$(json "$out/fleet/outputs.json" "JSON.parse(o.outputs.results||'[]').map(r=>r.pid).join(' ')")
  (
    while :; do
      held=$(nvidia-smi --query-compute-apps=pid --format=csv,noheader | tr -d ' ')
      left=0
      for p in $pids; do echo "$held" | grep -qx "$p" && left=1; done
      [ $left = 0 ] && { date +%s%3N >"$work/released"; break; }
      sleep 0.05
    done
  ) &
  poller=$!
  node "$root/scripts/action-steps.mjs" post "$out/fleet" >>"$out/fleet.stdout" 2>&1
  wait $poller
  record "job-end step: exit $(json "$out/fleet/post.json" 'o.exit'), $(json "$out/fleet/post.json" 'o.endMs-o.startMs') ms; GPU memory released (independent nvidia-smi poll) $(( $(cat "$work/released") - $(json "$out/fleet/post.json" 'o.startMs') )) ms after it began"
fi
cat "$results"
