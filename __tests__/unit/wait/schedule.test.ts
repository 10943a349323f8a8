import {
  BACKOFF_SHARE,
  DENSE_MS,
  LEAD_MIN_MS,
  LOG_BURST_GAP_MS,
  nextProbeAt,
  probeOnLogLines,
  type ScheduleState
} from '../../../src/wait/schedule.js'

const state = (over: Partial<ScheduleState> = {}): ScheduleState => ({
  intervalMs: 5_000,
  sentAt: 10_000,
  now: 10_010,
  deadline: 600_000,
  ...over
})

/** Replays a schedule on a fake clock: the probe times until `until`, each answer 10 ms after its probe. */
function probes(over: Partial<ScheduleState>, until: number, readyAt?: (t: number) => number | undefined): number[] {
  const times: number[] = []
  let t = over.sentAt ?? 0
  while (t < until) {
    times.push(t)
    t = nextProbeAt(state({ ...over, sentAt: t, now: t + 10, readyAt: readyAt?.(t + 10) }))
  }
  return times
}

describe('nextProbeAt', () => {
  it('adaptive, not loading (a list without the model): every interval', () => {
    expect(nextProbeAt(state())).toBe(15_000)
  })

  it('adaptive without an estimate: the gap grows with the load, from dense to interval', () => {
    expect(nextProbeAt(state({ answeringSince: 10_000 }))).toBe(10_000 + DENSE_MS)
    expect(nextProbeAt(state({ answeringSince: 6_000 }))).toBe(10_000 + 4_000 * BACKOFF_SHARE)
    expect(nextProbeAt(state({ answeringSince: -20_000 }))).toBe(15_000)
    // a 10-minute load: probes grow with its logarithm, not its length (wait-on's 250 ms would send 2,400)
    const sent = probes({ answeringSince: 0, sentAt: 0 }, 600_000)
    expect(sent.length).toBeLessThan(140)
    expect(sent.length).toBeGreaterThan(100)
  })

  it('adaptive with an estimate: as without one until shortly before it, dense around it, backing off past it', () => {
    // loading since 0, expected ready at 60 s: dense from 60 s minus a fifth of the load (12 s)
    const sent = probes({ answeringSince: 0, sentAt: 0 }, 120_000, () => 60_000)
    const before = sent.filter((t) => t < 48_000)
    // an estimate puts no probe off: one wrong by a minute must not make the wait a minute slower
    const without = probes({ answeringSince: 0, sentAt: 0 }, 120_000).filter((t) => t < 48_000)
    expect(before.slice(0, -1)).toEqual(without.slice(0, before.length - 1))
    expect(before.length).toBeLessThanOrEqual(without.length)
    expect(sent).toContain(48_000) // the probe that opens the dense window lands on its start
    const near = sent.filter((t) => t >= 48_000 && t <= 60_000)
    expect(near.every((t, i) => i === 0 || t - near[i - 1] === DENSE_MS)).toBe(true)
    // past the estimate the gaps grow again, up to interval
    const gaps = sent.slice(1).map((t, i) => t - sent[i])
    expect(Math.max(...gaps.slice(-3))).toBe(5_000)
    expect(gaps.every((g) => g <= 5_000)).toBe(true)
  })

  it('adaptive with an estimate close at hand: dense for at least half a second before it', () => {
    // loading since 1 s, expected at 3 s: a fifth of 2 s is less than half a second
    const sent = probes({ answeringSince: 1_000, sentAt: 1_000 }, 3_000, () => 3_000)
    expect(sent.filter((t) => t >= 3_000 - LEAD_MIN_MS)).toEqual([2_500, 2_700, 2_900])
  })

  it('the ready line read: the moment it was read is the estimate, so probes are dense from then', () => {
    expect(nextProbeAt(state({ answeringSince: 0, readyAt: 9_900 }))).toBe(10_000 + DENSE_MS + 100 * BACKOFF_SHARE)
  })

  it('honours Retry-After up to four intervals, and never passes the deadline', () => {
    expect(nextProbeAt(state({ answeringSince: 10_000, retryAfterMs: 3_000 }))).toBe(13_010)
    expect(nextProbeAt(state({ answeringSince: 10_000, retryAfterMs: 60_000 }))).toBe(30_010)
    expect(nextProbeAt(state({ answeringSince: 0, deadline: 11_000 }))).toBe(11_000)
  })

  it('never closer than 50 ms, even with an interval below the dense gap', () => {
    expect(nextProbeAt(state({ intervalMs: 10, answeringSince: 0 }))).toBe(10_050)
  })
})

describe('nextProbeAt with history', () => {
  it('expects ready when earlier runs were, counted from the first answer', () => {
    // answering since 0, earlier runs answered 3 s before they were ready: dense from 2.4 s (a fifth of the load)
    const sent = probes({ answeringSince: 0, sentAt: 0, usualAnsweringMs: 3_000 }, 3_001)
    expect(sent).toEqual([0, 2_400, 2_600, 2_800, 3_000])
  })

  it('a ready line or a phase estimate sooner than history brings probes forward', () => {
    expect(nextProbeAt(state({ answeringSince: 0, usualAnsweringMs: 60_000, readyAt: 9_900 }))).toBe(10_225)
  })
})

describe('nextProbeAt with a log followed: never slower than without it', () => {
  it('no ready line read (its words unknown, or not come yet): as dense as without a log', () => {
    // loading for 2 s: the next probe a quarter of that later, with a log followed or not
    expect(nextProbeAt(state({ answeringSince: 8_000 }))).toBe(10_500)
    // and as soon as history expects the server, whatever the log tells
    const withoutLog = probes({ answeringSince: 0, sentAt: 0, usualAnsweringMs: 3_000 }, 3_001)
    // a phase estimate (the log's) later than history: history's probes still go out
    expect(probes({ answeringSince: 0, sentAt: 0, usualAnsweringMs: 3_000 }, 3_001, () => 20_000)).toEqual(withoutLog)
  })

  it('dense once the line is read, in case it came a moment before the server answers ready', () => {
    expect(nextProbeAt(state({ answeringSince: 0, readyAt: 10_000 }))).toBe(10_000 + DENSE_MS)
  })
})

describe('probeOnLogLines: new log lines bring the next probe forward, rate-limited', () => {
  it('a probe soon: at once when the last went out long enough ago, else LOG_BURST_GAP_MS after it', () => {
    expect(probeOnLogLines(10_000, 10_050, 15_000)).toBe(10_000 + LOG_BURST_GAP_MS)
    expect(probeOnLogLines(10_000, 10_300, 15_000)).toBe(10_300)
  })

  it('never later than the probe already due', () => {
    expect(probeOnLogLines(10_000, 10_050, 10_100)).toBe(10_100)
  })

  it('a log that writes all the time costs at most one probe per LOG_BURST_GAP_MS', () => {
    // lines every 10 ms for 2 s, the schedule alone would probe every 5 s: probes are LOG_BURST_GAP_MS apart
    const sent: number[] = []
    let last = 0
    for (let now = 0; now <= 2_000; now += 10) {
      const next = probeOnLogLines(last, now, last + 5_000)
      if (next <= now) sent.push((last = now))
    }
    expect(sent.length).toBe(Math.floor(2_000 / LOG_BURST_GAP_MS))
    expect(sent.slice(1).every((t, i) => t - sent[i] === LOG_BURST_GAP_MS)).toBe(true)
  })
})
