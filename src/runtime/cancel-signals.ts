/**
 * The signals that cancel a run, and the one way every entry point listens to them. Node's default for each is to
 * die at once: no outputs, no summary, no error, and at the job end a server never stopped.
 */
import { Halter } from './halter.js'

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

/** Listens to the cancelling signals until `release`: each halts `cancel` instead of ending the process. */
export function cancelOnSignals(): CancelOnSignals {
  const cancel = new Halter<NodeJS.Signals>()
  const onSignal = (signal: NodeJS.Signals): void => void cancel.halt(signal)
  for (const signal of CANCEL_SIGNALS) process.on(signal, onSignal)
  return { cancel, release: () => CANCEL_SIGNALS.forEach((signal) => process.off(signal, onSignal)) }
}
