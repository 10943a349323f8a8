/** Turns what happens beside the wait into a stop: the server process exiting, a fail-pattern log line, cancellation. */
import type { LogFollower, LogLine } from './log-follower.js'
import type { ServerProcess } from './process.js'
import type { Stop, Stopper } from '../wait/stop.js'

export interface WatchOptions {
  /** Ended, with the `Stop` that explains why, when the wait must end. */
  stopper: Stopper
  server?: ServerProcess
  log?: LogFollower
  failPattern?: RegExp
  /** Receives every new log line, in order (the startup profile); returns the engine's own fatal line, once seen. */
  readLines?(lines: LogLine[]): KnownFatal | undefined
  /** Stopped, with the signal the runner sent, when the job is cancelled. */
  cancel?: Stopper<NodeJS.Signals>
  /** How often the log is read. */
  pollMs?: number
}

/** A line the engine is known to print when its startup fails. */
export interface KnownFatal {
  line: LogLine
  /** It names a cause (out of memory, an NCCL error) rather than only saying the start failed. */
  cause: boolean
  /** Whose line it is ("vLLM"); undefined while the engine is not known. */
  engineLabel?: string
}

export interface ServerWatch {
  close(): void
}

/** How long a fatal log line waits for the server's exit, to name its exit code too. */
const EXIT_GRACE_MS = 150

export function watchServer({
  stopper,
  server,
  log,
  failPattern,
  readLines,
  cancel,
  pollMs = 200
}: WatchOptions): ServerWatch {
  let closed = false
  // A server that exits after the wait is over (or a late fatal line) ends nothing.
  const stop = (s: Stop): void => void (closed || stopper.stop(s))
  const logError = (line: LogLine, why: string, after = ''): Stop => ({
    reason: 'log-error',
    detail: `line ${line.number} of ${log?.path} ${why}: ${line.text}${after}`
  })
  /** Reads the new lines: a log error among them, if any. A named cause explains most, then the user's pattern. */
  const read = (after = ''): Stop | undefined => {
    if (log === undefined) return undefined
    const fresh = log.poll()
    const known = readLines?.(fresh)
    const matching = failPattern ? fresh.find((l) => failPattern.test(l.text)) : undefined
    const knownError = (k: KnownFatal): Stop =>
      logError(k.line, `is a known fatal ${k.engineLabel ?? 'model server'} line`, after)
    if (known?.cause) return knownError(known)
    if (matching) return logError(matching, 'matches fail-pattern', after)
    return known ? knownError(known) : undefined
  }

  let found: Stop | undefined
  let grace: NodeJS.Timeout | undefined
  const scan = (): void => {
    if (found !== undefined || (found = read()) === undefined) return
    // A server usually exits right after its fatal line: a moment's grace lets the message give the exit code.
    if (server === undefined) stop(found)
    else grace = setTimeout(stop, EXIT_GRACE_MS, found)
  }
  const timer = log && (failPattern || readLines) ? setInterval(scan, pollMs) : undefined

  void server?.exited.then((how) => {
    if (closed) return
    // A crash usually prints its cause just before: the fatal line explains more than the exit code.
    const after = `; the server process ${server.pid} then ${how}`
    const error = found ? { ...found, detail: found.detail + after } : read(after)
    stop(error ?? { reason: 'server-exited', detail: `the server process ${server.pid} ${how}` })
  })

  const onCancel = (): void =>
    stop({ reason: 'cancelled', detail: `the job was cancelled (${cancel?.stopped ?? 'aborted'})` })
  if (cancel?.signal.aborted) onCancel()
  else cancel?.signal.addEventListener('abort', onCancel, { once: true })

  return {
    close() {
      closed = true
      clearInterval(timer)
      clearTimeout(grace)
      cancel?.signal.removeEventListener('abort', onCancel)
    }
  }
}
