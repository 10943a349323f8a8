/** Comparing a run with the runs before it, from records alone: startup, environment and decode rate. */
import type { UsualStartup } from '../startup/eta.js'
import { isMasked, MASKED } from './fingerprint.js'
import { MEDIAN_OF, type RunRecord } from './record.js'

const secondsOf = (r: RunRecord): number => r.startupSeconds ?? r.elapsedSeconds

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/**
 * The run-to-run noise of `values`: 1.4826 × their median absolute deviation from the median, which is the standard
 * deviation for normally spread values but not moved by one wild run.
 */
function spread(values: readonly number[]): number {
  if (values.length < 2) return 0
  const m = median(values)
  return 1.4826 * median(values.map((v) => Math.abs(v - m)))
}

/** A change is told only past this many spreads of the earlier runs: within it, it is their usual noise. */
export const NOISE_SPREADS = 3

export function usualStartup(earlier: readonly RunRecord[]): (UsualStartup & { runs: number }) | undefined {
  const ready = earlier.filter((r) => r.ready).slice(-MEDIAN_OF)
  if (ready.length === 0) return undefined
  const names = new Set(ready.flatMap((r) => r.phases.map((p) => p.name)))
  const phaseSeconds = new Map(
    [...names].map((name) => [
      name,
      median(ready.flatMap((r) => r.phases.filter((p) => p.name === name).map((p) => p.seconds)))
    ])
  )
  return {
    totalSeconds: median(ready.map(secondsOf)),
    phaseSeconds,
    order: ready[ready.length - 1].phases.map((p) => p.name),
    runs: ready.length
  }
}

export interface Regression {
  expectedSeconds: number
  seconds: number
  /** Negative: faster. */
  percent: number
  runs: number
  /** The earlier runs' spread (seconds). */
  spreadSeconds: number
  /** The phase that took the most seconds more than its median. */
  grewMost?: { name: string; seconds: number; usual: number }
}

export function regression(earlier: readonly RunRecord[], run: RunRecord): Regression | undefined {
  const usual = usualStartup(earlier)
  if (!run.ready || usual === undefined || usual.totalSeconds <= 0) return undefined
  const seconds = secondsOf(run)
  let grewMost: Regression['grewMost']
  for (const p of run.phases) {
    const before = usual.phaseSeconds.get(p.name)
    if (
      before !== undefined &&
      p.seconds - before > 0 &&
      p.seconds - before > (grewMost ? grewMost.seconds - grewMost.usual : 0)
    ) {
      grewMost = { name: p.name, seconds: p.seconds, usual: before }
    }
  }
  const percent = Math.round(((seconds - usual.totalSeconds) / usual.totalSeconds) * 1000) / 10
  const spreadSeconds = spread(
    earlier
      .filter((r) => r.ready)
      .slice(-MEDIAN_OF)
      .map(secondsOf)
  )
  return { expectedSeconds: usual.totalSeconds, seconds, percent, runs: usual.runs, spreadSeconds, grewMost }
}

export interface Drift {
  name: string
  was?: string
  now?: string
  /** Runs in a row, back from the previous one, with the old value. */
  runs: number
  /** `was` and `now` are keyed hashes, never to be shown; only that it changed is said. */
  secret?: true
  /** Of the GPU workers, or as NCCL's own lines say; else of the served process. */
  of?: 'workers' | 'nccl'
}

const ENV_OF = { served: 'env', workers: 'workersEnv', nccl: 'ncclEnv' } as const

/** Each environment against the last run's that has the same one: the served process, the GPU workers, NCCL's word. */
export function envDrift(earlier: readonly RunRecord[], run: RunRecord): Drift[] {
  return (['served', 'workers', 'nccl'] as const).flatMap((of) =>
    driftOf(earlier, run, ENV_OF[of]).map((d) => (of === 'served' ? d : { ...d, of }))
  )
}

