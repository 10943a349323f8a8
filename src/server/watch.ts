/** Turns what happens beside the wait into a halt: the server process exiting, a fail-pattern log line, cancellation. */
import { type FSWatcher, watch } from 'node:fs'
import type { LogFollower, LogLine } from './log-follower.js'
import type { ServerProcess } from './process.js'
import type { Halter } from '../runtime/halter.js'
import { findWithin } from '../runtime/bounded-regex.js'
import { systemClock } from '../runtime/clock.js'

/** The halts of the wait (src/facts/halt.ts) a server gives. */
interface WatchHalt {
  reason: 'server-exited' | 'log-error' | 'cancelled'
  detail: string
}

export interface WatchOptions {
  /** The wait's halter. */
  halter: Pick<Halter<WatchHalt>, 'halt'>
  server?: ServerProcess
  log?: LogFollower
  failPattern?: RegExp
  /** Receives every new log line, in order (the startup profile); returns the engine's own fatal line, once seen. */
  readLines?(lines: LogLine[]): KnownFatal | undefined
  /** Stopped, with the signal the runner sent, when the job is cancelled. */
  cancel?: Halter<NodeJS.Signals>
  /** How often the log is read when the file system does not say it changed (NFS, a file not there yet). */
  pollMs?: number
}

/** A line the engine is known to print when its startup fails. */
export interface KnownFatal {
  line: LogLine
  /** It names a cause (out of memory, an NCCL error) rather than only saying the start failed. */
  cause: boolean
  /** Undefined while the engine is not known. */
  engineLabel?: string
}

export interface ServerWatch {
  close(): void
}

/** How long `fail-pattern` may run on one look's lines: one that backtracks would hold the event loop. */
const FAIL_PATTERN_LIMIT_MS = 250

/** How long a fatal log line waits for the server's exit, to name its exit code too. */
const EXIT_GRACE_MS = 150
/** The least time between two reads of the log woken by the file system. */
const SCAN_GAP_MS = 20

/** Watches a file for changes; undefined where it cannot (not there yet, no inotify): the timer reads it then. */
function watchFile(path: string, onChange: () => void): FSWatcher | undefined {
  try {
    const watcher = watch(path, { persistent: false }, onChange)
    watcher.on('error', () => watcher.close())
    return watcher
  } catch {
    return undefined
  }
}

export function watchServer({
  halter,
  server,
  log,
  failPattern,
  readLines,
  cancel,
  pollMs = 200
}: WatchOptions): ServerWatch {
  let closed = false
  // A server that exits after the wait is over (or a late fatal line) ends nothing.
  const halt = (h: WatchHalt): void => void (closed || halter.halt(h))
  const logError = (line: LogLine, why: string, after = ''): WatchHalt => ({
    reason: 'log-error',
    detail: `line ${line.number} of ${log?.path} ${why}: ${line.text}${after}`
  })
  /**
   * Reads the new lines: a log error among them, if any. A named cause explains most, then the user's pattern.
   * `settled`: nothing later can explain it better (a known line that names no cause, such as vLLM's "EngineCore
   * failed to start", may be followed by the one that does). `all`: every line still unread, not one look's.
   */
  const read = (after = '', all = false): { halt: WatchHalt; settled: boolean } | undefined => {
    if (log === undefined) return undefined
    const fresh = all ? log.rest() : log.poll()
    // a log that became a directory, or cannot be read any more, ends the wait: nothing it says can be watched
    if (log.problem !== undefined)
      return { halt: { reason: 'log-error', detail: `${log.problem}${after}` }, settled: true }
    const known = readLines?.(fresh)
    const texts = fresh.map((l) => l.text)
    const found = failPattern ? findWithin(failPattern, texts, FAIL_PATTERN_LIMIT_MS) : -1
    if (typeof found === 'object') {
      const line = fresh[found.outOfTimeAt]
      return {
        halt: {
          reason: 'log-error',
          detail:
            `fail-pattern ${String(failPattern)} ran out of time on line ${line.number} of ${log.path} ` +
            `(it backtracks too much: simplify "fail-pattern")${after}`
        },
        settled: true
      }
    }
    const matching = found === -1 ? undefined : fresh[found]
    const knownError = (k: KnownFatal): WatchHalt =>
      logError(k.line, `is a known fatal ${k.engineLabel ?? 'model server'} line`, after)
    if (known?.cause) return { halt: knownError(known), settled: true }
    if (matching) return { halt: logError(matching, 'matches fail-pattern', after), settled: true }
    return known ? { halt: knownError(known), settled: false } : undefined
  }

  let found: { halt: WatchHalt; settled: boolean } | undefined
  let grace: NodeJS.Timeout | undefined
  const scan = (): void => {
    // a log that was not there yet when the wait began
    if (changes === undefined && log !== undefined && !closed) changes = watchFile(log.path, onChange)
    if (found?.settled) return
    const next = read()
    if (next === undefined) return
    // Within the grace, a cause read after a bare failure line is the one quoted: the lines of one crash come
    // within milliseconds, and how the reads split them must not decide whether the user learns why it failed.
    if (found !== undefined) {
      if (next.settled) found = next
      return
    }
    found = next
    // A server usually exits right after its fatal line: a moment's grace lets the message give the exit code.
    if (server === undefined) halt(found.halt)
    else grace = setTimeout(() => found && halt(found.halt), EXIT_GRACE_MS)
  }
  const reads = log !== undefined && (failPattern !== undefined || readLines !== undefined)
  const timer = reads ? setInterval(scan, pollMs) : undefined
  // The file system says when the log grows, so that a ready line is read within milliseconds, not a poll later;
  // reads are SCAN_GAP_MS apart at least (once, however many changes came between), so that a progress bar redrawn
  // a thousand times a second costs little.
  let lastScan = -Infinity
  let nextScan: NodeJS.Timeout | undefined
  const onChange = (): void => {
    if (nextScan !== undefined || closed) return
    const run = (): void => {
      nextScan = undefined
      lastScan = systemClock.now()
      if (!closed) scan()
    }
    const wait = lastScan + SCAN_GAP_MS - systemClock.now()
    if (wait <= 0) run()
    else nextScan = setTimeout(run, wait)
  }
  let changes = reads ? watchFile(log.path, onChange) : undefined

  void server?.exited.then((how) => {
    if (closed) return
    // A crash usually prints its cause just before: the fatal line explains more than the exit code.
    const who = server.label ?? `the server process ${server.pid}`
    const after = `; ${who} then ${how}`
    // its last lines may hold the cause of a failure line already read: all of them are read, not one look's
    const last = found?.settled ? undefined : read(after, true)
    const error = found && !last?.settled ? { ...found.halt, detail: found.halt.detail + after } : last?.halt
    halt(error ?? { reason: 'server-exited', detail: `${who} ${how}` })
  })

  const onCancel = (): void =>
    halt({ reason: 'cancelled', detail: `the job was cancelled (${cancel?.halted ?? 'aborted'})` })
  if (cancel?.signal.aborted) onCancel()
  else cancel?.signal.addEventListener('abort', onCancel, { once: true })

  return {
    close() {
      closed = true
      clearInterval(timer)
      changes?.close()
      clearTimeout(grace)
      cancel?.signal.removeEventListener('abort', onCancel)
    }
  }
}
