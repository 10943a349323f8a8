import { parseJson, type ProbeResult } from '../../../src/http/probe.js'
import type { Clock } from '../../../src/runtime/clock.js'
import { TIMELINE_ENDS, type WaitOptions, waitForModel } from '../../../src/wait/loop.js'
import type { WaitEvent } from '../../../src/facts/wait.js'
import type { Halt } from '../../../src/facts/halt.js'
import { Halter } from '../../../src/runtime/halter.js'
import { answerWords } from '../../../src/report/answer-report.js'
import { LOG_BURST_GAP_MS } from '../../../src/wait/schedule.js'
import { FIXED } from '../../../src/inputs/settings.js'
import { assess } from '../../../src/wait/assess.js'

/**
 * A clock that moves only when the code under test waits or a fake probe takes time: every pending wait
 * (a sleep, a port opening) is a timer, and time jumps to the earliest one once all have been registered.
 */
class FakeClock implements Clock {
  t = 0
  sleeps: number[] = []
  private timers: Array<{ at: number; resolve: () => void }> = []
  now = (): number => this.t
  wallMs = (): number => Date.UTC(2026, 0, 1) + this.t
  sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
    this.sleeps.push(ms)
    return this.until(this.t + Math.max(0, ms), signal)
  }
  until(at: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve()
      const timer = { at, resolve }
      this.timers.push(timer)
      signal?.addEventListener(
        'abort',
        () => {
          this.timers = this.timers.filter((x) => x !== timer)
          resolve()
        },
        { once: true }
      )
      setImmediate(() => this.advance())
    })
  }
  private advance(): void {
    if (this.timers.length === 0) return
    const next = this.timers.reduce((a, b) => (b.at < a.at ? b : a))
    this.timers = this.timers.filter((x) => x !== next)
    this.t = Math.max(this.t, next.at)
    next.resolve()
  }
}

