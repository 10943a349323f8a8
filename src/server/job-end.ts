/**
 * The job-end stop (the action's post step): what the main step hands over through the runner's state (the stop
 * itself is `stopAtJobEnd`, in stop.ts). The main step writes the state only for a server `start` launched with
 * `stop: job-end`; the post step, a new process, knows nothing else. Nothing here loads anything: the conclusion
 * of every wait calls `jobEndState`.
 */
import type { ServerSettings } from '../inputs/settings.js'
import { containerEndState } from './container-state.js'

/** What the post step needs to stop the server. */
export interface JobEndState {
  pid: number
  timeoutMs: number
  logFile?: string
  logLines: number
}

/** State names, as the runner passes them back: `STATE_<name>`. */
const NAMES = { pid: 'server-pid', timeoutMs: 'stop-timeout-ms', logFile: 'server-log-file', logLines: 'log-lines' }

/** The state to save after the wait, or undefined when the post step has nothing to do. */
export function jobEndState(
  settings: Pick<ServerSettings, 'start' | 'stop' | 'stopTimeoutMs' | 'logLines'> & Pick<ServerSettings, 'container'>,
  server: { pid?: number; logFile?: string; container?: string; dockerSocket?: string } | undefined
): Record<string, string> | undefined {
  // a container is stopped through its engine (container-end.ts), never by the pid of its process
  if (settings.container !== undefined) return containerEndState(settings, server, server?.dockerSocket ?? '')
  // only a server this step launched is this job's to stop: one given by `pid` belongs to whoever started it
  if (settings.start === undefined || settings.stop !== 'job-end' || server?.pid === undefined) return undefined
  return {
    [NAMES.pid]: String(server.pid),
    [NAMES.timeoutMs]: String(settings.stopTimeoutMs),
    [NAMES.logFile]: server.logFile ?? '',
    [NAMES.logLines]: String(settings.logLines)
  }
}

/** Reads the state back (`get` returns '' for a name not saved); undefined when the main step saved none. */
export function readJobEndState(get: (name: string) => string): JobEndState | undefined {
  const pid = Number(get(NAMES.pid))
  if (!Number.isInteger(pid) || pid < 2) return undefined
  const timeoutMs = Number(get(NAMES.timeoutMs))
  const logLines = Number(get(NAMES.logLines))
  return {
    pid,
    timeoutMs: Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : 30_000,
    logFile: get(NAMES.logFile) || undefined,
    logLines: Number.isInteger(logLines) && logLines >= 0 ? logLines : 50
  }
}
