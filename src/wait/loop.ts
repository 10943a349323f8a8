/** The wait loop: probe, judge, report changes, until ready, a fatal answer, a halt, or the deadline. */
import { assess, sameAnswer } from './assess.js'
import { type Answer, type Assessment, type Expectation, NAMED_ID_CHARS, type Reason } from '../facts/answer.js'
import type { Halt } from '../facts/halt.js'
import type { Outcome, TimelineEntry, WaitEvent } from '../facts/wait.js'
import type { GenerationCheck } from './generation-check.js'
import type { PortWatch } from '../http/port-watch.js'
import type { ProbeResult } from '../http/probe.js'
import type { Clock } from '../runtime/clock.js'
import type { Halter } from '../runtime/halter.js'
import { clip } from '../runtime/text.js'
import { nextProbeAt, probeOnLogLines } from './schedule.js'
import { type DeadEngineStreak, deadEngineStreak, type WrongModelWatch, wrongModelWatch } from './cannot-change.js'
import type { ScheduleMode } from '../inputs/settings.js'

export interface WaitOptions {
  expect: Expectation
  intervalMs: number
  timeoutMs: number
  requestTimeoutMs: number
  successThreshold: number
  progressIntervalMs: number
  /** How probes are spaced while the server answers but is not ready (see schedule.ts); `fixed` when not given. */
  schedule?: ScheduleMode
  /** A one-shot check: the first answer decides (no second probe, no sleep); not ready ends it with reason=timeout. */
  once?: boolean
  /** A one-model engine listing another model this long ends the wait; 0 or absent: never. */
  wrongModelAfterMs?: number
}

export interface WaitDeps {
  probe(timeoutMs: number, signal?: AbortSignal): Promise<ProbeResult>
  /**
   * The engine's own readiness answer (SGLang's /health), asked once the model is listed, before any generation:
   * ready only when it says so. Undefined from it: this engine needs none (or is not known yet).
   */
  engineReady?(
    modelId: string | undefined,
    timeoutMs: number,
    signal?: AbortSignal
  ): Promise<GenerationCheck | undefined>
  /** Whether the engine serves only the models it was started with (see `wrongModelWatch`). */
  servesOneModel?(): boolean
  /** Asked when an answer is not ready: a failed load the engine reports, as a fatal answer (`load-failed`). */
  loadFailure?(timeoutMs: number, signal?: AbortSignal): Promise<Assessment | undefined>
  /** Whether a failed generation's answer is the engine's own dead-engine error (three in a row: `engine-dead`). */
  deadGeneration?(answer: Assessment): boolean
  /** With `probe-generation`: asked once the model is listed; ready only when it generates. */
  generate?(modelId: string | undefined, timeoutMs: number, signal?: AbortSignal): Promise<GenerationCheck>
  /** Ended when the wait must end at once: it also cuts short a sleep or a request. */
  halter?: Halter<Halt>
  /** While connections are refused, wakes the loop as soon as the port opens. */
  portWatch?: PortWatch
  /** Resolves when the server's log says it is ready (or when `signal` aborts): the next probe goes out at once. */
  readyLine?(signal: AbortSignal): Promise<void>
  /** When the server is expected ready (its log's progress, earlier runs), on the clock's scale; undefined: unknown. */
  readyAt?(now: number): number | undefined
  /** How long earlier runs answered HTTP before they were ready (history), when known. */
  usualAnsweringMs?: number
  /** Resolves when the server's log has new lines (or when `signal` aborts): the next probe goes out soon. */
  logLines?(signal: AbortSignal): Promise<void>
  clock: Clock
  /** When the wait counts from (defaults to now): the action passes its process start. */
  startedAt?: number
  onEvent?(event: WaitEvent): void
}

/**
 * A timeline keeps this many first and this many last changes, and counts those between: a model list that
 * changes on every probe must not grow memory, the log and the summary without limit.
 */
export const TIMELINE_ENDS = 20

function addChange(timeline: TimelineEntry[], entry: TimelineEntry): void {
  timeline.push(entry)
  if (timeline.length <= 2 * TIMELINE_ENDS + 1) return
  // the oldest of the last changes goes; the next one carries the count
  const [gone] = timeline.splice(TIMELINE_ENDS, 1)
  timeline[TIMELINE_ENDS] = { ...timeline[TIMELINE_ENDS], dropped: (gone.dropped ?? 0) + 1 }
}

