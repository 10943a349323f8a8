/** The wait loop: probe, judge, report changes, until ready, a fatal answer, a halt, or the deadline. */
import { assess, sameAnswer } from './assess.js'
import {
  type Answer,
  type Assessment,
  type Expectation,
  NAMED_ID_CHARS,
  type RanksMissing,
  type Reason
} from '../facts/answer.js'
import type { Halt } from '../facts/halt.js'
import type { Outcome, TimelineEntry, WaitEvent } from '../facts/wait.js'
import type { GenerationCheck } from './generation-check.js'
import type { PortWatch } from '../http/port-watch.js'
import type { ProbeResult } from '../http/probe.js'
import type { Clock } from '../runtime/clock.js'
import type { Halter } from '../runtime/halter.js'
import type { Settings } from '../inputs/settings.js'
import type { ServerWait } from './deps.js'
import { clip } from '../runtime/text.js'
import { nextProbeAt, probeOnLogLines } from './schedule.js'
import { deadEngineStreak, failingGenerations, wrongModelWatch } from './cannot-change.js'

/** The settings the loop keeps to, and `once`: the first answer decides (not ready ends it with reason=timeout). */
export type WaitOptions = Pick<
  Settings,
  | 'intervalMs'
  | 'probeGapMs'
  | 'timeoutMs'
  | 'requestTimeoutMs'
  | 'progressIntervalMs'
  | 'wrongModelAfterMs'
  | 'generationFailedAfter'
> & { expect: Expectation; once?: boolean }

/** What the loop asks and is told; what the server's log and history tell, as its server's wait has it. */
export interface WaitDeps extends Partial<Pick<ServerWait, 'readyLine' | 'logLines'>> {
  probe(timeoutMs: number, signal?: AbortSignal): Promise<ProbeResult>
  /** The engine's own readiness route (SGLang's /health) once the model is listed; undefined: it needs none. */
  engineReady?(
    modelId: string | undefined,
    timeoutMs: number,
    signal?: AbortSignal
  ): Promise<GenerationCheck | undefined>
  /** One server across several nodes: what of its ranks has not joined yet (ready waits for it); undefined: none. */
  ranksMissing?(): RanksMissing | undefined
  /** Whether the engine serves only the models it was started with (see `wrongModelWatch`). */
  servesOneModel?(): boolean
  /** Asked when an answer is not ready: a failed load the engine reports, as a fatal answer (`load-failed`). */
  loadFailure?(timeoutMs: number, signal?: AbortSignal): Promise<Assessment | undefined>
  /** Whether a failed generation's answer is the engine's own dead-engine error (three in a row: `engine-dead`). */
  deadGeneration?(answer: Assessment): boolean
  /** With `probe-generation` (or an engine only a generation proves): asked once listed; undefined: none asked. */
  generate?(modelId: string | undefined, timeoutMs: number, signal?: AbortSignal): Promise<GenerationCheck | undefined>
  /** Ended when the wait must end at once: it also cuts short a sleep or a request. */
  halter?: Halter<Halt>
  /** A local port's watch (another host's has none): while it is refused, wakes the loop as soon as it opens. */
  portWatch?: PortWatch
  clock: Clock
  /** When the wait counts from (defaults to now): the action passes its process start. */
  startedAt?: number
  onEvent?(event: WaitEvent): void
}

/** A timeline keeps this many first and last changes: a list changing on every probe must not grow it without limit. */
export const TIMELINE_ENDS = 20

function addChange(timeline: TimelineEntry[], entry: TimelineEntry): void {
  timeline.push(entry)
  if (timeline.length <= 2 * TIMELINE_ENDS + 1) return
  // the oldest of the last changes goes; the next one carries the count
  const [gone] = timeline.splice(TIMELINE_ENDS, 1)
  timeline[TIMELINE_ENDS] = { ...timeline[TIMELINE_ENDS], dropped: (gone.dropped ?? 0) + 1 }
}

