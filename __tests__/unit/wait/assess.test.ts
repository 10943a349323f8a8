import { assess as judge, sameAnswer } from '../../../src/wait/assess.js'
import type { Expectation } from '../../../src/facts/answer.js'
import { answerWords } from '../../../src/report/answer-report.js'
import { parseJson, type ProbeResult } from '../../../src/http/probe.js'

/** The judgement with its words, as the log and the failure message give them. */
const assess = (...args: Parameters<typeof judge>) => {
  const a = judge(...args)
  return { ...a, ...answerWords(a.answer) }
}

const ok: Expectation = { status: [[200, 299]] }
const http = (status: number, body = '', contentType = 'application/json'): ProbeResult => ({
  kind: 'http',
  status,
  body,
  json: parseJson(body),
  contentType,
  truncated: false
})
const error = (code: string, message = code, status?: number): ProbeResult => ({ kind: 'error', code, message, status })
const list = '{"object":"list","data":[{"id":"/shared/kimi-k2.5-int4"}]}'

describe('assess', () => {
  it('is ready when the model is listed, giving the full id', () => {
    const a = assess(http(200, list), { ...ok, model: 'kimi' })
    expect(a).toMatchObject({
      state: 'ready',
      modelId: '/shared/kimi-k2.5-int4',
      summary: 'HTTP 200, serving [/shared/kimi-k2.5-int4]'
    })
  })

  it('keeps the URL that answered after redirects (the ownership check asks who holds its port), and only then', () => {
    const redirected = { ...http(200, list), redirectedTo: 'http://127.0.0.1:9001/v1/models' }
    expect(judge(redirected, { ...ok, model: 'kimi' })).toMatchObject({
      state: 'ready',
      answeredBy: 'http://127.0.0.1:9001/v1/models'
    })
    expect(judge(http(200, list), { ...ok, model: 'kimi' })).not.toHaveProperty('answeredBy')
    // the same answer from elsewhere is the same answer to the timeline: where it came from is no words of it
    expect(judge(redirected, ok).answer).toEqual(judge(http(200, list), ok).answer)
  })

  it('says which models are served when the wanted one is not', () => {
    const a = assess(http(200, list), { ...ok, model: 'llama' })
    expect(a.state).toBe('waiting')
    expect(a.summary).toBe('HTTP 200, serving [/shared/kimi-k2.5-int4] — "llama" is not among the listed models')
  })

  it('waits for a listed model that is still loading', () => {
    const a = assess(http(200, '{"data":[{"id":"foo.gguf","meta":null}]}'), { ...ok, model: 'foo' })
    expect(a).toMatchObject({
      state: 'waiting',
      detail: expect.stringMatching(/"foo.gguf" is listed but still loading/)
    })
  })

  it('stops at once, naming the candidates, when several listed ids contain the model and none is it', () => {
    const body = '{"object":"list","data":[{"id":"llama-3.1-8b-instruct-lora-sql"},{"id":"llama-3.1-8b-instruct"}]}'
    const a = assess(http(200, body), { ...ok, model: 'llama-3.1-8b' })
    expect(a).toMatchObject({
      state: 'fatal',
      fatalReason: 'ambiguous-model',
      candidates: ['llama-3.1-8b-instruct-lora-sql', 'llama-3.1-8b-instruct'],
      summary:
        'HTTP 200, serving [llama-3.1-8b-instruct-lora-sql, llama-3.1-8b-instruct] — "llama-3.1-8b" fits 2 listed models',
      detail: expect.stringMatching(
        /"llama-3\.1-8b-instruct-lora-sql", "llama-3\.1-8b-instruct"\. Give the exact id as "model"/
      )
    })
    expect(a.modelId).toBeUndefined()
    // one candidate is used as before
    expect(assess(http(200, body), { ...ok, model: 'lora' })).toMatchObject({
      state: 'ready',
      modelId: 'llama-3.1-8b-instruct-lora-sql'
    })
  })

  it('says a model the router lists as unloaded is not loaded, and that load: true loads it', () => {
    const body = '{"object":"list","data":[{"id":"qwen3-8b","status":{"value":"unloaded"}}]}'
    const a = assess(http(200, body), { ...ok, model: 'qwen3-8b' })
    expect(a).toMatchObject({ state: 'waiting', modelState: 'unloaded' })
    expect(a.detail).toBe(
      '"qwen3-8b" is listed but not loaded: the server loads it only when asked (set "load: true" to have it loaded)'
    )
    expect(a.detail).not.toMatch(/still loading/)
    const loading = '{"object":"list","data":[{"id":"qwen3-8b","status":{"value":"loading"}}]}'
    expect(assess(http(200, loading), { ...ok, model: 'qwen3-8b' })).toMatchObject({
      modelState: 'loading',
      detail: '"qwen3-8b" is listed but still loading (status "loading")'
    })
  })

  it('explains a 2xx that is not a model list', () => {
    const a = assess(http(200, '{"status":"ok"}'), { ...ok, model: 'kimi' })
    expect(a.summary).toBe('HTTP 200 ok — the answer is not a model list, so "kimi" cannot be found in it')
  })

  it('checks match, as text or as a regular expression, against the body', () => {
    expect(assess(http(200, 'Ollama is running', 'text/plain'), { ...ok, match: 'running' }).state).toBe('ready')
    expect(assess(http(200, 'Ollama is running', 'text/plain'), { ...ok, match: 'Running' }).detail).toBe(
      'the body does not contain "Running"'
    )
    expect(assess(http(200, '{"ready":true}'), { ...ok, matchRegex: /"ready":\s*true/ }).state).toBe('ready')
    expect(assess(http(200, '{"ready":false}'), { ...ok, matchRegex: /"ready":\s*true/ }).state).toBe('waiting')
  })

  it('says so when a match regular expression runs out of time on the body', () => {
    const a = assess(http(200, `${'a'.repeat(40)}b`, 'text/plain'), { ...ok, matchRegex: /^(a+)+$/ }, 100)
    expect(a).toMatchObject({
      state: 'waiting',
      summary: expect.stringMatching(/ran out of time on the body \(it backtracks too much: simplify "match"\)$/)
    })
  })

  it('names a redirect loop and keeps the status it came with', () => {
    const a = assess(error('TOO_MANY_REDIRECTS', 'more than 5 redirects', 302), ok)
    expect(a).toMatchObject({
      state: 'waiting',
      status: 302,
      summary: 'HTTP 302, then more than 5 redirects (a redirect loop?)'
    })
  })

  it('summarises a loading answer in the server words', () => {
    const a = assess(http(503, '{"error":{"message":"Loading model","type":"unavailable_error","code":503}}'), ok)
    expect(a).toMatchObject({ state: 'waiting', summary: 'HTTP 503 Loading model', status: 503 })
  })

  it('stops at once on 401 and 403 with a hint about api-key', () => {
    for (const status of [401, 403]) {
      const a = assess(http(status, '{"error":"Unauthorized"}'), ok)
      expect(a).toMatchObject({ state: 'fatal', fatalReason: 'unauthorized' })
      expect(a.detail).toMatch(/api-key/)
    }
  })

  it('stops at once on a certificate error', () => {
    const a = assess(
      error(
        'DEPTH_ZERO_SELF_SIGNED_CERT',
        'self-signed certificate; if the root CA is installed locally, try running Node.js with --use-system-ca'
      ),
      ok
    )
    expect(a).toMatchObject({ state: 'fatal', fatalReason: 'tls', summary: 'TLS error: self-signed certificate' })
    expect(a.detail).toMatch(
      /self-signed certificate\. Give its CA certificate with "ca-cert", or set "insecure-tls: true"/
    )
  })

  it.each([
    ['ECONNREFUSED', 'connection refused'],
    ['ECONNRESET', 'connection reset by the server'],
    ['ENOTFOUND', 'host not found (DNS)'],
    ['TIMEOUT', 'no answer (request timed out)']
  ])('keeps waiting on %s, in words', (code, words) => {
    expect(assess(error(code), ok)).toMatchObject({ state: 'down', summary: words })
  })

  it('accepts only the configured statuses', () => {
    expect(assess(http(204), { status: [[204, 204]] }).state).toBe('ready')
    expect(assess(http(200), { status: [[204, 204]] }).summary).toBe('HTTP 200')
  })
})

