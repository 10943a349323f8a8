/**
 * Ends something once, with a typed reason (the wait's `Halt`; for a cancelled job, the signal the runner sent), and
 * the signals that cancel a run, which every entry point listens to through one `Halter`.
 */
/**
 * `signal` cuts short every sleep and request listening to it, `halted` says why. The first `halt` wins; later ones
 * are refused, so that whoever halted it can tell.
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

/**
 * The runner sends SIGINT, then SIGTERM, to a cancelled job's step (or one past its `timeout-minutes`); a terminal
 * sends SIGINT on Ctrl-C; SIGHUP comes when the terminal or ssh session goes, or the runner's service is stopped.
 */
const CANCEL_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

export interface CancelOnSignals {
  /** Halted with the first of the signals to come; later ones change nothing. */
  cancel: Halter<NodeJS.Signals>
  /** Stops listening: from then on a signal does what Node's default does. */
  release(): void
}

/**
 * Listens to the cancelling signals until `release`: each halts `cancel` instead of ending the process, as Node's
 * default would, at once: no outputs, no summary, no error, and at the job end a server never stopped.
 */
export function cancelOnSignals(): CancelOnSignals {
  const cancel = new Halter<NodeJS.Signals>()
  const onSignal = (signal: NodeJS.Signals): void => void cancel.halt(signal)
  for (const signal of CANCEL_SIGNALS) process.on(signal, onSignal)
  return { cancel, release: () => CANCEL_SIGNALS.forEach((signal) => process.off(signal, onSignal)) }
}
