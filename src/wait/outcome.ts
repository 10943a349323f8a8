/** What a wait found, as data: the gate returns it, the conclusion decides from it, the report words it. */
import type { Expectation } from './assess.js'
import type { Outcome } from './loop.js'
import type { EnvEntry } from '../server/env-report.js'
import type { LogLine } from '../server/log-follower.js'
import type { LogEngine } from '../engines/log-engines.js'
import type { PhaseTiming } from '../startup/phases.js'
import type { Settings } from '../inputs/settings.js'
import type { RunFindings } from './run-findings.js'
import type { SmokeResult } from '../smoke/measure.js'

/** What the gate knows about the server process and its log, beside the wait itself. */
export interface ServerFacts {
  pid?: number
  logFile?: string
  /** From the process's own start to readiness. */
  startupMs?: number
  /** Once ready, the GPU memory its processes hold (nvidia-smi); undefined without a reading. */
  gpuMemoryMiB?: number
  /** `env-report`, values already masked; undefined when not asked for. */
  env?: EnvEntry[]
  /** `env-report` was asked for, and the server's environment could not be read (it had exited, or no /proc). */
  envUnreadable?: boolean
  /** The last `log-lines` lines, on failure; undefined when the log does not exist. */
  logTail?: LogLine[]
}

/** The startup profile from the server's log, and this run against earlier ones (the history's findings). */
export type ProfileFacts = Omit<RunFindings, 'notices'> & {
  /** The engine's name for people ("vLLM"), when known. */
  engineLabel?: string
  phases: PhaseTiming[]
  /** The median seconds of each phase in earlier runs. */
  usualPhaseSeconds?: ReadonlyMap<string, number>
}

/** One endpoint's wait, and its smoke test once ready (`smoke-test`). */
export type TargetOutcome = Outcome & {
  url: URL
  /** The engine this endpoint was judged as (`engine`, its own model list, or the server's log), when known. */
  engine?: LogEngine
  smoke?: SmokeResult
}

/** The whole wait: the scalar fields describe one endpoint (see `representative`), `results` all of them. */
export type GateOutcome = TargetOutcome & { results: TargetOutcome[]; server?: ServerFacts; profile?: ProfileFacts }

/** What an answer must be for these settings to call it ready. */
export const expectation = (s: Settings): Expectation => ({
  model: s.model,
  match: s.match,
  matchRegex: s.matchRegex,
  status: s.status
})
