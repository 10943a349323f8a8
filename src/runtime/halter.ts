/**
 * Ends something once, with a typed reason (the wait's `Halt`; for a cancelled job, the signal the runner sent):
 * `signal` cuts short every sleep and request listening to it, `halted` says why. The first `halt` wins; later
 * ones are refused, so that whoever halted it can tell.
 */
export class Halter<T> {
  private readonly controller = new AbortController()
  readonly signal = this.controller.signal
  private first: T | undefined

  get halted(): T | undefined {
    return this.first
  }

  /** Ends it with `halt`; false when it had already ended. */
  halt(halt: T): boolean {
    if (this.first !== undefined) return false
    this.first = halt
    this.controller.abort(halt)
    return true
  }

  /**
   * A halter of its own that also ends when this one does, with this one's halt: one endpoint of a fleet can be
   * stopped alone, and all of them with the fleet.
   */
  child(): Halter<T> {
    const child = new Halter<T>()
    const follow = (): void => void (this.first !== undefined && child.halt(this.first))
    if (this.first !== undefined) follow()
    else this.signal.addEventListener('abort', follow, { once: true })
    return child
  }
}
