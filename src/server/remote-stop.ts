/**
 * The job-end stop of a server on another host: one shell script there finds the processes that carry this run's
 * marker and started no earlier than the server (with the server's own group while its leader is still the process
 * launched), sends SIGTERM, SIGKILL after the timeout, and tells what went; GPU memory is read with that host's
 * nvidia-smi, as for a local stop.
 */
import { gpuSnapshot, memoryHeldBy } from '../gpu/nvidia-smi.js'
import { RUN_MARKER } from './guard.js'
import type { RemoteEndState } from './job-end.js'
import { gpuRelease, type JobEnd, lastLines, type StopDeps, type StopRecord } from './stop.js'
import { SSH_COMMAND_VARIABLE, SshHost } from './ssh.js'

type JobEndDeps = Pick<StopDeps, 'clock' | 'cancel'> & { env?: NodeJS.ProcessEnv }

/** The stop, as a script for the host's POSIX shell; `timeoutTenths` from SIGTERM to SIGKILL. */
function remoteStopScript(
  state: Pick<RemoteEndState, 'pid' | 'startTicks' | 'runMarker'>,
  timeoutTenths: number
): string {
  const since = state.startTicks ?? 0
  return `P=${state.pid}; T=${since}; TO=${timeoutTenths}
marker=${RUN_MARKER}=${state.runMarker ?? 'none'}
ticks() { read -r l < /proc/$1/stat 2>/dev/null || return 1; r=\${l##*) }; set -- $r; [ "$1" = Z ] && return 1; shift 19; echo "$1"; }
leader=$(ticks $P)
list=""
for d in /proc/[0-9]*; do
  p=\${d#/proc/}; t=$(ticks $p) || continue; [ "$t" -ge "$T" ] || continue
  if ${state.runMarker === undefined ? 'false' : `tr '\\0' '\\n' < $d/environ 2>/dev/null | grep -qxF "$marker"`}; then list="$list $p:$t"; continue; fi
  read -r l < $d/stat 2>/dev/null || continue; r=\${l##*) }; set -- $r
  [ "$3" = "$P" ] && [ "$leader" = "${state.startTicks ?? ''}" ] && list="$list $p:$t"
done
alive() { n=""; for e in $list; do [ "$(ticks \${e%:*})" = "\${e#*:}" ] && n="$n \${e%:*}"; done; echo $n; }
echo "pids$(for e in $list; do printf ' %s' \${e%:*}; done)"
[ -z "$list" ] && { echo "outcome not-running"; exit 0; }
for e in $list; do kill -TERM \${e%:*} 2>/dev/null; done
i=0; while [ -n "$(alive)" ] && [ $i -lt $TO ]; do sleep 0.1; i=$((i+1)); done
sig=SIGTERM
if [ -n "$(alive)" ]; then
  sig=SIGKILL; for p in $(alive); do kill -KILL $p 2>/dev/null; done
  j=0; while [ -n "$(alive)" ] && [ $j -lt 100 ]; do sleep 0.1; j=$((j+1)); i=$((i+1)); done
fi
echo "signal $sig"; echo "tenths $i"
s=$(alive); if [ -n "$s" ]; then echo "survivors $s"; else echo "outcome exited"; fi
`
}

/** Stops the server the main step launched on its host, and says how; never throws for one already gone. */
async function stopRemoteAtJobEnd(state: Omit<RemoteEndState, 'kind'>, deps: JobEndDeps): Promise<JobEnd> {
  const env = deps.env ?? process.env
  const host = new SshHost(state.host, env[SSH_COMMAND_VARIABLE])
  try {
    const why = host.open()
    const base = { pid: state.pid, scope: 'tree' as const, host: state.host }
    if (why !== undefined) {
      const record: StopRecord = {
        ...base,
        pids: [],
        outcome: 'survived',
        survivors: [state.pid],
        gpu: { kind: 'unavailable', why }
      }
      return { record, clean: false, logFile: state.logFile }
    }
    const gpu = () =>
      gpuSnapshot({
        command: host.program,
        prefix: [...host.args(), 'nvidia-smi'],
        timeoutMs: 5_000,
        signal: deps.cancel
      })
    const before = await gpu()
    const cancelled = deps.cancel?.aborted === true
    const timeoutTenths = cancelled ? 0 : Math.ceil(state.timeoutMs / 100)
    const run = await host.run(remoteStopScript(state, timeoutTenths), state.timeoutMs + 20_000)
    const said = new Map(
      run.stdout
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map(
          (l) =>
            [
              l.split(' ')[0],
              l
                .split(' ')
                .slice(1)
                .filter((w) => w !== '')
            ] as const
        )
    )
    const pids = (said.get('pids') ?? []).map(Number)
    const signal = said.get('signal')?.[0] === 'SIGKILL' ? ('SIGKILL' as const) : ('SIGTERM' as const)
    const tenths = Number(said.get('tenths')?.[0] ?? 0)
    const survivors = said.get('survivors')?.map(Number)
    const outcome = said.get('outcome')?.[0]
    const family = new Set(pids)
    const atStart = before.kind === 'available' ? memoryHeldBy(before, family) : undefined
    const termAt = deps.clock.now() - tenths * 100
    const seconds = (): number => Math.round((deps.clock.now() - termAt) / 100) / 10
    const release = await gpuRelease(before, atStart, () => family, seconds, 30_000, { ...deps, gpu })
    const record: StopRecord =
      outcome === 'not-running'
        ? { ...base, pids: [], outcome: 'not-running', gpu: { kind: 'none' } }
        : survivors !== undefined || outcome === undefined
          ? { ...base, pids, signal, outcome: 'survived', survivors: survivors ?? pids, gpu: release }
          : { ...base, pids, signal, outcome: 'exited', secondsToExit: tenths / 10, gpu: release }
    const exitedOnTerm = record.outcome !== 'survived' && record.signal !== 'SIGKILL'
    const clean = exitedOnTerm && record.gpu.kind !== 'held'
    return { record, clean, logTail: exitedOnTerm ? undefined : lastLines(state), logFile: state.logFile }
  } finally {
    host.close()
  }
}

/**
 * A server across several nodes: every node stopped at once, by the same marker, told as one stop (the head's
 * record, with every node's processes; survived where any node's did).
 */
export async function stopRemoteNodes(state: Omit<RemoteEndState, 'kind'>, deps: JobEndDeps): Promise<JobEnd> {
  if (state.nodes === undefined || state.nodes.length === 0) return stopRemoteAtJobEnd(state, deps)
  const ends = await Promise.all([
    stopRemoteAtJobEnd(state, deps),
    ...state.nodes.map((node) => stopRemoteAtJobEnd({ ...state, ...node, nodes: undefined }, deps))
  ])
  const [head] = ends
  const records = ends.map((e) => e.record)
  const survivors = records.flatMap((r) => r.survivors ?? [])
  const signal = records.some((r) => r.signal === 'SIGKILL') ? 'SIGKILL' : head.record.signal
  const record: StopRecord = {
    ...head.record,
    host: [state.host, ...state.nodes.map((n) => n.host)].join(', '),
    pids: records.flatMap((r) => r.pids),
    ...(signal === undefined ? {} : { signal }),
    ...(survivors.length > 0 ? { outcome: 'survived' as const, survivors } : {}),
    ...(records.every((r) => r.outcome === 'not-running')
      ? {}
      : { outcome: survivors.length > 0 ? 'survived' : 'exited' })
  }
  return { ...head, record, clean: ends.every((e) => e.clean) }
}
