/** Turns what happens beside the wait into a stop: the server process exiting, a fail-pattern log line, cancellation. */
import type { LogFollower, LogLine } from './log-follower.js'
import type { ServerProcess } from './server-process.js'
import type { Stop } from './wait.js'

export interface WatchOptions {
  server?: ServerProcess
  log?: LogFollower
  failPattern?: RegExp
  /** Aborted when the job is cancelled. */
  cancel?: AbortSignal
  /** How often the log is read for `failPattern`. */
  pollMs?: number
}

export interface ServerWatch {
  /** Aborts with a `Stop` as its reason. */
  signal: AbortSignal
  close(): void
}

export function watchServer({ server, log, failPattern, cancel, pollMs = 200 }: WatchOptions): ServerWatch {
  const controller = new AbortController()
  const stop = (s: Stop): void => {
    if (!controller.signal.aborted) controller.abort(s)
  }
  const matching = (): LogLine | undefined => (failPattern && log ? log.poll().find((l) => failPattern.test(l.text)) : undefined)
  const logError = (line: LogLine, after = ''): Stop => ({
    reason: 'log-error',
    detail: `line ${line.number} of ${log?.path} matches fail-pattern: ${line.text}${after}`
  })

  const scan = (): void => {
    const line = matching()
    if (line) stop(logError(line))
  }
  const timer = failPattern && log ? setInterval(scan, pollMs) : undefined

  void server?.exited.then((how) => {
    // A crash usually prints its cause just before: the matching line explains more than the exit code.
    const line = matching()
    stop(line ? logError(line, `; the server process ${server.pid} then ${how}`) : { reason: 'server-exited', detail: `the server process ${server.pid} ${how}` })
  })

  const onCancel = (): void => stop({ reason: 'cancelled', detail: `the job was cancelled (${String(cancel?.reason ?? 'aborted')})` })
  if (cancel?.aborted) onCancel()
  else cancel?.addEventListener('abort', onCancel, { once: true })

  return {
    signal: controller.signal,
    close() {
      clearInterval(timer)
      cancel?.removeEventListener('abort', onCancel)
    }
  }
}
