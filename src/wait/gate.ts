/** The whole wait, from settings to outcome, shared by every front end (the action, the CLI). */
import { setMaxListeners } from 'node:events'
import { createGenerator, type GenerationCheck } from './generation-check.js'
import { assess, type Assessment } from './assess.js'
import { readinessUrl } from '../engines/readiness.js'
import { engineOfModelList } from '../engines/log-markers.js'
import type { LogEngine } from '../engines/log-engines.js'
import { loadRequest } from '../engines/load.js'
import {
  dockerProxyText,
  engineReadinessRequest,
  gpuBusyText,
  gpuUnavailableText,
  loadAskedText,
  portBusyText,
  wrongServerText
} from '../report/lifecycle-report.js'
import type { RunRecord } from '../history/record.js'
import { historyKey } from '../history/store.js'
import type { LogFollower, LogLine } from '../server/log-follower.js'
import { PortPoller } from '../http/port-watch.js'
import type { NoteKind } from '../report/annotation-titles.js'
import { createHttpClient, createProber, type ProbeResult } from '../http/probe.js'
import { setUpUndici } from '../http/undici-parts.js'
import { StartupProfile } from '../startup/profile.js'
import { eventLine, gateLines, probeLine, waitingLine } from '../report/wait-report.js'
import { loadHistory, recordRun, type RunHistory } from '../history/around-wait.js'
import type { ServerProcess } from '../server/process.js'
import { type KnownFatal, type ServerWatch, watchServer } from '../server/watch.js'
import { HISTORY_AUTO, type Settings, type Target } from '../inputs/settings.js'
import type { Clock } from '../runtime/clock.js'
import { type BodyCollector, createBodyCollector } from '../runtime/memory.js'
import { waitForModel } from './loop.js'
import { clientSettings, type FirstProbe, usesServerSide } from './first-probe.js'
import { expectation, type GateOutcome, type ProfileFacts, type ServerFacts, type TargetOutcome } from './outcome.js'
import { type Halt, Halter } from './halt.js'

export interface GateDeps {
  clock: Clock
  startedAt?: number
  /** Receives every progress line, already in words. */
  log(line: string): void
  /** Receives lines that deserve attention (the server stopped answering); defaults to `log`. */
  warn?(line: string, kind: NoteKind): void
  /** Halting it ends the wait with reason=cancelled (the action halts it on SIGINT and SIGTERM). */
  cancel?: Halter<NodeJS.Signals>
  /** The step's environment: passed to the server `start` launches; RUNNER_TEMP holds its default log. */
  env?: NodeJS.ProcessEnv
  /** Receives one line per probe with what came back, for debugging. */
  debug?(line: string): void
  /** Receives notices (history is off); defaults to `log`. */
  notice?(line: string, kind: NoteKind): void
  /** Where `history-file: auto` keeps history for this front end, or why it cannot (see `defaultHistoryFile`). */
  defaultHistory?: { path?: string; notice?: string }
  /** `wait-for-model check`: one probe per endpoint within `request-timeout`, no port watch, no second probe. */
  once?: boolean
  /** A target's client and first answer, where the caller sent the first probe (see first-probe.ts). */
  firstProbe?: FirstProbe
}

/** The deps with their defaults resolved, once. */
type Deps = Required<Pick<GateDeps, 'clock' | 'log' | 'warn' | 'notice' | 'env'>> & GateDeps

/** What the wait of each endpoint shares: the fleet's one halter, port poller, log and startup profile. */
interface Shared {
  settings: Settings
  /** Collects what the answers' bodies leave, for every HTTP client of every endpoint. */
  collector: BodyCollector
  firstProbe?: FirstProbe
  deps: Deps
  halter: Halter
  ports: PortPoller
  log?: LogFollower
  profile: StartupProfile
  /** Says startup lines with the time since the wait began. */
  sayStartup(lines: string[]): void
  /** Where the server's startup is at `now`, for a still-waiting line; undefined while nothing tells. */
  progressAt(now: number): string | undefined
  /** Resolves once the engine's own ready line is read (or when `signal` aborts); undefined without a log. */
  readyLine?(signal: AbortSignal): Promise<void>
  /** When the server is expected ready, going by its log (see `StartupProfile.readyAt`). */
  readyAt(now: number): number | undefined
  /** How long earlier runs answered HTTP before they were ready (history). */
  usualAnsweringMs?: number
  /** Ends the other endpoints' waits when one can no longer become ready; undefined for one endpoint. */
  haltFleet?(halt: Halt): void
}

