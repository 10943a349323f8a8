/**
 * Words for the server's life around the wait: which model a loose name fits, a model the server has not
 * loaded, who holds a port, what holds GPU memory, and how a server was stopped. Text only.
 */
import type { StopRecord } from '../server/stop.js'
import type { Listener, Ownership, PortOwner } from '../server/port-owner.js'
import type { ComputeApp, Gpu } from '../gpu/nvidia-smi.js'

const list = (items: readonly string[]): string => items.map((i) => `"${i}"`).join(', ')

/** A `model` several listed ids contain, none of them exactly: stable words, so the summary is stable. */
export function ambiguousModelText(model: string, candidates: readonly string[]): { summary: string; detail: string } {
  return {
    summary: `"${model}" fits ${candidates.length} listed models`,
    detail:
      `"${model}" fits ${candidates.length} listed models and is none of them exactly: ${list(candidates)}. ` +
      'Give the exact id as "model" (an id ending with /<model> or equal to it ignoring case also counts as exact)'
  }
}

/** A model the server lists but loads only when asked (llama.cpp's router mode, LM Studio). */
export const unloadedModelText = (id: string): string =>
  `"${id}" is listed but not loaded: the server loads it only when asked (set "load: true" to have it loaded)`

/** A line of a report, with how loudly to say it. */
export interface ReportLine {
  level: 'info' | 'warning' | 'debug'
  text: string
}

const s1 = (seconds: number): string => `${seconds.toFixed(1)}s`
const pidList = (pids: readonly number[]): string => `${pids.length === 1 ? 'pid' : 'pids'} ${pids.join(', ')}`

/** How a server was stopped (`wait-for-model stop`, the job-end step): what was sent, how it exited, its GPU memory. */
export function stopLines(r: StopRecord): ReportLine[] {
  if (r.outcome === 'not-running') return [{ level: 'info', text: `Process ${r.pid} is not running: nothing to stop.` }]
  const what =
    r.scope === 'group'
      ? `the server's process group ${r.pid} (${r.pids.length} process${r.pids.length === 1 ? '' : 'es'})`
      : `the server ${r.pid} and its child processes (${r.pids.length} in all)`
  const lines: ReportLine[] = []
  const how =
    r.exitCode !== undefined && r.exitCode !== null
      ? `, exit code ${r.exitCode}`
      : r.exitSignal
        ? `, ended by ${r.exitSignal}`
        : ''
  if (r.outcome === 'exited') {
    lines.push({
      level: 'info',
      text:
        r.signal === 'SIGKILL'
          ? `Stopped ${what}: it did not exit after SIGTERM, so SIGKILL; gone ${s1(r.secondsToExit ?? 0)} after SIGTERM${how}.`
          : `Stopped ${what}: SIGTERM, gone after ${s1(r.secondsToExit ?? 0)}${how}.`
    })
  } else {
    lines.push({
      level: 'warning',
      text: `Could not stop ${what}: still running after SIGTERM and SIGKILL: ${pidList(r.survivors ?? [])}.`
    })
  }
  const g = r.gpu
  if (g.kind === 'released')
    lines.push({
      level: 'info',
      text: `Its GPU memory (${g.mib > 0 ? `${g.mib} MiB` : 'an amount nvidia-smi does not show'}) was released ${s1(g.seconds)} after SIGTERM.`
    })
  else if (g.kind === 'held')
    lines.push({
      level: 'warning',
      text:
        `Its GPU memory was not released: ${g.mib > 0 ? `${g.heldMib} of ${g.mib} MiB` : 'an amount nvidia-smi does not show'} still held ${s1(g.seconds)} after SIGTERM` +
        `${g.pids.length ? ` (${pidList(g.pids)})` : ''}; the next job on this machine may run out of GPU memory.`
    })
  else if (g.kind === 'none') lines.push({ level: 'debug', text: 'Its processes held no GPU memory.' })
  else lines.push({ level: 'debug', text: `GPU memory not looked at (nvidia-smi: ${g.why}).` })
  return lines
}

/** `process 1234 (python -m vllm …)`, or what can be said of a socket whose holder this user cannot see. */
function listenerText(l: Listener): string {
  if (l.holders.length === 0)
    return `a process this user cannot see (listening on ${l.address}, socket inode ${l.inode})`
  return l.holders.map((h) => `process ${h.pid}${h.command ? ` (${h.command})` : ''}`).join(' and ')
}

const holderPids = (listeners: readonly Listener[]): number[] => [
  ...new Set(listeners.flatMap((l) => l.holders.map((h) => h.pid)))
]

/** Before `start`: something already listens on the URL's port (a server an earlier job left behind). */
export function portBusyText(owner: Extract<PortOwner, { kind: 'listening' }>): string {
  const pids = holderPids(owner.listeners)
  return (
    `Port ${owner.port} is already in use by ${owner.listeners.map(listenerText).join('; ')}: the server "start" ` +
    'would launch could not listen there, and the one already there would answer the gate. ' +
    (pids.length
      ? `Stop it first (wait-for-model stop --pid ${pids[0]}, or kill ${pids.join(' ')}), `
      : 'Stop it first, ') +
    'or give the new server another port'
  )
}

/** With `start` or `pid`: the port answers, but from a process that is not the watched server or its children. */
export function wrongServerText(o: Extract<Ownership, { kind: 'foreign' }>, watchedPid: number): string {
  return (
    `Port ${o.port} is answered by ${o.listeners.map(listenerText).join('; ')}, not by the server being watched ` +
    `(pid ${watchedPid}) or its child processes: an earlier server still holds the port, or the watched one ` +
    'listens elsewhere. Its answers say nothing about the server being waited for'
  )
}

/** Before `start`: other processes hold memory on the GPUs the server will use. */
export function gpuBusyText(apps: readonly ComputeApp[], gpus: readonly Gpu[]): string {
  const where = (uuid: string): string => {
    const gpu = gpus.find((g) => g.uuid === uuid)
    return gpu === undefined ? uuid : `GPU ${gpu.index}`
  }
  const each = apps.map(
    (a) =>
      `pid ${a.pid} (${a.processName}) ${a.usedMiB === undefined ? 'an unknown amount' : `${a.usedMiB} MiB`} on ${where(a.gpuUuid)}`
  )
  return `Other processes hold memory on the GPUs the server will use: ${each.join('; ')}`
}
