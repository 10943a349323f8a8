/** One answer of the server as data: what the settings expect, what it said, and the judgement (worded in report/). */
import type { ModelMatchMode, Settings, StatusSet } from '../inputs/settings.js'

export interface Expectation {
  model?: string
  match?: string
  matchRegex?: RegExp
  status: StatusSet
  /** `exact`: a listed id that only contains `model` is not it (`model-match`); `auto` when not given. */
  modelMatch?: ModelMatchMode
  /** `load: true`: a model listed but not loaded is asked to load, not advised about. */
  load?: boolean
}

/** What an answer must be for these settings to call it ready. */
export const expectation = (s: Settings): Expectation => ({
  model: s.model,
  match: s.match,
  matchRegex: s.matchRegex,
  status: s.status,
  modelMatch: s.modelMatch,
  load: s.load
})

export type Reason =
  | 'ready'
  | 'timeout'
  | 'unauthorized'
  | 'tls'
  /** The server process exited before it was ready. */
  | 'server-exited'
  /** A new line of the server's log matched `fail-pattern`. */
  | 'log-error'
  /**
   * The model was listed (and the engine said ready), but the generation request kept failing: with the same server
   * error for a while (FIXED.generationFailedAfter), or with any until the timeout.
   */
  | 'generation-failed'
  /** Several listed ids contain `model` and none is it: the gate will not guess which one is meant. */
  | 'ambiguous-model'
  /** Before `start`: something already listens on the URL's port; nothing was started. */
  | 'port-busy'
  /** Before `start`, with `gpu-check: fail`: other processes hold memory on the server's GPUs; nothing was started. */
  | 'gpu-busy'
  /** With `start`, `pid` or `container`: the answer (after any redirect) came from a process not the server's. */
  | 'wrong-server'
  /** With the URL alone: the answer on a local port came from a server an earlier job left running. */
  | 'leftover-server'
  /** Ready, and with `smoke-test: fail-on-error` the smoke test could not measure throughput. */
  | 'smoke-failed'
  /** The engine says a model failed to load (Triton's repository index: UNAVAILABLE, with its reason). */
  | 'load-failed'
  /** An engine that serves one model lists another, unchanged for a while (FIXED.wrongModelAfterMs). */
  | 'wrong-model'
  /** The engine's core died: vLLM's /health 503 after 200, or generations answering its dead-engine error. */
  | 'engine-dead'
  | 'cancelled'

/** The reasons an answer itself gives for stopping at once (the assessment's `fatalReason`). */
type FatalReason =
  | 'unauthorized'
  | 'tls'
  | 'ambiguous-model'
  | 'load-failed'
  | 'wrong-model'
  | 'engine-dead'
  | 'generation-failed'
  /** `ranks` given, and the log's own lines say another count. */
  | 'log-error'

export interface Assessment {
  /** `down`: no HTTP answer; `waiting`: answered, not ready; `fatal`: waiting longer cannot help. */
  state: 'down' | 'waiting' | 'ready' | 'fatal'
  /** What the server said, as data: the loop tells a new answer from the same by it, and the report words it. */
  answer: Answer
  fatalReason?: FatalReason
  status?: number
  /** Listed model ids, the first MAX_KEPT_MODELS of them; undefined when the body was not a model list. */
  models?: string[]
  /** How many models were listed, when more than `models` holds. */
  modelCount?: number
  modelId?: string
  /** How `modelId` fits `model`: `exact` (equal, but for case, or the id ends with `/<model>`), `partial` (contains it). */
  modelMatch?: 'exact' | 'partial'
  /** With `ambiguous-model`: the first 20 listed ids that contain `model`, in the server's order. */
  candidates?: string[]
  /** How many listed ids contain `model`, when more than `candidates` holds. */
  candidateCount?: number
  /** A listed model not ready: `unloaded` where the engine loads one only when asked (llama.cpp router, LM Studio). */
  modelState?: 'loading' | 'unloaded'
  /** The first 200 characters of the body, for the failure message. */
  excerpt?: string
  /**
   * The URL that answered, when redirects led elsewhere: `wrong-server` asks who holds its port, so that a redirect to
   * another local server is not the watched one's answer.
   */
  answeredBy?: string
}

