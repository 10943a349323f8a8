/** The whole wait, from settings to outcome, shared by every front end (the action, the CLI). */
import { setMaxListeners } from 'node:events'
import {
  dockerProxyText,
  gpuBusyText,
  gpuUnavailableText,
  portBusyText,
  wrongServerText
} from '../report/lifecycle-report.js'
import type { LogFollower, LogLine } from '../server/log-follower.js'
import { PortPoller } from '../http/port-watch.js'
import { setUpUndici } from '../http/undici-parts.js'
import { StartupProfile } from '../startup/profile.js'
import { gateLines, waitingLine } from '../report/wait-report.js'
import { openHistory, settle } from './run-history.js'
import type { ServerProcess } from '../server/process.js'
import { type KnownFatal, type ServerWatch, watchServer } from '../server/watch.js'
import type { Settings } from '../inputs/settings.js'
import { createBodyCollector } from '../runtime/memory.js'
import { usesServerSide } from './first-probe.js'
import { expectation, type GateOutcome, type ServerFacts, type TargetOutcome } from './outcome.js'
import { type Halt, Halter } from './halt.js'
import { type Deps, type GateDeps, type Shared, withDefaults } from './deps.js'
import { waitForTarget } from './target-wait.js'

type ServerSide = typeof import('./server-side.js')

export async function gate(settings: Settings, gateDeps: GateDeps): Promise<GateOutcome> {
  const deps = withDefaults(gateDeps)
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
