/**
 * Deadline promises that hold on a loaded machine. The action's clock starts at its process's start, and under a
 * load of 15-20 on two cores Node's own start took seconds: a wall-clock bound measured by the test (spawn to
 * close) or a timeout of a second or two then tests the machine, not the action. So a deadline is asserted on the
 * step's own clock (its elapsed-seconds, its exit on its own clock: helpers/support.ts runMeasured), and the test's
 * clock gets only a ceiling that a hang breaks. What a step does past its deadline (its outputs, its exit) is work
 * that a busy machine slows down too: its slack is the idle one times the load measured during the run (`stretch`),
 * so that it holds the idle figure on an idle machine and a hang still breaks it on a loaded one. The idle-machine
 * figures are `npm run bench -- --only bounds`.
 */
import { readFileSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import type { MeasuredRun } from './support.js'

/** Only a hang (a handle kept open, a wait that ignores its deadline) runs this far past a bound on the test's clock. */
export const HANG_MS = 20_000

/**
 * A timeout for a case whose point is what the log says when time runs out: long enough that a process starting
 * late under load still sends its first probes (the answer line needs one), short enough to keep the suite quick.
 */
export const ANSWER_TIMEOUT_MS = 6_000

/**
 * The most a measured load stretches a bound: ten times slower than idle is a load of 20 on two cores, as far as
 * this suite is asked to hold; past it a stretched bound (10 s for a second's promise) would no longer be below the
 * hang it is there to catch.
 */
export const MAX_STRETCH = 10

/** Runnable tasks at this moment, the reader included (the kernel's run queue: /proc/loadavg's fourth field). */
function runnableNow(): number {
  try {
    const queue = /^\S+ \S+ \S+ (\d+)\//.exec(readFileSync('/proc/loadavg', 'utf8'))
    if (queue) return Number(queue[1])
  } catch {
    // no /proc: the one-minute load average, which lags but errs the same way
  }
  return loadavg()[0]
}

/**
 * Starts measuring the machine's load; the function it returns stops and says how many times slower than on an
 * idle machine a process ran meanwhile: runnable tasks per core, sampled every 100 ms (so a load that starts or
 * ends mid-run counts for its share), 1 at least, MAX_STRETCH at most. The sampler itself, the test's process, is
 * one of the runnable tasks it counts, as it is one the measured process competes with.
 */
export function measureLoad(): () => number {
  const samples = [runnableNow()]
  const timer = setInterval(() => samples.push(runnableNow()), 100)
  timer.unref()
  return () => {
    clearInterval(timer)
    samples.push(runnableNow())
    const perCore = samples.reduce((a, b) => a + b, 0) / samples.length / availableParallelism()
    return Math.min(MAX_STRETCH, Math.max(1, perCore))
  }
}

/**
 * The promise "ends no later than timeout + 1 s": the wait's own end (elapsed-seconds) and the process's exit, both
 * on the step's clock, with the slack stretched by the load measured during the run, and no hang on the test's.
 */
export function expectEndedByDeadline(run: MeasuredRun, timeoutMs: number, slackMs = 1_000): void {
  const slack = slackMs * run.stretch
  expect(Number(run.outputs['elapsed-seconds']) * 1000).toBeLessThanOrEqual(timeoutMs + slack)
  expect(run.exitAtMs).toBeLessThanOrEqual(timeoutMs + slack)
  expect(run.wallMs).toBeLessThan(timeoutMs + HANG_MS)
}