type ServerSide = typeof import('./server-side.js')

export async function gate(settings: Settings, gateDeps: GateDeps): Promise<GateOutcome> {
  const deps: Deps = {
    ...gateDeps,
    warn: gateDeps.warn ?? gateDeps.log,
    notice: gateDeps.notice ?? gateDeps.log,
    env: gateDeps.env ?? process.env
  }
  const { clock } = deps
  const side = usesServerSide(settings) ? await import('./server-side.js') : undefined
  // Resolved before anything starts, so that a bad pid file is an input error and nothing runs.
  const pid = settings.pid === undefined ? undefined : side?.resolvePid(settings.pid)
  if (settings.start !== undefined && side !== undefined) {
    const refused = await beforeStart(settings, deps, side)
    if (refused !== undefined) return refused
  }
  const logFile = settings.logFile ?? (settings.start !== undefined ? side?.newLogFile(deps.env) : undefined)
  setUpUndici()
  // Everything that holds a process, a timer or a socket is released in the `finally`, whatever throws first.
  const halter = new Halter()
  const first = deps.firstProbe
  if (first !== undefined) halter.signal.addEventListener('abort', first.abort, { once: true })
  const ports = new PortPoller()
  let server: ServerProcess | undefined
  let watch: ServerWatch | undefined
  try {
    server = side && launch(settings, pid, logFile, deps, side)
    const facts: ServerFacts = { pid: server?.pid, logFile }
    const waitStart = deps.startedAt ?? clock.now()
    const history = openHistory(settings, deps)
    const profile = new StartupProfile({ engine: settings.engine, startedAt: server?.startedAt, usual: history.usual })
    const { log, sayStartup, readLines, readyLine } = followLog({
      settings,
      logFile,
      logOffset: server?.logOffset,
      profile,
      deps,
      waitStart,
      LogFollower: side?.LogFollower
    })
    // A server started elsewhere has long since started: its environment can be read at once, while it still runs.
    if (pid !== undefined && side !== undefined) reportEnvironment(settings, server, facts, deps, side)
    deps.log(
      waitingLine(
        { url: settings.targets[0].url, expect: expectation(settings), timeoutMs: settings.timeoutMs },
        {
          endpoints: settings.targets.length,
          generation: settings.probeGeneration,
          intervalMs: settings.intervalMs,
          smoke: settings.smoke
        }
      )
    )
    watch = watchServer({ halter, server, log, failPattern: settings.failPattern, readLines, cancel: deps.cancel })
    // Every endpoint's sleeps and requests listen to it: a fleet of 200 is not a leak.
    setMaxListeners(0, halter.signal)
    deps.debug?.(gateLines.requestHeaders(['user-agent', 'accept', ...Object.keys(settings.headers)]))
    // An endpoint that can no longer become ready settles the fleet's fate: the others stop waiting.
    let fleetHalt: Halt | undefined
    const shared: Shared = {
      settings,
      collector: first?.collector ?? createBodyCollector(),
      firstProbe: first,
      deps,
      halter,
      ports,
      log,
      profile,
      sayStartup,
      progressAt: (now) => profile.status(now, now - (server?.startedAt ?? waitStart)),
      readyLine,
      readyAt: (now) => profile.readyAt(now),
      usualAnsweringMs: history.usual?.answeringSeconds && history.usual.answeringSeconds * 1000,
      haltFleet: settings.targets.length > 1 ? (halt) => void (halter.halt(halt) && (fleetHalt = halt)) : undefined
    }
    const waited = await Promise.all(settings.targets.map((target) => waitForTarget(target, shared)))
    // Ready means the watched server answered: an answer on a local port from anyone else is not its readiness.
    const wrong =
      server === undefined || side === undefined || !settings.portCheck
        ? undefined
        : foreignAnswer(settings, server.pid, deps, side)
    if (wrong !== undefined)
      waited.forEach((r, i) => {
        if (r.ready && side?.localPort(r.url) === wrong.port)
          waited[i] = { ...r, ready: false, reason: 'wrong-server', halt: wrong.halt }
      })
    const readyAt = clock.now()
    const waitOutcome = representative(waited, fleetHalt)
    if (waitOutcome.ready && server?.startedAt !== undefined) facts.startupMs = readyAt - server.startedAt
    if (waitOutcome.ready && server !== undefined && side !== undefined)
      facts.gpuMemoryMiB = await gpuMemoryOf(server.pid, deps, side)
    if (pid === undefined && side !== undefined) reportEnvironment(settings, server, facts, deps, side)
    if (!waitOutcome.ready && log !== undefined && settings.logLines > 0) {
      facts.logTail = log.tail()
      if (facts.logTail === undefined) deps.log(gateLines.noLog(log.path))
    }
    // The lines written up to now end the startup's last phase (a ready line just before the port opened).
    if (log !== undefined) readLines(log.poll())
    // Once every endpoint is ready, and only then: a server that is not ready has no throughput to measure. The
    // startup's figures were taken before it, so that its requests count in none of them.
    const results =
      settings.smoke !== undefined && waited.every((r) => r.ready)
        ? await (
            await import('../smoke/endpoints.js')
          ).smokeEndpoints(waited, settings, {
            clock,
            signal: halter.signal,
            log: deps.log
          })
        : waited
    const outcome = representative(results, fleetHalt)
    return {
      ...outcome,
      models: [...new Set(results.flatMap((r) => r.models))],
      results,
      server: server === undefined && logFile === undefined ? undefined : facts,
      profile: settle({ settings, outcome, facts, profile, history, deps, readyAt })
    }
  } finally {
    watch?.close()
    ports.close()
    server?.release()
  }
}