const refused: ProbeResult = { kind: 'error', code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' }
const http = (status: number, body = ''): ProbeResult => ({
  kind: 'http',
  status,
  body,
  json: parseJson(body),
  contentType: 'application/json',
  truncated: false
})
const listing = (id: string) => http(200, JSON.stringify({ object: 'list', data: [{ id }] }))

const options = (over: Partial<WaitOptions> = {}): WaitOptions => ({
  expect: { status: [[200, 299]], model: 'kimi' },
  intervalMs: 5_000,
  timeoutMs: 60_000,
  requestTimeoutMs: 10_000,
  progressIntervalMs: 30_000,
  wrongModelAfterMs: 0,
  probeGapMs: 5_000,
  generationFailedAfter: { ms: 60_000, attempts: 10 },
  ...over
})

/** Replays a server whose answer depends on the fake time; each probe takes `latencyMs`. */
function server(clock: FakeClock, answer: (t: number) => ProbeResult, latencyMs = 10) {
  const timeouts: number[] = []
  return {
    timeouts,
    probe: async (timeoutMs: number): Promise<ProbeResult> => {
      timeouts.push(timeoutMs)
      const result = answer(clock.t)
      clock.t += Math.min(latencyMs, timeoutMs)
      return latencyMs > timeoutMs ? { kind: 'error', code: 'TIMEOUT', message: 'no answer' } : result
    }
  }
}

describe('waitForModel', () => {
  it('once (wait-for-model check): the first answer decides, with no sleep and no second probe', async () => {
    for (const [answer, ready, reason] of [
      [http(503, '{"error":"Loading model"}'), false, 'timeout'],
      [refused, false, 'timeout'],
      [listing('kimi-k2'), true, 'ready'],
      [http(401, '{"error":"bad key"}'), false, 'unauthorized']
    ] as Array<[ProbeResult, boolean, string]>) {
      const clock = new FakeClock()
      const s = server(clock, () => answer)
      const outcome = await waitForModel(options({ once: true, timeoutMs: 10_000, intervalMs: 10_000 }), {
        probe: s.probe,
        clock
      })
      expect({ ready: outcome.ready, reason: outcome.reason, attempts: outcome.attempts }).toEqual({
        ready,
        reason,
        attempts: 1
      })
      expect(clock.sleeps).toEqual([])
      expect(s.timeouts).toEqual([10_000])
    }
  })

  it('probes at once, then every interval, and is ready at the first probe that lists the model', async () => {
    const clock = new FakeClock()
    const s = server(clock, (t) =>
      t < 12_000 ? refused : t < 20_000 ? http(503, '{"error":"Loading model"}') : listing('/shared/kimi-k2.5-int4')
    )
    const events: WaitEvent[] = []
    const outcome = await waitForModel(options(), {
      probe: s.probe,
      clock,
      onEvent: (e) => events.push(e)
    })
    expect(outcome).toMatchObject({
      ready: true,
      reason: 'ready',
      attempts: 5,
      elapsedMs: 20_010,
      firstResponseMs: 15_010,
      models: ['/shared/kimi-k2.5-int4']
    })
    expect(outcome.last?.modelId).toBe('/shared/kimi-k2.5-int4')
    expect(events.map((e) => [e.type, e.elapsedMs, e.assessment.answer])).toEqual([
      ['change', 10, { state: 'down', error: 'ECONNREFUSED' }],
      ['change', 15010, { state: 'waiting', status: 503, said: 'Loading model' }],
      ['change', 20010, { state: 'ready', status: 200, models: ['/shared/kimi-k2.5-int4'] }]
    ])
    // the timeline is the changes, for the report
    expect(outcome.timeline.map((t) => [t.elapsedMs, t.answer])).toEqual(
      events.map((e) => [e.elapsedMs, e.assessment.answer])
    )
    // the interval counts from each probe's start, so slow answers do not stretch it
    expect(clock.sleeps).toEqual([4_990, 4_990, 4_990, 4_990])
  })

  it('times out at the deadline, never sleeping past it, with the last answer', async () => {
    const clock = new FakeClock()
    const s = server(clock, () => listing('/models/llama-3-8b'))
    const outcome = await waitForModel(options({ timeoutMs: 12_000 }), { probe: s.probe, clock })
    expect(outcome).toMatchObject({
      ready: false,
      reason: 'timeout',
      attempts: 3,
      elapsedMs: 12_000,
      models: ['/models/llama-3-8b']
    })
    expect(outcome.last?.answer).toMatchObject({ state: 'waiting', missing: { what: 'model' } })
    expect(clock.t).toBe(12_000)
  })

  it('never lets one probe run past the deadline', async () => {
    const clock = new FakeClock()
    const s = server(clock, () => refused, 60_000)
    const outcome = await waitForModel(options({ timeoutMs: 7_000, requestTimeoutMs: 10_000, intervalMs: 5_000 }), {
      probe: s.probe,
      clock
    })
    expect(s.timeouts).toEqual([7_000])
    expect(outcome).toMatchObject({ reason: 'timeout', elapsedMs: 7_000 })
  })

  it('keeps the last real answer when the final probe is cut short by the deadline', async () => {
    const clock = new FakeClock()
    const outcome = await waitForModel(options({ timeoutMs: 6_000 }), {
      clock,
      probe: async (timeoutMs) => {
        if (clock.t === 0) return listing('/models/llama-3-8b')
        clock.t += timeoutMs
        return { kind: 'error', code: 'TIMEOUT', message: 'no answer' }
      }
    })
    expect(outcome).toMatchObject({ reason: 'timeout', attempts: 2, elapsedMs: 6_000 })
    expect(outcome.last?.answer).toEqual({
      state: 'waiting',
      status: 200,
      models: ['/models/llama-3-8b'],
      missing: { what: 'model', model: 'kimi' }
    })
  })

  it('counts the deadline from startedAt (the process start for the action)', async () => {
    const clock = new FakeClock()
    clock.t = 3_000
    const s = server(clock, () => refused)
    const outcome = await waitForModel(options({ timeoutMs: 10_000 }), { probe: s.probe, clock, startedAt: 0 })
    expect(outcome.elapsedMs).toBe(10_000)
    expect(s.timeouts[0]).toBe(7_000)
  })

  it('stops at once on a fatal answer', async () => {
    const clock = new FakeClock()
    const s = server(clock, (t) => (t < 5_000 ? refused : http(401, '{"error":"Unauthorized"}')))
    const outcome = await waitForModel(options(), { probe: s.probe, clock })
    expect(outcome).toMatchObject({ ready: false, reason: 'unauthorized', attempts: 2, elapsedMs: 5_010 })
    expect(outcome.last?.status).toBe(401)
  })

  it('while connections to another host are refused, probes at the cheap pace (a refused connection costs nothing)', async () => {
    const clock = new FakeClock()
    const s = server(clock, (t) => (t < 12_345 ? refused : listing('/shared/kimi-k2.5-int4')))
    // another host's port has no watch: the probes alone see it open
    const outcome = await waitForModel(options({ probeGapMs: FIXED.probeGapMs }), { probe: s.probe, clock })
    expect(outcome.ready).toBe(true)
    expect(outcome.elapsedMs - 12_345).toBeLessThanOrEqual(FIXED.probeGapMs + 10)
  })

  it('while a local port is closed, lets the watch stand in for HTTP probes, which go out with the progress lines', async () => {
    const clock = new FakeClock()
    const s = server(clock, (t) => (t < 72_345 ? refused : listing('/shared/kimi-k2.5-int4')))
    const events: WaitEvent[] = []
    const portWatch = { opened: (signal: AbortSignal) => clock.until(72_345, signal) }
    const outcome = await waitForModel(options({ timeoutMs: 600_000 }), {
      probe: s.probe,
      clock,
      portWatch,
      onEvent: (e) => events.push(e)
    })
    expect(outcome).toMatchObject({ ready: true, attempts: 4, elapsedMs: 72_355 })
    expect(events.map((e) => `${e.type}@${e.elapsedMs}`)).toEqual([
      'change@10',
      'progress@30010',
      'progress@60010',
      'change@72355'
    ])
  })

  it("through a forward (a remote host's port): a failed connection is a refused one while the watch there says closed, and its opening wakes the probe", async () => {
    const clock = new FakeClock()
    // the forward accepts, and the remote end's refusal closes the connection: no ECONNREFUSED here
    const closedThere: ProbeResult = { kind: 'error', code: 'UND_ERR_SOCKET', message: 'other side closed' }
    const s = server(clock, (t) => (t < 12_345 ? closedThere : listing('/shared/kimi-k2.5-int4')))
    const sent: number[] = []
    const portWatch = {
      opened: (signal: AbortSignal) => clock.until(12_345, signal),
      closed: () => clock.t < 12_345
    }
    const outcome = await waitForModel(options({ probeGapMs: FIXED.probeGapMs }), {
      probe: (ms) => (sent.push(clock.t), s.probe(ms)),
      clock,
      portWatch
    })
    expect(outcome.ready).toBe(true)
    // seen as the watch says it opens, not a cheap probe's gap later; and few probes while it is closed
    expect(outcome.elapsedMs - 12_345).toBeLessThanOrEqual(10)
    expect(sent.length).toBeLessThanOrEqual(4)
  })

  it('through a forward, with no word from the watch (it ended, or says the port listens): the cheap pace, as before', async () => {
    for (const closed of [undefined, () => false]) {
      const clock = new FakeClock()
      const closedThere: ProbeResult = { kind: 'error', code: 'UND_ERR_SOCKET', message: 'other side closed' }
      const s = server(clock, (t) => (t < 12_345 ? closedThere : listing('/shared/kimi-k2.5-int4')))
      let watched = 0
      const portWatch = {
        opened: () => (watched++, Promise.resolve()),
        ...(closed === undefined ? {} : { closed })
      }
      const outcome = await waitForModel(options({ probeGapMs: FIXED.probeGapMs }), {
        probe: s.probe,
        clock,
        portWatch
      })
      expect(outcome.ready).toBe(true)
      expect(watched).toBe(0)
      expect(outcome.elapsedMs - 12_345).toBeLessThanOrEqual(FIXED.probeGapMs + 10)
    }
  })

  it('once the server answers HTTP, keeps to the interval whatever the port does', async () => {
    const clock = new FakeClock()
    const s = server(clock, (t) => (t < 1_000 ? http(503) : listing('kimi')))
    let watched = 0
    const outcome = await waitForModel(options(), {
      probe: s.probe,
      clock,
      portWatch: {
        opened: () => {
          watched++
          return Promise.resolve()
        }
      }
    })
    expect(watched).toBe(0)
    expect(outcome).toMatchObject({ ready: true, attempts: 2, elapsedMs: 5_010 })
  })

  it('does not spin when the port looks open but connections are still refused', async () => {
    const clock = new FakeClock()
    const sent: number[] = []
    const outcome = await waitForModel(options({ timeoutMs: 1_000 }), {
      clock,
      probe: async () => {
        sent.push(clock.t)
        return refused
      },
      portWatch: { opened: () => Promise.resolve() }
    })
    expect(outcome.reason).toBe('timeout')
    expect(sent.length).toBe(20)
    expect(sent.every((t, i) => i === 0 || t - sent[i - 1] >= 50)).toBe(true)
  })

  it('tells a new answer by what the server said, not by the words for it', async () => {
    const clock = new FakeClock()
    const answers: ProbeResult[] = [
      { kind: 'error', code: 'ETIMEDOUT', message: 'connect ETIMEDOUT' },
      // another code for the same failure: the same answer
      { kind: 'error', code: 'UND_ERR_CONNECT_TIMEOUT', message: 'Connect Timeout Error' },
      http(503, '{"error":"Loading model"}'),
      http(503, '{"error":"Loading model"}'),
      // the server's own message changed: a new answer
      http(503, '{"error":"Compiling CUDA graphs"}'),
      listing('kimi')
    ]
    let i = 0
    const events: WaitEvent[] = []
    const outcome = await waitForModel(options(), {
      clock,
      probe: async () => answers[i++],
      onEvent: (e) => events.push(e)
    })
    expect(outcome).toMatchObject({ ready: true, attempts: 6 })
    expect(events.map((e) => [e.type, e.attempt, e.assessment.answer.said])).toEqual([
      ['change', 1, undefined],
      ['change', 3, 'Loading model'],
      ['change', 5, 'Compiling CUDA graphs'],
      ['change', 6, undefined]
    ])
  })

  it('prints a still-waiting line every progress-interval while nothing changes', async () => {
    const clock = new FakeClock()
    const s = server(clock, () => refused, 0)
    const events: WaitEvent[] = []
    await waitForModel(options({ timeoutMs: 100_000, progressIntervalMs: 30_000 }), {
      probe: s.probe,
      clock,
      onEvent: (e) => events.push(e)
    })
    expect(events.map((e) => `${e.type}@${e.elapsedMs}#${e.attempt}`)).toEqual([
      'change@0#1',
      'progress@30000#7',
      'progress@60000#13',
      'progress@90000#19'
    ])
  })
})

/** A fake clock whose sleep can be cut short: `at(t, fn)` runs `fn` when fake time reaches `t`, mid-sleep too. */
class EventfulClock extends FakeClock {
  private events: Array<{ t: number; fn: () => void }> = []
  at(t: number, fn: () => void): void {
    this.events.push({ t, fn })
  }
  sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
    this.sleeps.push(ms)
    const end = this.t + Math.max(0, ms)
    for (const e of this.events.filter((e) => e.t <= end).sort((a, b) => a.t - b.t)) {
      this.events.splice(this.events.indexOf(e), 1)
      this.t = Math.max(this.t, e.t)
      e.fn()
      if (signal?.aborted) return
    }
    this.t = end
  }
}