/** An answer as data: exactly what its summary is made of, so that two are the same when they are told the same. */
export interface Answer {
  state: Assessment['state']
  status?: number
  /** The probe's error code: no HTTP answer, or one cut short. */
  error?: string
  /** The server's own words: a body's message or page title, an error's message that has no words of ours. */
  said?: string
  /** The listed model ids the summary names (the first MAX_NAMED_MODELS), where it names them. */
  models?: string[]
  /** How many models were listed, when more than `models` names. */
  modelCount?: number
  /** The proxy an error came from (the connection to it, or its tunnel, failed). */
  proxy?: string
  /** A TLS error because the server answered in plain HTTP; `redirectedTo` where it had redirected, if it had. */
  plainHttp?: { redirectedTo?: string }
  /** What keeps an accepted answer from being ready. */
  missing?: Missing
  /** Several listed ids contain the expected `model` and none is it (`ambiguous-model`): those ids. */
  ambiguous?: { model: string; candidates: string[]; count: number }
  /** One server across several nodes, ready but for its ranks: how many joined, and the nodes short of theirs. */
  ranks?: RanksMissing
  /** With `probe-generation`: the generation request, and what it got. */
  generation?: { request: string; answer: Answer }
  /** The engine's own readiness answer required beside the model list (SGLang's /health), and what it got. */
  engineReadiness?: { request: string; answer: Answer }
  /** `load-failed`: the model the engine says failed to load, in the engine's own words (`reason`). */
  loadFailed?: { request: string; model: string; reason: string; state?: string }
  /** `wrong-model`: what a one-model engine serves instead of `model`, and the nearest listed name. */
  wrongModel?: { model: string; serving: string[]; nearest?: string; forMs: number }
  /** `engine-dead`: the answer that says so (`health`: the readiness route after it said ready; `generations`). */
  engineDead?: { request: string; by: 'health' | 'generations'; status?: number; count?: number }
  /** `generation-failed` before the timeout: the same server error from every generation for `forMs`, `count` times. */
  generationsFailing?: { request: string; status: number; forMs: number; count: number }
}

/** What holds readiness: how many ranks joined of how many, and the nodes that have fewer than their share. */
export interface RanksMissing {
  joined: number
  /** Undefined while no line has said how many there are. */
  expected?: number
  /** `node 2 (root@b)`, for each node short of its share (all of them where the count does not divide evenly). */
  missingOn: string[]
  /** With `ranks` given: whose lines were counted, the engine's own or NCCL's `Init COMPLETE`. */
  countedBy?: 'engine' | 'nccl'
  /** `ranks` given, and the log's own lines say another count: the count they say and the line that said it. */
  conflict?: { said: number; line: string }
}

type Missing =
  | { what: 'model-list'; model: string; truncated: boolean }
  /** `partial`: a listed id that contains `model`, refused by `model-match: exact`. */
  | { what: 'model'; model: string; partial?: string }
  | { what: 'model-loaded'; id: string; loading: string }
  | { what: 'model-unloaded'; id: string; loadAsked?: boolean }
  | { what: 'match'; match: string }
  /** `pattern`: `match` as a regular expression, as its words show it (`/ready/i`). */
  | { what: 'match-regex'; pattern: string }
  | { what: 'match-regex-in-time'; pattern: string }
  /** A generation request's 2xx answer that is no completion in the engine's format (`route`: its name). */
  | { what: 'completion'; route: string }

/** A listed id as an answer's words name it: at most this many characters. */
export const NAMED_ID_CHARS = 200

/** The error codes told in words of their own; an error with another code is told by its message (`said`). */
export const WORDED_ERRORS = [
  'ECONNREFUSED',
  'ECONNRESET',
  'UND_ERR_SOCKET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'HPE_INVALID_CONSTANT',
  'TOO_MANY_REDIRECTS',
  'BAD_REDIRECT'
] as const

/** The codes of a proxy's failed connection (`PROXY_<code>`, see the probe) told in words of their own. */
export const WORDED_PROXY_ERRORS = [
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'CLOSED'
] as const
