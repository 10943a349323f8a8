/**
 * What the main step hands the job-end stop (the action's post step, a new process that knows nothing else): one
 * state value, `servers`, a JSON list with an entry per server in the order of the `url` lines (null for one with
 * nothing to stop). The runner keeps it in a file a process the job ran may have written: each value is read in the
 * one form the main step writes, or that entry is refused whole (`JobEndStateError`, nothing is signalled).
 */
import type { Server, Settings } from '../inputs/settings.js'

/**
 * A process `start` launched, or one given by `pid` with `stop: always`: its start time and boot where they could be
 * read (guard.ts), and the run marker of one `start` launched.
 */
export interface ProcessEndState {
  kind: 'process'
  pid: number
  startTicks?: number
  bootId?: string
  runMarker?: string
  timeoutMs: number
  logFile?: string
  logLines: number
}

/** A container (`container`): stopped through its engine, never by the pid of its process. */
export interface ContainerEndState {
  kind: 'container'
  container: string
  /** The engine's socket. */
  socket: string
  timeoutMs: number
  logFile?: string
  logLines: number
}

/** A process `start` launched on another host (`host`), stopped there over ssh by its marker and start time. */
export interface RemoteEndState {
  kind: 'remote'
  host: string
  pid: number
  startTicks?: number
  bootId?: string
  runMarker?: string
  timeoutMs: number
  /** The local copy of its log. */
  logFile?: string
  logLines: number
  /** One server across several nodes: the other nodes' processes, stopped by the same marker. */
  nodes?: Array<{ host: string; pid: number; startTicks?: number }>
}

export type ServerEndState = ProcessEndState | ContainerEndState | RemoteEndState

/** What the main step knows of the server it launched or watched. */
interface LaunchedFacts {
  pid?: number
  logFile?: string
  startTicks?: number
  bootId?: string
  runMarker?: string
  /** With `container`: the container's id, and the engine's socket. */
  container?: string
  dockerSocket?: string
  /** With `host`: its ssh destination. */
  host?: string
  nodes?: Array<{ host: string; pid: number; startTicks?: number }>
}

/** The state's one name, as the runner passes it back: `STATE_servers`. */
export const JOB_END_STATE_NAME = 'servers'
const NAME = JOB_END_STATE_NAME
/** As many as `url` may have lines. */
const MAX_SERVERS = 1000

type StopSettings = Pick<Server, 'start' | 'container' | 'host'> & Pick<Settings, 'stop' | 'stopTimeoutMs' | 'logLines'>

/** One server's entry, or undefined when it is not this job's to stop. */
export function serverEndState(settings: StopSettings, server: LaunchedFacts | undefined): ServerEndState | undefined {
  const { start, container, stop, stopTimeoutMs: timeoutMs, logLines } = settings
  const logFile = server?.logFile
  if (settings.host !== undefined) {
    // a remote server is stopped only by its marker: one `start` launched there, or `pid` with `stop: always`
    const ours = start !== undefined ? stop !== 'never' : stop === 'always'
    if (!ours || server?.pid === undefined || server.host === undefined) return undefined
    const { pid, startTicks, bootId, runMarker } = server
    // what stops them, and nothing of what was read there (their environment)
    const nodes =
      server.nodes === undefined
        ? {}
        : { nodes: server.nodes.map(({ host, pid, startTicks }) => ({ host, pid, startTicks })) }
    return {
      kind: 'remote',
      host: server.host,
      pid,
      startTicks,
      bootId,
      runMarker,
      timeoutMs,
      logFile,
      logLines,
      ...nodes
    }
  }
  if (container !== undefined) {
    // only a container `start` ran is this job's to stop (`stop: job-end`), or any with `stop: always`
    const ours = (start !== undefined && stop === 'job-end') || stop === 'always'
    if (!ours || server?.container === undefined) return undefined
    const socket = server.dockerSocket ?? ''
    return { kind: 'container', container: server.container, socket, timeoutMs, logFile, logLines }
  }
  // a server this step launched is this job's to stop; one given by `pid` only with `stop: always`
  const ours = start !== undefined ? stop !== 'never' : stop === 'always'
  if (!ours || server?.pid === undefined) return undefined
  const { pid, startTicks, bootId, runMarker } = server
  return { kind: 'process', pid, startTicks, bootId, runMarker, timeoutMs, logFile, logLines }
}

/** Each server's entry, in the order of the `url` lines, from what is known of each so far (undefined: not launched). */
export function serverEndStates(
  settings: Pick<Settings, 'servers' | 'stop' | 'stopTimeoutMs' | 'logLines'>,
  facts: (i: number) => LaunchedFacts | undefined
): Array<ServerEndState | undefined> {
  const { stop, stopTimeoutMs, logLines } = settings
  return settings.servers.map(({ start, container, host }, i) =>
    serverEndState({ start, container, host, stop, stopTimeoutMs, logLines }, facts(i))
  )
}

/** Whether some server, once launched, is this job's to stop: its state must then be saved as soon as it runs. */
export const stopsAnyAtJobEnd = (
  settings: Pick<Settings, 'servers' | 'stop' | 'stopTimeoutMs' | 'logLines'>
): boolean => serverEndStates(settings, () => ({ pid: 1, container: 'any', host: 'any' })).some((s) => s !== undefined)

/** The state to save (each server's entry, in order), or undefined when no server has one. */
export function jobEndState(servers: ReadonlyArray<ServerEndState | undefined>): Record<string, string> | undefined {
  if (servers.every((s) => s === undefined)) return undefined
  return { [NAME]: JSON.stringify(servers.map((s) => s ?? null)) }
}

