/**
 * A fleet of servers: one server per endpoint (`start`, `pid`, `container` or `log-file` with a line per `url`
 * line), each with a wait of its own (sequence.ts): launched, followed, watched, reported and recorded as if it were
 * alone, its lines told with its URL. The fleet decides when the others need no longer be waited for: one that can
 * no longer become ready (or, with `fleet-min-ready`, too many such) ends them at once, and so do enough ready ones.
 */
import type { GateOutcome, TargetOutcome } from '../facts/outcome.js'
import type { Halt } from '../facts/halt.js'
import { endpointSettings } from '../inputs/fleet.js'
import type { Settings } from '../inputs/settings.js'
import { fleetFailedText, fleetRefusedText } from '../report/progress.js'
import { Halter } from '../runtime/halter.js'
import type { Deps } from './deps.js'
import { cancelledBeforeWait } from './cancelled.js'
import { fleetStops, representative } from './fleet-tally.js'
import { serverSeam, waitWith } from './sequence.js'

export async function fleetGate(settings: Settings, deps: Deps): Promise<GateOutcome> {
  const began = deps.clock.now()
  const members = settings.targets.map((_, i) => endpointSettings(settings, i))
  const memberDeps = members.map((m) => endpointDeps(deps, m.targets[0].url))
  const seams = await Promise.all(members.map((m, i) => serverSeam(m, memberDeps[i])))
  // Every endpoint's pre-flight before any server starts: a port already held, or GPUs taken with `gpu-check:
  // fail`, refuses the whole fleet, and nothing is started.
  const looked = await Promise.allSettled(seams.map((seam) => seam.preflight()))
  const early = deps.cancel?.halted
  const refused = looked.findIndex((r) => r.status === 'rejected' || r.value !== undefined)
  // nothing is launched: whatever every pre-flight opened (an engine's socket) is closed
  if (early !== undefined || refused >= 0) seams.forEach((seam) => seam.abandon())
  if (early !== undefined) return cancelledBeforeWait(settings, early, deps.clock.now() - (deps.startedAt ?? began))
  const failed = looked[refused]
  // an input error of one endpoint's (no such container) is the fleet's
  if (failed?.status === 'rejected') throw failed.reason
  if (failed !== undefined) return refusedFleet(settings, failed.value as GateOutcome)
  const stops = members.map(() => new Halter<Halt>())
  const fleet = fleetStops(stops, settings.fleetMinReady)
  const ended = await Promise.allSettled(
    members.map((m, i) =>
      waitWith(seams[i], m, {
        ...memberDeps[i],
        member: { stop: stops[i], settled: (o) => fleet.settled(i, o) }
      }).catch((e: unknown) => {
        // one endpoint's wait that throws ends the others' too: none is left following its server
        const halt: Halt = { reason: 'cancelled', detail: fleetFailedText(m.targets[0].url, String(e)) }
        stops.forEach((stop) => stop.halt(halt))
        throw e
      })
    )
  )
  const thrown = ended.find((e) => e.status === 'rejected')
  if (thrown !== undefined) throw thrown.reason
  const outcomes = ended.map((e) => (e as PromiseFulfilledResult<GateOutcome>).value)
  // each endpoint's own outcome, its server and profile included
  const results = outcomes.map(({ results: _, ...own }): TargetOutcome => own)
  const last = representative(results, fleet.halted, settings.fleetMinReady)
  return { ...last, results, models: [...new Set(results.flatMap((r) => r.models))] }
}

/**
 * The deps of one endpoint's own wait: its lines start with its URL, and the first probe, sent before the gate
 * was loaded, is its own only when it was sent to its URL.
 */
function endpointDeps(deps: Deps, url: URL): Deps {
  const prefix = `[${url.href}] `
  const first = deps.firstProbe?.url === url ? deps.firstProbe : undefined
  const debug = deps.debug
  return {
    ...deps,
    firstProbe: first,
    log: (line) => deps.log(`${prefix}${line}`),
    warn: (line, kind) => deps.warn(`${prefix}${line}`, kind),
    notice: (line, kind) => deps.notice(`${prefix}${line}`, kind),
    debug: debug && ((line) => debug(`${prefix}${line}`))
  }
}

/** One endpoint's pre-flight refused its start: the fleet's outcome is that refusal, and no other server started. */
function refusedFleet(settings: Settings, refusal: GateOutcome): GateOutcome {
  const by = refusal.results[0]
  const halt: Halt = { reason: by.halt?.reason ?? 'port-busy', detail: fleetRefusedText(by.url, by.reason) }
  const results = settings.targets.map(({ url }): TargetOutcome =>
    url === by.url
      ? by
      : { ready: false, reason: by.reason, elapsedMs: by.elapsedMs, attempts: 0, models: [], halt, timeline: [], url }
  )
  return { ...by, results }
}