/**
 * The server's log, read into the startup profile: its lines from before the wait (a server started elsewhere)
 * tell the phases so far; a log `start` has just begun afresh is read from its first line. `readLines` reads new
 * lines and returns the engine's own fatal line once seen.
 */
function followLog({
  settings,
  logFile,
  logOffset,
  profile,
  deps,
  waitStart,
  LogFollower
}: {
  settings: Settings
  logFile: string | undefined
  /** Where this run's part of an appended log begins (a server `start` launched). */
  logOffset: number | undefined
  profile: StartupProfile
  deps: Deps
  waitStart: number
  /** From the server side, loaded whenever there is a log to follow. */
  LogFollower: ServerSide['LogFollower'] | undefined
}): {
  log?: LogFollower
  sayStartup(lines: string[]): void
  readLines(lines: LogLine[]): KnownFatal | undefined
  readyLine?(signal: AbortSignal): Promise<void>
} {
  const { clock } = deps
  const sayStartup = (lines: string[]): void =>
    lines.forEach((l) => deps.log(gateLines.startup(clock.now() - waitStart, l)))
  const log =
    logFile === undefined || LogFollower === undefined
      ? undefined
      : new LogFollower(logFile, settings.logLines, {
          fromStart: settings.start !== undefined,
          skipBytes: logOffset,
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
      f && {
        line: { number: f.lineNumber, text: f.line },
        cause: f.cause,
        engineLabel: profile.label
      }
    )
  }
  return { log, sayStartup, readLines, readyLine: log === undefined ? undefined : readyLine }
}

/** Starts the server (`start`) or follows one started elsewhere (`pid`); undefined for neither. */
function launch(
  settings: Settings,
  pid: number | undefined,
  logFile: string | undefined,
  deps: Deps,
  { startServer, serverEnv, attachServer }: ServerSide
): ServerProcess | undefined {
  if (settings.start !== undefined && logFile !== undefined) {
    const server = startServer(settings.start, logFile, serverEnv(deps.env), deps.clock)
    deps.log(gateLines.started(server.pid, logFile))
    return server
  }
  if (pid === undefined) return undefined
  const server = attachServer(pid, deps.clock)
  deps.log(gateLines.watching(pid, logFile))
  return server
}