describe('the timeline', () => {
  it('of a list that changes on every probe keeps the first and last changes and counts those left out', async () => {
    const clock = new FakeClock()
    let n = 0
    const s = server(clock, () => listing(`other-${++n}`))
    const outcome = await waitForModel(options({ intervalMs: 1_000, timeoutMs: 100_000 }), {
      probe: s.probe,
      clock
    })
    expect(n).toBe(100)
    expect(outcome.timeline).toHaveLength(2 * TIMELINE_ENDS + 1)
    const summaries = outcome.timeline.map((t) => answerWords(t.answer).summary)
    expect(summaries[0]).toMatch(/\[other-1\]/)
    expect(summaries[TIMELINE_ENDS - 1]).toMatch(/\[other-20\]/)
    expect(summaries[TIMELINE_ENDS]).toMatch(/\[other-80\]/)
    expect(summaries.at(-1)).toMatch(/\[other-100\]/)
    expect(outcome.timeline.map((t) => t.dropped ?? 0)).toEqual(
      outcome.timeline.map((_, i) => (i === TIMELINE_ENDS ? 100 - 2 * TIMELINE_ENDS - 1 : 0))
    )
  })

  it('names at most 10 listed models in a summary, then how many more, and keeps 1000', async () => {
    const clock = new FakeClock()
    const ids = Array.from({ length: 60_000 }, (_, i) => `m${i}`)
    const s = server(clock, () => http(200, JSON.stringify({ object: 'list', data: ids.map((id) => ({ id })) })))
    const outcome = await waitForModel(options({ timeoutMs: 1_000 }), { probe: s.probe, clock })
    expect(answerWords(outcome.last!.answer).summary).toBe(
      'HTTP 200, serving [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9 and 59990 more] — "kimi" is not among the listed models'
    )
    // the first 1000 ids are kept (the models output), and how many there were
    expect(outcome.models).toHaveLength(1000)
    expect(outcome.last?.modelCount).toBe(60_000)
  })

  it('keeps the ids a change names cut as its words cut them, the last answer whole', async () => {
    const clock = new FakeClock()
    const long = `m-${'x'.repeat(5_000)}`
    const s = server(clock, () => listing(long))
    const outcome = await waitForModel(options({ timeoutMs: 1_000 }), { probe: s.probe, clock })
    const [change] = outcome.timeline
    expect(change.answer.models?.[0]).toHaveLength(201)
    expect(outcome.last?.answer.models?.[0]).toBe(long)
    expect(answerWords(change.answer)).toEqual(answerWords(outcome.last!.answer))
  })
})

