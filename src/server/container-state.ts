/**
 * The job-end stop of a container (`container`): what the main step hands the post step through the runner's
 * state (the stop itself is container-stop.ts). Only a container `start` ran is this job's to stop (`stop:
 * job-end`), or any with `stop: always`. Nothing here loads anything: the conclusion of every wait calls it.
 */
import type { Settings } from '../inputs/settings.js'
export interface ContainerEndState {
  container: string
  socket: string
  timeoutMs: number
  logFile?: string
  logLines: number
}

const NAMES = {
  container: 'server-container',
  socket: 'docker-socket',
  timeoutMs: 'container-stop-timeout-ms',
  logFile: 'container-log-file',
  logLines: 'container-log-lines'
}

/** The state to save for a container the job-end step stops, or undefined when it is not this job's to stop. */
export function containerEndState(
  settings: Pick<Settings, 'start' | 'stop' | 'stopTimeoutMs' | 'logLines' | 'container'>,
  server: { container?: string; logFile?: string } | undefined,
  socket: string
): Record<string, string> | undefined {
  const ours = (settings.start !== undefined && settings.stop === 'job-end') || settings.stop === 'always'
  if (!ours || settings.container === undefined || server?.container === undefined) return undefined
  return {
    [NAMES.container]: server.container,
    [NAMES.socket]: socket,
    [NAMES.timeoutMs]: String(settings.stopTimeoutMs),
    [NAMES.logFile]: server.logFile ?? '',
    [NAMES.logLines]: String(settings.logLines)
  }
}

export function readContainerEndState(get: (name: string) => string): ContainerEndState | undefined {
  const container = get(NAMES.container)
  const socket = get(NAMES.socket)
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,254}$/.test(container) || socket === '') return undefined
  const timeoutMs = Number(get(NAMES.timeoutMs))
  const logLines = Number(get(NAMES.logLines))
  return {
    container,
    socket,
    timeoutMs: Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : 30_000,
    logFile: get(NAMES.logFile) || undefined,
    logLines: Number.isInteger(logLines) && logLines >= 0 ? logLines : 50
  }
}
