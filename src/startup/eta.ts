/** How long the startup still has to go: from the progress rate of the current phase and from earlier runs. */
import type { Progress } from './phases.js'

/** What earlier ready runs with the same history key took (medians, in seconds). */
export interface UsualStartup {
  /** Median startup of the runs. */
  totalSeconds: number
  /** Median duration of each phase. */
  phaseSeconds: ReadonlyMap<string, number>
  /** The phases in the order the latest run went through them. */
  order: readonly string[]
  /** Median time from the first HTTP answer to ready, of the runs that recorded it. */
  answeringSeconds?: number
}

/**
 * Milliseconds left in a phase with progress, at `now`: tqdm's own elapsed time per item where it prints one,
 * else the rate between the first and the latest count seen. Undefined while there is no rate yet.
 */
export function phaseLeftMs(p: Progress, now: number): number | undefined {
  const { first, last } = p
  if (last.n >= last.total) return 0
  let perItemMs: number | undefined
  if (last.elapsedS !== undefined && last.n > 0) perItemMs = (last.elapsedS * 1000) / last.n
  else if (last.n > first.n && last.at > first.at) perItemMs = (last.at - first.at) / (last.n - first.n)
  if (perItemMs === undefined) return undefined
  return Math.max(0, perItemMs * (last.total - last.n) - (now - last.at))
}

export interface Position {
  /** The phase under way, if known. */
  phase?: string
  inPhaseMs: number
  /** From the progress rate, when the phase has one. */
  phaseLeftMs?: number
  /** Since the server (or the wait) started. */
  elapsedMs: number
}

/**
 * Milliseconds until ready going by earlier runs: the rest of this phase (by its rate, else its usual length) and
 * the usual length of the phases after it; without a known phase, the usual startup minus the time so far.
 */
export function readyInMs(pos: Position, usual: UsualStartup): number | undefined {
  const index = pos.phase === undefined ? -1 : usual.order.indexOf(pos.phase)
  if (index >= 0) {
    const own = (usual.phaseSeconds.get(pos.phase as string) ?? 0) * 1000
    const rest = usual.order.slice(index + 1).reduce((sum, name) => sum + (usual.phaseSeconds.get(name) ?? 0) * 1000, 0)
    return (pos.phaseLeftMs ?? Math.max(0, own - pos.inPhaseMs)) + rest
  }
  return Math.max(0, usual.totalSeconds * 1000 - pos.elapsedMs)
}

/** Where this startup stands against earlier runs. */
export type Eta =
  | { kind: 'ready-in'; ms: number }
  /**
   * Past what earlier runs took, by `overMs`: the whole startup (`phase` undefined), or the phase under way
   * (which has no progress count to go by). An ETA would be in the past: how much slower is the news.
   */
  | { kind: 'slower'; overMs: number; usualMs: number; phase?: string }

export function eta(pos: Position, usual: UsualStartup): Eta {
  const usualMs = usual.totalSeconds * 1000
  if (pos.elapsedMs > usualMs) return { kind: 'slower', overMs: pos.elapsedMs - usualMs, usualMs }
  const own = pos.phase === undefined ? undefined : usual.phaseSeconds.get(pos.phase)
  if (own !== undefined && pos.phaseLeftMs === undefined && pos.inPhaseMs > own * 1000)
    return { kind: 'slower', overMs: pos.inPhaseMs - own * 1000, usualMs: own * 1000, phase: pos.phase }
  return { kind: 'ready-in', ms: readyInMs(pos, usual) ?? 0 }
}