describe('waitForModel halted from outside', () => {
  it('ends at the moment of the halt, mid-sleep, with its reason and detail', async () => {
    const clock = new EventfulClock()
    const halter = new Halter<Halt>()
    clock.at(7_300, () => halter.halt({ reason: 'server-exited', detail: 'the server process 42 exited with code 1' }))
    const s = server(clock, () => refused)
    const outcome = await waitForModel(options({ intervalMs: 5_000 }), { probe: s.probe, clock, halter })
    expect(outcome).toMatchObject({ ready: false, reason: 'server-exited', elapsedMs: 7_300, attempts: 2 })
    expect(outcome.halt?.detail).toBe('the server process 42 exited with code 1')
  })

  it('does not count an answer that arrives once the halt has happened', async () => {
    const clock = new FakeClock()
    const halter = new Halter<Halt>()
    const outcome = await waitForModel(options(), {
      clock,
      halter,
      probe: async () => {
        halter.halt({ reason: 'log-error', detail: 'line 3 matches' })
        return listing('kimi')
      }
    })
    expect(outcome).toMatchObject({ ready: false, reason: 'log-error', timeline: [] })
  })

  it('passes the halt signal to the probe, so that a hung request is cut short too', async () => {
    const clock = new FakeClock()
    const halter = new Halter<Halt>()
    let seen: AbortSignal | undefined
    await waitForModel(options(), {
      clock,
      halter,
      probe: async (_t, signal) => {
        seen = signal
        halter.halt({ reason: 'cancelled', detail: 'SIGTERM' })
        return refused
      }
    })
    expect(seen).toBe(halter.signal)
  })
})

