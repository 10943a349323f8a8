/**
 * An engine's own word on readiness once the model is listed: its readiness routes, paced per server (SGLang's
 * /health: one at a time, once a second at most); `load` waking a sleeping engine; a failed load, a dead core.
 */
import { assess } from './assess.js'
import type { GenerationCheck } from './generation-check.js'
import {
  DEAD_ENGINE_ANSWERS,
  ENGINE_LOAD_FAILURES,
  ENGINE_READINESS,
  loadFailureIn,
  readinessCheckUrl,
  saysReady,
  serverBase
} from '../engines/readiness.js'
import type { ReadinessCheck } from '../engines/engine-record.js'
import type { Engine } from '../engines/index.js'
import type { Assessment } from '../facts/answer.js'
import { createHttpClient, type HttpClient, type ProbeResult } from '../http/probe.js'
import { type Clock, formatDuration } from '../runtime/clock.js'
import type { BodyCollector } from '../runtime/memory.js'
import { engineReadinessRequest } from '../report/lifecycle-report.js'
import { gapAfter } from './schedule.js'

/**
 * When each paced route of a server was last asked, how long it took to answer, and the request in flight: one per
 * server, for its endpoints.
 */
export type ReadinessPace = Map<string, { lastSentAt: number; tookMs?: number; inFlight?: Promise<unknown> }>

export interface EngineReadinessOptions {
  url: URL
  headers: Record<string, string>
  /** What every HTTP client of the wait shares: TLS settings, the secrets to mask, the collector of their bodies. */
  tls: { caCert?: string; insecureTls?: boolean; secrets?: readonly string[]; collector?: BodyCollector }
  clock: Clock
  /** The server's pace, shared by its endpoints: the paced routes are paced for all of them. */
  pace: ReadinessPace
  /** The gap between cheap requests: a paced route's quick "not yet" is asked again after it. */
  probeGapMs: number
  /** `load: true`: a sleeping engine is woken once. */
  load: boolean
  /** What is left of the wait: the wake-up request may take it all (the weights go back to the GPU meanwhile). */
  leftMs(): number
  label(engine: Engine | undefined): string
  debug?(line: string): void
  /** Told of the wake-up request sent (its engine's label, its URL). */
  wokeUp(label: string, url: URL): void
  /** A variable of the server's environment, as far as its `start` line and the step's environment tell. */
  serverVariable?(name: string): string | undefined
}

export interface EngineReadiness {
  /** The engine's readiness routes, in order, until one says not ready; undefined: the engine has none. */
  check(
    engine: Engine | undefined,
    model: string | undefined,
    timeoutMs: number,
    signal?: AbortSignal
  ): Promise<GenerationCheck | undefined>
  /** A failed load the engine reports, as a fatal answer (`load-failed`); undefined: none, or none to ask. */
  loadFailure(
    engine: Engine | undefined,
    model: string | undefined,
    timeoutMs: number,
    signal?: AbortSignal
  ): Promise<Assessment | undefined>
  /** Whether a generation answer is the engine's own dead-engine error (vLLM's EngineDeadError). */
  deadAnswer(engine: Engine | undefined, answer: Assessment): boolean
  close(): Promise<void>
}

