/**
 * When the next HTTP probe goes out while the server answers but is not ready yet (503 while loading, a list
 * without the model, /health 503 through a warm-up). Pure: a function of the state the loop hands it, so that it is
 * tested on a fake clock. Connections refused are not its concern: the port watch stands in for probes then.
 */

import type { ScheduleMode } from '../inputs/settings.js'

export interface ScheduleState {
  mode: ScheduleMode
  /** The longest gap between two probes. */
  intervalMs: number
  /** When the last probe went out, and when its answer came back (now). */
  sentAt: number
  now: number
  /** When the server first answered over HTTP without being ready, undefined while it has not. */
  answeringSince?: number
  /** When it is expected to be ready (its log's ready line, its progress by earlier runs), undefined: unknown. */
  readyAt?: number
  /** How long earlier runs answered before they were ready (history): the estimate when `readyAt` is unknown. */
  usualAnsweringMs?: number
  /**
   * The server's log is followed and its engine known: its ready line will wake the loop at once, so until then
   * probes need only keep to `interval` (they still see a server that turns ready without the line).
   */
  logTellsReady?: boolean
  /** The server's own Retry-After on a 429 or 503. */
  retryAfterMs?: number
  deadline: number
}

/** The gap near the expected ready moment: a probe costs the server a few microseconds, a late ready a job's time. */
export const DENSE_MS = 200
/**
 * How far before the expected moment dense probes begin: a share of the expected load (its length varies from run
 * to run by about that much), and at least half a second (the estimate itself is known to a tenth of a second).
 */
export const LEAD_MIN_MS = 500
const LEAD_SHARE = 0.2
/**
 * Without an expected moment the gap grows with the time the server has been loading (a quarter of it): a load
 * that has taken 2 s is probed every 500 ms, one that has taken 20 s every `interval`. The lag stays a share of
 * the load, and the requests grow with its logarithm, not its length.
 */
export const BACKOFF_SHARE = 0.25
/** The shortest gap whatever the state: a server that answers at once must not turn the loop into a busy one. */
const MIN_GAP_MS = 50

/** The moment the next probe goes out (never past the deadline). */
export function nextProbeAt(s: ScheduleState): number {
  const asked = s.retryAfterMs === undefined ? 0 : Math.min(s.retryAfterMs, s.intervalMs * 4)
  const pace = s.mode === 'fixed' ? s.sentAt + s.intervalMs : s.sentAt + adaptiveGap(s)
  // A 429 or 503 may ask for a longer pause: granted up to 4 intervals.
  return Math.min(Math.max(pace, s.now + asked, s.sentAt + MIN_GAP_MS), s.deadline)
}

function adaptiveGap(s: ScheduleState): number {
  const clamp = (ms: number): number => Math.min(s.intervalMs, Math.max(DENSE_MS, ms))
  if (s.answeringSince === undefined) return s.intervalMs // not loading: a list without the model, a 404
  if (s.readyAt === undefined && s.logTellsReady) return s.intervalMs
  const loadedMs = Math.max(0, s.sentAt - s.answeringSince)
  const readyAt = s.readyAt ?? (s.usualAnsweringMs === undefined ? undefined : s.answeringSince + s.usualAnsweringMs)
  if (readyAt === undefined) return clamp(loadedMs * BACKOFF_SHARE)
  const lead = Math.max(LEAD_MIN_MS, (readyAt - s.answeringSince) * LEAD_SHARE)
  const denseFrom = readyAt - lead
  // Far from it: sparse, but the probe that opens the dense window lands on its start.
  if (s.sentAt < denseFrom) return Math.min(s.intervalMs, Math.max(DENSE_MS, denseFrom - s.sentAt))
  // Near it, and past it: dense, then backing off with the overrun (the estimate was wrong, by how much is unknown).
  return clamp(DENSE_MS + Math.max(0, s.sentAt - readyAt) * BACKOFF_SHARE)
}
