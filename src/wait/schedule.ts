/**
 * When the next HTTP probe goes out while the server answers but is not ready. Pure, for a fake clock. Refused
 * connections are not its concern: the port watch stands in for probes then.
 */

export interface ScheduleState {
  /** The longest gap between two probes. */
  intervalMs: number
  /** When the last probe went out, and when its answer came back (now). */
  sentAt: number
  now: number
  /** When the server first answered over HTTP without being ready, undefined while it has not. */
  answeringSince?: number
  /** When its log says it is expected ready: it may bring probes forward, never put them off. */
  readyAt?: number
  /** How long earlier runs answered before they were ready (history): the estimate when `readyAt` is unknown. */
  usualAnsweringMs?: number
  /** The server's own Retry-After on a 429 or 503. */
  retryAfterMs?: number
  deadline: number
}

/** The gap near the expected ready moment: a probe costs the server a few microseconds, a late ready a job's time. */
export const DENSE_MS = 200
/** Dense probes begin a share of the expected load before it (it varies by that much), at least half a second. */
export const LEAD_MIN_MS = 500
const LEAD_SHARE = 0.2
/** Without an expected moment the gap is a quarter of the load so far: the lag stays a share of it. */
export const BACKOFF_SHARE = 0.25
/** The shortest gap whatever the state: a server that answers at once must not turn the loop into a busy one. */
const MIN_GAP_MS = 50

/** The moment the next probe goes out (never past the deadline). */
export function nextProbeAt(s: ScheduleState): number {
  const asked = s.retryAfterMs === undefined ? 0 : Math.min(s.retryAfterMs, s.intervalMs * 4)
  const pace = s.sentAt + adaptiveGap(s)
  // A 429 or 503 may ask for a longer pause: granted up to 4 intervals.
  return Math.min(Math.max(pace, s.now + asked, s.sentAt + MIN_GAP_MS), s.deadline)
}

function adaptiveGap(s: ScheduleState): number {
  const since = s.answeringSince
  if (since === undefined) return s.intervalMs // not loading: a list without the model, a 404
  // A followed log changes nothing here for the worse: its ready line wakes the loop at once, new lines wake it
  // soon (see `probeOnLogLines`), and what its phases tell may bring probes forward, never put them off: a ready
  // line not (yet) recognised must not leave the server less probed than without a log (a line whose wording had
  // changed once went unseen for 5 s, `interval`, and the startup time recorded with it).
  const plain = gapBy(s, since, s.usualAnsweringMs === undefined ? undefined : since + s.usualAnsweringMs)
  return s.readyAt === undefined ? plain : Math.min(plain, gapBy(s, since, s.readyAt))
}

/** The gap when the server is expected ready at `readyAt` (undefined: unknown). */
function gapBy(s: ScheduleState, answeringSince: number, readyAt: number | undefined): number {
  const clamp = (ms: number): number => Math.min(s.intervalMs, Math.max(DENSE_MS, ms))
  const loadedMs = Math.max(0, s.sentAt - answeringSince)
  if (readyAt === undefined) return clamp(loadedMs * BACKOFF_SHARE)
  const lead = Math.max(LEAD_MIN_MS, (readyAt - answeringSince) * LEAD_SHARE)
  const denseFrom = readyAt - lead
  // Far from it: sparse, but the probe that opens the dense window lands on its start.
  if (s.sentAt < denseFrom) return Math.min(s.intervalMs, Math.max(DENSE_MS, denseFrom - s.sentAt))
  // Near it, and past it: dense, then backing off with the overrun (the estimate was wrong, by how much is unknown).
  return clamp(DENSE_MS + Math.max(0, s.sentAt - readyAt) * BACKOFF_SHARE)
}

/**
 * The least gap before a probe brought forward by new log lines: the last burst of an engine's start is its ready
 * line, whatever its words; a progress bar redrawn all through a load costs at most five requests a second.
 */
export const LOG_BURST_GAP_MS = 200

/** The next probe, brought forward by new log lines read at `now` (never later than it was, never past it). */
export function probeOnLogLines(sentAt: number, now: number, nextAt: number): number {
  return Math.min(nextAt, Math.max(now, sentAt + LOG_BURST_GAP_MS))
}
