/** The whole wait, from settings to outcome, shared by every front end (the action, the CLI). */
import { setMaxListeners } from 'node:events'
import { PortPoller } from '../http/port-watch.js'
import { setUpUndici } from '../http/undici-parts.js'
import { StartupProfile } from '../startup/profile.js'
import { gateLines, waitingLine } from '../report/progress.js'
import { startupStatusText } from '../report/profile-report.js'
import { type ServerWatch, watchServer } from '../server/watch.js'
import type { Settings } from '../inputs/settings.js'
import { createBodyCollector } from '../runtime/memory.js'
import { usesServerSide } from './first-probe.js'
import { expectation } from '../facts/answer.js'
import type { GateOutcome, TargetOutcome } from '../facts/outcome.js'
import type { Halt } from '../facts/halt.js'
import { Halter } from '../runtime/halter.js'
import { type Deps, type GateDeps, type Shared, withDefaults } from './deps.js'
import { openHistory, settle } from './run-history.js'
import { followLog } from './startup-log.js'
import { readyMoment } from './ready-moment.js'
import { waitForTarget } from './target-wait.js'
import { noServer } from './servers/none.js'
import type { LaunchedServer, ServerSeam } from './servers/seam.js'
import { asCancelled, cancelledBeforeWait } from './cancelled.js'

/**
 * The seam for this wait's kind of server. Each kind is a chunk loaded only when a wait needs it: a container, a
 * process to start or follow (or a log to read, see servers/process.ts), else none.
 */
async function serverSeam(settings: Settings, deps: Deps): Promise<ServerSeam> {
  if (settings.container !== undefined) return (await import('./servers/container.js')).containerServer(settings, deps)
  if (usesServerSide(settings)) return (await import('./servers/process.js')).processServer(settings, deps)
  return noServer
}

export async function gate(settings: Settings, gateDeps: GateDeps): Promise<GateOutcome> {
  const deps = withDefaults(gateDeps)
  const { clock } = deps
  const began = clock.now()
  const seam = await serverSeam(settings, deps)
  const refused = await seam.preflight()
  // A cancel while the pre-flight looked (nvidia-smi may take seconds): nothing is started, nothing probed.
  const early = deps.cancel?.halted
  if (early !== undefined) return cancelledBeforeWait(settings, early, clock.now() - (deps.startedAt ?? began))
  if (refused !== undefined) return refused
  setUpUndici()
  // Everything that holds a process, a timer or a socket is released in the `finally`, whatever throws first.
  const halter = new Halter<Halt>()
  const first = deps.firstProbe
  if (first !== undefined) halter.signal.addEventListener('abort', first.abort, { once: true })
  const ports = new PortPoller()
  let server: LaunchedServer | undefined
  let watch: ServerWatch | undefined
  try {
    server = seam.launch()
    const waitStart = deps.startedAt ?? clock.now()
    const history = openHistory(settings, deps)
    const profile = new StartupProfile({ engine: settings.engine, startedAt: server.startedAt, usual: history.usual })
    const { log, sayStartup, readLines, readyLine, logLines } = followLog({ server, profile, deps, waitStart })
    server.beforeWait()
    deps.log(waiting(settings))
    const { failPattern } = settings
    watch = watchServer({ halter, server: server.watched, log, failPattern, readLines, cancel: deps.cancel })
    // Every endpoint's sleeps and requests listen to it: a fleet of 200 is not a leak.
    setMaxListeners(0, halter.signal)
    deps.debug?.(gateLines.requestHeaders(['user-agent', 'accept', ...Object.keys(settings.headers)]))
    // An endpoint that can no longer become ready settles the fleet's fate: the others stop waiting.
    let fleetHalt: Halt | undefined
    const startedAt = server.startedAt ?? waitStart
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
      progressAt: (now) => startupStatusText(profile.status(now, now - startedAt)),
      readyLine,
      logLines,
      readyAt: (now) => profile.readyAt(now),
      usualAnsweringMs: history.usual?.answeringSeconds && history.usual.answeringSeconds * 1000,
      haltFleet: settings.targets.length > 1 ? (halt) => void (halter.halt(halt) && (fleetHalt = halt)) : undefined
    }
    const waited = server.whoAnswered(await Promise.all(settings.targets.map((t) => waitForTarget(t, shared))))
    // The lines written up to now end the startup's last phase (a ready line just before the port opened).
    if (log !== undefined) readLines(log.poll())
    const last = representative(waited, fleetHalt)
    const readyAt = readyMoment({ ...(last.ready ? last : {}), readyLineAt: profile.readyLineTime(), now: clock.now() })
    await server.afterWait(last.ready, readyAt)
    // Once every endpoint is ready, and only then: a server that is not ready has no throughput to measure. The
    // startup's figures were taken before it, so that its requests count in none of them.
    const smoke = settings.smoke !== undefined && waited.every((r) => r.ready)
    const results = smoke ? await smokeTest(waited, settings, deps, halter.signal) : waited
    const outcome = cancelledSince({ ...representative(results, fleetHalt), results }, deps, smoke, waitStart)
    const facts = server.facts
    const settled = await settle({ settings, outcome, facts, profile, history, deps, readyAt })
    // a cancel while the history's lock was waited for ends the run cancelled too (and it was not recorded)
    return {
      ...cancelledSince(outcome, deps, smoke, waitStart),
      models: [...new Set(results.flatMap((r) => r.models))],
      server: facts,
      profile: settled
    }
  } finally {
    watch?.close()
    ports.close()
    server?.release()
  }
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

/**
 * A cancel after the wait had ended (during the smoke test, the GPU reading, the environment report) ends the run
 * cancelled all the same: the smoke test sees it as a request stopped, which must read neither as `smoke-failed`
 * nor as a ready server.
 */
function cancelledSince(outcome: GateOutcome, deps: Deps, smoke: boolean, waitStart: number): GateOutcome {
  const signal = deps.cancel?.halted
  if (signal === undefined) return outcome
  return asCancelled(outcome, signal, smoke ? 'smoke-test' : 'after-wait', deps.clock.now() - waitStart)
}

/** The line the wait begins with: what it waits for, how long, and how. */
const waiting = (settings: Settings): string =>
  waitingLine(
    { url: settings.targets[0].url, expect: expectation(settings), timeoutMs: settings.timeoutMs },
    {
      endpoints: settings.targets.length,
      generation: settings.probeGeneration,
      intervalMs: settings.intervalMs,
      smoke: settings.smoke
    }
  )

/** The smoke test of every endpoint (`smoke-test`), loaded only then: a chunk of its own. */
async function smokeTest(
  waited: TargetOutcome[],
  settings: Settings,
  { clock, log }: Deps,
  signal: AbortSignal
): Promise<TargetOutcome[]> {
  return (await import('./smoke-endpoints.js')).smokeEndpoints(waited, settings, { clock, signal, log })
}
