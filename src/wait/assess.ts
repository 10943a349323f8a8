/** Judges one probe's result against what the settings expect: ready, keep waiting, or stop now (as data). */
import { testWithin } from '../runtime/bounded-regex.js'
import { readModelList } from '../engines/model-lists.js'
import { matchKind, matchModel } from '../engines/match.js'
import { statusAccepted } from '../inputs/settings.js'
import type { ProbeResult } from '../http/probe.js'
import { clip, describeBody, detached } from '../runtime/text.js'
import { type Answer, type Assessment, type Expectation, WORDED_ERRORS, WORDED_PROXY_ERRORS } from '../facts/answer.js'

type Missing = NonNullable<Answer['missing']>

/** Whether two answers (or two parts of them) are the same: fields left out and fields undefined are alike. */
export function sameAnswer(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const x = a as Record<string, unknown>
  const y = b as Record<string, unknown>
  return [...new Set([...Object.keys(x), ...Object.keys(y)])].every((k) => sameAnswer(x[k], y[k]))
}

const TLS_CODES =
  /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(GET|VERIFY)_|HOSTNAME_MISMATCH)/

/** Codes told in the same words are the same answer. */
const SAME_ERROR: Record<string, string> = {
  UND_ERR_CONNECT_TIMEOUT: 'ETIMEDOUT',
  PROXY_UND_ERR_CONNECT_TIMEOUT: 'PROXY_ETIMEDOUT'
}

/** `regexLimitMs` bounds how long `match` as a regular expression may run on the body (what is left of the probe's time). */
export function assess(result: ProbeResult, expect: Expectation, regexLimitMs = 1_000): Assessment {
  if (result.kind === 'error') return assessError(result)

  const { status, body } = result
  const excerpt = detached(body.slice(0, 200))
  const list = readModelList(result.json)
  const ids = list?.models.map((m) => m.id)
  const models = ids?.slice(0, MAX_KEPT_MODELS)
  const modelCount = ids && ids.length > MAX_KEPT_MODELS ? { modelCount: ids.length } : {}
  const answeredBy = result.redirectedTo === undefined ? {} : { answeredBy: result.redirectedTo }
  const base = { status, models, ...modelCount, excerpt, ...answeredBy }
  const said = describeBody(result.body, result.contentType, result.json) || undefined
  const judged = (answer: Answer, extra: Partial<Assessment> = {}): Assessment => ({
    ...base,
    ...extra,
    state: answer.state,
    answer
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
  let modelMatch: Assessment['modelMatch']
  if (expect.model !== undefined) {
    if (list === undefined) return waiting({ what: 'model-list', model: expect.model, truncated: result.truncated })
    const match = matchModel(list.models, expect.model)
    if (match.kind === 'ambiguous') {
      // the first MAX_CANDIDATES, each clipped, and how many: 4000 long ids are not one 855 KB annotation
      const candidates = match.candidates.slice(0, MAX_CANDIDATES).map((m) => clip(m.id, MAX_ID_CHARS))
      const count = match.candidates.length
      const ambiguous = { model: expect.model, candidates, count }
      return judged(
        { state: 'fatal', ...answered, ambiguous },
        { fatalReason: 'ambiguous-model', candidates, ...(count > candidates.length ? { candidateCount: count } : {}) }
      )
    }
    if (match.kind === 'missing') return waiting({ what: 'model', model: expect.model })
    const found = match.model
    // `model-match: exact`: an id that only contains the name is some other model (kimi-k2 in kimi-k2.5-int4)
    if (matchKind(match.how) === 'partial' && expect.modelMatch === 'exact')
      return waiting({ what: 'model', model: expect.model, partial: found.id })
    // the engine's own word that the load failed: waiting will not load it
    if (found.failed !== undefined) {
      const loadFailed = {
        request: 'the model list',
        model: clip(found.id, 200),
        reason: found.failed,
        state: 'failed'
      }
      return judged({ state: 'fatal', ...answered, loadFailed }, { fatalReason: 'load-failed' })
    }
    if (found.unloaded)
      return {
        ...waiting({ what: 'model-unloaded', id: found.id, ...(expect.load === true ? { loadAsked: true } : {}) }),
        modelState: 'unloaded'
      }
    if (found.loading !== undefined)
      return { ...waiting({ what: 'model-loaded', id: found.id, loading: found.loading }), modelState: 'loading' }
    modelId = found.id
    modelMatch = matchKind(match.how)
  }
  if (expect.match !== undefined && !body.includes(expect.match)) return waiting({ what: 'match', match: expect.match })
  if (expect.matchRegex !== undefined) {
    const pattern = String(expect.matchRegex)
    const matched = testWithin(expect.matchRegex, body, regexLimitMs)
    if (matched === undefined) return waiting({ what: 'match-regex-in-time', pattern })
    if (!matched) return waiting({ what: 'match-regex', pattern })
  }
  return judged({ state: 'ready', ...answered }, { modelId, modelMatch })
}

/** OpenSSL's words when a plain HTTP server answers a TLS hello (`wrong version number`, `packet length too long`). */
const PLAIN_HTTP = /WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST/

function assessError(result: Extract<ProbeResult, { kind: 'error' }>): Assessment {
  const judged = (answer: Answer, extra: Partial<Assessment> = {}): Assessment => ({
    ...extra,
    state: answer.state,
    answer,
    status: result.status
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
  const said = hasWords(result.code, proxy !== undefined) ? undefined : result.message
  return judged({ state, status: result.status, error, proxy, said })
}

/** Whether the report words an error code itself (else it quotes the message); a proxy's by what the proxy did. */
function hasWords(code: string, viaProxy: boolean): boolean {
  const worded = (codes: readonly string[], c: string): boolean => codes.includes(c)
  if (!viaProxy) return worded(WORDED_ERRORS, code)
  const own = code.slice('PROXY_'.length)
  return worded(WORDED_PROXY_ERRORS, own) || worded(WORDED_ERRORS, own)
}

/** An answer names this many listed models at most: a list of 60,000 would make every line megabytes long. */
const MAX_NAMED_MODELS = 10
/** Ambiguous-model candidates named (annotation, summary, `check`, `--json`); the rest are counted. */
const MAX_CANDIDATES = 20
const MAX_ID_CHARS = 200

/** Model ids kept past the probe: 40,000 listed by each of a fleet's servers must not make an output of megabytes. */
const MAX_KEPT_MODELS = 1000