/** One endpoint's wait, its HTTP clients closed however it ends. */
async function waitForTarget({ url, generation }: Target, shared: Shared): Promise<TargetOutcome> {
  const { settings, deps, halter, log, profile } = shared
  const { clock } = deps
  const prefix = shared.haltFleet ? `[${url.href}] ` : ''
  const tls = clientSettings(settings, shared.collector)
  // the first probe, sent for this very target before the gate was loaded, is the wait's first attempt
  const first = shared.firstProbe?.url === url ? shared.firstProbe : undefined
  const prober = first?.prober ?? createProber({ url, headers: settings.headers, ...tls })
  let firstAnswer = first?.takeAnswer()
  const generator = generation && createGenerator({ ...generation, headers: settings.headers, clock, ...tls })
  // The engine this endpoint's own model list names (`owned_by`). A fleet may mix engines: what one endpoint
  // lists must not choose another's readiness route (SGLang's /health asked of an Ollama server never answers).
  let listed: LogEngine | undefined
  // `engine`, else this endpoint's list, else the server's log (one server: its log speaks for its endpoints)
  const engineOf = (): LogEngine | undefined =>
    settings.engine ?? listed ?? (log !== undefined ? profile.engine : undefined)
  const probe = async (timeoutMs: number, signal?: AbortSignal): Promise<ProbeResult> => {
    const answer = firstAnswer ?? prober.probe(timeoutMs, signal)
    firstAnswer = undefined
    const result = await answer
    deps.debug?.(`${prefix}${probeLine(result)}`)
    // One look at each answer until its list names the engine (a list that never does is read once a probe)
    if (result.kind === 'http' && listed === undefined) {
      listed = engineOfModelList(result.json)
      // and the first list to name it names it for the startup phases too, when the log has not
      if (listed !== undefined && profile.engine === undefined) {
        const lines = profile.models(result.json)
        if (log !== undefined) shared.sayStartup(lines)
      }
    }
    return result
  }
  // the engine's own readiness answer on the same origin, for an engine that lists its model before it serves
  let health: { url: URL; prober: ReturnType<typeof createProber> } | undefined
  const engineReady = async (timeoutMs: number, signal?: AbortSignal): Promise<GenerationCheck | undefined> => {
    const engine = engineOf()
    const healthUrl = readinessUrl(engine, url)
    if (healthUrl === undefined) return undefined
    if (health?.url.href !== healthUrl.href) {
      await health?.prober.close()
      health = { url: healthUrl, prober: createProber({ url: healthUrl, headers: settings.headers, ...tls }) }
    }
    const sentAt = clock.now()
    const result = await health.prober.probe(timeoutMs, signal)
    deps.debug?.(`${prefix}${healthUrl.pathname}: ${probeLine(result)}`)
    return {
      assessment: assess(result, { status: [[200, 200]] }),
      request: engineReadinessRequest(profile.label ?? engine ?? 'the engine', healthUrl),
      latencyMs: clock.now() - sentAt
    }
  }
  // `load`: the first answer that shows the model waiting to be asked for sends the load request, once
  let loading: Promise<void> | undefined
  const loader = settings.load ? createHttpClient(tls) : undefined
  const waitStart = deps.startedAt ?? clock.now()
  const askToLoad = (answer: Assessment): void => {
    const request = loader && loading === undefined ? loadRequest(url, answer, settings.model) : undefined
    if (request === undefined || loader === undefined) return
    deps.log(`${prefix}${loadAskedText(request.url, request.body.model)}`)
    const left = Math.max(1, waitStart + settings.timeoutMs - clock.now())
    loading = loader
      .send({ url: request.url, method: 'POST', headers: settings.headers, json: request.body }, left, halter.signal)
      .then((result) => deps.debug?.(`${prefix}${request.url.pathname}: ${probeLine(result)}`))
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
        schedule: settings.schedule,
        once: deps.once
      },
      {
        probe,
        generate: generator ? generator.generate : undefined,
        engineReady,
        halter,
        portWatch: deps.once ? undefined : shared.ports.watchFor(url),
        readyLine: shared.readyLine,
        readyAt: shared.readyAt,
        usualAnsweringMs: shared.usualAnsweringMs,
        logTellsReady: () => log !== undefined && profile.engine !== undefined,
        clock,
        startedAt: deps.startedAt,
        onEvent: (e) => {
          askToLoad(e.assessment)
          const startup = e.type === 'progress' ? shared.progressAt(clock.now()) : undefined
          if (e.type === 'lost') deps.warn(`${prefix}${eventLine(e, startup)}`, 'server-lost')
          else deps.log(`${prefix}${eventLine(e, startup)}`)
        }
      }
    )
    if (!outcome.ready && outcome.reason !== 'timeout' && halter.halted === undefined) {
      shared.haltFleet?.({ reason: 'cancelled', detail: gateLines.fleetStopped(url, outcome.reason) })
    }
    return { ...outcome, url, engine: engineOf() }
  } finally {
    await Promise.all([prober.close(), generator?.close(), health?.prober.close(), loader?.close()])
  }
}

