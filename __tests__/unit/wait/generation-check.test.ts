import type { IncomingHttpHeaders, RequestListener } from 'node:http'
import { generationRoute } from '../../../src/engines/model-lists.js'
import { createGenerator, type Generator } from '../../../src/wait/generation-check.js'
import { answerWords } from '../../../src/report/answer-report.js'
import { systemClock } from '../../../src/runtime/clock.js'
import { setUpUndici } from '../../../src/http/undici-parts.js'
import { hostOf, loopback } from '../../helpers/loopback.js'

// As the gate does before its first request.
beforeAll(setUpUndici)

/** The generation check against real loopback servers answering as the engines do. */
const net = loopback()
const generators: Generator[] = []
afterEach(async () => {
  await Promise.all(generators.splice(0).map((g) => g.close()))
})

interface Seen {
  method?: string
  path?: string
  headers: IncomingHttpHeaders
  body: unknown
}

/** A server that records each request and answers with `reply(path)`. */
async function engine(reply: (path: string) => [number, unknown]): Promise<{ host: string; seen: Seen[] }> {
  const seen: Seen[] = []
  const handler: RequestListener = (req, res) => {
    let body = ''
    req.on('data', (d) => (body += d))
    req.on('end', () => {
      seen.push({ method: req.method, path: req.url, headers: req.headers, body: body ? JSON.parse(body) : undefined })
      const [status, answer] = reply(req.url ?? '/')
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer))
    })
  }
  return { host: hostOf(await net.http(handler)), seen }
}

function generator(listUrl: string, headers: Record<string, string> = {}): Generator {
  const found = generationRoute(new URL(listUrl))
  if (!found) throw new Error(`no route for ${listUrl}`)
  const g = createGenerator({ ...found, headers, clock: systemClock })
  generators.push(g)
  return g
}

describe('the generation check', () => {
  it("counts its answers' bodies in the collector the wait's clients share", async () => {
    const { host } = await engine(() => [200, { id: 'cmpl-1', choices: [{ text: ' there' }] }])
    const arrived: number[] = []
    const found = generationRoute(new URL(`http://${host}/v1/models`))
    const options = {
      ...found!,
      headers: {},
      clock: systemClock,
      collector: { arrived: (n: number) => arrived.push(n) }
    }
    const g = createGenerator(options)
    generators.push(g)
    expect(await g.generate('m', 2_000)).toMatchObject({ assessment: { state: 'ready' } })
    expect(arrived).toEqual([JSON.stringify({ id: 'cmpl-1', choices: [{ text: ' there' }] }).length])
  })

  it('posts a one-token completion for the matched model, with the configured headers', async () => {
    const { host, seen } = await engine(() => [200, { id: 'cmpl-1', choices: [{ text: ' there' }] }])
    const check = await generator(`http://${host}/v1/models`, { authorization: 'Bearer sk-1' }).generate(
      '/shared/kimi-k2.5-int4',
      2_000
    )
    expect(check).toMatchObject({ request: 'POST /v1/completions', assessment: { state: 'ready' } })
    // a completion's body says nothing: its arrival is the news, told after the listed model (see the wait loop)
    expect(check.assessment.answer).toEqual({ state: 'ready' })
    const listed = { state: 'ready' as const, status: 200, models: ['m'] }
    expect(answerWords({ ...listed, generation: { request: check.request, answer: check.assessment.answer } })).toEqual(
      {
        summary: 'HTTP 200, serving [m] — POST /v1/completions generated',
        detail: ''
      }
    )
    expect(check.latencyMs).toBeGreaterThanOrEqual(0)
    expect(seen).toMatchObject([
      {
        method: 'POST',
        path: '/v1/completions',
        headers: { authorization: 'Bearer sk-1', 'content-type': 'application/json' },
        body: { model: '/shared/kimi-k2.5-int4', prompt: 'Hi', max_tokens: 1 }
      }
    ])
  })

  it('falls back to chat completions when the server has no completions route, and remembers it', async () => {
    const { host, seen } = await engine((path) =>
      path.endsWith('/v1/completions')
        ? [404, { detail: 'Not Found' }]
        : [200, { choices: [{ message: { role: 'assistant', content: 'Hi' } }] }]
    )
    const g = generator(`http://${host}/prefix/v1/models`)
    expect((await g.generate('m', 2_000)).request).toBe('POST /v1/chat/completions')
    expect((await g.generate('m', 2_000)).assessment.state).toBe('ready')
    expect(seen.map((s) => s.path)).toEqual([
      '/prefix/v1/completions',
      '/prefix/v1/chat/completions',
      '/prefix/v1/chat/completions'
    ])
  })

  it("says what the server answered when it cannot generate, in the server's words", async () => {
    const { host } = await engine(() => [
      500,
      { error: { message: 'EngineCore encountered an issue.', type: 'InternalServerError', code: 500 } }
    ])
    const check = await generator(`http://${host}/v1/models`).generate('m', 2_000)
    expect(check.assessment).toMatchObject({ state: 'waiting', status: 500 })
    expect(answerWords(check.assessment.answer).summary).toBe('HTTP 500 EngineCore encountered an issue.')
  })

  it('reads 401 on the generation route as unauthorized', async () => {
    const { host } = await engine(() => [401, { error: 'Unauthorized' }])
    expect((await generator(`http://${host}/info`).generate(undefined, 2_000)).assessment).toMatchObject({
      state: 'fatal',
      fatalReason: 'unauthorized'
    })
  })

  it.each([
    [
      '/api/tags',
      '/api/generate',
      { model: 'llama3.2:latest', prompt: 'Hi', stream: false, options: { num_predict: 1 } }
    ],
    ['/info', '/generate', { inputs: 'Hi', parameters: { max_new_tokens: 1 } }]
  ])('for %s posts %s', async (listPath, path, body) => {
    const { host, seen } = await engine(() => [200, { response: 'Hello', done: true }])
    await generator(`http://${host}${listPath}`).generate('llama3.2:latest', 2_000)
    expect(seen).toMatchObject([{ method: 'POST', path, body }])
  })

  it('is cut short by the stop signal', async () => {
    const hung = await net.http(() => undefined)
    const stop = new AbortController()
    setTimeout(() => stop.abort(), 50)
    const started = performance.now()
    const check = await generator(`${hung}/v1/models`).generate('m', 20_000, stop.signal)
    expect(check.assessment.state).not.toBe('ready')
    expect(performance.now() - started).toBeLessThan(10_000)
  })
})