export function engineReadiness(o: EngineReadinessOptions): EngineReadiness {
  const client: HttpClient = createHttpClient(o.tls)
  const { pace } = o
  /** Routes that have said ready in this wait: a dead-after-ready status counts only after one. */
  const saidReady = new Set<string>()
  let woke = false

  /**
   * Sends one request, waiting out the route's gap and any request to it in flight (bounded by `timeoutMs`). The gap
   * follows what the last answer cost: a quick "not yet" (SGLang's warm-up 503) did no work, so the route is asked
   * again at the cheap pace; one that generated waits up to `maxGapMs`.
   */
  const paced = async (
    url: URL,
    method: 'GET' | 'POST',
    maxGapMs: number,
    oneAtATime: boolean,
    timeoutMs: number,
    signal?: AbortSignal
  ): Promise<ProbeResult> => {
    const deadline = o.clock.now() + timeoutMs
    const key = `${method} ${url.href}`
    const gap = (p: { tookMs?: number } | undefined): number => gapAfter(p?.tookMs ?? maxGapMs, maxGapMs, o.probeGapMs)
    for (;;) {
      const p = pace.get(key)
      if (p?.inFlight !== undefined && oneAtATime) await p.inFlight.catch(() => undefined)
      const waitMs = p === undefined ? 0 : p.lastSentAt + gap(p) - o.clock.now()
      if (waitMs > 0) await o.clock.sleep(Math.min(waitMs, Math.max(0, deadline - o.clock.now())), signal)
      if (signal?.aborted) return { kind: 'error', code: 'ABORTED', message: 'aborted' }
      // another endpoint may have taken the turn meanwhile; past the deadline, the turn is not taken early
      const now = pace.get(key)
      const turnTaken = oneAtATime && now?.inFlight !== undefined
      const tooSoon = now !== undefined && now.lastSentAt + gap(now) > o.clock.now()
      if (!turnTaken && !tooSoon) break
      if (o.clock.now() >= deadline)
        return { kind: 'error', code: 'TIMEOUT', message: `no answer within ${formatDuration(timeoutMs)}` }
    }
    const sent = client.send({ url, method, headers: o.headers }, Math.max(1, deadline - o.clock.now()), signal)
    const entry: { lastSentAt: number; tookMs?: number; inFlight?: Promise<unknown> } = {
      lastSentAt: o.clock.now(),
      inFlight: sent
    }
    pace.set(key, entry)
    try {
      return await sent
    } finally {
      entry.tookMs = o.clock.now() - entry.lastSentAt
      if (entry.inFlight === sent) entry.inFlight = undefined
    }
  }

  const ask = async (
    c: ReadinessCheck,
    engine: Engine | undefined,
    model: string | undefined,
    timeoutMs: number,
    signal?: AbortSignal
  ): Promise<GenerationCheck> => {
    const { instead } = c
    const value = instead && o.serverVariable?.(instead.variable)
    const route =
      instead !== undefined && value !== undefined && instead.when.test(value) ? { ...c, path: instead.path } : c
    const url = readinessCheckUrl(route, o.url, model)
    const sentAt = o.clock.now()
    const result = await paced(url, c.method, c.minGapMs, c.oneAtATime, timeoutMs, signal)
    o.debug?.(`${url.pathname}: ${result.kind === 'http' ? `HTTP ${result.status}` : result.code}`)
    const request = engineReadinessRequest(o.label(engine), url)
    const latencyMs = o.clock.now() - sentAt
    const base = assess(result, { status: [[200, 200]] })
    // 401, 403 and TLS errors end the wait as they do on the model list
    if (base.state === 'fatal') return { assessment: base, request, latencyMs }
    const status = result.kind === 'http' ? result.status : undefined
    const ready = status !== undefined && result.kind === 'http' && saysReady(c.ready, status, result.json, model)
    const key = url.href
    if (status !== undefined && saidReady.has(key) && c.deadAfterReady?.includes(status)) {
      const answer = { ...base.answer, state: 'fatal' as const, engineDead: { request, by: 'health' as const, status } }
      return { assessment: { ...base, state: 'fatal', fatalReason: 'engine-dead', answer }, request, latencyMs }
    }
    if (ready) saidReady.add(key)
    const state = ready ? 'ready' : base.state === 'down' ? 'down' : 'waiting'
    if (!ready && c.wake !== undefined && o.load && !woke && status !== undefined) {
      woke = true
      const wake = new URL(`${serverBase(o.url)}${c.wake}`)
      o.wokeUp(o.label(engine), wake)
      void client
        .send({ url: wake, method: 'POST', headers: o.headers }, Math.max(1, o.leftMs()), signal)
        .then((r) => o.debug?.(`${wake.pathname}: ${r.kind === 'http' ? `HTTP ${r.status}` : r.code}`))
    }
    // a ready answer other than 200 (vLLM's /is_sleeping 404 without dev mode) is told as the status it is
    return { assessment: { ...base, state, answer: { ...base.answer, state } }, request, latencyMs }
  }

  return {
    async check(engine, model, timeoutMs, signal) {
      const checks = engine === undefined ? [] : ENGINE_READINESS[engine]
      if (checks.length === 0) return undefined
      // side by side, not one after the other: each is a flag check (or paced alone), and a remote server's
      // round trips must not add up before a ready answer is seen
      const answers = await Promise.all(checks.map((c) => ask(c, engine, model, timeoutMs, signal)))
      // the one that decides: a dead engine first, then the first not ready, else the last (all ready)
      const state = (a: GenerationCheck): string => a.assessment.state
      return answers.find((a) => state(a) === 'fatal') ?? answers.find((a) => state(a) !== 'ready') ?? answers.at(-1)
    },
    async loadFailure(engine, model, timeoutMs, signal) {
      const c = engine === undefined ? undefined : ENGINE_LOAD_FAILURES[engine]
      if (c === undefined) return undefined
      const url = new URL(`${serverBase(o.url)}${c.path}`)
      // asked beside the probes, never in their way: skipped while too soon since the last, or one in flight
      const p = pace.get(`${c.method} ${url.href}`)
      if (p !== undefined && (p.inFlight !== undefined || o.clock.now() - p.lastSentAt < c.minGapMs)) return undefined
      const result = await paced(url, c.method, c.minGapMs, true, timeoutMs, signal)
      o.debug?.(`${url.pathname}: ${result.kind === 'http' ? `HTTP ${result.status}` : result.code}`)
      const failed = result.kind === 'http' && result.status === 200 ? loadFailureIn(result.json, model) : undefined
      if (failed === undefined) return undefined
      const request = `${o.label(engine)} POST ${url.pathname}`
      const answer = { state: 'fatal' as const, loadFailed: { request, ...failed } }
      return { state: 'fatal', fatalReason: 'load-failed', answer }
    },
    deadAnswer(engine, answer) {
      const pattern = engine === undefined ? undefined : DEAD_ENGINE_ANSWERS[engine]
      if (pattern === undefined || answer.state === 'ready') return false
      return pattern.test(`${answer.excerpt ?? ''}\n${answer.answer.said ?? ''}`)
    },
    close: () => client.close()
  }
}
