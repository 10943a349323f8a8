import {
  COST_FACTOR,
  gapAfter,
  LOG_BURST_GAP_MS,
  nextProbeAt,
  probeOnLogLines,
  type ScheduleState
} from '../../../src/wait/schedule.js'
import { FIXED } from '../../../src/inputs/settings.js'

const PROBE_GAP_MS = FIXED.probeGapMs

const state = (over: Partial<ScheduleState> = {}): ScheduleState => ({
  intervalMs: 5_000,
  probeGapMs: PROBE_GAP_MS,
  sentAt: 10_000,
  now: 10_010,
  costMs: 0,
  deadline: 600_000,
  ...over
})

/** Replays a schedule on a fake clock: the probe times until `until`, each answer 10 ms after its probe. */
function probes(over: Partial<ScheduleState>, until: number): number[] {
  const times: number[] = []
  let t = over.sentAt ?? 0
  while (t < until) {
    times.push(t)
    t = nextProbeAt(state({ ...over, sentAt: t, now: t + 10 }))
  }
  return times
}

describe('nextProbeAt', () => {
  it('a cheap probe (a model list, a flag route) goes out every PROBE_GAP_MS however long the load has lasted', () => {
    const sent = probes({ sentAt: 0 }, 300_000)
    expect(sent.length).toBe(300_000 / PROBE_GAP_MS)
    expect(sent.slice(1).every((t, i) => t - sent[i] === PROBE_GAP_MS)).toBe(true)
  })

  it('an interval below the cheap pace is kept to', () => {
    expect(nextProbeAt(state({ intervalMs: 100 }))).toBe(10_100)
  })

  it('a costly request (a generation) is repeated after COST_FACTOR times its length, at least the cheap pace, at most interval', () => {
    expect(nextProbeAt(state({ costMs: 20 }))).toBe(10_000 + PROBE_GAP_MS)
    expect(nextProbeAt(state({ costMs: 300 }))).toBe(10_000 + 300 * COST_FACTOR)
    expect(nextProbeAt(state({ costMs: 3_000 }))).toBe(15_000)
  })

  it('honours Retry-After up to four intervals, and never passes the deadline', () => {
    expect(nextProbeAt(state({ retryAfterMs: 3_000 }))).toBe(13_010)
    expect(nextProbeAt(state({ retryAfterMs: 60_000 }))).toBe(30_010)
    expect(nextProbeAt(state({ deadline: 10_100 }))).toBe(10_100)
  })

  it('never closer than 50 ms, even with a tiny interval', () => {
    expect(nextProbeAt(state({ intervalMs: 10 }))).toBe(10_050)
  })
})

describe('gapAfter: the pace of a paced route by what its last answer cost', () => {
  it("a quick answer (a warm-up 503) at the cheap pace; a generation by its length, up to the route's gap", () => {
    expect(gapAfter(3, 1_000, PROBE_GAP_MS)).toBe(PROBE_GAP_MS)
    expect(gapAfter(100, 1_000, PROBE_GAP_MS)).toBe(400)
    expect(gapAfter(900, 1_000, PROBE_GAP_MS)).toBe(1_000)
  })

  it('a route without a gap is not paced', () => {
    expect(gapAfter(900, 0, PROBE_GAP_MS)).toBe(0)
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
