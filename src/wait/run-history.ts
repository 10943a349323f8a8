/** History around one wait: earlier runs before it, this run against them and recorded after; never fails a wait. */
import type { UsualStartup } from '../startup/eta.js'
import type { RunRecord } from '../history/record.js'
import {
  comparableRuns,
  NOISE_SPREADS,
  type Drift,
  envDrift,
  regression,
  throughputRegression,
  usualStartup
} from '../history/stats.js'
import { type GpuInventory, gpuInventory } from '../gpu/nvidia-smi.js'
import { historySecretKey, isMasked, MASKED, maskedRecord } from '../history/fingerprint.js'
import { type EnvEntry, secretValueOf } from '../server/env-report.js'
import { appendRun, historyKey, prepareHistory, readHistory } from '../history/store.js'
import { driftWarning, regressionText } from '../report/profile-report.js'
import { throughputRegressionText } from '../report/smoke-report.js'
import { ACTIONS_CACHE, HISTORY_AUTO, type Server, type Settings } from '../inputs/settings.js'
import type { StartupProfile } from '../startup/profile.js'
import type { ProfileFacts, RunFindings, ServerFacts, TargetOutcome, TrendPoint } from '../facts/outcome.js'
import type { Deps } from './deps.js'

export interface RunHistory {
  /** undefined: history is off. */
  file?: string
  key: string
  /** This key's earlier runs, oldest first. */
  earlier: RunRecord[]
  usual?: UsualStartup
  notices: string[]
  warnings: string[]
  /** The GPUs the server sees, asked of nvidia-smi while the server starts (history on only). */
  hardware?: Promise<GpuInventory | undefined>
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
      ? [
          `History: skipped ${skipped} line${skipped === 1 ? '' : 's'} of ${file} that could not be read ` +
            '(not a run, or a time that is not a finite number of seconds, or negative).'
        ]
      : []
    return { file, key, earlier, usual: usualStartup(earlier), notices: [], warnings }
  } catch (e) {
    return off(`History is off: cannot read ${file} (${(e as Error).message}).`)
  }
}

/**
 * Compares the finished run (startup and decode rate) with the earlier ones, then appends it, waiting for the
 * file's lock at most `lockWaitMs`. A regression needs `minRuns` earlier runs: against one, a cold page cache beside
 * a warm one is a regression every time. A cancel while it waits for the lock leaves the run unrecorded.
 */
export async function recordRun(
  history: RunHistory,
  run: RunRecord,
  thresholdPercent: number,
  minRuns: number,
  lockWaitMs?: number,
  signal?: AbortSignal
): Promise<RunFindings> {
  // only runs on the same GPUs, driver, engine version and model compare with this one
  const { runs: like, unlike } = comparableRuns(history.earlier, run)
  const r = regression(like, run)
  const slower = throughputRegression(like, run)
  const drift = envDrift(like, run)
  const notices: string[] = unlike === undefined ? [] : [unlike]
  if (history.file !== undefined) {
    try {
      const appended = await appendRun(history.file, run, { lockWaitMs, signal })
      if (appended === 'too-long') notices.push('History: this run was not recorded, its line is too long.')
    } catch (e) {
      notices.push(`History: this run was not recorded (${(e as Error).message}).`)
    }
  }
  // told past both the threshold and the earlier runs' own noise: a noisy engine does not cry wolf
  const slowerStartup =
    r !== undefined &&
    r.runs >= minRuns &&
    r.percent > thresholdPercent &&
    r.seconds - r.expectedSeconds > NOISE_SPREADS * r.spreadSeconds
  const slowerDecode =
    slower !== undefined &&
    slower.runs >= minRuns &&
    slower.percentBelow > thresholdPercent &&
    slower.usual - slower.now > NOISE_SPREADS * slower.spread
  return {
    expectedSeconds: usualStartup(like)?.totalSeconds,
    regressionPercent: r?.percent,
    regression: slowerStartup ? regressionText(r) : undefined,
    drift: drift.length ? driftWarning(drift) : undefined,
    usualDecodeTokensPerSecond: slower?.usual,
    throughputRegression: slowerDecode ? throughputRegressionText(slower) : undefined,
    unlike,
    envChanges: drift.map(envChange),
    trend: trendOf([...like, run]),
    verdict: slowerDecode
      ? 'slower-decode'
      : slowerStartup
        ? 'slower-startup'
        : drift.length > 0
          ? 'environment-changed'
          : like.length === 0
            ? 'no-baseline'
            : 'ok',
    notices
  }
}