/**
 * The state of one wait, shared by the loop and the pieces it is split into. Each piece is synchronous: every await
 * stays in `waitForModel` itself, so the loop's awaits, timers and halt checks run in the order, and with the
 * microtask steps, they had when it was one function.
 */
interface Wait {
  readonly opts: WaitOptions
  readonly deps: WaitDeps
  readonly clock: Clock
  readonly start: number
  readonly deadline: number
  readonly timeline: TimelineEntry[]
  readonly wrongModel: WrongModelWatch
  readonly deadStreak: DeadEngineStreak
  readonly signal: AbortSignal | undefined
  attempts: number
  streak: number
  last?: Assessment
  models: string[]
  firstResponseMs?: number
  generationMs?: number
  generationFailed: boolean
  quietSince: number
  engineReadiness?: Outcome['engineReadiness']
  listedMs?: number
  /** When the server began answering HTTP without being ready: the adaptive schedule counts the load from it. */
  answeringSince?: number
  readySeenAt?: number
  notReadySentAt?: number
  /** The log's ready line wakes the loop once: should the probe then say "not yet", the schedule takes over. */
  readyLineWoke: boolean
}

export async function waitForModel(opts: WaitOptions, deps: WaitDeps): Promise<Outcome> {
  const w = startWait(opts, deps)
  const { clock, deadline, signal } = w
  let done: Outcome | undefined
  for (;;) {
    const sentAt = clock.now()
    if ((done = haltedOutcome(w))) return done
    if (sentAt >= deadline) return timeUp(w)
    w.attempts++
    const budgetMs = Math.min(opts.requestTimeoutMs, deadline - sentAt)
    const probed = await probeOnce(deps, opts.expect, sentAt, budgetMs, signal)
    // An answer cut short by the halt, or one that came in as the server died, says nothing.
    if ((done = haltedOutcome(w))) return done
    // A probe cut short by the deadline says nothing new: the answer before it is the one worth reporting.
    if (budgetMs < opts.requestTimeoutMs && probed.timedOut && w.last) return timeUp(w)
    let assessment = probed.assessment
    if (assessment.state === 'ready' && deps.engineReady) {
      w.listedMs ??= clock.now() - w.start
      const budgetMs = budgetLeftMs(w)
      const check = await deps.engineReady(assessment.modelId, budgetMs, signal)
      if ((done = haltedOutcome(w))) return done
      if (check !== undefined) assessment = foldEngineReadiness(w, assessment, check)
    }
    const failedBefore = w.generationFailed
    w.generationFailed = false
    if (assessment.state === 'ready' && w.streak + 1 >= opts.successThreshold && deps.generate) {
      const generationBudgetMs = budgetLeftMs(w)
      const check = await deps.generate(assessment.modelId, generationBudgetMs, signal)
      if ((done = haltedOutcome(w))) return done
      // Likewise a generation request cut short by the deadline: the failure before it explains more.
      if (generationBudgetMs < opts.requestTimeoutMs && check.assessment.state === 'down' && w.last) {
        return finish(w, failedBefore ? 'generation-failed' : 'timeout')
      }
      assessment = foldGeneration(w, assessment, check)
    }
    if (assessment.state === 'waiting' && probed.answered && deps.loadFailure) {
      const failed = await deps.loadFailure(budgetLeftMs(w), signal)
      if ((done = haltedOutcome(w))) return done
      // the probe's own status and list stay the answer's: the index only says why it will not change
      if (failed !== undefined) assessment = { ...failed, status: assessment.status, models: assessment.models }
    }
    const now = clock.now()
    assessment = w.wrongModel.see(assessment, now)
    noteAnswer(w, assessment, now)
    if ((done = verdict(w, assessment, sentAt, now))) return done
    // not over yet: sleep until the next probe is due, or until a waker says to probe sooner
    const portWatch = deps.portWatch
    if (probed.refused && portWatch) {
      const untilMs = portWaitMs(w, portWatch, sentAt)
      await sleepUntilWoken(clock, untilMs, [(wake) => portWatch.opened(wake), readyLine(w)], signal)
      // a port that shows as open yet refuses must not turn the loop into a busy one
      const earliest = Math.min(sentAt + MIN_PROBE_GAP_MS, deadline)
      if (clock.now() < earliest) await clock.sleep(earliest - clock.now(), signal)
    } else {
      const next = nextScheduledProbe(w, probed, sentAt, now)
      const woke = await sleepUntilWoken(clock, next - clock.now(), [readyLine(w), deps.logLines], signal)
      // New lines in the log: the server is moving on, perhaps to ready in words we do not know. A probe soon;
      // at once when the same lines held the ready line (both wakers fire, and this one may win the race).
      if (woke === 1 && !w.readyLineWoke) {
        const sooner = probeOnLogLines(sentAt, clock.now(), next)
        await sleepUntilWoken(clock, sooner - clock.now(), [readyLine(w)], signal)
      }
    }
  }
}

