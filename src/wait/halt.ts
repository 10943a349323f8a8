/**
 * Why a wait ends early (a halt), and the one object that carries it to every sleep and request of the wait.
 * "Halt", not "stop": stopping is what `wait-for-model stop` does to a server process (src/server/stop.ts).
 */
import type { Reason } from './assess.js'

/** Why the wait must end now, whatever the server answers: the reason and its explanation. */
export interface Halt {
  reason: Extract<Reason, 'server-exited' | 'log-error' | 'cancelled'>
  detail: string
}

/**
 * Ends a wait once, with a typed reason (a `Halt`; for a cancelled job, the signal the runner sent): `signal` cuts
 * short every sleep and request listening to it, `halted` says why. The first `halt` wins; later ones are
 * refused, so that whoever halted the wait can tell.
 */
export class Halter<T = Halt> {
  private readonly controller = new AbortController()
  readonly signal = this.controller.signal
  private first: T | undefined

  get halted(): T | undefined {
    return this.first
  }

  /** Ends the wait with `halt`; false when it had already ended. */
  halt(halt: T): boolean {
    if (this.first !== undefined) return false
    this.first = halt
    this.controller.abort(halt)
    return true
  }
}
