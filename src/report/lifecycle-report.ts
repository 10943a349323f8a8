/**
 * Words for the server's life around the wait: a loose model name, a model not loaded, who holds a port or GPU
 * memory, a container's watch, a cancelled run, and how a server was stopped.
 */
import type { JobEnd, StopRecord } from '../server/stop.js'
import type { Spared } from '../server/guard.js'
import type { JobEndStateError } from '../server/job-end.js'
import { printable } from '../runtime/text.js'
import type { Listener, Ownership, PortOwner } from '../server/port-owner.js'
import type { ComputeApp, Gpu } from '../gpu/nvidia-smi.js'
import { cell, fenced, logTailTitle } from './markdown.js'

const list = (items: readonly string[]): string => items.map((i) => `"${i}"`).join(', ')

/** A `model` several listed ids contain, none of them exactly: stable words, so the summary is stable. */
export function ambiguousModelText(
  model: string,
  candidates: readonly string[],
  count = candidates.length
): { summary: string; detail: string } {
  const more = count > candidates.length ? ` and ${count - candidates.length} more` : ''
  return {
    summary: `"${model}" fits ${count} listed models`,
    detail:
      `"${model}" fits ${count} listed models and is none of them exactly: ${list(candidates)}${more}. ` +
      'Give the exact id as "model" (an id ending with /<model> or equal to it ignoring case also counts as exact)'
  }
}

/** A `model` matched by a listed id that only contains it (`model-match: partial`): it may be another version. */
export const partialMatchText = (model: string, id: string): string =>
  `"${model}" matched the listed id "${id}" only partly (the id contains it): make sure it is the model meant, ` +
  'give the exact id as "model", or set "model-match: exact" to refuse partial matches'

/** A model the server lists but loads only when asked (llama.cpp's router mode, LM Studio). */
export const unloadedModelText = (id: string, loadAsked = false): string =>
  loadAsked
    ? `"${id}" is listed but not loaded yet ("load: true" asks the server to load it)`
    : `"${id}" is listed but not loaded: the server loads it only when asked (set "load: true" to have it loaded)`

/** A line of a report, with how loudly to say it. */
export interface ReportLine {
  level: 'info' | 'warning' | 'debug'
  text: string
}

const s1 = (seconds: number): string => `${seconds.toFixed(1)}s`
const pidList = (pids: readonly number[]): string => `${pids.length === 1 ? 'pid' : 'pids'} ${pids.join(', ')}`

