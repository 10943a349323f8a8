/** The whole wait, from settings to outcome, shared by every front end (the action, the CLI). */
import { setMaxListeners } from 'node:events'
import { envReport } from '../server/env-report.js'
import { createGenerator } from './generation-check.js'
import { historyKey, type RunRecord } from '../history/store.js'
import { LogFollower, type LogLine } from '../server/log-follower.js'
import { portWatchFor } from '../http/port-watch.js'
import { createProber, type ProbeResult } from '../http/probe.js'
import { StartupProfile } from '../startup/profile.js'
import {
  describeExpectation,
  envLines,
  eventLine,
  type GateOutcome,
  probeLine,
  type ProfileFacts,
  type ReportContext,
  type ServerFacts,
  type TargetOutcome
} from '../report/wait-report.js'
import { loadHistory, recordRun, type RunHistory } from '../history/around-wait.js'
import { attachServer, newLogFile, resolvePid, type ServerProcess, serverEnv, startServer } from '../server/process.js'
import { type KnownFatal, watchServer } from '../server/watch.js'
import { HISTORY_AUTO, type Settings } from '../inputs/settings.js'
import { type Clock, formatDuration } from '../runtime/clock.js'
import { type Outcome, type Stop, waitForModel } from './loop.js'

export interface GateDeps {
  clock: Clock
  startedAt?: number
  /** Receives every progress line, already in words. */
  log(line: string): void
  /** Receives lines that deserve attention (the server stopped answering); defaults to `log`. */
  warn?(line: string): void
  /** Aborting it ends the wait with reason=cancelled (the action aborts it on SIGINT and SIGTERM). */
  cancel?: AbortSignal
  /** The step's environment: passed to the server `start` launches; RUNNER_TEMP holds its default log. */
  env?: NodeJS.ProcessEnv
  /** Receives one line per probe with what came back, for debugging. */
  debug?(line: string): void
  /** Receives notices (history is off); defaults to `log`. */
  notice?(line: string): void
  /** Where `history-file: auto` keeps history for this front end, or why it cannot (see `defaultHistoryFile`). */
  defaultHistory?: { path?: string; notice?: string }
}

export const reportContext = (s: Settings, url: URL): ReportContext => ({
  url,
  expect: expectation(s),
  timeoutMs: s.timeoutMs
})

const expectation = (s: Settings): ReportContext['expect'] => ({
  model: s.model,
  match: s.match,
  matchRegex: s.matchRegex,
  status: s.status
})

