/**
 * A job cancelled at any moment before its outputs are written ends `reason=cancelled`, whatever the wait had found:
 * a run the job gave up on is not one a later step may trust.
 */
import { endpointsOf, type Settings } from '../inputs/settings.js'
import type { Halt } from '../facts/halt.js'
import type { GateOutcome, TargetOutcome } from '../facts/outcome.js'
import type { Halter } from '../runtime/halter.js'
import { type CancelStage, cancelledText } from '../report/lifecycle-report.js'
import { type Conclusion, conclude } from './conclusion.js'

const cancelHalt = (signal: NodeJS.Signals, stage: CancelStage): Halt => ({
  reason: 'cancelled',
  detail: cancelledText(signal, stage)
})

/** The outcome as a cancel at `elapsedMs` leaves it: every endpoint not already cancelled is, from then. */
export function asCancelled(
  outcome: GateOutcome,
  signal: NodeJS.Signals,
  stage: CancelStage,
  elapsedMs: number
): GateOutcome {
  if (outcome.reason === 'cancelled') return outcome
  const halt = cancelHalt(signal, stage)
  const cut = <T extends TargetOutcome>(r: T): T =>
    r.reason === 'cancelled' ? r : { ...r, ready: false, reason: 'cancelled', halt, elapsedMs }
  return { ...cut(outcome), results: outcome.results.map(cut) }
}

/** A run cancelled before its wait began: no endpoint was probed, no server started. */
export function cancelledBeforeWait(settings: Settings, signal: NodeJS.Signals, elapsedMs: number): GateOutcome {
  const halt = cancelHalt(signal, 'before-wait')
  const results = endpointsOf(settings).map(({ url }): TargetOutcome => ({
    ready: false,
    reason: 'cancelled',
    elapsedMs,
    attempts: 0,
    models: [],
    halt,
    timeline: [],
    url
  }))
  return { ...results[0], results }
}

/** Concluded again as cancelled when `cancel` came during the front end's work after the wait (the diagnostics). */
export function concludedSince(
  next: Conclusion,
  settings: Settings,
  cancel: Pick<Halter<NodeJS.Signals>, 'halted'>,
  stage: CancelStage,
  elapsedMs: number
): Conclusion {
  const signal = cancel.halted
  if (signal === undefined || next.outcome.reason === 'cancelled') return next
  return conclude(asCancelled(next.outcome, signal, stage, elapsedMs), settings)
}