describe('waitForModel with a generation check', () => {
  const generated = (latencyMs: number) => async () => ({
    request: 'POST /v1/completions',
    latencyMs,
    assessment: {
      state: 'ready' as const,
      answer: { state: 'ready' as const }
    }
  })
  const failed = (status: number, said: string) => async () => ({
    request: 'POST /v1/completions',
    latencyMs: 20,
    assessment: {
      state: status === 401 ? ('fatal' as const) : ('waiting' as const),
      answer: { state: status === 401 ? ('fatal' as const) : ('waiting' as const), status, said },
      fatalReason: status === 401 ? ('unauthorized' as const) : undefined,
      status
    }
  })

  it('is ready only once the listed model generates, and records the latency', async () => {
    const clock = new FakeClock()
    const s = server(clock, () => listing('/shared/kimi-k2.5-int4'))
    let calls = 0
    const ok = generated(85)
    const fail = failed(503, 'Loading model')
    const events: WaitEvent[] = []
    const outcome = await waitForModel(options(), {
      probe: s.probe,
      clock,
      generate: async () => (++calls < 3 ? fail() : ok()),
      onEvent: (e) => events.push(e)
    })
    expect(outcome).toMatchObject({ ready: true, reason: 'ready', attempts: 3, generationMs: 85 })
    // two answers: a listed model that fails to generate (twice: the same answer), then one that generates
    const listed = { status: 200, models: ['/shared/kimi-k2.5-int4'] }
    const request = 'POST /v1/completions'
    expect(events.map((e) => e.assessment.answer)).toEqual([
      {
        state: 'waiting',
        ...listed,
        generation: { request, answer: { state: 'waiting', status: 503, said: 'Loading model' } }
      },
      { state: 'ready', ...listed, generation: { request, answer: { state: 'ready' } } }
    ])
    expect(outcome.timeline).toHaveLength(2)
  })

  it('asks with the matched model id, never before the model is listed, within the request timeout', async () => {
    const clock = new FakeClock()
    const s = server(clock, (t) => (t < 5_000 ? refused : listing('/shared/kimi-k2.5-int4')))
    const asked: Array<[string | undefined, number]> = []
    await waitForModel(options({ requestTimeoutMs: 3_000 }), {
      probe: s.probe,
      clock,
      generate: async (model, timeoutMs) => {
        asked.push([model, timeoutMs])
        return generated(10)()
      }
    })
    expect(asked).toEqual([['/shared/kimi-k2.5-int4', 3_000]])
  })

  it('gives up at the timeout with generation-failed and the server error', async () => {
    const clock = new FakeClock()
    const s = server(clock, () => listing('kimi'))
    const outcome = await waitForModel(options({ timeoutMs: 12_000 }), {
      probe: s.probe,
      clock,
      generate: failed(500, 'EngineCore encountered an issue')
    })
    expect(outcome).toMatchObject({ ready: false, reason: 'generation-failed', generationMs: undefined })
    // listed, and the generation request refused (the failure message words it: server.e2e.test.ts)
    expect(outcome.last?.answer).toEqual({
      state: 'waiting',
      status: 200,
      models: ['kimi'],
      generation: {
        request: 'POST /v1/completions',
        answer: { state: 'waiting', status: 500, said: 'EngineCore encountered an issue' }
      }
    })
  })

  it('keeps the server error when the last generation request is cut short by the deadline', async () => {
    const clock = new FakeClock()
    const s = server(clock, () => listing('kimi'))
    const fail = failed(500, 'EngineCore encountered an issue')
    const outcome = await waitForModel(options({ timeoutMs: 12_000 }), {
      probe: s.probe,
      clock,
      generate: async (_model, timeoutMs) => {
        if (timeoutMs >= 10_000) return fail()
        clock.t += timeoutMs
        return {
          request: 'POST /v1/completions',
          latencyMs: timeoutMs,
          assessment: {
            state: 'down' as const,
            answer: { state: 'down' as const, error: 'TIMEOUT' }
          }
        }
      }
    })
    expect(outcome).toMatchObject({ ready: false, reason: 'generation-failed', elapsedMs: 12_000 })
    // the server's error, not the cut-short request
    expect(outcome.last?.answer.generation?.answer).toEqual({
      state: 'waiting',
      status: 500,
      said: 'EngineCore encountered an issue'
    })
  })

  it('says timeout, not generation-failed, when the model was no longer listed at the end', async () => {
    const clock = new FakeClock()
    const s = server(clock, (t) => (t < 5_000 ? listing('kimi') : refused))
    const outcome = await waitForModel(options({ timeoutMs: 12_000 }), {
      probe: s.probe,
      clock,
      generate: failed(500, 'x')
    })
    expect(outcome.reason).toBe('timeout')
  })

  it('ends with generation-failed once the same server error has come for 60 s and 10 attempts, whichever is later', async () => {
    for (const [intervalMs, attempts, elapsedMs, words] of [
      // every 5 s: ten attempts take 45 s, so the 60 s decide
      [5_000, 13, 60_000, '1m00s'],
      // every 10 s: 60 s are six attempts, so the ten decide
      [10_000, 10, 90_000, '1m30s']
    ] as const) {
      const clock = new FakeClock()
      const s = server(clock, () => listing('kimi'), 0)
      let n = 0
      const outcome = await waitForModel(options({ intervalMs, probeGapMs: intervalMs, timeoutMs: 1_800_000 }), {
        probe: s.probe,
        clock,
        // the request id changes with every answer; the error is the same
        generate: async () => failed(500, `Internal server error (request ${++n})`)()
      })
      expect(outcome).toMatchObject({ ready: false, reason: 'generation-failed', attempts })
      expect(outcome.elapsedMs).toBe(elapsedMs)
      expect(outcome.last?.state).toBe('fatal')
      expect(outcome.last?.answer.generationsFailing).toEqual({
        request: 'POST /v1/completions',
        status: 500,
        forMs: elapsedMs,
        count: attempts
      })
      expect(answerWords(outcome.last?.answer ?? { state: 'fatal' }).detail).toBe(
        `the model is listed and the engine says ready, but POST /v1/completions answered the same error for ${words} ` +
          `(${attempts} times in a row): HTTP 500 Internal server error (request ${attempts}). ` +
          "Waiting will not make it generate: see the server's log"
      )
    }
  })

  it('waits to the timeout while the error changes, says not yet (503, 429), or the engine is not ready', async () => {
    const cases: Array<[string, Partial<Parameters<typeof waitForModel>[1]>]> = [
      ['changing', { generate: async () => failed(clock().t % 10_000 === 0 ? 500 : 502, 'x')() }],
      ['503', { generate: failed(503, 'Service Unavailable') }],
      ['429', { generate: failed(429, 'Too many requests') }],
      [
        'engine not ready every other time',
        {
          generate: failed(500, 'x'),
          engineReady: async () => ({
            request: 'GET /health',
            latencyMs: 1,
            assessment:
              clock().t % 10_000 === 0
                ? { state: 'ready' as const, answer: { state: 'ready' as const } }
                : { state: 'waiting' as const, answer: { state: 'waiting' as const, status: 503 }, status: 503 }
          })
        }
      ]
    ]
    let current = new FakeClock()
    const clock = () => current
    for (const [name, deps] of cases) {
      current = new FakeClock()
      const s = server(current, () => listing('kimi'), 0)
      const outcome = await waitForModel(options({ timeoutMs: 300_000 }), {
        probe: s.probe,
        clock: current,
        ...deps
      })
      expect([name, outcome.reason, outcome.elapsedMs]).toEqual([
        name,
        name === 'engine not ready every other time' ? 'timeout' : 'generation-failed',
        300_000
      ])
    }
  })

  it('stops at once when the generation route refuses the key', async () => {
    const clock = new FakeClock()
    const s = server(clock, () => listing('kimi'))
    const outcome = await waitForModel(options(), { probe: s.probe, clock, generate: failed(401, 'Unauthorized') })
    expect(outcome).toMatchObject({ ready: false, reason: 'unauthorized', attempts: 1 })
  })
})

