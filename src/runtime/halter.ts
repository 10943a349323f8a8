/** Ends something once, with a typed reason, and the signals that cancel a run. */

/** `signal` cuts short every sleep and request listening to it; the first `halt` wins, later ones are refused. */
export class Halter<T> {
  private readonly controller = new AbortController()
  readonly signal = this.controller.signal
  private first: T | undefined

  get halted(): T | undefined {
    return this.first
  }

  /** False when it had already ended. */
  halt(halt: T): boolean {
    if (this.first !== undefined) return false
    this.first = halt
    this.controller.abort(halt)
    return true
  }

  /** One that also ends with this one's halt: an endpoint can be stopped alone, and all with the fleet. */
  child(): Halter<T> {
    const child = new Halter<T>()
    const follow = (): void => void (this.first !== undefined && child.halt(this.first))
    if (this.first !== undefined) follow()
    else this.signal.addEventListener('abort', follow, { once: true })
    return child
  }
}

/** The runner's SIGINT then SIGTERM for a cancelled step, a terminal's Ctrl-C, SIGHUP when the session goes. */
const CANCEL_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

export interface CancelOnSignals {
  cancel: Halter<NodeJS.Signals>
  release(): void
}

/** Each signal halts `cancel` rather than end the process at once (no outputs, no summary, a server never stopped). */
export function cancelOnSignals(): CancelOnSignals {
  const cancel = new Halter<NodeJS.Signals>()
  const onSignal = (signal: NodeJS.Signals): void => void cancel.halt(signal)
  for (const signal of CANCEL_SIGNALS) process.on(signal, onSignal)
  return { cancel, release: () => CANCEL_SIGNALS.forEach((signal) => process.off(signal, onSignal)) }
}