/** Like with like: a run's workers against the last run that had workers, never against its served process. */
function driftOf(earlier: readonly RunRecord[], run: RunRecord, field: 'env' | 'workersEnv' | 'ncclEnv'): Drift[] {
  const now = run[field]
  if (now === undefined) return []
  const comparable = earlier.filter((r) => r[field] !== undefined && r.envReport === run.envReport)
  const previous = comparable[comparable.length - 1]?.[field]
  if (previous === undefined) return []
  const names = [...new Set([...Object.keys(previous), ...Object.keys(now)])].sort()
  // a credential masked without a hash (no key, or an older record) cannot be compared: no drift is told for it
  const unknown = (v: string | undefined): boolean => v === MASKED
  return names
    .filter((name) => previous[name] !== now[name] && !unknown(previous[name]) && !unknown(now[name]))
    .map((name) => {
      let runs = 0
      for (let i = comparable.length - 1; i >= 0 && comparable[i][field]?.[name] === previous[name]; i--) runs++
      const secret = isMasked(previous[name]) || isMasked(now[name])
      return { name, was: previous[name], now: now[name], runs, ...(secret ? { secret: true as const } : {}) }
    })
}

export interface ThroughputRegression {
  /** Tokens per second. */
  usual: number
  now: number
  /** Negative: faster. */
  percentBelow: number
  runs: number
  /** The earlier rates' spread (tokens per second). */
  spread: number
  /** The likely cause. */
  drift: Drift[]
}

/** Against the last ready runs that measured a decode rate with as many tokens a request. */
export function throughputRegression(earlier: readonly RunRecord[], run: RunRecord): ThroughputRegression | undefined {
  const now = run.decodeTokensPerSecond
  if (!run.ready || now === undefined) return undefined
  const rates = earlier
    .filter((r) => r.ready && r.decodeTokensPerSecond !== undefined && r.smokeTokens === run.smokeTokens)
    .slice(-MEDIAN_OF)
    .map((r) => r.decodeTokensPerSecond as number)
  if (rates.length === 0) return undefined
  const usual = median(rates)
  if (usual <= 0) return undefined
  const percentBelow = Math.round(((usual - now) / usual) * 1000) / 10
  return { usual, now, percentBelow, runs: rates.length, spread: spread(rates), drift: envDrift(earlier, run) }
}

/** A run's set-up, part by part, in words; undefined where the record does not say. */
function setupParts(r: RunRecord): Array<[string, string | undefined]> {
  return [
    ['GPU', r.gpu && `${r.gpu.count} × ${r.gpu.model}`],
    ['driver', r.gpu?.driver],
    ['engine', r.engine],
    ['engine version', r.engineVersion],
    ['model', r.modelId]
  ]
}

/** The parts known on both sides that differ. */
function setupDifference(a: RunRecord, b: RunRecord): string[] {
  const theirs = new Map(setupParts(a))
  return setupParts(b).flatMap(([part, now]) => {
    const was = theirs.get(part)
    return was === undefined || now === undefined || was === now ? [] : [`${part}: ${was} then, ${now} now`]
  })
}

export interface Comparable {
  /** The earlier runs on the same set-up, oldest first. */
  runs: RunRecord[]
  /** Why none is comparable, in words, when there are earlier runs but none on this set-up. */
  unlike?: string
}

/** The earlier runs on this run's set-up (GPU model and count, driver, engine and its version, model id). */
export function comparableRuns(earlier: readonly RunRecord[], run: RunRecord): Comparable {
  const runs = earlier.filter((r) => setupDifference(r, run).length === 0)
  if (runs.length > 0 || earlier.length === 0) return { runs }
  const n = earlier.length
  return {
    runs,
    unlike:
      `No earlier run of this history key is comparable: the ${n} on record ran on another set-up (the last one: ` +
      `${setupDifference(earlier[n - 1], run).join('; ')}); this run starts its own baseline.`
  }
}