/** A wait's state before its first probe; the clock is read here once, for `start` (unless the caller gave it). */
function startWait(opts: WaitOptions, deps: WaitDeps): Wait {
  const { clock } = deps
  const start = deps.startedAt ?? clock.now()
  return {
    opts,
    deps,
    clock,
    start,
    deadline: start + opts.timeoutMs,
    timeline: [],
    wrongModel: wrongModelWatch(opts.wrongModelAfterMs ?? 0, () => deps.servesOneModel?.() ?? false),
    deadStreak: deadEngineStreak(),
    signal: deps.halter?.signal,
    // the rest (last answer, first response, generation, ...) is undefined until the loop sees it
    attempts: 0,
    streak: 0,
    models: [],
    generationFailed: false,
    quietSince: start,
    readyLineWoke: false
  }
}

/** The outcome of the wait as it stands now. */
function finish(w: Wait, reason: Reason, halt?: Halt): Outcome {
  const { engineReadiness, readySeenAt, notReadySentAt } = w
  return {
    ready: reason === 'ready',
    reason,
    elapsedMs: w.clock.now() - w.start,
    attempts: w.attempts,
    last: w.last,
    models: w.models,
    firstResponseMs: w.firstResponseMs,
    generationMs: w.generationMs,
    halt,
    ...(engineReadiness === undefined ? {} : { engineReadiness }),
    timeline: w.timeline,
    ...(reason === 'ready' ? { readySeenAt, notReadySentAt } : {})
  }
}

/** The outcome when the wait was halted (checked before each probe and after each request); undefined: not halted. */
function haltedOutcome(w: Wait): Outcome | undefined {
  const halt = w.deps.halter?.halted
  return halt ? finish(w, halt.reason, halt) : undefined
}

/** Out of time: a generation that failed last is the reason, else the timeout. */
const timeUp = (w: Wait): Outcome => finish(w, w.generationFailed ? 'generation-failed' : 'timeout')

/** What a request after the probe may take: the request timeout, or what is left of the wait, 1 ms at least. */
const budgetLeftMs = (w: Wait): number => Math.max(1, Math.min(w.opts.requestTimeoutMs, w.deadline - w.clock.now()))

/** The engine's own readiness answer, folded into the listed answer and kept for the outcome's lifecycle. */
function foldEngineReadiness(w: Wait, assessment: Assessment, check: GenerationCheck): Assessment {
  const folded = withEngineReadiness(assessment, check)
  const engineReadiness = { request: check.request, listedMs: w.listedMs, readyMs: w.engineReadiness?.readyMs }
  w.engineReadiness = engineReadiness
  if (check.assessment.state === 'ready') engineReadiness.readyMs ??= w.clock.now() - w.start
  return folded
}

/** A generation check, folded into the answer; a failed one is kept for the time-up reason and the dead streak. */
function foldGeneration(w: Wait, assessment: Assessment, check: GenerationCheck): Assessment {
  const folded = withGeneration(assessment, check)
  if (check.assessment.state === 'ready') w.generationMs = check.latencyMs
  else w.generationFailed = folded.state !== 'fatal'
  const dead = check.assessment.state !== 'ready' && (w.deps.deadGeneration?.(check.assessment) ?? false)
  return w.deadStreak.see(folded, dead, check.request)
}

