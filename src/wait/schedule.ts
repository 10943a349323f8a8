/**
 * When the next HTTP probe goes out while the server is not ready. Pure, for a fake clock. Refused connections on a
 * local port are not its concern: the port watch stands in for probes then.
 */

export interface ScheduleState {
  /** The longest gap between two probes: the pace of costly ones. */
  intervalMs: number
  /** The gap between cheap probes (see `FixedSettings.probeGapMs`). */
  probeGapMs: number
  /** When the last probe went out, and when its answer came back (now). */
  sentAt: number
  now: number
  /** How long the costly requests of the last probe took (a generation); 0 when it made none. */
  costMs: number
  /** The server's own Retry-After on a 429 or 503. */
  retryAfterMs?: number
  deadline: number
}

/** A costly request is repeated after this many times its own length at least: the server's work on it stays a share. */
export const COST_FACTOR = 4
/** The shortest gap whatever the state: a server that answers at once must not turn the loop into a busy one. */
const MIN_GAP_MS = 50

/** The gap after a request that took `costMs`: cheap ones at `probeGapMs`, costly ones by their cost, up to `intervalMs`. */
export function gapAfter(costMs: number, intervalMs: number, probeGapMs: number): number {
  const cheap = Math.min(probeGapMs, intervalMs)
  return Math.min(intervalMs, Math.max(cheap, costMs * COST_FACTOR))
}

/** The moment the next probe goes out (never past the deadline). */
export function nextProbeAt(s: ScheduleState): number {
  // A 429 or 503 may ask for a longer pause: granted up to 4 intervals.
  const asked = s.retryAfterMs === undefined ? 0 : Math.min(s.retryAfterMs, s.intervalMs * 4)
  const pace = s.sentAt + gapAfter(s.costMs, s.intervalMs, s.probeGapMs)
  return Math.min(Math.max(pace, s.now + asked, s.sentAt + MIN_GAP_MS), s.deadline)
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
