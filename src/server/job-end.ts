/**
 * The job-end stop (the action's post step): what the main step hands over through the runner's state, and the
 * stop itself. The main step writes the state only for a server `start` launched with `stop: job-end`; the post
 * step, a new process, knows nothing else. Structured values only; the words are in report/lifecycle-report.ts.
 */
import type { Settings } from '../inputs/settings.js'
import type { GpuSnapshot } from '../gpu/nvidia-smi.js'
import type { Clock } from '../runtime/clock.js'
import { LogFollower, type LogLine } from './log-follower.js'
import { type StopRecord, stopServer } from './stop.js'

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
  settings: Pick<Settings, 'start' | 'stop' | 'stopTimeoutMs' | 'logLines'>,
  server: { pid?: number; logFile?: string } | undefined
): Record<string, string> | undefined {
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

export interface JobEnd {
  record: StopRecord
  /** Whether it went as it should: gone after SIGTERM, its GPU memory (if any) released. */
  clean: boolean
  /** The log's last lines when it did not exit on SIGTERM (or outlived SIGKILL); undefined otherwise or without a log. */
  logTail?: LogLine[]
  logFile?: string
}

/** Stops the server the main step launched and says how it went. Never throws for a server that is already gone. */
export async function stopAtJobEnd(
  state: JobEndState,
  deps: { clock: Clock; gpu?(): Promise<GpuSnapshot>; proc?: string }
): Promise<JobEnd> {
  const record = await stopServer({ pid: state.pid, timeoutMs: state.timeoutMs }, deps)
  const exitedOnTerm = record.outcome !== 'survived' && record.signal !== 'SIGKILL'
  const clean = exitedOnTerm && record.gpu.kind !== 'held'
  // why it would not stop may be in its last lines (a hung NCCL teardown, a stuck writer)
  const logTail =
    exitedOnTerm || state.logFile === undefined || state.logLines === 0
      ? undefined
      : new LogFollower(state.logFile, state.logLines).tail()
  return { record, clean, logTail, logFile: state.logFile }
}
