/** One finished wait as the history keeps it (a JSON line of the history file), and how many runs it keeps. */

interface PhaseRecord {
  name: string
  seconds: number
}

export interface RunRecord {
  v: 1
  key: string
  /** When the wait ended (ISO 8601). */
  at: string
  ready: boolean
  reason: string
  elapsedSeconds: number
  /** From the server process's own start, when it is known. */
  startupSeconds?: number
  /** From the server's first HTTP answer to ready (how long it answered "loading"), for a ready run. */
  answeringSeconds?: number
  engine?: string
  phases: PhaseRecord[]
  /** The `env-report` snapshot (masked values stay masked); unset variables are absent. */
  env?: Record<string, string>
  /** The `env-report` input the snapshot was taken with: runs are compared on the same one only. */
  envReport?: string
  /** The smoke test's medians (`smoke-test`), and the tokens each request asked for: rates compare on the same. */
  ttftMs?: number
  decodeTokensPerSecond?: number
  smokeTokens?: number
}

/** Runs kept per key. */
export const KEEP_RUNS = 100
/** Ready runs the expected startup is the median of. */
export const MEDIAN_OF = 10
