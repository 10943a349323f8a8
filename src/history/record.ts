/** One finished wait as the history keeps it (a JSON line of the history file), and how many runs it keeps. */

interface PhaseRecord {
  name: string
  seconds: number
}

export interface RunRecord {
  v: 1
  key: string
  /** ISO 8601. */
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
  /** Masked values stay masked; unset variables are absent. */
  env?: Record<string, string>
  /** Runs are compared on the same `env-report` only. */
  envReport?: string
  /** The GPU workers' `env-report`: a value where all have it, `mixed: …` where they do not, absent where none has one. */
  workersEnv?: Record<string, string>
  /** What NCCL's own lines say its processes took from the environment, kept the same way. */
  ncclEnv?: Record<string, string>
  /** The smoke test's medians, and its tokens a request: rates compare on the same. */
  ttftMs?: number
  decodeTokensPerSecond?: number
  smokeTokens?: number
  /** The engine's own timing of the same requests (medians), where its stream carried one: beside ours, never compared. */
  engineDecodeTokensPerSecond?: number
  enginePromptMs?: number
  /** Once ready, where the model was (`gpu`, `partial`, `cpu`), where something told it. */
  placement?: string
  /** What the figures depend on: runs compare only with runs on the same (a part unknown on either side aside). */
  gpu?: { model: string; count: number; driver: string }
  engineVersion?: string
  /** The listed id that was served. */
  modelId?: string
}

export const KEEP_RUNS = 100
export const MEDIAN_OF = 10