describe('sameAnswer', () => {
  it('compares answers as data: a field left out is one left undefined; lists and nested answers count', () => {
    expect(sameAnswer({ state: 'waiting', status: 503, said: undefined }, { state: 'waiting', status: 503 })).toBe(true)
    expect(sameAnswer({ state: 'ready', models: ['a', 'b'] }, { state: 'ready', models: ['b', 'a'] })).toBe(false)
    const generation = (status: number) => ({
      request: 'POST /v1/completions',
      answer: { state: 'waiting' as const, status }
    })
    expect(
      sameAnswer({ state: 'waiting', generation: generation(503) }, { state: 'waiting', generation: generation(500) })
    ).toBe(false)
    expect(sameAnswer(undefined, { state: 'down' })).toBe(false)
  })

  it('takes two answers worded alike for the same, and an answer in other words for another', () => {
    const timedOut = (code: string) => assess({ kind: 'error', code, message: 'connect timed out' }, ok)
    expect(sameAnswer(timedOut('ETIMEDOUT').answer, timedOut('UND_ERR_CONNECT_TIMEOUT').answer)).toBe(true)
    expect(timedOut('ETIMEDOUT').summary).toBe(timedOut('UND_ERR_CONNECT_TIMEOUT').summary)
    const unknown = (message: string) => assess({ kind: 'error', code: 'EWEIRD', message }, ok)
    expect(sameAnswer(unknown('one').answer, unknown('two').answer)).toBe(false)
    expect(unknown('one').summary).not.toBe(unknown('two').summary)
  })
})
