/** How long the startup still has to go: from the progress rate of the current phase and from earlier runs. */
import type { Progress } from './phases.js'

/** What earlier ready runs with the same history key took (medians, in seconds). */
export interface UsualStartup {
  totalSeconds: number
  phaseSeconds: ReadonlyMap<string, number>
  /** As the latest run went through them. */
  order: readonly string[]
}

/** By tqdm's own elapsed time per item where it prints one, else the rate between the first and latest counts. */
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
  phase?: string
  inPhaseMs: number
  phaseLeftMs?: number
  /** Since the server (or the wait) started. */
  elapsedMs: number
}

/** The rest of this phase (by its rate, else its usual length) and the usual phases after it; else the usual total. */
export function readyInMs(pos: Position, usual: UsualStartup): number | undefined {
  const index = pos.phase === undefined ? -1 : usual.order.indexOf(pos.phase)
  if (index >= 0) {
    const own = (usual.phaseSeconds.get(pos.phase as string) ?? 0) * 1000
    const rest = usual.order.slice(index + 1).reduce((sum, name) => sum + (usual.phaseSeconds.get(name) ?? 0) * 1000, 0)
    return (pos.phaseLeftMs ?? Math.max(0, own - pos.inPhaseMs)) + rest
  }
  return Math.max(0, usual.totalSeconds * 1000 - pos.elapsedMs)
}

export type Eta =
  | { kind: 'ready-in'; ms: number }
  /** Past what earlier runs took for the whole startup, or for a `phase` without a count: an ETA would be past. */
  | { kind: 'slower'; overMs: number; usualMs: number; phase?: string }

export function eta(pos: Position, usual: UsualStartup): Eta {
  const usualMs = usual.totalSeconds * 1000
  if (pos.elapsedMs > usualMs) return { kind: 'slower', overMs: pos.elapsedMs - usualMs, usualMs }
  const own = pos.phase === undefined ? undefined : usual.phaseSeconds.get(pos.phase)
  if (own !== undefined && pos.phaseLeftMs === undefined && pos.inPhaseMs > own * 1000)
    return { kind: 'slower', overMs: pos.inPhaseMs - own * 1000, usualMs: own * 1000, phase: pos.phase }
  return { kind: 'ready-in', ms: readyInMs(pos, usual) ?? 0 }
}