/** The last runs drawn, each with the variables changed since the one before it (of the same `env-report`). */
const TREND_RUNS = 20
function trendOf(runs: readonly RunRecord[]): TrendPoint[] {
  const ready = runs.filter((r) => r.ready)
  return ready.slice(-TREND_RUNS).map((r, i, shown) => {
    const before = ready.slice(0, ready.length - shown.length + i)
    return {
      startupSeconds: r.startupSeconds ?? r.elapsedSeconds,
      decodeTokensPerSecond: r.decodeTokensPerSecond,
      envChanged: envDrift(before, r).map((d) => d.name)
    }
  })
}

/** A credential's values are keyed hashes: only that it changed is told. */
function envChange(d: Drift): { name: string; was: string | null; now: string | null } {
  const shown = (v: string | undefined): string | null => (v === undefined ? null : d.secret ? MASKED : v)
  return { name: d.name, was: shown(d.was), now: shown(d.now) }
}

const CACHE_ONLY = 'History is off: "actions-cache" keeps it in GitHub\'s Actions cache, which only the action reaches.'

/** The earlier runs of this server's key (a fleet's servers each their own), its notices said. */
export function openHistory(settings: Settings, server: Server, deps: Deps): RunHistory {
  const auto = settings.historyFile === HISTORY_AUTO
  const cached = settings.historyFile === ACTIONS_CACHE
  const urls = server.targets.map((t) => t.url.href).join('\n')
  const file = auto ? deps.defaultHistory?.path : cached ? deps.cachedHistory?.path : settings.historyFile
  const given = settings.historyKey
  const fleet = settings.servers.length > 1
  // Hashed only for a history that is on: nothing reads the key of one that is off.
  const key =
    given === undefined
      ? file === undefined
        ? ''
        : historyKey(urls, settings.model, server.start)
      : fleet
        ? `${given} ${urls}`
        : given
  const offNotice = auto ? deps.defaultHistory?.notice : cached ? (deps.cachedHistory?.notice ?? CACHE_ONLY) : undefined
  const history = loadHistory(file, key, offNotice)
  for (const n of history.notices) deps.notice(n, 'history')
  for (const w of history.warnings) deps.warn(w, 'history')
  // nvidia-smi can take a while: asked now, beside the wait, and read once the run is recorded
  if (history.file !== undefined)
    history.hardware = gpuInventory({
      env: deps.env,
      cudaVisibleDevices: deps.env.CUDA_VISIBLE_DEVICES,
      // asked at the wait's start: done by its deadline at the latest, so a hanging nvidia-smi never holds the step
      timeoutMs: Math.min(5_000, settings.timeoutMs),
      signal: deps.cancel?.signal
    })
  return history
}

interface Settling {
  settings: Settings
  outcome: TargetOutcome
  /** undefined: no server and no log to tell of. */
  facts: ServerFacts | undefined
  profile: StartupProfile
  history: RunHistory
  deps: Deps
  /** When the wait ended (before any smoke test): the startup's last phase ends there. */
  readyAt: number
}

/** This run against the earlier ones (regression, changed environment), then recorded unless a cancel comes first. */
export async function finishHistory({
  settings,
  outcome,
  facts,
  profile,
  history,
  deps,
  readyAt
}: Settling): Promise<ProfileFacts> {
  const phases = profile.finish(readyAt)
  const engineLabel = profile.label
  const usualPhaseSeconds = history.usual?.phaseSeconds
  // A cancelled wait says nothing about how long the server takes.
  if (outcome.reason === 'cancelled') return { engineLabel, phases, usualPhaseSeconds }
  const env = facts?.env && envRecord(facts.env, history)
  const run: RunRecord = {
    v: 1,
    key: history.key,
    at: new Date(deps.clock.wallMs()).toISOString(),
    ready: outcome.ready,
    reason: outcome.reason,
    elapsedSeconds: round1(outcome.elapsedMs / 1000),
    ...(facts?.startupMs === undefined ? {} : { startupSeconds: round1(facts.startupMs / 1000) }),
    ...(outcome.ready && outcome.firstResponseMs !== undefined
      ? { answeringSeconds: round1((outcome.elapsedMs - outcome.firstResponseMs) / 1000) }
      : {}),
    ...(profile.engine === undefined ? {} : { engine: profile.engine }),
    phases: phases.map((p) => ({ name: p.name, seconds: p.seconds })),
    ...(env === undefined ? {} : { env, envReport: settings.envReport.join(',') }),
    ...(env === undefined ? {} : processesRecord(facts, history)),
    ...smokeRecord(outcome, settings),
    ...(outcome.placement === undefined ? {} : { placement: outcome.placement.placement }),
    ...setupRecord(await history.hardware, profile.engineVersion, outcome.last?.modelId)
  }
  // a history file another job holds locked must not keep this one past its deadline
  const findings = await recordRun(
    history,
    run,
    settings.regressionThresholdPercent,
    settings.regressionMinRuns,
    settings.timeoutMs - outcome.elapsedMs,
    deps.cancel?.signal
  )
  if (findings.regression !== undefined && !settings.failOnRegression) deps.warn(findings.regression, 'regression')
  if (findings.throughputRegression !== undefined && !settings.failOnRegression)
    deps.warn(findings.throughputRegression, 'throughput-regression')
  if (findings.drift !== undefined && !settings.failOnEnvironment) deps.warn(findings.drift, 'drift')
  for (const n of findings.notices) deps.notice(n, 'history')
  return { engineLabel, phases, usualPhaseSeconds, ...findings }
}

