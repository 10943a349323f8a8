/** Judges one probe's result against what the settings expect: ready, keep waiting, or stop now. */
import { testWithin } from '../runtime/bounded-regex.js'
import { readModelList } from '../engines/model-lists.js'
import { matchModel } from '../engines/match.js'
import { controlToSpace, statusAccepted, type StatusSet } from '../inputs/parse.js'
import type { ProbeResult } from '../http/probe.js'
import { answerWords, errorHasWords } from '../report/answer-report.js'

export interface Expectation {
  model?: string
  match?: string
  matchRegex?: RegExp
  status: StatusSet
}

export type Reason =
  | 'ready'
  | 'timeout'
  | 'unauthorized'
  | 'tls'
  /** The server process exited before it was ready. */
  | 'server-exited'
  /** A new line of the server's log matched `fail-pattern`. */
  | 'log-error'
  /** The model was listed, but the generation request kept failing until the timeout. */
  | 'generation-failed'
  /** Several listed ids contain `model` and none is it: the gate will not guess which one is meant. */
  | 'ambiguous-model'
  /** Before `start`: something already listens on the URL's port; nothing was started. */
  | 'port-busy'
  /** Before `start`, with `gpu-check: fail`: other processes hold memory on the server's GPUs; nothing was started. */
  | 'gpu-busy'
  /** With `start` or `pid`: the answer came from a process that is not the watched server or its descendants. */
  | 'wrong-server'
  /** Ready, and with `smoke-test: fail-on-error` the smoke test could not measure throughput. */
  | 'smoke-failed'
  | 'cancelled'

export interface Assessment {
  /** `down`: no HTTP answer; `waiting`: answered, not ready; `fatal`: waiting longer cannot help. */
  state: 'down' | 'waiting' | 'ready' | 'fatal'
  /** What the server said, as data: the wait loop compares these to tell a new answer from the same one. */
  answer: Answer
  /** One line in words for people (the log, the timeline), the same for the same `answer`. */
  summary: string
  /** Why it is not ready yet, or for `fatal` what to do; empty when ready. */
  detail: string
  fatalReason?: 'unauthorized' | 'tls' | 'ambiguous-model'
  status?: number
  /** Listed model ids, the first MAX_KEPT_MODELS of them; undefined when the body was not a model list. */
  models?: string[]
  /** How many models were listed, when more than `models` holds. */
  modelCount?: number
  modelId?: string
  /** With `ambiguous-model`: the listed ids that contain `model`, in the server's order. */
  candidates?: string[]
  /**
   * The state of the matched model when listed but not ready: `unloaded` where the server lists models it has
   * not loaded and loads one only when asked (llama.cpp's router mode, LM Studio); `loading` while it loads.
   */
  modelState?: 'loading' | 'unloaded'
  /** The first 200 characters of the body, for the failure message. */
  excerpt?: string
}

/**
 * An answer as data: exactly what its summary is made of, so that two answers are the same (`sameAnswer`) when,
 * and only when, they would be told the same way.
 */
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
  /** Several listed ids contain the expected model and none is it (`ambiguous-model`): those ids. */
  candidates?: string[]
  /** With `probe-generation`: the generation request, and what it got. */
  generation?: { request: string; answer: Answer }
  /** The engine's own readiness answer required beside the model list (SGLang's /health), and what it got. */
  engineReadiness?: { request: string; answer: Answer }
}

type Missing =
  | { what: 'model-list'; truncated: boolean }
  | { what: 'model' }
  | { what: 'model-loaded'; id: string; loading: string }
  | { what: 'model-unloaded'; id: string }
  | { what: 'match' }
  | { what: 'match-regex' }
  | { what: 'match-regex-in-time' }
  /** A generation request's 2xx answer that is no completion in the engine's format (`route`: its name). */
  | { what: 'completion'; route: string }

/** Whether two answers are the same answer (fields left out and fields undefined are alike). */
export function sameAnswer(a: Answer | undefined, b: Answer | undefined): boolean {
  return sameData(a, b)
}

function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const x = a as Record<string, unknown>
  const y = b as Record<string, unknown>
  return [...new Set([...Object.keys(x), ...Object.keys(y)])].every((k) => sameData(x[k], y[k]))
}

const TLS_CODES =
  /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(GET|VERIFY)_|HOSTNAME_MISMATCH)/

/** Codes told in the same words are the same answer. */
const SAME_ERROR: Record<string, string> = {
  UND_ERR_CONNECT_TIMEOUT: 'ETIMEDOUT',
  PROXY_UND_ERR_CONNECT_TIMEOUT: 'PROXY_ETIMEDOUT'
}