/** Keeps what an answer says (first response, models) and tells it: a change at once, the same one with progress. */
function noteAnswer(w: Wait, assessment: Assessment, now: number): void {
  const { last } = w
  const elapsedMs = now - w.start
  if (assessment.status !== undefined) w.firstResponseMs ??= elapsedMs
  if (assessment.models !== undefined) w.models = assessment.models
  if (!sameAnswer(assessment.answer, last?.answer)) {
    const lost =
      assessment.state === 'down' && last !== undefined && last.state !== 'down' && w.firstResponseMs !== undefined
    addChange(w.timeline, { elapsedMs, answer: keptAnswer(assessment.answer), ...(lost ? { lost } : {}) })
    w.deps.onEvent?.({ type: lost ? 'lost' : 'change', elapsedMs, attempt: w.attempts, assessment })
    w.quietSince = now
  } else if (now - w.quietSince >= w.opts.progressIntervalMs) {
    w.deps.onEvent?.({ type: 'progress', elapsedMs, attempt: w.attempts, assessment })
    w.quietSince = now
  }
  w.last = assessment
}

/** Whether this answer ends the wait (fatal, ready enough times in a row, or a one-shot check); undefined: go on. */
function verdict(w: Wait, assessment: Assessment, sentAt: number, now: number): Outcome | undefined {
  if (assessment.state === 'fatal') return finish(w, assessment.fatalReason ?? 'timeout')
  w.streak = assessment.state === 'ready' ? w.streak + 1 : 0
  if (w.streak === 1) w.readySeenAt = now
  if (w.streak === 0) w.notReadySentAt = sentAt
  if (w.streak >= w.opts.successThreshold) return finish(w, 'ready')
  if (w.opts.once) return timeUp(w)
  return undefined
}

/** The log's ready line as a waker, until it has woken the loop once; undefined: none (or spent). */
function readyLine(w: Wait): ((signal: AbortSignal) => Promise<void>) | undefined {
  const seen = w.deps.readyLine
  if (seen === undefined || w.readyLineWoke) return undefined
  return (signal) => seen(signal).then(() => void (w.readyLineWoke ||= !signal.aborted))
}

/** How long to watch a refused port before the next probe. */
function portWaitMs(w: Wait, portWatch: PortWatch, sentAt: number): number {
  // While a local port is closed the watch is the probe; HTTP probes then go out with the progress lines.
  const spacing = portWatch.local ? Math.max(w.opts.intervalMs, w.opts.progressIntervalMs) : w.opts.intervalMs
  return Math.min(sentAt + spacing, w.deadline) - w.clock.now()
}

/** When the schedule sends the next probe (see schedule.ts), counting the load from when the server began answering. */
function nextScheduledProbe(w: Wait, probed: Probed, sentAt: number, now: number): number {
  w.answeringSince = probed.answered ? (w.answeringSince ?? sentAt) : undefined
  return nextProbeAt({
    mode: w.opts.schedule ?? 'fixed',
    intervalMs: w.opts.intervalMs,
    sentAt,
    now,
    answeringSince: w.answeringSince,
    readyAt: w.deps.readyAt?.(now),
    usualAnsweringMs: w.deps.usualAnsweringMs,
    retryAfterMs: probed.retryAfterMs,
    deadline: w.deadline
  })
}

const MIN_PROBE_GAP_MS = 50

/** What `probeOnce` keeps of a probe. */
type Probed = Awaited<ReturnType<typeof probeOnce>>

/**
 * An answer as the timeline keeps it: the ids it names cut as its words cut them. The timeline keeps up to
 * 2 × TIMELINE_ENDS + 1 answers, and a list of long ids changing on every probe must not keep each id whole in each.
 */
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
 * One probe, judged. Only the judgement and the few facts the schedule needs leave this function: the answer
 * itself (up to 1 MiB of text and its parsed JSON) must not stay reachable through the loop's sleep, or a fleet
 * of servers answering near the cap would hold one such answer each until its next probe.
 */
async function probeOnce(
  deps: WaitDeps,
  expect: Expectation,
  sentAt: number,
  budgetMs: number,
  signal: AbortSignal | undefined
): Promise<{ assessment: Assessment; timedOut: boolean; refused: boolean; answered: boolean; retryAfterMs?: number }> {
  const result = await deps.probe(budgetMs, signal)
  return {
    // a `match` regular expression runs within what is left of the probe's time, so a runaway pattern cannot pass the deadline
    assessment: assess(result, expect, sentAt + budgetMs - deps.clock.now()),
    timedOut: result.kind === 'error' && result.code === 'TIMEOUT',
    refused: result.kind === 'error' && result.code === 'ECONNREFUSED',
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
