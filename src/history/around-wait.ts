/**
 * History around one wait: before it, the earlier runs with this key (and what they lead us to expect); after it,
 * this run against them (regression, environment drift) and this run appended. History never fails a wait: a
 * location that cannot be used turns it off with a notice.
 */
import type { UsualStartup } from '../startup/eta.js'
import type { RunRecord } from './record.js'
import { envDrift, usualStartup, regression, throughputRegression } from './stats.js'
import { appendRun, prepareHistory, readHistory } from './store.js'
import { driftWarning, regressionText } from '../report/profile-report.js'
import { throughputRegressionText } from '../report/smoke-report.js'

export interface RunHistory {
  /** undefined: history is off. */
  file?: string
  key: string
  /** This key's earlier runs, oldest first. */
  earlier: RunRecord[]
  usual?: UsualStartup
  notices: string[]
  warnings: string[]
}

/** Reads the earlier runs with `key`; `file` undefined (with `offNotice` saying why, if it is worth saying) is history off. */
export function loadHistory(file: string | undefined, key: string, offNotice?: string): RunHistory {
  const off = (notice?: string): RunHistory => ({ key, earlier: [], notices: notice ? [notice] : [], warnings: [] })
  if (file === undefined) return off(offNotice)
  const problem = prepareHistory(file)
  if (problem !== undefined) return off(problem)
  try {
    const { runs, skipped } = readHistory(file)
    const earlier = runs.filter((r) => r.key === key)
    const warnings = skipped
      ? [`History: skipped ${skipped} line${skipped === 1 ? '' : 's'} of ${file} that could not be read.`]
      : []
    return { file, key, earlier, usual: usualStartup(earlier), notices: [], warnings }
  } catch (e) {
    return off(`History is off: cannot read ${file} (${(e as Error).message}).`)
  }
}

export interface RunFindings {
  /** The median startup of the last ready runs with this history key. */
  expectedSeconds?: number
  regressionPercent?: number
  /** In words, when the startup was slower than the threshold allows. */
  regression?: string
  /** In words, when the environment differs from the previous run's. */
  drift?: string
  /** The median smoke-test decode rate of the earlier runs, when they measured one. */
  usualDecodeTokensPerSecond?: number
  /** In words, when the smoke test's decode rate was lower than the throughput threshold allows. */
  throughputRegression?: string
  notices: string[]
}

/**
 * Compares the finished run with the earlier ones, then appends it, waiting for the file's lock at most
 * `lockWaitMs`. A regression is told only against at least `minRuns` earlier ready runs: against one, a cold page
 * cache beside a warm one is a regression every time. The smoke test's decode rate is held to the same `minRuns`,
 * against `throughputThresholdPercent`.
 */
export function recordRun(
  history: RunHistory,
  run: RunRecord,
  thresholdPercent: number,
  minRuns: number,
  lockWaitMs?: number,
  throughputThresholdPercent = 15
): RunFindings {
  const r = regression(history.earlier, run)
  const slower = throughputRegression(history.earlier, run)
  const drift = envDrift(history.earlier, run)
  const notices: string[] = []
  if (history.file !== undefined) {
    try {
      if (!appendRun(history.file, run, undefined, lockWaitMs))
        notices.push('History: this run was not recorded, its line is too long.')
    } catch (e) {
      notices.push(`History: this run was not recorded (${(e as Error).message}).`)
    }
  }
  return {
    expectedSeconds: history.usual?.totalSeconds,
    regressionPercent: r?.percent,
    regression: r !== undefined && r.runs >= minRuns && r.percent > thresholdPercent ? regressionText(r) : undefined,
    drift: drift.length ? driftWarning(drift) : undefined,
    usualDecodeTokensPerSecond: slower?.usual,
    throughputRegression:
      slower !== undefined && slower.runs >= minRuns && slower.percentBelow > throughputThresholdPercent
        ? throughputRegressionText(slower)
        : undefined,
    notices
  }
}