describe('waitForModel when the server stops answering', () => {
  it('reports a lost event once, when an answering server starts refusing', async () => {
    const clock = new FakeClock()
    const s = server(clock, (t) => (t < 5_000 ? refused : t < 10_000 ? http(503) : refused))
    const events: WaitEvent[] = []
    const outcome = await waitForModel(options({ timeoutMs: 20_000 }), {
      probe: s.probe,
      clock,
      onEvent: (e) => events.push(e)
    })
    expect(events.map((e) => [e.type, e.assessment.state, e.assessment.status])).toEqual([
      ['change', 'down', undefined],
      ['change', 'waiting', 503],
      ['lost', 'down', undefined]
    ])
    expect(outcome.timeline.map((t) => t.lost ?? false)).toEqual([false, false, true])
  })
})

describe('Retry-After', () => {
  const busy = (retryAfterMs: number): ProbeResult => ({
    kind: 'http',
    status: 429,
    body: '{"error":"rate limited"}',
    json: { error: 'rate limited' },
    contentType: 'application/json',
    truncated: false,
    retryAfterMs
  })

  it.each([
    ['shorter than the interval: the interval wins', 2_000, 5_000],
    ['longer than the interval: honoured', 12_000, 12_000],
    ['longer than 4 intervals: capped at 4 intervals', 600_000, 20_000]
  ])('%s', async (_case, retryAfterMs, gap) => {
    const clock = new FakeClock()
    const sentAt: number[] = []
    const outcome = await waitForModel(options(), {
      clock,
      probe: async () => {
        sentAt.push(clock.t)
        return sentAt.length === 1 ? busy(retryAfterMs) : listing('kimi')
      }
    })
    expect(outcome).toMatchObject({ ready: true, attempts: 2 })
    expect(sentAt[1] - sentAt[0]).toBe(gap)
  })

  it('never waits past the deadline', async () => {
    const clock = new FakeClock()
    const outcome = await waitForModel(options({ timeoutMs: 8_000 }), { clock, probe: async () => busy(15_000) })
    expect(outcome).toMatchObject({ ready: false, reason: 'timeout', attempts: 1, elapsedMs: 8_000 })
    expect(clock.sleeps).toEqual([8_000])
  })
})

