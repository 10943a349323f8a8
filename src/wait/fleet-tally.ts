/** A fleet's endpoints must all be ready: the first that can no longer become ready ends the others' waits. */
import type { Halt } from '../facts/halt.js'
import type { TargetOutcome } from '../facts/outcome.js'
import type { Halter } from '../runtime/halter.js'
import { gateLines } from '../report/progress.js'

/**
 * The endpoint the scalar outputs describe: once every endpoint is ready, the one ready last; else the first to
 * fail on its own account, not one `halted` because another had failed.
 */
export function reportedEndpoint(
  results: readonly TargetOutcome[],
  halted: (r: TargetOutcome) => boolean = () => false
): TargetOutcome {
  if (results.every((r) => r.ready)) return results.reduce((a, b) => (b.elapsedMs > a.elapsedMs ? b : a))
  const failed = results.filter((r) => !r.ready && !halted(r))
  const candidates = failed.length > 0 ? failed : results.filter((r) => !r.ready)
  return candidates.reduce((a, b) => (b.elapsedMs < a.elapsedMs ? b : a))
}

/**
 * A fleet's halters held together: the first failure of its own (`settled`, by index) ends those still waiting, and
 * `halted` tells an endpoint halted so from one that failed on its own account.
 */
export function fleetStops(halters: ReadonlyArray<Halter<Halt>>): {
  settled(i: number, outcome: Pick<TargetOutcome, 'url' | 'ready' | 'reason'>): void
  halted(r: TargetOutcome): boolean
} {
  const done = halters.map(() => false)
  let stop: Halt | undefined
  return {
    settled(i, { url, ready, reason }) {
      done[i] = true
      // halted by the fleet: its end is the fleet's doing, not its own; a timeout is every endpoint's deadline at
      // once: it ends nobody else's wait sooner
      if (halters[i].halted !== undefined || ready || reason === 'timeout') return
      const halt: Halt = { reason: 'cancelled', detail: gateLines.fleetStopped(url, reason) }
      stop = halt
      halters.forEach((h, j) => void (done[j] || h.halt(halt)))
    },
    halted: (r) => r.halt !== undefined && r.halt === stop
  }
}