/** How a server was stopped (`wait-for-model stop`, the job-end step): what was sent, how it exited, its GPU memory. */
export function stopLines(r: StopRecord): ReportLine[] {
  if (r.outcome === 'refused') return [{ level: 'warning', text: refusedText(r.pid, r.refused) }]
  const lines: ReportLine[] = []
  if (r.notOurs !== undefined) lines.push({ level: 'info', text: notOursText(r.pid, r.notOurs) })
  if (r.spared !== undefined)
    lines.push({ level: 'warning', text: `Left alone, as no stop may signal them: ${pidList(r.spared)}.` })
  if (r.outcome === 'not-running')
    return r.notOurs === undefined
      ? [
          ...lines,
          {
            level: 'info',
            text: `${r.container === undefined ? `Process ${r.pid}${r.host === undefined ? '' : ` on ${r.host}`}` : `The container ${r.container}`} is not running: nothing to stop.`
          }
        ]
      : lines
  const what =
    r.host !== undefined
      ? `the server's processes on ${r.host} that carry its run marker (${r.pids.length} in all, pid ${r.pid} there)`
      : r.container !== undefined
        ? `the container ${r.container} (${r.pids.length} process${r.pids.length === 1 ? '' : 'es'})`
        : r.scope === 'group'
          ? `the server's process group ${r.pid} (${r.pids.length} process${r.pids.length === 1 ? '' : 'es'})`
          : r.notOurs === undefined
            ? `the server ${r.pid} and its child processes (${r.pids.length} in all)`
            : `the server's processes that carry its run marker (${r.pids.length} in all)`
  const how = r.exitCode !== undefined && r.exitCode !== null ? `, exit code ${r.exitCode}` : ''
  if (r.escaped !== undefined && r.notOurs === undefined)
    lines.push({
      level: 'info',
      text: `Also the server's processes that had left its process group (they carry its run marker): ${pidList(r.escaped)}.`
    })
  if (r.outcome === 'exited') {
    lines.push({
      level: 'info',
      text:
        r.signal === 'SIGKILL'
          ? r.cancelled
            ? `Stopped ${what}: SIGTERM, then SIGKILL at once (the stop was cancelled); gone ${s1(r.secondsToExit ?? 0)} after SIGTERM${how}.`
            : `Stopped ${what}: it did not exit after SIGTERM, so SIGKILL; gone ${s1(r.secondsToExit ?? 0)} after SIGTERM${how}.`
          : `Stopped ${what}: SIGTERM, gone after ${s1(r.secondsToExit ?? 0)}${how}.`
    })
  } else if (r.engine !== undefined) {
    const still = (r.survivors ?? []).length > 0 ? `; still running: ${pidList(r.survivors ?? [])}` : ''
    lines.push({
      level: 'warning',
      text: `Could not stop the container ${r.container ?? ''}: its engine ${r.engine}${r.cancelled ? ' (the stop was cancelled)' : ''}${still}.`
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

const SPARED_WORDS: Record<Spared, string> = {
  self: "is this step's own process",
  ancestor: "is an ancestor of this step's process (the runner's step, or the runner)",
  init: 'is pid 1 (init)',
  runner: "is one of the runner's own processes",
  'group-leader': 'leads the process group this step (or the runner) runs in'
}

/** The pid to stop is one no stop may signal. */
const refusedText = (pid: number, why: Spared | undefined): string =>
  `Refused to stop process ${pid}: it ${SPARED_WORDS[why ?? 'self']}. Nothing was signalled.`

/** The pid the state names is no longer the server's. */
function notOursText(pid: number, id: NonNullable<StopRecord['notOurs']>): string {
  const why =
    id.kind === 'rebooted'
      ? 'the machine has booted since the server started'
      : id.kind === 'unchecked'
        ? 'there is no start time to check it by (no /proc where it started, or here)'
        : `it started at ${id.startTicks ?? '?'} clock ticks after boot, the server at ${id.expectedTicks}: the server has exited and its pid was reused`
  return `Process ${pid} is not the server this job started (${why}): left alone, with its process group.`
}

/** The job-end state holds a value the main step did not write. */
export const refusedStateText = (e: JobEndStateError): string =>
  `Refused the job-end state, and signalled nothing: STATE_${e.stateName} is "${printable(e.value).slice(0, 80)}", ` +
  `not ${e.form} as the main step writes it.`

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
export function wrongServerText(
  o: Extract<Ownership, { kind: 'foreign' }>,
  watchedPid: number,
  redirect?: Redirect
): string {
  return (
    `${redirect === undefined ? '' : `${redirectText(redirect)}: `}Port ${o.port} is answered by ${o.listeners.map(listenerText).join('; ')}, not by the server being watched ` +
    `(pid ${watchedPid}) or its child processes: an earlier server still holds the port, or the watched one ` +
    'listens elsewhere. Its answers say nothing about the server being waited for'
  )
}

/** With the URL alone: the port is answered by a server an earlier job left running (another job's tracking id). */
export const leftoverServerText = (port: number, holder: { pid: number; command: string }): string =>
  `Port ${port} is answered by process ${holder.pid}${holder.command ? ` (${holder.command})` : ''}, a server an ` +
  "earlier job left running: it carries another job's RUNNER_TRACKING_ID and started before this step. Its answers " +
  `say nothing about a server this job started. Stop it (wait-for-model stop --pid ${holder.pid}, or kill ` +
  `${holder.pid}), or give "start" (or "pid") so that the gate watches the server this job runs`

/** With the URL alone on a runner: whether this job started the server that answered cannot be told, and why. */
export const serverOriginUnknownText = (port: number, why: string): string =>
  `Could not tell whether this job started the server on port ${port} (${why}): a server an earlier job left ` +
  'running would be taken as ready. Give "start", "pid" or "container" so that the gate watches the server itself'

/** A redirect the ready answer followed: from the endpoint's URL to the origin that answered. */
export interface Redirect {
  from: URL
  to: URL
}

/** The origins only: a Location's path and query are the server's words, of any length. */
const redirectText = ({ from, to }: Redirect): string => `${from.origin} redirected to ${to.origin}`

/** With `start` or `pid`: a local endpoint redirected to another machine, whose answer is not the watched server's. */
export const elsewhereText = (redirect: Redirect, watchedPid: number): string =>
  `${redirectText(redirect)}, which is not this machine: its answers say nothing about the server being watched ` +
  `(pid ${watchedPid}). Give the URL the server itself answers on, or set "port-check: false" for a proxy`

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

/** The post step, when the main step left it no server to stop (none launched by `start`, or `stop: never`). */
export const NOTHING_TO_STOP = 'No server to stop at the job end: none was launched by "start" with "stop: job-end".'

/** The post step could not stop the server (an error of its own, never the job's failure). */
export const jobEndErrorText = (pid: number | undefined, message: string): string =>
  `Could not stop the server${pid === undefined ? '' : ` (pid ${pid})`} at the job end: ${message}`

/** The server was stopped, but the job summary could not be written. */
export const jobEndSummaryErrorText = (message: string): string =>
  `The server was stopped, but the job summary could not be written: ${message}`

/** The job-end step was signalled (the runner cancelling it): it stopped the server without waiting any longer. */
export const jobEndCancelledText = (signal: string): string =>
  `The job-end step was cancelled (${signal}): the server was sent SIGKILL at once if still running, ` +
  'and its GPU memory was not waited for.'

/** A server of a fleet, as the job-end step names it: its place among the `url` lines (n from 1). */
export interface FleetMember {
  n: number
  of: number
}

/** `server 3 of 8 (url line 3)`: which endpoint's server a job-end line is about. */
export const fleetMemberText = (m: FleetMember): string => `server ${m.n} of ${m.of} (url line ${m.n})`

/** The job summary's section on the job-end stop: how it stopped, how long it took, its GPU memory, and why not cleanly. */
export function jobEndSummary(end: JobEnd, cancelledBy?: string, member?: FleetMember): string {
  const r = end.record
  const g = r.gpu
  const rows: Array<[string, string]> = [
    ...(cancelledBy === undefined ? [] : [['Cancelled', jobEndCancelledText(cancelledBy)] as [string, string]]),
    ['Server process', `pid ${r.pid} (${r.scope === 'group' ? 'its process group' : 'with its child processes'})`],
    [
      'Result',
      r.outcome === 'refused'
        ? `⚠️ refused: ${refusedText(r.pid, r.refused)}`
        : r.notOurs !== undefined && r.outcome === 'not-running'
          ? `left alone: ${notOursText(r.pid, r.notOurs)}`
          : r.outcome === 'not-running'
            ? 'already gone'
            : r.engine !== undefined
              ? `⚠️ not stopped: its engine ${r.engine}`
              : r.outcome === 'survived'
                ? `⚠️ still running after SIGKILL: pid ${(r.survivors ?? []).join(', ')}`
                : end.clean
                  ? '✅ stopped'
                  : '⚠️ stopped, not cleanly'
    ]
  ]
  if (r.signal !== undefined) rows.push(['Last signal sent', r.signal])
  if (r.exitCode !== undefined && r.exitCode !== null) rows.push(['Exit code', String(r.exitCode)])
  if (r.secondsToExit !== undefined) rows.push(['Gone after SIGTERM', `${s1(r.secondsToExit)}`])
  if (g.kind === 'released') {
    rows.push(['GPU memory released after SIGTERM', s1(g.seconds)])
    rows.push(['GPU memory released', g.mib > 0 ? `${g.mib} MiB` : 'an amount nvidia-smi does not show'])
  } else if (g.kind === 'held')
    rows.push(['GPU memory', `⚠️ ${g.heldMib} of ${g.mib} MiB still held after ${s1(g.seconds)}`])
  else if (g.kind === 'none') rows.push(['GPU memory', 'none held'])
  else rows.push(['GPU memory', `not looked at (nvidia-smi: ${g.why})`])
  const whose = member === undefined ? 'server' : fleetMemberText(member)
  const lines = [`### wait-for-model: ${whose} stopped at the job end`, '', '| | |', '|---|---|']
  lines.push(...rows.map(([k, v]) => `| ${k} | ${cell(v)} |`), '')
  if (end.logTail !== undefined) {
    lines.push(`#### ${logTailTitle(end.logTail, end.logFile)}`, '')
    lines.push(fenced(end.logTail.map((l) => `${l.number}: ${l.text}`).join('\n')), '')
  }
  return `${lines.join('\n')}\n`
}

/** A debug line: the GPU pre-flight had no reading (a machine without GPUs is no reason to say more). */
export const gpuUnavailableText = (why: string, detail?: string): string =>
  `GPU check skipped: no reading from nvidia-smi (${why}${detail ? `: ${detail}` : ''}).`

/** A debug line: the port is a container's, published by docker-proxy; whose container cannot be told from here. */
export const dockerProxyText = (o: Extract<Ownership, { kind: 'foreign' }>, watchedPid: number): string =>
  `Port ${o.port} is held by docker-proxy (a container's published port), not by process ${watchedPid}: taken as ` +
  "the watched server's, since a container's sockets are not in this machine's network namespace."

/** The engine's own readiness answer, as the log and the summary name it: `SGLang GET /health`. */
export const engineReadinessRequest = (engine: string, url: URL): string => `${engine} GET ${url.pathname}`

/** `load: true` and a sleeping engine (vLLM's sleep mode): the request that wakes it has gone out. */
export const wakeAskedText = (engine: string, url: URL): string => `Asked ${engine} to wake up: POST ${url.pathname}`

/** `load: true`: the request that asks the server to load the model has gone out. */
export const loadAskedText = (url: URL, model: unknown): string =>
  `Asked the server to load "${String(model)}": POST ${url.pathname}`

interface Holder {
  pid: number
  command: string
}

/** The lines of a server that is a container (`container`). */
export const containerLines = {
  started: (pid: number, starterLog: string): string =>
    `Ran "start" (pid ${pid}); its own output goes to ${starterLog}`,
  watching: (ref: string, id: string | undefined, logFile: string): string =>
    `Watching the container ${ref}${id === undefined || id.startsWith(ref) ? '' : ` (${id.slice(0, 12)})`}` +
    `${id === undefined ? ' once the engine has it' : ''}; its output, from the engine, goes to ${logFile}`,
  health: (ref: string, health: string): string => `The container ${ref} is ${health} (its HEALTHCHECK)`,
  engineFault: (ref: string, socket: string, why: string): string =>
    `The engine at ${printable(socket)} ${why}: the container ${ref} is read again once the wait begins`,
  foreignPids: (ref: string, pid: number): string =>
    `The engine gives pid ${pid} for the container ${ref}, which here is no process of it: the engine runs in another ` +
    'pid namespace (Docker in Docker). Its processes cannot be seen from here: an answer on a port a process here ' +
    "holds is not taken as the container's, and its environment is the one it was created with",
  wrongServer: (ref: string, port: number, holders: readonly Holder[], redirect?: Redirect): string =>
    `${redirect === undefined ? '' : `${redirectText(redirect)}: `}Port ${port} is answered by ${holders.map((h) => `pid ${h.pid} (${h.command})`).join(', ')}, not by a ` +
    `process of the container ${ref} nor a docker-proxy that forwards to it: another server holds the port, or ` +
    'the container listens elsewhere. Its answers say nothing about the server being waited for',
  /** A local endpoint redirected to another machine: not the container's answer. */
  elsewhere: (ref: string, redirect: Redirect): string =>
    `${redirectText(redirect)}, which is not this machine: its answers say nothing about the container ${ref}. ` +
    'Give the URL the server itself answers on, or set "port-check: false" for a proxy'
}

/** Where the run was when the cancel came: the wait itself is worded by the watch (src/server/watch.ts). */
export type CancelStage = 'before-wait' | 'after-wait' | 'smoke-test' | 'diagnostics'

const AT: Record<CancelStage, string> = {
  'before-wait': 'before the wait began (nothing was started)',
  'after-wait': 'as the wait ended',
  'smoke-test': 'during the smoke test',
  diagnostics: 'while the diagnostics ran'
}

/** `the job was cancelled (SIGTERM) during the smoke test`: the halt's detail, as the watch words a cancelled wait. */
export const cancelledText = (signal: string, stage: CancelStage): string =>
  `the job was cancelled (${signal}) ${AT[stage]}`

/** A file the runner gave the step (GITHUB_STATE, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY) that a write failed on. */
export const runnerFileText = (variable: string, path: string | undefined, e: unknown): string =>
  `The runner's file ${variable}${path ? ` ("${printable(path)}")` : ''} cannot be written ` +
  `(${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`

/** GITHUB_STATE refused the state before `start` ran: nothing was launched that nothing could stop. */
export const stateRefusedStartText = (file: string): string =>
  `${file}: "start" was not run, as the job-end step could not have stopped the server it launches ` +
  '(free space on the runner, or make the file writable)'

/** GITHUB_STATE refused the state of a server `start` launched: it is stopped now, as the job-end step cannot. */
export const stateLostStoppedText = (file: string): string =>
  `${file}: the job-end step could not stop the server "start" launched, so it was stopped now`

/** GITHUB_STATE refused the state after the wait: what was saved at the launch still stops the server. */
export const stateKeptText = (file: string): string =>
  `${file} after the wait: the job-end step stops the server by the state saved when it was launched`

/** GITHUB_OUTPUT refused the outputs. */
export const outputsLostText = (file: string): string => `${file}: the step's outputs (ready, reason, …) are not set`

/** GITHUB_STEP_SUMMARY refused the summary. */
export const summaryLostText = (file: string): string => `${file}: the job summary is not written`

export const historyNotSavedText = (problem: string): string =>
  `History: this run was not saved to the Actions cache (${problem}); the next job will not compare with it.`