export async function waitForModel(opts: WaitOptions, deps: WaitDeps): Promise<Outcome> {
  const { clock } = deps
  const start = deps.startedAt ?? clock.now()
  const deadline = start + opts.timeoutMs
  const timeline: TimelineEntry[] = []
  let attempts = 0
  let last: Assessment | undefined
  let models: string[] = []
  let firstResponseMs: number | undefined
  let generationMs: number | undefined
  let generationFailed = false
  let quietSince = start
  let engineReadiness: Outcome['engineReadiness']
  let listedMs: number | undefined
  let readySeenAt: number | undefined
  let notReadySentAt: number | undefined
  // The log's ready line wakes the loop once: should the probe then say "not yet", the schedule takes over.
  let readyLineWoke = false
  const readyLine = (): ((signal: AbortSignal) => Promise<void>) | undefined => {
    const seen = deps.readyLine
    if (seen === undefined || readyLineWoke) return undefined
    return (signal) => seen(signal).then(() => void (readyLineWoke ||= !signal.aborted))
  }

  const finish = (reason: Reason, halt?: Halt): Outcome => ({
    ready: reason === 'ready',
    reason,
    elapsedMs: clock.now() - start,
    attempts,
    last,
    models,
    firstResponseMs,
    generationMs,
    halt,
    ...(engineReadiness === undefined ? {} : { engineReadiness }),
    timeline,
    ...(reason === 'ready' ? { readySeenAt, notReadySentAt } : {})
  })
  const wrongModel = wrongModelWatch(opts.wrongModelAfterMs, () => deps.servesOneModel?.() ?? false)
  const deadStreak = deadEngineStreak()
  const failing = failingGenerations(opts.generationFailedAfter)
  const halted = (): Halt | undefined => deps.halter?.halted
  const signal = deps.halter?.signal

  for (;;) {
    const sentAt = clock.now()
    let halt = halted()
    if (halt) return finish(halt.reason, halt)
    if (sentAt >= deadline) return finish(generationFailed ? 'generation-failed' : 'timeout')
    attempts++
    const budgetMs = Math.min(opts.requestTimeoutMs, deadline - sentAt)
    const probed = await probeOnce(deps, opts.expect, sentAt, budgetMs, signal)
    // An answer cut short by the halt, or one that came in as the server died, says nothing.
    if ((halt = halted())) return finish(halt.reason, halt)
    // A probe cut short by the deadline says nothing new: the answer before it is the one worth reporting.
    if (budgetMs < opts.requestTimeoutMs && probed.timedOut && last) {
      return finish(generationFailed ? 'generation-failed' : 'timeout')
    }
    let assessment = probed.assessment
    if (assessment.state === 'ready' && deps.engineReady) {
      listedMs ??= clock.now() - start
      const budgetMs = Math.max(1, Math.min(opts.requestTimeoutMs, deadline - clock.now()))
      const check = await deps.engineReady(assessment.modelId, budgetMs, signal)
      if ((halt = halted())) return finish(halt.reason, halt)
      if (check !== undefined) {
        assessment = withEngineReadiness(assessment, check)
        engineReadiness = { request: check.request, listedMs, readyMs: engineReadiness?.readyMs }
        if (check.assessment.state === 'ready') engineReadiness.readyMs ??= clock.now() - start
      }
    }
    // the head's readiness says nothing of the other nodes' ranks: ready waits until every one of them joined
    const ranks = assessment.state === 'ready' ? deps.ranksMissing?.() : undefined
    // a count given that the log's own lines contradict can never be met: waiting longer cannot help
    if (ranks?.conflict !== undefined)
      assessment = {
        ...assessment,
        state: 'fatal',
        fatalReason: 'log-error',
        answer: { ...assessment.answer, state: 'fatal', ranks }
      }
    else if (ranks !== undefined)
      assessment = { ...assessment, state: 'waiting', answer: { ...assessment.answer, state: 'waiting', ranks } }
    const failedBefore = generationFailed
    generationFailed = false
    /** How long this round's costly request took: the next probe waits by it (see `gapAfter`). */
    let costMs = 0
    let generationRequest: string | undefined
    if (assessment.state === 'ready' && deps.generate) {
      const generationBudgetMs = Math.max(1, Math.min(opts.requestTimeoutMs, deadline - clock.now()))
      const generationSentAt = clock.now()
      const check = await deps.generate(assessment.modelId, generationBudgetMs, signal)
      costMs = clock.now() - generationSentAt
      if ((halt = halted())) return finish(halt.reason, halt)
      // Likewise a generation request cut short by the deadline: the failure before it explains more.
      if (generationBudgetMs < opts.requestTimeoutMs && check?.assessment.state === 'down' && last) {
        return finish(failedBefore ? 'generation-failed' : 'timeout')
      }
      if (check !== undefined) {
        assessment = withGeneration(assessment, check)
        if (check.assessment.state === 'ready') generationMs = check.latencyMs
        else generationFailed = assessment.state !== 'fatal'
        const dead = check.assessment.state !== 'ready' && (deps.deadGeneration?.(check.assessment) ?? false)
        assessment = deadStreak.see(assessment, dead, check.request)
        generationRequest = check.request
      }
    }
    assessment = failing.see(assessment, generationRequest, clock.now())
    if (assessment.state === 'waiting' && probed.answered && deps.loadFailure) {
      const failed = await deps.loadFailure(
        Math.max(1, Math.min(opts.requestTimeoutMs, deadline - clock.now())),
        signal
      )
      if ((halt = halted())) return finish(halt.reason, halt)
      // the probe's own status and list stay the answer's: the index only says why it will not change
      if (failed !== undefined) assessment = { ...failed, status: assessment.status, models: assessment.models }
    }
    const now = clock.now()
    assessment = wrongModel.see(assessment, now)
    const elapsedMs = now - start
    if (assessment.status !== undefined) firstResponseMs ??= elapsedMs
    if (assessment.models !== undefined) models = assessment.models
    if (!sameAnswer(assessment.answer, last?.answer)) {
      const lost =
        assessment.state === 'down' && last !== undefined && last.state !== 'down' && firstResponseMs !== undefined
      addChange(timeline, { elapsedMs, answer: keptAnswer(assessment.answer), ...(lost ? { lost } : {}) })
      deps.onEvent?.({ type: lost ? 'lost' : 'change', elapsedMs, attempt: attempts, assessment })
      quietSince = now
    } else if (now - quietSince >= opts.progressIntervalMs) {
      deps.onEvent?.({ type: 'progress', elapsedMs, attempt: attempts, assessment })
      quietSince = now
    }
    last = assessment

    if (assessment.state === 'fatal') return finish(assessment.fatalReason ?? 'timeout')
    if (assessment.state === 'ready') {
      readySeenAt = now
      return finish('ready')
    }
    notReadySentAt = sentAt
    if (opts.once) return finish(generationFailed ? 'generation-failed' : 'timeout')

    const portWatch = deps.portWatch
    const refused = probed.refused || (probed.failed && portWatch?.closed?.() === true)
    if (refused && portWatch !== undefined) {
      // While a local port is closed the watch is the probe; HTTP probes then go out with the progress lines.
      const spacing = Math.max(opts.intervalMs, opts.progressIntervalMs)
      const untilMs = Math.min(sentAt + spacing, deadline) - clock.now()
      await sleepUntilWoken(clock, untilMs, [(wake) => portWatch.opened(wake), readyLine()], signal)
      // a port that shows as open yet refuses must not turn the loop into a busy one
      const earliest = Math.min(sentAt + MIN_PROBE_GAP_MS, deadline)
      if (clock.now() < earliest) await clock.sleep(earliest - clock.now(), signal)
    } else {
      const next = nextProbeAt({ ...opts, sentAt, now, costMs, retryAfterMs: probed.retryAfterMs, deadline })
      const readyLineBefore: boolean = readyLineWoke
      const woke = await sleepUntilWoken(clock, next - clock.now(), [readyLine(), deps.logLines], signal)
      // New lines in the log: the server is moving on, perhaps to ready in words we do not know. A probe soon;
      // at once when the same lines held the ready line (both wakers fire, and this one may win the race), and only
      // then: once the ready line is behind, a server that logs each request would wake the loop at its own pace.
      if (woke === 1 && readyLineWoke === readyLineBefore) {
        const sooner = probeOnLogLines(sentAt, clock.now(), next)
        await sleepUntilWoken(clock, sooner - clock.now(), [readyLine()], signal)
      }
    }
  }
}

