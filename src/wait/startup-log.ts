/**
 * The server's log, read into the startup profile: its lines from before the wait (a server started elsewhere)
 * tell the phases so far; a log `start` has just begun afresh is read from its first line. `readLines` reads new
 * lines and returns the engine's own fatal line once seen; `readyLine` resolves once the engine's ready line is
 * read, `logLines` at the next new lines (the probe schedule brings a probe forward on either).
 */
import { setMaxListeners } from 'node:events'
import type { LogFollower, LogLine } from '../server/log-follower.js'
import type { KnownFatal } from '../server/watch.js'
import type { StartupProfile } from '../startup/profile.js'
import { gateLines } from '../report/progress.js'
import { startupLines } from '../report/profile-report.js'
import type { TrackerEvent } from '../startup/phases.js'
import type { Deps } from './deps.js'
import type { LaunchedServer } from './servers/kind.js'

export function followLog({
  launched,
  profile,
  deps,
  waitStart
}: {
  launched: LaunchedServer
  profile: StartupProfile
  deps: Deps
  waitStart: number
}): {
  log?: LogFollower
  sayStartup(events: TrackerEvent[]): void
  readLines(lines: LogLine[]): KnownFatal | undefined
  readyLine?(signal: AbortSignal): Promise<void>
  logLines?(signal: AbortSignal): Promise<void>
} {
  const { clock } = deps
  const sayStartup = (events: TrackerEvent[]): void =>
    startupLines(events).forEach((l) => deps.log(gateLines.startup(clock.now() - waitStart, l)))
  const log = launched.followLog((lines) =>
    lines.forEach((l) => sayStartup(profile.earlier(l.text, clock.now(), l.number)))
  )
  // Aborted once the engine's own ready line is read: every endpoint's next probe goes out at once.
  const readySeen = new AbortController()
  setMaxListeners(0, readySeen.signal)
  const readyLine = (signal: AbortSignal): Promise<void> =>
    new Promise((resolve) => {
      if (readySeen.signal.aborted || signal.aborted) return resolve()
      const done = (): void => {
        readySeen.signal.removeEventListener('abort', done)
        signal.removeEventListener('abort', done)
        resolve()
      }
      readySeen.signal.addEventListener('abort', done, { once: true })
      signal.addEventListener('abort', done, { once: true })
    })
  // Waiting for the next new lines: each wait's resolver, called (and dropped) when lines come or its signal aborts.
  const waiting = new Set<() => void>()
  const logLines = (signal: AbortSignal): Promise<void> =>
    new Promise((resolve) => {
      if (signal.aborted) return resolve()
      const done = (): void => {
        waiting.delete(done)
        signal.removeEventListener('abort', done)
        resolve()
      }
      waiting.add(done)
      signal.addEventListener('abort', done, { once: true })
    })
  const readLines = (lines: LogLine[]): KnownFatal | undefined => {
    for (const l of lines) sayStartup(profile.line(l.text, clock.now(), l.number))
    if (profile.readyLineSeen) readySeen.abort()
    if (lines.length > 0) [...waiting].forEach((done) => done())
    const f = profile.fatal
    return (
      f && {
        line: { number: f.lineNumber, text: f.line },
        cause: f.cause,
        engineLabel: profile.label
      }
    )
  }
  return log === undefined ? { log, sayStartup, readLines } : { log, sayStartup, readLines, readyLine, logLines }
}