export async function gate(settings: Settings, deps: GateDeps): Promise<GateOutcome> {
  const { clock } = deps
  const env = deps.env ?? process.env
  const logFile = settings.logFile ?? (settings.start !== undefined ? newLogFile(env) : undefined)
  // Resolved before anything starts, so that a bad pid file is an input error and nothing runs.
  const pid = settings.pid === undefined ? undefined : resolvePid(settings.pid)
  let server: ServerProcess | undefined
  if (settings.start !== undefined && logFile !== undefined) {
    server = startServer(settings.start, logFile, serverEnv(env), clock)
    deps.log(`Started the server (pid ${server.pid}); its output goes to ${logFile}`)
  } else if (pid !== undefined) {
    server = attachServer(pid, clock)
    deps.log(`Watching the server process ${pid}${logFile === undefined ? '' : ` and its log ${logFile}`}`)
  }
  const facts: ServerFacts = { pid: server?.pid, logFile }
  const waitStart = deps.startedAt ?? clock.now()
  const history = openHistory(settings, deps)
  const profile = new StartupProfile({ engine: settings.engine, startedAt: server?.startedAt, usual: history.usual })
  const sayStartup = (lines: string[]): void =>
    lines.forEach((l) => deps.log(`${formatDuration(clock.now() - waitStart)}: ${l}`))
  // A log `start` has just begun afresh is read from its first line; one written before the wait tells the phases so far.
  const log =
    logFile === undefined
      ? undefined
      : new LogFollower(logFile, settings.logLines, {
          fromStart: settings.start !== undefined,
          skipBytes: server?.logOffset,
          secrets: settings.secrets,
          earlier: (lines) => lines.forEach((l) => sayStartup(profile.earlier(l.text, clock.now(), l.number)))
        })
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
  const readLines = (lines: LogLine[]): KnownFatal | undefined => {
    for (const l of lines) sayStartup(profile.line(l.text, clock.now(), l.number))
    if (profile.readyLineSeen) readySeen.abort()
    const f = profile.fatal
    return (
      f && { line: { number: f.lineNumber, text: f.line }, cause: f.cause, engine: profile.label ?? 'model server' }
    )
  }
  // A server started elsewhere has long since started: its environment can be read at once, while it still runs.
  if (pid !== undefined) reportEnvironment(settings, server, facts, deps)

  const fleet = settings.targets.length > 1
  const subject = fleet ? `each of ${settings.targets.length} endpoints` : settings.targets[0].url.href
  deps.log(
    `Waiting up to ${formatDuration(settings.timeoutMs)} for ${describeExpectation(reportContext(settings, settings.targets[0].url), subject)}` +
      `${settings.probeGeneration ? ' and a one-token generation to succeed' : ''}; probing every ${formatDuration(settings.intervalMs)}`
  )
  const watch = watchServer({ server, log, failPattern: settings.failPattern, readLines, cancel: deps.cancel })
  // An endpoint that can no longer become ready settles the fleet's fate: the others stop waiting.
  const fleetStop = new AbortController()
  const stop = AbortSignal.any([watch.signal, fleetStop.signal])
  // Every endpoint's sleeps and requests listen to it: a fleet of 200 is not a leak.
  setMaxListeners(0, stop)
  const warn = deps.warn ?? deps.log
  // what every HTTP client of the wait shares: its TLS settings, and the secrets to mask in answers as they arrive
  const tls = { caCert: settings.caCert, insecureTls: settings.insecureTls, secrets: settings.secrets }
  deps.debug?.(
    `request headers: ${['user-agent', 'accept', ...Object.keys(settings.headers)].join(', ')} (values not shown)`
  )
  try {
    const results = await Promise.all(
      settings.targets.map(async ({ url, generation }): Promise<TargetOutcome> => {
        const prefix = fleet ? `[${url.href}] ` : ''
        const prober = createProber({ url, headers: settings.headers, ...tls })
        const generator = generation && createGenerator({ ...generation, headers: settings.headers, clock, ...tls })
        const probe = async (timeoutMs: number, signal?: AbortSignal): Promise<ProbeResult> => {
          const result = await prober.probe(timeoutMs, signal)
          deps.debug?.(`${prefix}${probeLine(result)}`)
          // The model list can name the engine (`owned_by`) when the log has not.
          if (log !== undefined && result.kind === 'http' && profile.engine === undefined)
            sayStartup(profile.models(result.json))
          return result
        }
        try {
          const outcome = await waitForModel(
            {
              expect: expectation(settings),
              intervalMs: settings.intervalMs,
              timeoutMs: settings.timeoutMs,
              requestTimeoutMs: settings.requestTimeoutMs,
              successThreshold: settings.successThreshold,
              progressIntervalMs: settings.progressIntervalMs,
              schedule: settings.schedule
            },
            {
              probe,
              generate: generator ? generator.generate : undefined,
              stop,
              portWatch: portWatchFor(url),
              readyLine: log === undefined ? undefined : readyLine,
              readyAt: (now) => profile.readyAt(now),
              logTellsReady: () => log !== undefined && profile.engine !== undefined,
              usualAnsweringMs: history.usual?.answeringSeconds && history.usual.answeringSeconds * 1000,
              clock,
              startedAt: deps.startedAt,
              onEvent: (e) => {
                const now = clock.now()
                const startup =
                  e.type === 'progress' ? profile.status(now, now - (server?.startedAt ?? waitStart)) : undefined
                ;(e.type === 'lost' ? warn : deps.log)(`${prefix}${eventLine(e, startup)}`)
              }
            }
          )
          if (fleet && !outcome.ready && outcome.reason !== 'timeout' && !stop.aborted) {
            fleetStop.abort({
              reason: 'cancelled',
              detail: `${url.href} can no longer become ready (${outcome.reason})`
            } satisfies Stop)
          }
          return { ...outcome, url }
        } finally {
          await Promise.all([prober.close(), generator?.close()])
        }
      })
    )
    const outcome = representative(results, fleetStop.signal.reason as Stop | undefined)
    if (outcome.ready && server?.startedAt !== undefined) facts.startupMs = clock.now() - server.startedAt
    if (pid === undefined) reportEnvironment(settings, server, facts, deps)
    if (!outcome.ready && log !== undefined && settings.logLines > 0) {
      facts.logTail = log.tail()
      if (facts.logTail === undefined) deps.log(`The server log ${log.path} does not exist.`)
    }
    // The lines written up to now end the startup's last phase (a ready line just before the port opened).
    if (log !== undefined) readLines(log.poll())
    return {
      ...outcome,
      models: [...new Set(results.flatMap((r) => r.models))],
      results,
      server: server === undefined && logFile === undefined ? undefined : facts,
      profile: settle(settings, outcome, facts, profile, clock.now(), history, deps)
    }
  } finally {
    watch.close()
    server?.release()
  }
}