describe('the schedule and the log', () => {
  const loading = http(503, JSON.stringify({ error: { message: 'Loading model' } }))

  it("probes at once when the log's ready line is read, whatever the pace", async () => {
    const clock = new FakeClock()
    const s = server(clock, (t) => (t < 3_000 ? loading : listing('kimi')))
    const outcome = await waitForModel(options(), {
      probe: s.probe,
      clock,
      readyLine: (signal) => clock.until(3_000, signal)
    })
    expect(outcome.ready).toBe(true)
    expect(outcome.attempts).toBe(2)
    expect(outcome.elapsedMs).toBe(3_010)
  })

  it('is woken by the ready line once: a "not yet" after it goes back to the schedule', async () => {
    const clock = new FakeClock()
    const s = server(clock, (t) => (t < 4_000 ? loading : listing('kimi')))
    const outcome = await waitForModel(options(), {
      probe: s.probe,
      clock,
      readyLine: async () => undefined // read before the wait began
    })
    expect(outcome.ready).toBe(true)
    // at once (answered at 10), woken at once (sent at 10), then an interval after that
    expect(outcome.attempts).toBe(3)
    expect(outcome.elapsedMs).toBe(5_020)
  })

  it('as the settings have it (a probe costs the server nothing): a 503 of a 5-minute load turning ready is seen within probeGapMs', async () => {
    const clock = new FakeClock()
    const s = server(clock, (t) => (t < 300_000 ? loading : listing('kimi')))
    const outcome = await waitForModel(options({ timeoutMs: 600_000, probeGapMs: FIXED.probeGapMs }), {
      probe: s.probe,
      clock
    })
    expect(outcome.ready).toBe(true)
    expect(outcome.elapsedMs - 300_000).toBeLessThanOrEqual(FIXED.probeGapMs + 10)
    expect(outcome.attempts).toBe(Math.ceil(300_000 / FIXED.probeGapMs) + 1)
  })

  it('a costly generation is paced by its length, up to interval: a 2 s failing generation every 5 s', async () => {
    const clock = new FakeClock()
    const generatedAt: number[] = []
    const outcome = await waitForModel(options({ timeoutMs: 30_000, probeGapMs: FIXED.probeGapMs }), {
      probe: async () => listing('kimi'),
      clock,
      generate: async () => {
        generatedAt.push(clock.t)
        clock.t += 2_000
        return {
          assessment: assess(http(500, '{"error":"boom"}'), { status: [[200, 299]] }),
          request: 'POST /v1/completions',
          latencyMs: 2_000
        }
      }
    })
    expect(outcome.ready).toBe(false)
    expect(generatedAt.slice(1).every((t, i) => t - generatedAt[i] === 5_000)).toBe(true)
  })

  // Lines written at these moments (the last one the ready line, in words the tables do not know).
  const writes = (at: number[]) => (clock: FakeClock) => (signal: AbortSignal) =>
    clock.until(at.find((t) => t > clock.t) ?? Infinity, signal)

  it('new log lines bring a probe forward: a ready line in words we do not know is seen at once', async () => {
    const clock = new FakeClock()
    const s = server(clock, (t) => (t < 3_000 ? loading : listing('kimi')))
    const outcome = await waitForModel(options(), {
      probe: s.probe,
      clock,
      logLines: writes([1_000, 2_000, 3_000])(clock)
    })
    // without the lines: at 5 s (interval); with them, a probe at each burst
    expect(outcome).toMatchObject({ ready: true, attempts: 4, elapsedMs: 3_010 })
  })

  it('a log that writes all the time: probes LOG_BURST_GAP_MS apart, and ready seen within that', async () => {
    const clock = new FakeClock()
    const sent: number[] = []
    const s = server(clock, (t) => (sent.push(t), t < 3_000 ? loading : listing('kimi')))
    const outcome = await waitForModel(options(), {
      probe: s.probe,
      clock,
      logLines: writes(Array.from({ length: 1_000 }, (_, i) => i * 10))(clock)
    })
    expect(outcome.ready).toBe(true)
    expect(outcome.elapsedMs - 3_000).toBeLessThanOrEqual(LOG_BURST_GAP_MS + 10)
    expect(sent.slice(1).every((t, i) => t - sent[i] >= LOG_BURST_GAP_MS)).toBe(true)
  })

  it('after the ready line, a server that logs each request it gets (an access log) is no faster a pace', async () => {
    const clock = new FakeClock()
    const sent: number[] = []
    // ready by its list and its ready line, held by something else (ranks not joined) until 3 s
    const s = server(clock, (t) => (sent.push(t), listing('kimi')))
    let logged = 0
    const outcome = await waitForModel(options(), {
      probe: s.probe,
      clock,
      readyLine: async () => undefined,
      // each probe's own access line is there at once
      logLines: () => (logged < sent.length ? ((logged = sent.length), Promise.resolve()) : new Promise(() => {})),
      ranksMissing: () => (clock.t < 3_000 ? { joined: 3, expected: 4, missingOn: [] } : undefined)
    })
    expect(outcome.ready).toBe(true)
    expect(sent.slice(2).every((t, i) => t - sent[i + 1] >= LOG_BURST_GAP_MS)).toBe(true)
    expect(sent.length).toBeLessThanOrEqual(3_000 / LOG_BURST_GAP_MS + 3)
  })

  it('the ready line among new lines: a probe at once, not LOG_BURST_GAP_MS after the last', async () => {
    const clock = new FakeClock()
    const sent: number[] = []
    const s = server(clock, (t) => (sent.push(t), t < 3_000 ? loading : listing('kimi')))
    // lines at 2,950 (a probe then), and at 3,000 one read gives more lines and the ready line, told in that order
    const read: Array<() => void> = []
    const at = (t: number, first: boolean) => (signal: AbortSignal) =>
      new Promise<void>((resolve) => {
        read.push(() => (first ? resolve() : queueMicrotask(resolve)))
        // a read tells the waiters of its own moment, not those of a later one
        void clock.until(t, signal).then(() => clock.t >= t && read.splice(0).forEach((f) => f()))
      })
    const outcome = await waitForModel(options(), {
      probe: s.probe,
      clock,
      logLines: (signal) => at(clock.t < 2_950 ? 2_950 : 3_000, true)(signal),
      readyLine: (signal) => (clock.t < 2_950 ? new Promise<void>(() => {}) : at(3_000, false)(signal))
    })
    expect(outcome.ready).toBe(true)
    expect(sent).toEqual([0, 2_950, 3_000])
  })
})
