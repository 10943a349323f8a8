/** An answer in words: its one-line summary (the log, the timeline) and its detail (why it is not ready). */
import { type Answer, NAMED_ID_CHARS, type WORDED_ERRORS, type WORDED_PROXY_ERRORS } from '../facts/answer.js'
import { clip } from '../runtime/text.js'
import { formatDuration } from '../runtime/clock.js'
import { MAX_REDIRECTS } from '../http/probe.js'
import { ambiguousModelText, unloadedModelText } from './lifecycle-report.js'

export interface AnswerWords {
  /** One line, the same for the same answer. */
  summary: string
  /** Why it is not ready yet, or for a fatal answer what to do; empty when ready. */
  detail: string
}

const ERROR_WORDS: Readonly<Record<(typeof WORDED_ERRORS)[number], string>> = {
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

/** What a proxy did when the connection to it failed (`PROXY_<code>`, see the probe). */
const PROXY_WORDS: Readonly<Record<(typeof WORDED_PROXY_ERRORS)[number], string>> = {
  ECONNREFUSED: 'refused the connection',
  ENOTFOUND: 'was not found (DNS)',
  EAI_AGAIN: 'could not be looked up for now (DNS)',
  EHOSTUNREACH: 'is unreachable',
  ENETUNREACH: 'is on an unreachable network',
  ETIMEDOUT: 'did not accept the connection in time',
  UND_ERR_CONNECT_TIMEOUT: 'did not accept the connection in time',
  CLOSED: 'closed the connection before the tunnel was open'
}

/** A `PROXY_<code>` (`viaProxy`) is said after "the proxy …". */
function codeWords(code: string, viaProxy: boolean): string | undefined {
  // a code the tables do not name (facts/answer.ts lists those they do) has no words of its own
  const errors: Readonly<Record<string, string | undefined>> = ERROR_WORDS
  const proxies: Readonly<Record<string, string | undefined>> = PROXY_WORDS
  if (!viaProxy) return errors[code]
  const own = code.slice('PROXY_'.length)
  return proxies[own] ?? (errors[own] === undefined ? undefined : `failed: ${errors[own]}`)
}

export function someOf(ids: readonly string[], max: number, total = ids.length): string {
  const named = ids.slice(0, max).map((id) => clip(id, NAMED_ID_CHARS))
  return total > named.length ? `${named.join(', ')} and ${total - named.length} more` : named.join(', ')
}

/** A generation request that produced a token: its arrival is the news, not its body. */
const generatedWords = (request: string): AnswerWords => ({ summary: `${request} generated`, detail: '' })

/** An answer in words: the same words for the same answer (it names the model, the text or the pattern it lacks). */
export function answerWords(answer: Answer): AnswerWords {
  const stopped = cannotChangeWords(answer, () => listedWords(answer))
  if (stopped !== undefined) return stopped
  if (answer.ranks !== undefined) return withRanksWords(answer, answer.ranks)
  if (answer.engineReadiness !== undefined) return withEngineReadinessWords(answer)
  if (answer.generation !== undefined) return withGenerationWords(answer)
  if (answer.error !== undefined) return errorWords(answer, answer.error)
  const status = `HTTP ${answer.status}`
  const said = answer.said ? ` ${answer.said}` : ''
  if (answer.state === 'fatal' && answer.ambiguous === undefined) {
    return {
      summary: `${status}${said}`,
      detail:
        `the server refused the request as ${answer.status === 401 ? 'unauthenticated' : 'forbidden'}: ` +
        'set "api-key" to the key the server was started with (sent as "Authorization: Bearer <key>"), ' +
        'or pass the header it expects with "headers"'
    }
  }
  if (answer.state === 'waiting' && answer.missing === undefined)
    return { summary: `${status}${said}`, detail: `${status} is not an accepted status` }
  if (answer.missing?.what === 'completion') {
    return {
      summary: `${status} ${answer.said ?? 'with an empty body'} — not a completion`,
      detail: `the answer is not a ${answer.missing.route} completion`
    }
  }
  const { models } = answer
  const listed =
    models === undefined
      ? ''
      : models.length === 0
        ? ', lists no models'
        : `, serving [${someOf(models, models.length, answer.modelCount)}]`
  const summary = `${status}${listed || said}`
  if (answer.ambiguous !== undefined) {
    const words = ambiguousModelText(answer.ambiguous.model, answer.ambiguous.candidates, answer.ambiguous.count)
    return { summary: `${summary} — ${words.summary}`, detail: words.detail }
  }
  if (answer.missing === undefined) return { summary, detail: '' }
  const why = missingWords(answer.missing, answer)
  return { summary: `${summary} — ${why}`, detail: why }
}

/** The one-line summary of the model list under a fatal answer built on it. */
const listedWords = (answer: Answer): string =>
  answerWords({
    ...answer,
    state: 'ready',
    wrongModel: undefined,
    engineDead: undefined,
    generationsFailing: undefined,
    engineReadiness: undefined,
    generation: undefined
  }).summary

/** What a model list or body lacks (a generation answer that is no completion is told above, in its own words). */
function missingWords(
  missing: Exclude<NonNullable<Answer['missing']>, { what: 'completion' }>,
  answer: Answer
): string {
  switch (missing.what) {
    case 'model-list':
      return `the answer is not a model list, so "${missing.model}" cannot be found in it${missing.truncated ? ' (body over 1 MiB, cut)' : ''}`
    case 'model':
      if (missing.partial !== undefined)
        return `"${missing.model}" is not among the listed models ("${clip(missing.partial, NAMED_ID_CHARS)}" contains it, which "model-match: exact" refuses)`
      return answer.models?.length
        ? `"${missing.model}" is not among the listed models`
        : `"${missing.model}" is not listed yet`
    case 'model-loaded':
      return `"${missing.id}" is listed but still loading (${missing.loading})`
    case 'model-unloaded':
      return unloadedModelText(missing.id, missing.loadAsked === true)
    case 'match':
      return `the body does not contain "${missing.match}"`
    case 'match-regex-in-time':
      return `${missing.pattern} ran out of time on the body (it backtracks too much: simplify "match")`
    case 'match-regex':
      return `the body does not match ${missing.pattern}`
  }
}

function errorWords(answer: Answer, code: string): AnswerWords {
  if (answer.plainHttp !== undefined) {
    const to = answer.plainHttp.redirectedTo
    const where = to === undefined ? 'the server' : `${new URL(to).host} (where the server redirected)`
    return {
      summary: 'TLS error: the server answered in plain HTTP, not TLS',
      detail:
        `${where} speaks plain HTTP on this port, not HTTPS (${code}): ` +
        (to === undefined
          ? 'use an http:// URL'
          : `its redirect to ${to} is to a port without TLS: fix the redirect, or give the final address with http://`) +
        '; "ca-cert" and "insecure-tls" cannot help'
    }
  }
  if (answer.state === 'fatal' && answer.ambiguous === undefined) {
    return {
      summary: `TLS error: ${answer.said}`,
      detail:
        `the server's certificate was not accepted (${code}): ${answer.said}. ` +
        'Give its CA certificate with "ca-cert", or set "insecure-tls: true" to skip the check'
    }
  }
  if (code === 'TIMEOUT') {
    const summary =
      answer.status === undefined
        ? 'no answer (request timed out)'
        : `HTTP ${answer.status}, but the body did not arrive in time`
    return { summary, detail: summary }
  }
  const viaProxy = answer.proxy !== undefined
  const known = codeWords(code, viaProxy)
  const words = viaProxy
    ? `the proxy ${answer.proxy} ${known ?? `failed: ${answer.said}`}`
    : (known ?? `${answer.said} (${code})`)
  const summary = answer.status === undefined ? words : `HTTP ${answer.status}, then ${words}`
  return { summary, detail: summary }
}

/** A ready answer held by the ranks that have not joined yet (one server across several nodes). */
function withRanksWords(answer: Answer, ranks: NonNullable<Answer['ranks']>): AnswerWords {
  const ready = answerWords({ ...answer, state: 'ready', ranks: undefined }).summary
  if (ranks.conflict !== undefined) {
    const { said, line } = ranks.conflict
    const why =
      `the server's log says ${said} ranks ("${line}"), and "ranks" asks for ${ranks.expected}: ` +
      `give "ranks" the server's own count, or start the server with ${ranks.expected} ranks`
    return { summary: `${ready} — ${why}`, detail: `the head is ready, but ${why}` }
  }
  const why = ranksWaitingText(ranks)
  return { summary: `${ready} — ${why}`, detail: `the head is ready, but not every rank has joined: ${why}` }
}

/** `waiting for ranks: 3 of 4 joined; missing on node 2 (root@b)`. */
const ranksWaitingText = ({ joined, expected, missingOn, countedBy }: NonNullable<Answer['ranks']>): string =>
  (expected === undefined
    ? `waiting for ranks: ${joined} joined, the count not read yet from the nodes' logs`
    : `waiting for ranks: ${joined} of ${expected} joined`) +
  (countedBy === 'nccl' ? " (NCCL's Init COMPLETE lines)" : '') +
  (missingOn.length ? `; missing on ${missingOn.join(', ')}` : '') +
  // NCCL says nothing without it, and the engine's own lines are not known
  (countedBy === 'nccl' && joined === 0
    ? "; not one rank line read: the engine's own are not known, and NCCL prints its lines only with " +
      "NCCL_DEBUG=INFO in the server's environment"
    : '')

/** A listed model's answer with the engine's own readiness answer (SGLang's /health) that followed it. */
function withEngineReadinessWords(answer: Answer): AnswerWords {
  const { request, answer: engine } = answer.engineReadiness as NonNullable<Answer['engineReadiness']>
  const listed = answerWords({ ...answer, state: 'ready', engineReadiness: undefined }).summary
  const said = answerWords(engine)
  const summary = `${listed} — ${request}: ${said.summary}`
  return {
    summary,
    detail: engine.state === 'ready' ? '' : `the model is listed, but ${request} says not ready yet: ${said.summary}`
  }
}

/** A listed model's answer with the generation request that followed it. */
function withGenerationWords(answer: Answer): AnswerWords {
  const { request, answer: generation } = answer.generation as NonNullable<Answer['generation']>
  // The model was listed and ready when the generation request went out.
  const listed = answerWords({ ...answer, state: 'ready', generation: undefined }).summary
  if (generation.state === 'ready') return { summary: `${listed} — ${generatedWords(request).summary}`, detail: '' }
  const said = answerWords(generation)
  return {
    summary: `${listed} — ${request}: ${said.summary}`,
    detail:
      answer.state === 'fatal'
        ? `${request}: ${said.detail}`
        : `the model is listed, but ${request} failed: ${said.summary}`
  }
}

const quoted = (ids: readonly string[]): string =>
  ids
    .slice(0, 10)
    .map((id) => `"${clip(id, 200)}"`)
    .join(', ')

/** The answers that end a wait at once, since waiting cannot change them. */
function cannotChangeWords(answer: Answer, listed: () => string): AnswerWords | undefined {
  if (answer.loadFailed !== undefined) {
    const { request, model, reason, state = 'UNAVAILABLE' } = answer.loadFailed
    const said = clip(reason, 500)
    return {
      summary: `${request}: "${model}" ${state}: ${said}`,
      detail: `the engine says "${model}" failed to load (${request}: ${state}): ${said}. Waiting will not load it`
    }
  }
  if (answer.wrongModel !== undefined) {
    const { model, serving, nearest, forMs } = answer.wrongModel
    const near = nearest === undefined ? '' : ` (the nearest listed name is "${clip(nearest, 200)}")`
    return {
      summary: `${listed()} — serves another model, not "${model}"`,
      detail:
        `the server serves ${quoted(serving)}, not "${model}"${near}, unchanged for ${formatDuration(forMs)}, ` +
        'and this engine serves only the models it was started with. Fix "model", or the model the server starts with'
    }
  }
  if (answer.engineDead !== undefined) {
    const { request, by, status, count } = answer.engineDead
    const what =
      by === 'health'
        ? `${request} answered ${status ?? 'an error'} after it had said ready`
        : `${request} answered the engine's own dead-engine error ${count ?? 3} times in a row` +
          (status === undefined ? '' : ` (HTTP ${status})`)
    return {
      summary: `${listed()} — the engine died: ${what}`,
      detail: `the engine's core died: ${what}. It will not recover by waiting: see the server's log, and restart it`
    }
  }
  if (answer.generationsFailing !== undefined && answer.generation !== undefined) {
    const { request, forMs, count } = answer.generationsFailing
    const said = answerWords(answer.generation.answer).summary
    const what = `${request} answered the same error for ${formatDuration(forMs)} (${count} times in a row): ${said}`
    return {
      summary: `${listed()} — generations keep failing: ${what}`,
      detail:
        `the model is listed and the engine says ready, but ${what}. ` +
        "Waiting will not make it generate: see the server's log"
    }
  }
  return undefined
}