/**
 * Before `start` launches anything: a port already held ends the wait at once (`port-busy`), naming the holder;
 * other processes on the server's GPUs are a warning, or with `gpu-check: fail` end it (`gpu-busy`).
 */
async function beforeStart(
  settings: Settings,
  deps: Deps,
  { preflight, preflightVerdict }: ServerSide
): Promise<GateOutcome | undefined> {
  const start = deps.startedAt ?? deps.clock.now()
  const found = await preflight(settings.portCheck ? settings.targets.map((t) => t.url) : [], settings.gpuCheck, {
    env: deps.env
  })
  const verdict = preflightVerdict(found, settings.gpuCheck)
  const gpu = found.gpu
  if (gpu.kind === 'unavailable') deps.debug?.(gpuUnavailableText(gpu.why, gpu.detail))
  if (verdict.warnGpu && gpu.kind === 'busy') deps.warn(gpuBusyText(gpu.apps, gpu.gpus), 'gpu-busy')
  if (verdict.refuse === undefined) return undefined
  const halt: Halt = {
    reason: verdict.refuse,
    detail:
      verdict.refuse === 'port-busy' && found.portBusy !== undefined
        ? portBusyText(found.portBusy)
        : gpu.kind === 'busy'
          ? gpuBusyText(gpu.apps, gpu.gpus)
          : verdict.refuse
  }
  const results = settings.targets.map(({ url }): TargetOutcome => ({
    ready: false,
    reason: halt.reason,
    elapsedMs: deps.clock.now() - start,
    attempts: 0,
    models: [],
    halt,
    timeline: [],
    url
  }))
  // no history either: a wait that started nothing says nothing of how long the server takes
  return { ...results[0], results }
}

/**
 * The first local port of the URLs whose listening socket belongs to neither the watched process nor its
 * descendants (Linux: the socket's inode among their file descriptors), as the halt that ends the wait. Unknown
 * (no /proc), a holder this user cannot see, or a docker-proxy (a container's published port: the proxy, not the
 * `docker run` the gate watches, holds it) is not held against the server.
 */
function foreignAnswer(
  settings: Settings,
  pid: number,
  deps: Deps,
  { localPort, listenerOwnership, isDockerProxy }: ServerSide
): { port: number; halt: Halt } | undefined {
  for (const port of new Set(settings.targets.map((t) => localPort(t.url)))) {
    if (port === undefined) continue
    const o = listenerOwnership(port, pid)
    if (o.kind !== 'foreign') continue
    const holders = o.listeners.flatMap((l) => l.holders)
    if (holders.length === 0) continue
    if (holders.every((h) => isDockerProxy(h.command))) {
      deps.debug?.(dockerProxyText(o, pid))
      continue
    }
    return { port, halt: { reason: 'wrong-server', detail: wrongServerText(o, pid) } }
  }
  return undefined
}

/** The GPU memory the server's processes hold (nvidia-smi), or undefined without a reading. */
async function gpuMemoryOf(
  pid: number,
  deps: Deps,
  { gpuSnapshot, memoryHeldBy, processTree }: ServerSide
): Promise<number | undefined> {
  const snapshot = await gpuSnapshot({ env: deps.env, timeoutMs: 5_000 })
  if (snapshot.kind === 'unavailable') {
    deps.debug?.(gpuUnavailableText(snapshot.why, snapshot.detail))
    return undefined
  }
  return memoryHeldBy(snapshot, processTree('/proc', pid)).mib
}

/**
 * The endpoint the scalar outputs describe: the one ready last when all are, else the first to fail on its
 * own account (not one halted because another had failed).
 */
export function representative(results: TargetOutcome[], fleetHalt: Halt | undefined): TargetOutcome {
  if (results.every((r) => r.ready)) return results.reduce((a, b) => (b.elapsedMs > a.elapsedMs ? b : a))
  const failed = results.filter((r) => !r.ready && (fleetHalt === undefined || r.halt !== fleetHalt))
  return failed.reduce((a, b) => (b.elapsedMs < a.elapsedMs ? b : a))
}