function setupRecord(
  gpu: GpuInventory | undefined,
  engineVersion: string | undefined,
  modelId: string | undefined
): Partial<RunRecord> {
  return {
    ...(gpu === undefined ? {} : { gpu }),
    ...(engineVersion === undefined ? {} : { engineVersion }),
    ...(modelId === undefined ? {} : { modelId: modelId.slice(0, 200) })
  }
}

const round1 = (x: number): number => Math.round(x * 10) / 10

/** The `env-report` as history keeps it: a credential as a keyed hash, so that a change is still told. */
function envRecord(entries: readonly EnvEntry[], history: RunHistory): Record<string, string> {
  let key: Buffer | undefined | null = null
  const masked = (e: EnvEntry): string => {
    const value = secretValueOf(e)
    if (value === undefined || history.file === undefined) return MASKED
    if (key === null) key = historySecretKey(history.file)
    return maskedRecord(value, key)
  }
  return Object.fromEntries(
    entries.flatMap((e) => (e.value === undefined ? [] : [[e.name, e.secret ? masked(e) : e.value]]))
  )
}

/** The GPU workers' and NCCL's environments as history keeps them: one value per variable, or how they differ. */
function processesRecord(facts: ServerFacts | undefined, history: RunHistory): Partial<RunRecord> {
  const workers = (facts?.gpuWorkers ?? []).flatMap((w) => (w.env === undefined ? [] : [envRecord(w.env, history)]))
  const nccl = facts?.nccl?.processes.map((p) => p.env) ?? []
  return {
    ...(workers.length === 0 ? {} : { workersEnv: together(workers) }),
    ...(nccl.length === 0 ? {} : { ncclEnv: together(nccl) })
  }
}

/** Each variable's value where all have the same; `mixed: LL in 4, unset in 4` where they do not. */
function together(envs: readonly Record<string, string>[]): Record<string, string> {
  const names = [...new Set(envs.flatMap((e) => Object.keys(e)))].sort()
  return Object.fromEntries(
    names.map((name) => {
      const counts = new Map<string | undefined, number>()
      for (const e of envs) counts.set(e[name], (counts.get(e[name]) ?? 0) + 1)
      if (counts.size === 1) return [name, envs[0][name] as string]
      // a credential's keyed hash is never to be shown, not even in a mix
      const parts = [...counts].map(
        ([v, n]) => `${v === undefined ? 'unset' : isMasked(v) ? 'a credential' : v} in ${n}`
      )
      return [name, `mixed: ${parts.join(', ')}`]
    })
  )
}

/** The smoke test's medians for the history, when it measured them. */
function smokeRecord(outcome: TargetOutcome, settings: Settings): Partial<RunRecord> {
  const smoke = outcome.smoke
  if (smoke?.ttftMs === undefined || smoke.decodeTokensPerSecond === undefined || settings.smoke === undefined)
    return {}
  return {
    ttftMs: round1(smoke.ttftMs),
    decodeTokensPerSecond: round1(smoke.decodeTokensPerSecond),
    smokeTokens: settings.smoke.tokens,
    ...(smoke.engine?.decodeTokensPerSecond === undefined
      ? {}
      : { engineDecodeTokensPerSecond: round1(smoke.engine.decodeTokensPerSecond) }),
    ...(smoke.engine?.promptMs === undefined ? {} : { enginePromptMs: round1(smoke.engine.promptMs) })
  }
}
