/** Judges one probe's result against what the settings expect: ready, keep waiting, or stop now. */
import { testWithin } from './bounded-regex.js'
import { readModelList } from '../engines/model-lists.js'
import { matchModel } from '../engines/match.js'
import { ambiguousModelText, unloadedModelText } from '../report/lifecycle-report.js'
import { controlToSpace, statusAccepted, type StatusSet } from '../inputs/parse.js'
import { MAX_REDIRECTS, type ProbeResult } from '../http/probe.js'

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
  | 'cancelled'

export interface Assessment {
  /** `down`: no HTTP answer; `waiting`: answered, not ready; `fatal`: waiting longer cannot help. */
  state: 'down' | 'waiting' | 'ready' | 'fatal'
  /** One line in words, stable between identical answers, so that a change of answer is a change of text. */
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

const TLS_CODES =
  /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(GET|VERIFY)_|HOSTNAME_MISMATCH)/

const ERROR_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the server',
  UND_ERR_SOCKET: 'connection closed by the server before a complete answer',
  EPIPE: 'connection closed by the server',
  ENOTFOUND: 'host not found (DNS)',
  EAI_AGAIN: 'host name lookup failed for now (DNS)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection attempt timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection attempt timed out',
  HPE_INVALID_CONSTANT: 'the answer is not valid HTTP',
  TOO_MANY_REDIRECTS: `more than ${MAX_REDIRECTS} redirects (a redirect loop?)`,
  BAD_REDIRECT: 'redirected to a URL that is not http:// or https://'
}

/** `regexLimitMs` bounds how long `match-regex` may run on the body (what is left of the probe's time). */
export function assess(result: ProbeResult, expect: Expectation, regexLimitMs = 1_000): Assessment {
  if (result.kind === 'error') return assessError(result)

  const { status, body } = result
  const excerpt = body.slice(0, 200)
  const list = readModelList(result.json)
  const ids = list?.models.map((m) => m.id)
  const models = ids?.slice(0, MAX_KEPT_MODELS)
  const base = { status, models, ...(ids && ids.length > MAX_KEPT_MODELS ? { modelCount: ids.length } : {}), excerpt }
  const said = describeBody(result.body, result.contentType, result.json)

  if (status === 401 || status === 403) {
    return {
      ...base,
      state: 'fatal',
      fatalReason: 'unauthorized',
      summary: `HTTP ${status}${said ? ` ${said}` : ''}`,
      detail:
        `the server refused the request as ${status === 401 ? 'unauthenticated' : 'forbidden'}: ` +
        'set "api-key" to the key the server was started with (sent as "Authorization: Bearer <key>"), ' +
        'or pass the header it expects with "headers"'
    }
  }
  if (!statusAccepted(expect.status, status)) {
    return {
      ...base,
      state: 'waiting',
      summary: `HTTP ${status}${said ? ` ${said}` : ''}`,
      detail: `HTTP ${status} is not an accepted status`
    }
  }

  const listed = ids === undefined ? '' : ids.length === 0 ? ', lists no models' : `, serving [${someOf(ids)}]`
  const summaryBase = `HTTP ${status}${listed || (said ? ` ${said}` : '')}`
  const waiting = (why: string): Assessment => ({
    ...base,
    state: 'waiting',
    summary: `${summaryBase} — ${why}`,
    detail: why
  })

  let modelId: string | undefined
  if (expect.model !== undefined) {
    if (list === undefined) {
      return waiting(
        `the answer is not a model list, so "${expect.model}" cannot be found in it${result.truncated ? ' (body over 1 MiB, cut)' : ''}`
      )
    }
    const match = matchModel(list.models, expect.model)
    if (match.kind === 'ambiguous') {
      const candidates = match.candidates.map((m) => m.id)
      const words = ambiguousModelText(expect.model, candidates)
      return {
        ...base,
        state: 'fatal',
        fatalReason: 'ambiguous-model',
        candidates,
        summary: `${summaryBase} — ${words.summary}`,
        detail: words.detail
      }
    }
    if (match.kind === 'missing') {
      return waiting(
        models?.length ? `"${expect.model}" is not among the listed models` : `"${expect.model}" is not listed yet`
      )
    }
    const found = match.model
    if (found.unloaded) return { ...waiting(unloadedModelText(found.id)), modelState: 'unloaded' }
    if (found.loading !== undefined)
      return { ...waiting(`"${found.id}" is listed but still loading (${found.loading})`), modelState: 'loading' }
    modelId = found.id
  }
  if (expect.match !== undefined && !body.includes(expect.match)) {
    return waiting(`the body does not contain "${expect.match}"`)
  }
  if (expect.matchRegex !== undefined) {
    const matched = testWithin(expect.matchRegex, body, regexLimitMs)
    if (matched === undefined) {
      return waiting(
        `${String(expect.matchRegex)} ran out of time on the body (it backtracks too much: simplify "match-regex")`
      )
    }
    if (!matched) return waiting(`the body does not match ${String(expect.matchRegex)}`)
  }
  return { ...base, modelId, state: 'ready', summary: summaryBase, detail: '' }
}

function assessError(result: Extract<ProbeResult, { kind: 'error' }>): Assessment {
  if (TLS_CODES.test(result.code)) {
    // Node 24 adds advice about its own flags ("; if the root CA is installed locally, try … --use-system-ca"),
    // which an action cannot use: the inputs that can help are named instead.
    const what = result.message.split(';')[0]
    return {
      state: 'fatal',
      fatalReason: 'tls',
      summary: `TLS error: ${what}`,
      detail:
        `the server's certificate was not accepted (${result.code}): ${what}. ` +
        'Give its CA certificate with "ca-cert", or set "insecure-tls: true" to skip the check'
    }
  }
  if (result.code === 'TIMEOUT') {
    const summary =
      result.status === undefined
        ? 'no answer (request timed out)'
        : `HTTP ${result.status}, but the body did not arrive in time`
    return { state: result.status === undefined ? 'down' : 'waiting', status: result.status, summary, detail: summary }
  }
  const words = ERROR_WORDS[result.code] ?? `${result.message} (${result.code})`
  const summary = result.status === undefined ? words : `HTTP ${result.status}, then ${words}`
  return { state: result.status === undefined ? 'down' : 'waiting', status: result.status, summary, detail: summary }
}

/** A summary names this many listed models at most: a list of 60,000 would make every line megabytes long. */
const MAX_NAMED_MODELS = 10

/**
 * An answer's model ids kept past the probe (its `models`, the `models` output): a fleet of servers listing
 * 40,000 models each would otherwise hold hundreds of thousands of strings and write an output of megabytes.
 */
const MAX_KEPT_MODELS = 1000

/** The first `max` ids, then how many more of `total`. */
export function someOf(ids: readonly string[], max = MAX_NAMED_MODELS, total = ids.length): string {
  const named = ids.slice(0, max).map((id) => clip(id, 200))
  return total > named.length ? `${named.join(', ')} and ${total - named.length} more` : named.join(', ')
}

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

function clip(text: string, max = 120): string {
  // cut before cleaning: a body can be 1 MiB on one line, and a copy of it per probe adds up
  const clean = controlToSpace(text.slice(0, 2 * max))
  return clean.length > max ? `${clean.slice(0, max)}…` : clean
}