/** A state value not in the form the main step writes: refused whole, and nothing is signalled. */
export class JobEndStateError extends Error {
  constructor(
    /** Where in the state: `servers[0].pid`. */
    readonly stateName: string,
    readonly value: string,
    /** The form the main step writes. */
    readonly form: string
  ) {
    super(`STATE_${stateName}: not ${form}`)
    this.name = 'JobEndStateError'
  }
}

/** The saved entries, each to be read by `readServerEndState`; none when the main step saved nothing. */
export function readJobEndState(get: (name: string) => string): unknown[] {
  const text = get(NAME)
  if (text === '') return []
  let list: unknown
  try {
    list = JSON.parse(text)
  } catch {
    list = undefined
  }
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_SERVERS)
    throw new JobEndStateError(NAME, text, `a JSON list of 1 to ${MAX_SERVERS} servers`)
  return list
}

/** Linux's largest pid (PID_MAX_LIMIT); pid 1 is init, never a server this step launched. */
const PID_MAX = 4_194_304
const BOOT_ID_FORM = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const MARKER_FORM = /^[0-9a-f]{32}$/
/** As `host` takes it: nothing ssh could read as an option. */
const HOST_FORM = /^[A-Za-z0-9_][A-Za-z0-9_.@:[\]%-]{0,254}$/
const CONTAINER_FORM = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,254}$/
/** A path as `log-file` takes it (the post step runs in the workspace too): no control character, at most PATH_MAX. */
// eslint-disable-next-line no-control-regex
const PATH_FORM = /^[^\0-\x1f\x7f]{1,4095}$/

/** Server `i`'s entry, read back in the form `serverEndState` writes; undefined when it has nothing to stop. */
export function readServerEndState(entry: unknown, i: number): ServerEndState | undefined {
  if (entry === null) return undefined
  const at = `${NAME}[${i}]`
  if (typeof entry !== 'object' || Array.isArray(entry))
    throw new JobEndStateError(at, shown(entry), 'a server (a JSON object), or null')
  const saved = entry as Record<string, unknown>
  const whole = (name: string, min: number, max: number, form: string, optional = false): number | undefined => {
    const v = saved[name]
    if (optional && v === undefined) return undefined
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
      throw new JobEndStateError(`${at}.${name}`, shown(v), form)
    return v
  }
  const matching = (name: string, pattern: RegExp, form: string, optional = true): string | undefined => {
    const v = saved[name]
    if (optional && v === undefined) return undefined
    if (typeof v !== 'string' || !pattern.test(v)) throw new JobEndStateError(`${at}.${name}`, shown(v), form)
    return v
  }
  const common = {
    timeoutMs: whole('timeoutMs', 1, 2_147_483_647, 'milliseconds from 1 to 2147483647') as number,
    logFile: matching('logFile', PATH_FORM, 'a path without control characters, or none'),
    logLines: whole('logLines', 0, 1000, 'a whole number from 0 to 1000') as number
  }
  if (saved.kind === 'container')
    return {
      kind: 'container',
      container: matching('container', CONTAINER_FORM, 'a container id or name', false) as string,
      socket: matching('socket', PATH_FORM, 'a socket path without control characters', false) as string,
      ...common
    }
  const processEntry = {
    pid: whole('pid', 2, PID_MAX, `a process id from 2 to ${PID_MAX}`) as number,
    startTicks: whole('startTicks', 0, Number.MAX_SAFE_INTEGER, 'a start time in clock ticks, or none', true),
    bootId: matching('bootId', BOOT_ID_FORM, 'a boot id (a UUID in lower case), or none'),
    runMarker: matching('runMarker', MARKER_FORM, 'a run marker (32 hexadecimal digits), or none'),
    ...common
  }
  if (saved.kind === 'remote') {
    const host = matching('host', HOST_FORM, 'an ssh destination', false) as string
    if (saved.nodes === undefined) return { kind: 'remote', host, ...processEntry }
    const nodes = saved.nodes
    if (!Array.isArray(nodes) || nodes.length > MAX_SERVERS)
      throw new JobEndStateError(`${at}.nodes`, shown(nodes), 'a list of nodes')
    return {
      kind: 'remote',
      host,
      ...processEntry,
      nodes: nodes.map((n: unknown, j) => {
        const node = (typeof n === 'object' && n !== null ? n : {}) as Record<string, unknown>
        const where = `${at}.nodes[${j}]`
        if (typeof node.host !== 'string' || !HOST_FORM.test(node.host))
          throw new JobEndStateError(`${where}.host`, shown(node.host), 'an ssh destination')
        if (typeof node.pid !== 'number' || !Number.isInteger(node.pid) || node.pid < 2 || node.pid > PID_MAX)
          throw new JobEndStateError(`${where}.pid`, shown(node.pid), `a process id from 2 to ${PID_MAX}`)
        const ticks = node.startTicks
        if (ticks !== undefined && (typeof ticks !== 'number' || !Number.isSafeInteger(ticks) || ticks < 0))
          throw new JobEndStateError(`${where}.startTicks`, shown(ticks), 'a start time in clock ticks, or none')
        return { host: node.host, pid: node.pid, startTicks: ticks as number | undefined }
      })
    }
  }
  if (saved.kind !== 'process')
    throw new JobEndStateError(`${at}.kind`, shown(saved.kind), '"process", "container" or "remote"')
  return { kind: 'process', ...processEntry }
}

/** A saved value as the refusal shows it. */
const shown = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v)))
