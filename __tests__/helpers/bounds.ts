/**
 * Deadline promises that hold on a loaded machine. The action's clock starts at its process's start, and under a
 * load of 15-20 on two cores Node's own start took seconds: a wall-clock bound measured by the test (spawn to
 * close) or a timeout of a second or two then tests the machine, not the action. So a deadline is asserted on the
 * step's own clock (its elapsed-seconds, its exit on its own clock: helpers/support.ts runMeasured), and the test's
 * clock gets only a ceiling that a hang breaks. The idle-machine figures are `npm run bench -- --only bounds`.
 */
import type { MeasuredRun } from './support.js'

/** Only a hang (a handle kept open, a wait that ignores its deadline) runs this far past a bound on the test's clock. */
export const HANG_MS = 20_000

/**
 * A timeout for a case whose point is what the log says when time runs out: long enough that a process starting
 * late under load still sends its first probes (the answer line needs one), short enough to keep the suite quick.
 */
export const ANSWER_TIMEOUT_MS = 6_000

/**
 * The promise "ends no later than timeout + 1 s": the wait's own end (elapsed-seconds) and the process's exit, both
 * on the step's clock, and no hang on the test's.
 */
export function expectEndedByDeadline(run: MeasuredRun, timeoutMs: number, slackMs = 1_000): void {
  expect(Number(run.outputs['elapsed-seconds']) * 1000).toBeLessThanOrEqual(timeoutMs + slackMs)
  expect(run.exitAtMs).toBeLessThanOrEqual(timeoutMs + slackMs)
  expect(run.wallMs).toBeLessThan(timeoutMs + HANG_MS)
}
