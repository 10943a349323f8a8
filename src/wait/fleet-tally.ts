/**
 * How a fleet's endpoints settle against `fleet-min-ready`, as data: each endpoint's own end (ready, or failed on
 * its own account) is told once, and the tally says when the others need no longer be waited for: enough are
 * ready, or more have failed than the rest could make up for. Pure: the gate halts the others with what it says.
 */
import type { Halt } from '../facts/halt.js'
import type { Reason } from '../facts/answer.js'
import type { TargetOutcome } from '../facts/outcome.js'
import type { Halter } from '../runtime/halter.js'
import { gateLines } from '../report/progress.js'

export interface FleetTally {
  /**
   * An endpoint's wait ended on its own account: the halt for those still waiting, or undefined to go on (the
   * halt may come more than once; the first one ends them).
   */
  settled(url: URL, ready: boolean, reason: Reason): Halt | undefined
  /** Whether the fleet is ready: at least `fleet-min-ready` of its endpoints are. */
  readonly ready: boolean
}

export function fleetTally(size: number, minReady: number): FleetTally {
  let ready = 0
  let failed = 0
  return {
    settled(url, isReady, reason) {
      if (isReady) {
        ready++
        // all of them: the last one settles nothing that is still waiting
        return minReady < size && ready === minReady
          ? { reason: 'cancelled', detail: gateLines.fleetEnough(ready, size, minReady) }
          : undefined
      }
      failed++
      // a timeout is every endpoint's deadline at once: it ends nobody else's wait sooner
      if (reason === 'timeout' || failed <= size - minReady) return undefined
      return {
        reason: 'cancelled',
        detail:
          minReady === size
            ? gateLines.fleetStopped(url, reason)
            : gateLines.fleetShort(url, reason, failed, size, minReady)
      }
    },
    get ready() {
      return ready >= minReady
    }
  }
}

/**
 * The endpoint the scalar outputs describe: once the fleet is ready (`minReady` of its endpoints; all of them
 * unless told), the one ready last; else the first to fail on its own account, not one `halted` because another
 * had failed or enough were ready.
 */
export function reportedEndpoint(
  results: readonly TargetOutcome[],
  halted: (r: TargetOutcome) => boolean = () => false,
  minReady = results.length
): TargetOutcome {
  const ready = results.filter((r) => r.ready)
  if (ready.length >= Math.min(minReady, results.length))
    return ready.reduce((a, b) => (b.elapsedMs > a.elapsedMs ? b : a))
  const failed = results.filter((r) => !r.ready && !halted(r))
  const candidates = failed.length > 0 ? failed : results.filter((r) => !r.ready)
  return candidates.reduce((a, b) => (b.elapsedMs < a.elapsedMs ? b : a))
}

/**
 * A fleet's endpoints' halters held to its tally: each endpoint's end is told (`settled`, by its index); the halt
 * the tally decides ends those still waiting (a ready one's smoke test and report go on), and `halted` tells an
 * endpoint halted so from one that failed on its own account.
 */
export function fleetStops(
  halters: ReadonlyArray<Halter<Halt>>,
  minReady: number
): {
  settled(i: number, outcome: Pick<TargetOutcome, 'url' | 'ready' | 'reason'>): void
  halted(r: TargetOutcome): boolean
} {
  const tally = fleetTally(halters.length, minReady)
  const done = halters.map(() => false)
  const halts = new Set<Halt>()
  return {
    settled(i, { url, ready, reason }) {
      done[i] = true
      // halted by the fleet: its end is the fleet's doing, not its own
      if (halters[i].halted !== undefined) return
      const halt = tally.settled(url, ready, reason)
      if (halt === undefined) return
      halts.add(halt)
      halters.forEach((h, j) => void (done[j] || h.halt(halt)))
    },
    halted: (r) => r.halt !== undefined && halts.has(r.halt)
  }
}