function reportEnvironment(
  settings: Settings,
  server: ServerProcess | undefined,
  facts: ServerFacts,
  deps: Deps,
  { envReport }: ServerSide
): void {
  if (settings.envReport.length === 0 || server === undefined) return
  const environ = server.environ()
  if (environ === undefined) facts.envUnreadable = true
  else facts.env = envReport(settings.envReport, environ, settings.secrets)
  gateLines.environment(facts).forEach((line) => deps.log(line))
}

function openHistory(settings: Settings, deps: Deps): RunHistory {
  const auto = settings.historyFile === HISTORY_AUTO
  const urls = settings.targets.map((t) => t.url.href).join('\n')
  const file = auto ? deps.defaultHistory?.path : settings.historyFile
  // Hashed only for a history that is on: nothing reads the key of one that is off.
  const key = settings.historyKey ?? (file === undefined ? '' : historyKey(urls, settings.model, settings.start))
  const history = loadHistory(file, key, auto ? deps.defaultHistory?.notice : undefined)
  for (const n of history.notices) deps.notice(n, 'history')
  for (const w of history.warnings) deps.warn(w, 'history')
  return history
}

interface Settling {
  settings: Settings
  outcome: TargetOutcome
  facts: ServerFacts
  profile: StartupProfile
  history: RunHistory
  deps: Deps
  /** When the wait ended (before any smoke test): the startup's last phase ends there. */
  readyAt: number
}

/** The wait is over: this run against the earlier ones (warnings for a regression and a changed environment), then recorded. */
function settle({ settings, outcome, facts, profile, history, deps, readyAt }: Settling): ProfileFacts {
  const phases = profile.finish(readyAt)
  const engineLabel = profile.label
  const usualPhaseSeconds = history.usual?.phaseSeconds
  // A cancelled wait says nothing about how long the server takes.
  if (outcome.reason === 'cancelled') return { engineLabel, phases, usualPhaseSeconds }
  const env =
    facts.env && Object.fromEntries(facts.env.flatMap((e) => (e.value === undefined ? [] : [[e.name, e.value]])))
  const run: RunRecord = {
    v: 1,
    key: history.key,
    at: new Date(deps.clock.wallMs()).toISOString(),
    ready: outcome.ready,
    reason: outcome.reason,
    elapsedSeconds: round1(outcome.elapsedMs / 1000),
    ...(facts.startupMs === undefined ? {} : { startupSeconds: round1(facts.startupMs / 1000) }),
    ...(outcome.ready && outcome.firstResponseMs !== undefined
      ? { answeringSeconds: round1((outcome.elapsedMs - outcome.firstResponseMs) / 1000) }
      : {}),
    ...(profile.engine === undefined ? {} : { engine: profile.engine }),
    phases: phases.map((p) => ({ name: p.name, seconds: p.seconds })),
    ...(env === undefined ? {} : { env, envReport: settings.envReport.join(',') }),
    ...smokeRecord(outcome, settings)
  }
  // a history file another job holds locked must not keep this one past its deadline
  const findings = recordRun(
    history,
    run,
    settings.regressionThresholdPercent,
    settings.regressionMinRuns,
    settings.timeoutMs - outcome.elapsedMs,
    settings.throughputRegressionPercent
  )
  if (findings.regression !== undefined && !settings.failOnRegression) deps.warn(findings.regression, 'regression')
  if (findings.throughputRegression !== undefined && !settings.failOnRegression)
    deps.warn(findings.throughputRegression, 'throughput-regression')
  if (findings.drift !== undefined) deps.warn(findings.drift, 'drift')
  for (const n of findings.notices) deps.notice(n, 'history')
  return { engineLabel, phases, usualPhaseSeconds, ...findings }
}

const round1 = (x: number): number => Math.round(x * 10) / 10

/** The smoke test's medians for the history, when it measured them. */
function smokeRecord(outcome: TargetOutcome, settings: Settings): Partial<RunRecord> {
  const smoke = outcome.smoke
  if (smoke?.ttftMs === undefined || smoke.decodeTokensPerSecond === undefined || settings.smoke === undefined)
    return {}
  return {
    ttftMs: round1(smoke.ttftMs),
    decodeTokensPerSecond: round1(smoke.decodeTokensPerSecond),
    smokeTokens: settings.smoke.tokens
  }
}