/** `regexLimitMs` bounds how long `match-regex` may run on the body (what is left of the probe's time). */
export function assess(result: ProbeResult, expect: Expectation, regexLimitMs = 1_000): Assessment {
  if (result.kind === 'error') return assessError(result)

  const { status, body } = result
  const excerpt = detached(body.slice(0, 200))
  const list = readModelList(result.json)
  const ids = list?.models.map((m) => m.id)
  const models = ids?.slice(0, MAX_KEPT_MODELS)
  const modelCount = ids && ids.length > MAX_KEPT_MODELS ? { modelCount: ids.length } : {}
  const base = { status, models, ...modelCount, excerpt }
  const said = describeBody(result.body, result.contentType, result.json) || undefined
  const judged = (answer: Answer, extra: Partial<Assessment> = {}): Assessment => ({
    ...base,
    ...extra,
    state: answer.state,
    answer,
    ...answerWords(answer, expect)
  })

  if (status === 401 || status === 403) return judged({ state: 'fatal', status, said }, { fatalReason: 'unauthorized' })
  if (!statusAccepted(expect.status, status)) return judged({ state: 'waiting', status, said })

  // The summary names the listed models (the first few, and how many), or else what the body says.
  const answered =
    ids === undefined
      ? { status, said }
      : {
          status,
          models: ids.slice(0, MAX_NAMED_MODELS),
          ...(ids.length > MAX_NAMED_MODELS ? { modelCount: ids.length } : {})
        }
  const waiting = (missing: Missing): Assessment => judged({ state: 'waiting', ...answered, missing })

  let modelId: string | undefined
  if (expect.model !== undefined) {
    if (list === undefined) return waiting({ what: 'model-list', truncated: result.truncated })
    const match = matchModel(list.models, expect.model)
    if (match.kind === 'ambiguous') {
      const candidates = match.candidates.map((m) => m.id)
      return judged({ state: 'fatal', ...answered, candidates }, { fatalReason: 'ambiguous-model', candidates })
    }
    if (match.kind === 'missing') return waiting({ what: 'model' })
    const found = match.model
    if (found.unloaded) return { ...waiting({ what: 'model-unloaded', id: found.id }), modelState: 'unloaded' }
    if (found.loading !== undefined)
      return { ...waiting({ what: 'model-loaded', id: found.id, loading: found.loading }), modelState: 'loading' }
    modelId = found.id
  }
  if (expect.match !== undefined && !body.includes(expect.match)) return waiting({ what: 'match' })
  if (expect.matchRegex !== undefined) {
    const matched = testWithin(expect.matchRegex, body, regexLimitMs)
    if (matched === undefined) return waiting({ what: 'match-regex-in-time' })
    if (!matched) return waiting({ what: 'match-regex' })
  }
  return judged({ state: 'ready', ...answered }, { modelId })
}

/**
 * OpenSSL's words when the first bytes back are not TLS: a plain HTTP server answering a TLS hello with a
 * 400 page (`wrong version number`, or `packet length too long` from some servers).
 */
const PLAIN_HTTP = /WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST/

function assessError(result: Extract<ProbeResult, { kind: 'error' }>): Assessment {
  const judged = (answer: Answer, extra: Partial<Assessment> = {}): Assessment => ({
    ...extra,
    state: answer.state,
    answer,
    status: result.status,
    ...answerWords(answer, { status: [] })
  })
  if (TLS_CODES.test(result.code) && PLAIN_HTTP.test(result.code)) {
    const plainHttp = { redirectedTo: result.redirectedTo }
    return judged({ state: 'fatal', error: result.code, plainHttp }, { fatalReason: 'tls' })
  }
  if (TLS_CODES.test(result.code)) {
    // Node 24 adds advice about its own flags ("; if the root CA is installed locally, try … --use-system-ca"),
    // which an action cannot use: the inputs that can help are named instead.
    return judged({ state: 'fatal', error: result.code, said: result.message.split(';')[0] }, { fatalReason: 'tls' })
  }
  const state: Assessment['state'] = result.status === undefined ? 'down' : 'waiting'
  if (result.code === 'TIMEOUT') return judged({ state, status: result.status, error: 'TIMEOUT' })
  const error = SAME_ERROR[result.code] ?? result.code
  // An error met on the way through a proxy is the proxy's (`PROXY_<code>`, see the probe).
  const proxy = result.proxy !== undefined && result.code.startsWith('PROXY_') ? result.proxy : undefined
  // A code without words of its own is told by its message.
  const said = errorHasWords(result.code, proxy !== undefined) ? undefined : result.message
  return judged({ state, status: result.status, error, proxy, said })
}

/** An answer names this many listed models at most: a list of 60,000 would make every line megabytes long. */
const MAX_NAMED_MODELS = 10

/**
 * An answer's model ids kept past the probe (its `models`, the `models` output): a fleet of servers listing
 * 40,000 models each would otherwise hold hundreds of thousands of strings and write an output of megabytes.
 */
const MAX_KEPT_MODELS = 1000

/**
 * Says what a body says in a few words: a JSON error's message (from `json`, the body already parsed), an HTML
 * page's title, or its first line.
 */
export function describeBody(body: string, contentType: string, json: unknown): string {
  const text = body.trimStart().slice(0, 8192).trimEnd()
  if (text === '') return ''
  const said = jsonMessage(json)
  if (said !== undefined) return clip(said)
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text.slice(0, 4096))
  if (title) return clip(title[1].trim())
  if (/html/i.test(contentType) || text.startsWith('<')) return '(an HTML page)'
  return clip(text.split(/\r?\n/, 1)[0])
}

function jsonMessage(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined
  const o = json as Record<string, unknown>
  for (const key of ['error', 'message', 'detail', 'reason', 'status']) {
    const v = o[key]
    if (typeof v === 'string' && v !== '') return v
    if (typeof v === 'object' && v !== null) {
      const inner = jsonMessage(v)
      if (inner !== undefined) return inner
    }
  }
  return undefined
}

/** The server's words on one line, at most `max` characters. */
export function clip(text: string, max = 120): string {
  // cut before cleaning: a body can be 1 MiB on one line, and a copy of it per probe adds up
  const clean = controlToSpace(text.slice(0, 2 * max))
  return detached(clean.length > max ? `${clean.slice(0, max)}…` : clean)
}

/**
 * A copy of a short string that does not hold on to the string it was cut from. V8 makes a slice of 13
 * characters or more a view of its parent: an excerpt or a summary kept from a 1 MiB body would keep the whole
 * body alive for as long as the answer is kept (the last answer of each target of a fleet, the timeline).
 */
function detached(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string
}
