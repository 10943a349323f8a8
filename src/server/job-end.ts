/**
 * The job-end stop (the action's post step): what the main step hands over through the runner's state (the stop
 * itself is `stopAtJobEnd`, in stop.ts). The main step writes the state only for a server `start` launched with
 * `stop: job-end`; the post step, a new process, knows nothing else. Nothing here loads anything: the conclusion
 * of every wait calls `jobEndState`.
 *
 * The state is read like inputs: each value in the one form the main step writes, or refused whole
 * (`JobEndStateError`, nothing is signalled). The runner keeps it in a file of the job's, and a process the job
 * ran may have written there.
 */
import type { Settings } from '../inputs/settings.js'
import { containerEndState } from './container-state.js'

/** What the post step needs to stop the server. */
export interface JobEndState {
  pid: number
  /** The server's start time at launch (`/proc/<pid>/stat` field 22), where it could be read. */
  startTicks?: number
  /** The boot the server started in (`/proc/sys/kernel/random/boot_id`), where it could be read. */
  bootId?: string
  /** The value of `WAIT_FOR_MODEL_RUN` in the server's environment: every process that carries it is the server's. */
  runMarker?: string
  timeoutMs: number
  logFile?: string
  logLines: number
}

/** State names, as the runner passes them back: `STATE_<name>`. */
const NAMES = {
  pid: 'server-pid',
  startTicks: 'server-start-ticks',
  bootId: 'boot-id',
  runMarker: 'run-marker',
  timeoutMs: 'stop-timeout-ms',
  logFile: 'server-log-file',
  logLines: 'log-lines'
}

/** What the main step knows of the server it launched. */
export interface LaunchedFacts {
  pid?: number
  logFile?: string
  startTicks?: number
  bootId?: string
  runMarker?: string
  /** With `container`: the container's id, and the engine's socket (container-state.ts). */
  container?: string
  dockerSocket?: string
}

/** The state to save after the wait, or undefined when the post step has nothing to do. */
export function jobEndState(
  settings: Pick<Settings, 'start' | 'stop' | 'stopTimeoutMs' | 'logLines' | 'container'>,
  server: LaunchedFacts | undefined
): Record<string, string> | undefined {
  // a container is stopped through its engine (container-stop.ts), never by the pid of its process
  if (settings.container !== undefined) return containerEndState(settings, server, server?.dockerSocket ?? '')
  // only a server this step launched is this job's to stop: one given by `pid` belongs to whoever started it
  if (settings.start === undefined || settings.stop !== 'job-end' || server?.pid === undefined) return undefined
  return {
    [NAMES.pid]: String(server.pid),
    [NAMES.startTicks]: server.startTicks === undefined ? '' : String(server.startTicks),
    [NAMES.bootId]: server.bootId ?? '',
    [NAMES.runMarker]: server.runMarker ?? '',
    [NAMES.timeoutMs]: String(settings.stopTimeoutMs),
    [NAMES.logFile]: server.logFile ?? '',
    [NAMES.logLines]: String(settings.logLines)
  }
}

/** How many servers a fleet's state holds; each one's own names end in `-<n>`, from 1 (fleetEndState). */
const FLEET_SIZE = 'fleet-size'
/** As many as `url` may have lines. */
const MAX_FLEET = 1000

/**
 * The state of a fleet of servers (one per endpoint), each endpoint's own state (jobEndState, or the container's)
 * under its names with `-<n>` added, n from 1 in the order of the `url` lines; undefined when none has a server to
 * stop.
 */
export function fleetEndState(
  states: ReadonlyArray<Record<string, string> | undefined>
): Record<string, string> | undefined {
  if (states.every((s) => s === undefined)) return undefined
  const state: Record<string, string> = { [FLEET_SIZE]: String(states.length) }
  states.forEach((own, i) => {
    for (const [name, value] of Object.entries(own ?? {})) state[`${name}-${i + 1}`] = value
  })
  return state
}

/**
 * The state as each server's stop reads it: one `get` for the one server, or one per server of a fleet (which
 * reads that server's names); refused whole (JobEndStateError) when the fleet's size is not the form it is written in.
 */
export function serverStates(get: (name: string) => string): Array<(name: string) => string> {
  const text = get(FLEET_SIZE)
  if (text === '') return [get]
  if (!/^\d{1,4}$/.test(text) || Number(text) < 2 || Number(text) > MAX_FLEET)
    throw new JobEndStateError(FLEET_SIZE, text, `a whole number from 2 to ${MAX_FLEET}`)
  return Array.from({ length: Number(text) }, (_, i) => (name: string) => get(`${name}-${i + 1}`))
}

/** A state value not in the form the main step writes: the whole state is refused, and nothing is signalled. */
export class JobEndStateError extends Error {
  constructor(
    /** The state's name (the variable is `STATE_<name>`). */
    readonly stateName: string,
    readonly value: string,
    /** The form the main step writes. */
    readonly form: string
  ) {
    super(`STATE_${stateName}: not ${form}`)
    this.name = 'JobEndStateError'
  }
}

/** Linux's largest pid (PID_MAX_LIMIT); pid 1 is init, never a server this step launched. */
const PID_MAX = 4_194_304
const BOOT_ID_FORM = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const MARKER_FORM = /^[0-9a-f]{32}$/
/** A path as `log-file` takes it (relative to the workspace, as the post step runs there too): no control character, at most PATH_MAX. */
// eslint-disable-next-line no-control-regex
const PATH_FORM = /^[^\0-\x1f\x7f]{1,4095}$/

/**
 * Reads the state back (`get` returns '' for a name not saved); undefined when the main step saved none. A value
 * in any other form than the one `jobEndState` writes throws JobEndStateError.
 */
export function readJobEndState(get: (name: string) => string): JobEndState | undefined {
  const pidText = get(NAMES.pid)
  if (pidText === '') return undefined
  const whole = (name: string, min: number, max: number, form: string, optional = false): number | undefined => {
    const text = get(name)
    if (optional && text === '') return undefined
    if (!/^\d{1,16}$/.test(text) || Number(text) < min || Number(text) > max)
      throw new JobEndStateError(name, text, form)
    return Number(text)
  }
  const matching = (name: string, pattern: RegExp, form: string): string | undefined => {
    const text = get(name)
    if (text === '') return undefined
    if (!pattern.test(text)) throw new JobEndStateError(name, text, form)
    return text
  }
  const pid = whole(NAMES.pid, 2, PID_MAX, `a process id from 2 to ${PID_MAX}`) as number
  return {
    pid,
    startTicks: whole(NAMES.startTicks, 0, Number.MAX_SAFE_INTEGER, 'a start time in clock ticks, or empty', true),
    bootId: matching(NAMES.bootId, BOOT_ID_FORM, 'a boot id (a UUID in lower case), or empty'),
    runMarker: matching(NAMES.runMarker, MARKER_FORM, 'a run marker (32 hexadecimal digits), or empty'),
    timeoutMs: whole(NAMES.timeoutMs, 1, 2_147_483_647, 'milliseconds from 1 to 2147483647') as number,
    logFile: matching(NAMES.logFile, PATH_FORM, 'a path without control characters, or empty'),
    logLines: whole(NAMES.logLines, 0, 1000, 'a whole number from 0 to 1000') as number
  }
}
