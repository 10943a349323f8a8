/**
 * The wait of one server's endpoints (or of no server's), from its seam to the outcome: launch, follow, wait,
 * smoke-test, settle. gate.ts runs it once; a fleet of servers (fleet.ts) runs it once per endpoint, each with a
 * server of its own.
 */
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
import type { Deps, Shared } from './deps.js'
import { openHistory, settle } from './run-history.js'
import { followLog } from './startup-log.js'
import { readyMoment } from './ready-moment.js'
import { waitForTarget } from './target-wait.js'
import { fleetStops, representative } from './fleet-tally.js'
import { noServer } from './servers/none.js'
import type { LaunchedServer, ServerSeam } from './servers/seam.js'
import { asCancelled } from './cancelled.js'

/**
 * The seam for this wait's kind of server. Each kind is a chunk loaded only when a wait needs it: a container, a
 * process to start or follow (or a log to read, see servers/process.ts), else none.
 */
export async function serverSeam(settings: Settings, deps: Deps): Promise<ServerSeam> {
  if (settings.container !== undefined) return (await import('./servers/container.js')).containerServer(settings, deps)
  if (usesServerSide(settings)) return (await import('./servers/process.js')).processServer(settings, deps)
  return noServer
}

/** The wait itself, once the seam's pre-flight let it go on. */
export async function waitWith(seam: ServerSeam, settings: Settings, deps: Deps): Promise<GateOutcome> {
  const { clock } = deps
  setUpUndici()
  // Everything that holds a process, a timer or a socket is released in the `finally`, whatever throws first.
  const halter = new Halter<Halt>()
  // one endpoint of a fleet of servers: the fleet may end this wait (enough are ready, or too many failed)
  const member = deps.member
  member?.stop.signal.addEventListener('abort', () => halter.halt(member.stop.halted as Halt), { once: true })
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
    const startedAt = server.startedAt ?? waitStart
    const shared: Shared = {
      settings,
      collector: deps.firstProbe?.collector ?? createBodyCollector(),
      firstProbe: deps.firstProbe,
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
      usualAnsweringMs: history.usual?.answeringSeconds && history.usual.answeringSeconds * 1000
    }
    const fleet = endpoints(settings, shared)
    const waited = server.whoAnswered(await Promise.all(settings.targets.map((t, i) => waitForTarget(t, fleet.of(i)))))
    // The lines written up to now end the startup's last phase (a ready line just before the port opened).
    if (log !== undefined) readLines(log.poll())
    const last = representative(waited, fleet.halted, settings.fleetMinReady)
    member?.settled(last)
    const readyAt = readyMoment({ ...(last.ready ? last : {}), readyLineAt: profile.readyLineTime(), now: clock.now() })
    await server.afterWait(last.ready, readyAt)
    // Once the fleet is ready, and only then: a server that is not ready has no throughput to measure. The
    // startup's figures were taken before it, so that its requests count in none of them.
    const smoke = settings.smoke !== undefined && last.ready
    const results = smoke ? await smokeTest(waited, settings, deps, halter.signal) : waited
    const outcome = cancelledSince(
      { ...representative(results, fleet.halted, settings.fleetMinReady), results },
      deps,
      smoke,
      waitStart
    )
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
 * Each endpoint's share of the wait. A fleet's endpoints each have a halter of their own under the wait's: an
 * endpoint that can no longer become ready, or enough ready ones (`fleet-min-ready`), end the others' waits, and
 * `halted` tells an endpoint halted so from one that failed on its own account.
 */
function endpoints(settings: Settings, shared: Shared): { of(i: number): Shared; halted(r: TargetOutcome): boolean } {
  if (settings.targets.length === 1) {
    const first = shared.firstProbe
    if (first !== undefined) shared.halter.signal.addEventListener('abort', first.abort, { once: true })
    return { of: () => shared, halted: () => false }
  }
  const halters = settings.targets.map(() => shared.halter.child())
  const stops = fleetStops(halters, settings.fleetMinReady)
  const first = shared.firstProbe
  const own = settings.targets.map((t, i): Shared => ({
    ...shared,
    halter: halters[i],
    prefix: `[${t.url.href}] `,
    settled: (url, outcome) => stops.settled(i, { url, ready: outcome.ready, reason: outcome.reason })
  }))
  // the first probe, in flight for its endpoint, ends with that endpoint's wait
  const firstAt = first === undefined ? -1 : settings.targets.findIndex((t) => t.url === first.url)
  if (first !== undefined && firstAt >= 0)
    halters[firstAt].signal.addEventListener('abort', first.abort, { once: true })
  return { of: (i) => own[i], halted: stops.halted }
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