const MIN_PROBE_GAP_MS = 50

/** An answer as the timeline keeps it: the ids it names cut as its words cut them. */
function keptAnswer(answer: Answer): Answer {
  const nested = (n: { request: string; answer: Answer } | undefined) => n && { ...n, answer: keptAnswer(n.answer) }
  return {
    ...answer,
    ...(answer.models && { models: answer.models.map((id) => clip(id, NAMED_ID_CHARS)) }),
    ...(answer.generation && { generation: nested(answer.generation) }),
    ...(answer.engineReadiness && { engineReadiness: nested(answer.engineReadiness) })
  }
}

/**
 * One probe, judged. Only the judgement leaves: the answer (up to 1 MiB and its JSON) must not stay reachable
 * through the loop's sleep, once per server of a fleet.
 */
async function probeOnce(
  deps: WaitDeps,
  expect: Expectation,
  sentAt: number,
  budgetMs: number,
  signal: AbortSignal | undefined
): Promise<{
  assessment: Assessment
  timedOut: boolean
  refused: boolean
  failed: boolean
  answered: boolean
  retryAfterMs?: number
}> {
  const result = await deps.probe(budgetMs, signal)
  return {
    // a `match` regular expression runs within what is left of the probe's time, so a runaway pattern cannot pass the deadline
    assessment: assess(result, expect, sentAt + budgetMs - deps.clock.now()),
    timedOut: result.kind === 'error' && result.code === 'TIMEOUT',
    refused: result.kind === 'error' && result.code === 'ECONNREFUSED',
    // no answer, nor a wait cut short: what a connection to a port that nothing listens on gives through a forward
    failed: result.kind === 'error' && result.code !== 'TIMEOUT' && result.code !== 'STOPPED',
    answered: result.kind === 'http',
    retryAfterMs: result.kind === 'http' ? result.retryAfterMs : undefined
  }
}

