/** Why a wait ends early, and the one object that carries it to every sleep and request of the wait. */
import type { Reason } from './assess.js'

/** Why the wait must end now, whatever the server answers: the reason and its explanation. */
export interface Stop {
  reason: Extract<Reason, 'server-exited' | 'log-error' | 'cancelled'>
  detail: string
}

/**
 * Ends a wait once, with a typed reason (a `Stop`; for a cancelled job, the signal the runner sent): `signal` cuts
 * short every sleep and request listening to it, `stopped` says why. The first `stop` wins; later ones are
 * refused, so that whoever stopped the wait can tell.
 */
export class Stopper<T = Stop> {
  private readonly controller = new AbortController()
  readonly signal = this.controller.signal
  private first: T | undefined

  get stopped(): T | undefined {
    return this.first
  }

  /** Ends the wait with `stop`; false when it had already ended. */
  stop(stop: T): boolean {
    if (this.first !== undefined) return false
    this.first = stop
    this.controller.abort(stop)
    return true
  }
}
