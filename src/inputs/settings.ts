/**
 * The settings' types: what the inputs turn into (parse-settings.ts reads them), the words an input may take where
 * the settings own them, and the fixed values no input sets.
 */
import type { GenerationRoute } from '../engines/model-lists.js'
import type { Engine } from '../engines/index.js'

/** One endpoint to wait for; a fleet has several, all of which must be ready. */
export interface Target {
  url: URL
  /** With `probe-generation`: how to ask this server for a token. */
  generation?: { route: GenerationRoute; base: string }
}

/** `model-match`: `auto` takes a listed id that contains `model` when no closer one fits; `exact` does not. */
export const MODEL_MATCH_MODES = ['auto', 'exact'] as const
export type ModelMatchMode = (typeof MODEL_MATCH_MODES)[number]

export const GPU_CHECKS = ['warn', 'fail', 'off'] as const
export type GpuCheck = (typeof GPU_CHECKS)[number]
export const STOP_MODES = ['job-end', 'always', 'never'] as const
type StopMode = (typeof STOP_MODES)[number]

/** `smoke-test` and its fixed sizes. */
export interface SmokeSettings {
  /** A smoke test that cannot run fails the wait (`smoke-test: fail-on-error`); otherwise it only warns. */
  failOnError: boolean
  requests: number
  tokens: number
  /** At most this long, and never past the wait's own deadline. */
  timeoutMs: number
}

/** `history-file: auto`: the runner's tool cache for the action, the user's cache directory for the CLI. */
export const HISTORY_AUTO = 'auto'
/** The value of `history-file` that keeps the history in GitHub's Actions cache. */
export const ACTIONS_CACHE = 'actions-cache'

/** What to ask each endpoint, how, and what its answer must show. */
export interface ProbeSettings {
  model?: string
  modelMatch: ModelMatchMode
  /** `match` as literal text, or (`/source/flags`) as a regular expression. */
  match?: string
  matchRegex?: RegExp
  /** Lower-cased names; includes `authorization` when `api-key` is set. */
  headers: Record<string, string>
  /** PEM text of `ca-cert`, trusted beside the built-in certificates. */
  caCert?: string
  insecureTls: boolean
  /** Values that must never appear in output (the api-key, credential headers). */
  secrets: string[]
  /** Asks a server that lists the model without having loaded it (llama.cpp router, Ollama) to load it. */
  load: boolean
  /** Each target then carries its generation request. */
  probeGeneration: boolean
  /** Streamed generation requests once ready, timing the first token and the decode rate; undefined: none. */
  smoke?: SmokeSettings
}

/** How long the wait lasts and how its probes are spaced. */
interface WaitSettings {
  intervalMs: number
  timeoutMs: number
}

/** Accepted HTTP statuses, as ranges: `[[200, 299]]`. */
export type StatusSet = ReadonlyArray<readonly [number, number]>

export const statusAccepted = (set: StatusSet, status: number): boolean =>
  set.some(([lo, hi]) => status >= lo && status <= hi)

/** What no input sets: the values every wait runs with, which a test may shorten. */
export interface FixedSettings {
  status: StatusSet
  requestTimeoutMs: number
  /**
   * The gap between probes that cost the server next to nothing (a model list, a flag route such as vLLM's or
   * llama.cpp's /health, a connection): wait-on's pace, so a ready server is seen within it however long it loaded.
   * `interval` if shorter; costly requests (a generation) are paced by their cost, up to `interval`.
   */
  probeGapMs: number
  /** A one-model engine listing another model this long, unchanged, ends the wait (0: never). */
  wrongModelAfterMs: number
  /**
   * Generations failing with the same server error, once the model is listed and the engine says ready, end the
   * wait (`generation-failed`) after this long and this many attempts, whichever comes later.
   */
  generationFailedAfter: { ms: number; attempts: number }
  /** How often a still-waiting line is printed while the answer does not change. */
  progressIntervalMs: number
  /** How many of the log's last lines a failed wait shows. */
  logLines: number
  /** At the job's end, from SIGTERM until SIGKILL. */
  stopTimeoutMs: number
  /** Earlier ready runs with the key needed before a regression is told (or fails the step). */
  regressionMinRuns: number
}