/** Sleeps `ms`, or less: until one of `wakers` resolves (its index is returned), or `halt` aborts (-1, as the sleep). */
async function sleepUntilWoken(
  clock: Clock,
  ms: number,
  wakers: Array<((signal: AbortSignal) => Promise<void>) | undefined>,
  halt: AbortSignal | undefined
): Promise<number> {
  const wake = new AbortController()
  const signal = halt ? AbortSignal.any([wake.signal, halt]) : wake.signal
  const woken = wakers.flatMap((w, i) => (w ? [w(signal).then(() => i)] : []))
  const which = await Promise.race([clock.sleep(ms, signal).then(() => -1), ...woken])
  wake.abort()
  return which
}

/** Folds the engine's own readiness answer into the model-list assessment: listed is not ready until it says so. */
function withEngineReadiness(listed: Assessment, check: GenerationCheck): Assessment {
  const { assessment: h, request } = check
  if (h.state === 'fatal') {
    // a dead engine core (vLLM's /health 503 after 200), a refused key: waiting cannot help
    const answer: Answer = { ...listed.answer, state: 'fatal', engineReadiness: { request, answer: h.answer } }
    if (h.answer.engineDead) answer.engineDead = h.answer.engineDead
    return { ...listed, state: 'fatal', fatalReason: h.fatalReason, answer }
  }
  const state = h.state === 'ready' ? listed.state : 'waiting'
  const answer: Answer = { ...listed.answer, state, engineReadiness: { request, answer: h.answer } }
  return { ...listed, state, answer }
}

/** Folds a generation check into the model-list assessment it followed. */
function withGeneration(listed: Assessment, check: GenerationCheck): Assessment {
  const { assessment: g, request } = check
  // Listed and ready, so the generation request's answer decides: ready, waiting, or fatal (a refused key).
  const state = g.state === 'ready' || g.state === 'fatal' ? g.state : 'waiting'
  const answer: Answer = { ...listed.answer, state, generation: { request, answer: g.answer } }
  const extra = g.state === 'fatal' ? { fatalReason: g.fatalReason } : {}
  const excerpt = g.state === 'ready' ? {} : { excerpt: g.excerpt }
  return { ...listed, ...extra, ...excerpt, state, answer }
}
