/**
 * The whole wait, from settings to outcome, for every front end: each server's wait at once, and their tally; one
 * that can no longer become ready ends the others' waits.
 */
import { endpointsOf, type Server, type Settings } from '../inputs/settings.js'
import type { GateOutcome, TargetOutcome } from '../facts/outcome.js'
import type { Halt } from '../facts/halt.js'
import { fleetFailedText, fleetRefusedText } from '../report/progress.js'
import { Halter } from '../runtime/halter.js'
import { type Deps, type GateDeps, withDefaults } from './deps.js'
import { waitForServer } from './server-wait.js'
import { cancelledBeforeWait } from './cancelled.js'
import { fleetStops, reportedEndpoint } from './fleet-tally.js'
import { containerServer } from './servers/container.js'
import { processServer } from './servers/process.js'
import { remoteServer } from './servers/remote.js'
import { noServer, type ServerKind } from './servers/kind.js'

export async function gate(settings: Settings, gateDeps: GateDeps): Promise<GateOutcome> {
  const deps = withDefaults(gateDeps)
  const began = deps.clock.now()
  const { servers } = settings
  const fleet = servers.length > 1
  const serverDeps = servers.map((server) => (fleet ? prefixed(deps, server.targets[0].url) : deps))
  const kinds = servers.map((server, i) => told(kindOf(server, settings, serverDeps[i]), i, deps))
  // Every server's pre-flight before any starts: a port already held, or GPUs taken with `gpu-check: fail`,
  // refuses the whole wait, and nothing is started.
  const looked = await Promise.allSettled(kinds.map((kind) => kind.preflight()))
  // A cancel while the pre-flight looked (nvidia-smi may take seconds): nothing is started, nothing probed.
  const early = deps.cancel?.halted
  const refused = looked.findIndex((r) => r.status === 'rejected' || r.value !== undefined)
  // nothing is launched: whatever every pre-flight opened (an engine's socket) is closed
  if (early !== undefined || refused >= 0) kinds.forEach((kind) => kind.abandon())
  if (early !== undefined) return cancelledBeforeWait(settings, early, deps.clock.now() - (deps.startedAt ?? began))
  const failed = looked[refused]
  // an input error of one server's (no such container) is the wait's
  if (failed?.status === 'rejected') throw failed.reason
  if (failed !== undefined) {
    const refusal = failed.value as GateOutcome
    return fleet ? refusedFleet(settings, refusal) : refusal
  }
  if (!fleet) return waitForServer(kinds[0], servers[0], settings, deps)
  const stops = servers.map(() => new Halter<Halt>())
  const tally = fleetStops(stops)
  const ended = await Promise.allSettled(
    servers.map((server, i) =>
      waitForServer(kinds[i], server, settings, serverDeps[i], {
        stop: stops[i],
        settled: (o) => tally.settled(i, o)
      }).catch((e: unknown) => {
        // one server's wait that throws ends the others' too: none is left following its server
        const halt: Halt = { reason: 'cancelled', detail: fleetFailedText(server.targets[0].url, String(e)) }
        stops.forEach((stop) => stop.halt(halt))
        throw e
      })
    )
  )
  const thrown = ended.find((e) => e.status === 'rejected')
  if (thrown !== undefined) throw thrown.reason
  const outcomes = ended.map((e) => (e as PromiseFulfilledResult<GateOutcome>).value)
  // each server's own outcome, its facts and profile included
  const results = outcomes.map(({ results: _, ...own }): TargetOutcome => own)
  const last = reportedEndpoint(results, tally.halted)
  return { ...last, results, models: [...new Set(results.flatMap((r) => r.models))] }
}

/** A server's kind: a container, a process to start or follow (or only its log to read), else none. */
function kindOf(server: Server, settings: Settings, deps: Deps): ServerKind {
  if (server.host !== undefined) return remoteServer(server, settings, deps)
  if (server.container !== undefined) return containerServer(server, settings, deps)
  if (server.start !== undefined || server.pid !== undefined || server.logFile !== undefined)
    return processServer(server, settings, deps)
  return noServer(settings, deps)
}

/** A kind whose launch is told to the front end at once (the action saves what the job-end step stops it by). */
function told(kind: ServerKind, i: number, deps: Deps): ServerKind {
  const launched = deps.launched
  if (launched === undefined) return kind
  return {
    ...kind,
    launch: () => {
      const server = kind.launch()
      if (server.facts !== undefined) launched(i, server.facts)
      return server
    }
  }
}

/** The deps of one server of a fleet: its lines start with its URL. */
function prefixed(deps: Deps, url: URL): Deps {
  const prefix = `[${url.href}] `
  const debug = deps.debug
  return {
    ...deps,
    log: (line) => deps.log(`${prefix}${line}`),
    warn: (line, kind) => deps.warn(`${prefix}${line}`, kind),
    notice: (line, kind) => deps.notice(`${prefix}${line}`, kind),
    debug: debug && ((line) => debug(`${prefix}${line}`))
  }
}

/** One server's pre-flight refused its start: the fleet's outcome is that refusal, and no other server started. */
function refusedFleet(settings: Settings, refusal: GateOutcome): GateOutcome {
  const by = refusal.results[0]
  const halt: Halt = { reason: by.halt?.reason ?? 'port-busy', detail: fleetRefusedText(by.url, by.reason) }
  const results = endpointsOf(settings).map(({ url }): TargetOutcome =>
    url === by.url
      ? by
      : { ready: false, reason: by.reason, elapsedMs: by.elapsedMs, attempts: 0, models: [], halt, timeline: [], url }
  )
  return { ...by, results }
}
