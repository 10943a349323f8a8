/** The wait loop: probe, judge, report changes, until ready, a fatal answer, or the deadline. */
import { assess, type Assessment, type Expectation, type Reason } from './assess.js'
import type { ProbeResult } from './probe.js'
import type { Clock } from './time.js'

export interface WaitOptions {
  expect: Expectation
  intervalMs: number
  timeoutMs: number
  requestTimeoutMs: number
  successThreshold: number
  progressIntervalMs: number
}

export interface WaitDeps {
  probe(timeoutMs: number): Promise<ProbeResult>
  clock: Clock
  /** When the wait counts from (defaults to now): the action passes its process start. */
  startedAt?: number
  onEvent?(event: WaitEvent): void
}

export type WaitEvent =
  /** The server's answer differs from the previous one (the first answer is a change too). */
  | { type: 'change'; elapsedMs: number; attempt: number; assessment: Assessment }
  /** Nothing changed for a `progress-interval`. */
  | { type: 'progress'; elapsedMs: number; attempt: number; assessment: Assessment }

export interface TimelineEntry {
  elapsedMs: number
  summary: string
}

export interface Outcome {
  ready: boolean
  reason: Reason
  elapsedMs: number
  attempts: number
  last?: Assessment
  /** The model ids the server last listed. */
  models: string[]
  firstResponseMs?: number
  timeline: TimelineEntry[]
}

export async function waitForModel(opts: WaitOptions, deps: WaitDeps): Promise<Outcome> {
  const { clock } = deps
  const start = deps.startedAt ?? clock.now()
  const deadline = start + opts.timeoutMs
  const timeline: TimelineEntry[] = []
  let attempts = 0
  let streak = 0
  let last: Assessment | undefined
  let models: string[] = []
  let firstResponseMs: number | undefined
  let quietSince = start

  const finish = (reason: Reason): Outcome => ({
    ready: reason === 'ready',
    reason,
    elapsedMs: clock.now() - start,
    attempts,
    last,
    models,
    firstResponseMs,
    timeline
  })

  for (;;) {
    const sentAt = clock.now()
    if (sentAt >= deadline) return finish('timeout')
    attempts++
    const budgetMs = Math.min(opts.requestTimeoutMs, deadline - sentAt)
    const result = await deps.probe(budgetMs)
    // A probe cut short by the deadline says nothing new: the answer before it is the one worth reporting.
    if (budgetMs < opts.requestTimeoutMs && result.kind === 'error' && result.code === 'TIMEOUT' && last) return finish('timeout')
    const assessment = assess(result, opts.expect)
    const now = clock.now()
    const elapsedMs = now - start
    if (assessment.status !== undefined) firstResponseMs ??= elapsedMs
    if (assessment.models !== undefined) models = assessment.models
    if (assessment.summary !== last?.summary) {
      timeline.push({ elapsedMs, summary: assessment.summary })
      deps.onEvent?.({ type: 'change', elapsedMs, attempt: attempts, assessment })
      quietSince = now
    } else if (now - quietSince >= opts.progressIntervalMs) {
      deps.onEvent?.({ type: 'progress', elapsedMs, attempt: attempts, assessment })
      quietSince = now
    }
    last = assessment

    if (assessment.state === 'fatal') return finish(assessment.fatalReason ?? 'timeout')
    streak = assessment.state === 'ready' ? streak + 1 : 0
    if (streak >= opts.successThreshold) return finish('ready')

    const next = Math.min(sentAt + opts.intervalMs, deadline)
    await clock.sleep(next - clock.now())
  }
}
