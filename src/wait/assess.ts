/** Judges one probe's result against what the settings expect: ready, keep waiting, or stop now. */
import { testWithin } from './bounded-regex.js'
import { readModelList } from '../engines/model-lists.js'
import { findModel } from '../engines/match.js'
import { statusAccepted, type StatusSet } from '../inputs/parse.js'
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
  fatalReason?: 'unauthorized' | 'tls'
  status?: number
  /** Listed model ids; undefined when the body was not a model list. */
  models?: string[]
  modelId?: string
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
  /** The listed model ids, where the summary names them. */
  models?: string[]
  /** What keeps an accepted answer from being ready. */
  missing?: Missing
  /** With `probe-generation`: the generation request, and what it got. */
  generation?: { request: string; answer: Answer }
}

type Missing =
  | { what: 'model-list'; truncated: boolean }
  | { what: 'model' }
  | { what: 'model-loaded'; id: string; loading: string }
  | { what: 'match' }
  | { what: 'match-regex' }
  | { what: 'match-regex-in-time' }

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

/** Codes told in the same words are the same answer. */
const SAME_ERROR: Record<string, string> = { UND_ERR_CONNECT_TIMEOUT: 'ETIMEDOUT' }

/** `regexLimitMs` bounds how long `match-regex` may run on the body (what is left of the probe's time). */
export function assess(result: ProbeResult, expect: Expectation, regexLimitMs = 1_000): Assessment {
  if (result.kind === 'error') return assessError(result)

  const { status, body } = result
  const excerpt = body.slice(0, 200)
  const list = readModelList(body)
  const models = list?.models.map((m) => m.id)
  const base = { status, models, excerpt }
  const said = describeBody(result.body, result.contentType)

  if (status === 401 || status === 403) {
    return {
      ...base,
      state: 'fatal',
      fatalReason: 'unauthorized',
      answer: { state: 'fatal', status, said: said || undefined },
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
      answer: { state: 'waiting', status, said: said || undefined },
      summary: `HTTP ${status}${said ? ` ${said}` : ''}`,
      detail: `HTTP ${status} is not an accepted status`
    }
  }

  const listed =
    models === undefined ? '' : models.length === 0 ? ', lists no models' : `, serving [${models.join(', ')}]`
  const summaryBase = `HTTP ${status}${listed || (said ? ` ${said}` : '')}`
  const answered = models === undefined ? { status, said: said || undefined } : { status, models }
  const waiting = (missing: Missing, why: string): Assessment => ({
    ...base,
    state: 'waiting',
    answer: { state: 'waiting', ...answered, missing },
    summary: `${summaryBase} — ${why}`,
    detail: why
  })

  let modelId: string | undefined
  if (expect.model !== undefined) {
    if (list === undefined) {
      return waiting(
        { what: 'model-list', truncated: result.truncated },
        `the answer is not a model list, so "${expect.model}" cannot be found in it${result.truncated ? ' (body over 1 MiB, cut)' : ''}`
      )
    }
    const found = findModel(list.models, expect.model)
    if (found === undefined) {
      return waiting(
        { what: 'model' },
        models?.length ? `"${expect.model}" is not among the listed models` : `"${expect.model}" is not listed yet`
      )
    }
    if (found.loading !== undefined)
      return waiting(
        { what: 'model-loaded', id: found.id, loading: found.loading },
        `"${found.id}" is listed but still loading (${found.loading})`
      )
    modelId = found.id
  }
  if (expect.match !== undefined && !body.includes(expect.match)) {
    return waiting({ what: 'match' }, `the body does not contain "${expect.match}"`)
  }
  if (expect.matchRegex !== undefined) {
    const matched = testWithin(expect.matchRegex, body, regexLimitMs)
    if (matched === undefined) {
      return waiting(
        { what: 'match-regex-in-time' },
        `${String(expect.matchRegex)} ran out of time on the body (it backtracks too much: simplify "match-regex")`
      )
    }
    if (!matched) return waiting({ what: 'match-regex' }, `the body does not match ${String(expect.matchRegex)}`)
  }
  return { ...base, modelId, state: 'ready', answer: { state: 'ready', ...answered }, summary: summaryBase, detail: '' }
}

function assessError(result: Extract<ProbeResult, { kind: 'error' }>): Assessment {
  if (TLS_CODES.test(result.code)) {
    // Node 24 adds advice about its own flags ("; if the root CA is installed locally, try … --use-system-ca"),
    // which an action cannot use: the inputs that can help are named instead.
    const what = result.message.split(';')[0]
    return {
      state: 'fatal',
      fatalReason: 'tls',
      answer: { state: 'fatal', error: 'TLS', said: what },
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
    const state: Assessment['state'] = result.status === undefined ? 'down' : 'waiting'
    return {
      state,
      answer: { state, status: result.status, error: 'TIMEOUT' },
      status: result.status,
      summary,
      detail: summary
    }
  }
  const known = ERROR_WORDS[result.code] !== undefined
  const words = ERROR_WORDS[result.code] ?? `${result.message} (${result.code})`
  const summary = result.status === undefined ? words : `HTTP ${result.status}, then ${words}`
  const state: Assessment['state'] = result.status === undefined ? 'down' : 'waiting'
  const error = SAME_ERROR[result.code] ?? result.code
  const answer: Answer = { state, status: result.status, error, said: known ? undefined : result.message }
  return { state, answer, status: result.status, summary, detail: summary }
}

/** Says what a body says in a few words: a JSON error's message, an HTML page's title, or its first line. */
export function describeBody(body: string, contentType: string): string {
  const text = body.trim()
  if (text === '') return ''
  try {
    const json = JSON.parse(text) as unknown
    const said = jsonMessage(json)
    if (said !== undefined) return clip(said)
  } catch {
    // not JSON: fall through to HTML and text
  }
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
  // eslint-disable-next-line no-control-regex
  const clean = text.slice(0, 2 * max).replace(/[\u0000-\u001f\u007f]+/g, ' ')
  return clean.length > max ? `${clean.slice(0, max)}…` : clean
}