/**
 * The endpoint the scalar outputs describe: the one ready last when all are, else the first to fail on its
 * own account (not one stopped because another had failed).
 */
export function representative(results: TargetOutcome[], fleetStop: Stop | undefined): TargetOutcome {
  if (results.every((r) => r.ready)) return results.reduce((a, b) => (b.elapsedMs > a.elapsedMs ? b : a))
  const failed = results.filter((r) => !r.ready && (fleetStop === undefined || r.stop !== fleetStop))
  return failed.reduce((a, b) => (b.elapsedMs < a.elapsedMs ? b : a))
}

function reportEnvironment(
  settings: Settings,
  server: ServerProcess | undefined,
  facts: ServerFacts,
  deps: GateDeps
): void {
  if (settings.envReport.length === 0 || server === undefined) return
  const environ = server.environ()
  if (environ === undefined)
    facts.envUnavailable = `The environment of process ${server.pid} could not be read (it has exited, or this is not Linux).`
  else facts.env = envReport(settings.envReport, environ, settings.secrets)
  deps.log(`Server environment (process ${server.pid}):`)
  for (const line of envLines(facts)) deps.log(`  ${line}`)
}

function openHistory(settings: Settings, deps: GateDeps): RunHistory {
  const auto = settings.historyFile === HISTORY_AUTO
  const urls = settings.targets.map((t) => t.url.href).join('\n')
  const file = auto ? deps.defaultHistory?.path : settings.historyFile
  // Hashed only for a history that is on: nothing reads the key of one that is off.
  const key = settings.historyKey ?? (file === undefined ? '' : historyKey(urls, settings.model, settings.start))
  const history = loadHistory(file, key, auto ? deps.defaultHistory?.notice : undefined)
  for (const n of history.notices) (deps.notice ?? deps.log)(n)
  for (const w of history.warnings) (deps.warn ?? deps.log)(w)
  return history
}

/** The wait is over: this run against the earlier ones (warnings for a regression and a changed environment), then recorded. */
function settle(
  settings: Settings,
  outcome: Outcome,
  facts: ServerFacts,
  profile: StartupProfile,
  now: number,
  history: RunHistory,
  deps: GateDeps
): ProfileFacts {
  const phases = profile.finish(now)
  const engine = profile.label
  const usual = history.usual?.phaseSeconds
  // A cancelled wait says nothing about how long the server takes.
  if (outcome.reason === 'cancelled') return { engine, phases, usual }
  const env =
    facts.env && Object.fromEntries(facts.env.flatMap((e) => (e.value === undefined ? [] : [[e.name, e.value]])))
  const run: RunRecord = {
    v: 1,
    key: history.key,
    at: new Date().toISOString(),
    ready: outcome.ready,
    reason: outcome.reason,
    elapsedSeconds: round1(outcome.elapsedMs / 1000),
    ...(facts.startupMs === undefined ? {} : { startupSeconds: round1(facts.startupMs / 1000) }),
    ...(outcome.ready && outcome.firstResponseMs !== undefined
      ? { answeringSeconds: round1((outcome.elapsedMs - outcome.firstResponseMs) / 1000) }
      : {}),
    ...(profile.engine === undefined ? {} : { engine: profile.engine }),
    phases: phases.map((p) => ({ name: p.name, seconds: p.seconds })),
    ...(env === undefined ? {} : { env, envReport: settings.envReport.join(',') })
  }
  const findings = recordRun(history, run, settings.regressionThresholdPercent, settings.regressionMinRuns)
  const warn = deps.warn ?? deps.log
  if (findings.regression !== undefined && !settings.failOnRegression) warn(findings.regression)
  if (findings.drift !== undefined) warn(findings.drift)
  for (const n of findings.notices) (deps.notice ?? deps.log)(n)
  return { engine, phases, usual, ...findings }
}

const round1 = (x: number): number => Math.round(x * 10) / 10