export const FIXED: FixedSettings = {
  status: [[200, 299]],
  requestTimeoutMs: 10_000,
  probeGapMs: 250,
  wrongModelAfterMs: 30_000,
  generationFailedAfter: { ms: 60_000, attempts: 10 },
  progressIntervalMs: 30_000,
  logLines: 50,
  stopTimeoutMs: 30_000,
  regressionMinRuns: 3
}

/** The smoke test's sizes: three streamed requests of 64 tokens (the outputs are their medians), within 2 minutes. */
export const SMOKE_SIZES = { requests: 3, tokens: 64, timeoutMs: 120_000 } as const

/**
 * One server and its endpoints (its `url` lines). None of `start`, `pid`, `container` and `log-file`: a server of
 * kind none, only its endpoints to ask.
 */
export interface Server {
  /** In the order of the `url` lines. */
  targets: Target[]
  /** Shell command that launches the server in the background. */
  start?: string
  /** A server started elsewhere: its process id, or a file holding it (read when the wait begins). */
  pid?: { pid: number } | { file: string }
  /** The container that is the server, started by `start` or before the step: its exit, log and processes. */
  container?: string
  /** The ssh destination the server runs on: `start`, `pid` and `log-file` are that host's. */
  host?: string
  /** One server across several nodes: the other nodes (`host` and `start` lines after the first, the head's). */
  workers?: Array<{ host: string; start: string }>
  /** With `start` and none given, the gate picks one (with `container`: its output's copy). */
  logFile?: string
}

/** The servers: how each starts or which process it is, its log, how it is stopped and what to report about it. */
export interface ServerSettings {
  /** One server behind every `url` line, or a fleet: one per `url` line, in order. */
  servers: Server[]
  failPattern?: RegExp
  /** How many ranks must join before ready, counted in the log; undefined: across nodes, what the log or flags say. */
  ranks?: number
  /**
   * Before `start`, a port already held ends the wait (`port-busy`); with a server to watch, an answer on a local
   * port from another process ends it (`wrong-server`). false: a proxy in front of the server answers there.
   */
  portCheck: boolean
  /** Before `start`: what other processes holding memory on the server's GPUs do (nvidia-smi). */
  gpuCheck: GpuCheck
  /** `job-end`: the post step stops what `start` launched; `always`: also a `container` that ran before the step. */
  stop: StopMode
  /** Variable names or globs (`NCCL_*`) to report from the server's environment. */
  envReport: string[]
  /** Commands run when the wait fails, one per entry. */
  diagnostics: string[]
  /** The engine whose log lines to read; undefined: recognised from the log or the model list. */
  engine?: Engine
}

/** The history of earlier runs and what counts as a regression against it. */
export interface HistorySettings {
  /** HISTORY_AUTO for the default place, ACTIONS_CACHE, a path, or undefined (history off). */
  historyFile?: string
  /** Which earlier runs compare with this one; undefined: from the URL, the model and `start`. */
  historyKey?: string
  /** Start-up slower, or a smoke test's decode rate lower, than earlier runs' median by more than this percentage. */
  regressionThresholdPercent: number
  failOnRegression: boolean
  /** `fail-on-regression: environment`: a changed `env-report` variable alone fails the step. */
  failOnEnvironment: boolean
}

/** Every setting of a wait. */
export type Settings = ProbeSettings & WaitSettings & FixedSettings & ServerSettings & HistorySettings

/** Every endpoint of the wait, in the order of the `url` lines. */
export const endpointsOf = ({ servers }: Pick<ServerSettings, 'servers'>): Target[] =>
  servers.flatMap((server) => server.targets)
