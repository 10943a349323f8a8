import type { ServerResponse } from 'node:http'
import type { EngineName } from '../../../src/simulator/engines.js'
import type { SimulatedServer } from '../../../src/simulator/options.js'
import { simulate } from '../../../src/simulator/server.js'
import { plausibleTokens, smokeTest } from '../../../src/smoke/measure.js'
import type { SmokeSettings } from '../../../src/inputs/settings.js'
import type { Engine } from '../../../src/engines/index.js'
import { systemClock } from '../../../src/runtime/clock.js'
import { setUpUndici } from '../../../src/http/undici-parts.js'
import { loopback } from '../../helpers/loopback.js'

beforeAll(setUpUndici)

/** The smoke test against the simulator's streams, each in its engine's own format, and against hostile streams. */
const servers: SimulatedServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})
const net = loopback()

const MODEL = 'kimi-k2:latest'
const SETTINGS: SmokeSettings = { failOnError: false, requests: 2, tokens: 8, timeoutMs: 10_000 }

async function simulated(engine: EngineName, generationFails = false): Promise<string> {
  const server = await simulate({
    engine,
    model: MODEL,
    loadMs: 0,
    generationFails,
    pace: { tokensPerSecond: 400, ttftMs: 10 }
  })
  servers.push(server)
  return server.baseUrl
}

const smoke = (url: string, engine?: Engine, settings: Partial<SmokeSettings> = {}, model = MODEL) =>
  smokeTest({ url: new URL(url), engine, model, headers: {} }, { ...SETTINGS, ...settings }, { clock: systemClock })

describe('the smoke test against each engine’s stream', () => {
  it.each([
    ['vllm', '/v1/models', undefined, 'POST /v1/completions', 'usage.completion_tokens'],
    ['sglang', '/v1/models', undefined, 'POST /v1/completions', 'usage.completion_tokens'],
    ['openai', '/v1/models', undefined, 'POST /v1/completions', 'usage.completion_tokens'],
    ['llamacpp', '/v1/models', undefined, 'POST /v1/completions', 'usage.completion_tokens'],
    ['llamacpp', '/v1/models', 'llamacpp', 'POST /completion', 'timings.predicted_n'],
    ['llamacpp', '/health', 'llamacpp', 'POST /completion', 'timings.predicted_n'],
    ['tgi', '/info', undefined, 'POST /generate_stream', 'details.generated_tokens'],
    ['tgi', '/v1/models', undefined, 'POST /v1/completions', 'usage.completion_tokens'],
    ['ollama', '/api/tags', undefined, 'POST /api/generate', 'eval_count'],
    ['ollama', '/v1/models', undefined, 'POST /v1/completions', 'usage.completion_tokens']
  ] as const)('%s at %s (engine %s): %s, tokens from %s', async (engine, path, known, request, source) => {
    const base = await simulated(engine)
    const r = await smoke(`${base}${path}`, known)
    expect(r.problem).toBeUndefined()
    expect(r.request).toBe(request)
    expect(r.measurements).toHaveLength(2)
    for (const m of r.measurements) {
      expect(m).toMatchObject({ tokens: 8, source })
      expect(m.ttftMs).toBeGreaterThan(0)
      expect(m.decodeTokensPerSecond).toBeGreaterThan(0)
    }
    expect(r.source).toBe(source)
    expect(r.ttftMs).toBeGreaterThan(0)
    expect(r.decodeTokensPerSecond).toBeGreaterThan(0)
  })

  it.each([
    ['vllm', '/v1/models', 'EngineCore encountered an issue.'],
    ['llamacpp', '/v1/models', 'EngineCore encountered an issue.'],
    ['tgi', '/info', 'Request failed during generation: Server error: CUDA out of memory'],
    ['ollama', '/api/tags', 'llama runner process has terminated: exit status 2']
  ] as const)(
    "%s: an error in the stream is the engine's words, and nothing is measured",
    async (engine, path, said) => {
      const r = await smoke(`${await simulated(engine, true)}${path}`)
      expect(r.problem).toEqual({ kind: 'stream-error', said })
      expect(r.measurements).toEqual([])
      expect(r.decodeTokensPerSecond).toBeUndefined()
    }
  )

  it('a model the server does not serve: its HTTP status and its own words', async () => {
    const r = await smoke(`${await simulated('vllm')}/v1/models`, undefined, {}, 'other')
    expect(r.problem).toEqual({ kind: 'http', status: 404, said: 'The model `other` does not exist.' })
  })

  it('an engine without text generation, and a route nothing is known of, say so without a request', async () => {
    const base = await simulated('triton')
    const triton = await smoke(`${base}/v2/models/m/ready`, 'triton')
    expect(triton.problem).toEqual({
      kind: 'no-route',
      why: 'no-text-generation',
      engine: 'triton',
      path: '/v2/models/m/ready'
    })
    const unknown = await smoke(`${base}/v2/models/m/ready`)
    expect(unknown.problem).toMatchObject({ kind: 'no-route', why: 'unknown-route' })
    expect(unknown.request).toBeUndefined()
  })
})

/** A server on loopback that answers every POST with `write`. */
async function hostile(write: (res: ServerResponse) => void): Promise<string> {
  return net.http((req, res) => {
    req.resume()
    req.on('end', () => write(res))
  })
}

describe('a hostile stream', () => {
  it('a line that never ends is cut at 64 KiB', async () => {
    const url = await hostile((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(`data: {"choices":[{"text":"${'x'.repeat(200 * 1024)}`)
    })
    const r = await smoke(`${url}/v1/models`)
    expect(r.problem).toEqual({ kind: 'too-long', what: 'line' })
  })

  it('a stream that never ends is cut at its time limit, and one that swells at 8 MiB', async () => {
    const endless = await hostile((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      const timer = setInterval(() => res.write('data: {"choices":[{"text":" 1,"}]}\n\n'), 5)
      res.on('close', () => clearInterval(timer))
    })
    const r = await smoke(`${endless}/v1/models`, undefined, { timeoutMs: 300 })
    expect(r.problem).toEqual({ kind: 'timeout', timeoutMs: 300 })
    expect(r.measurements).toEqual([])
    const swelling = await hostile((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      const event = 'data: {"choices":[{"text":" 1,"}]}\n\n'.repeat(1000)
      const more = (): void => void (res.write(event) ? setImmediate(more) : res.once('drain', more))
      res.on('close', () => (res.write = () => false))
      more()
    })
    expect((await smoke(`${swelling}/v1/models`)).problem).toEqual({ kind: 'too-long', what: 'body' })
  })

  it("an error event's words come on one line, cut at 300 characters", async () => {
    const url = await hostile((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.end(`data: ${JSON.stringify({ error: { message: `out of memory\n::warning::x ${'y'.repeat(5000)}` } })}\n\n`)
    })
    const r = await smoke(`${url}/v1/models`)
    const said = r.problem?.kind === 'stream-error' ? r.problem.said : ''
    expect(said).toMatch(/^out of memory ::warning::x y+…$/)
    expect(said).toHaveLength(301)
  })

  it("the wait's signal ends it at once: a cancelled job, a server gone", async () => {
    const endless = await hostile((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      const timer = setInterval(() => res.write('data: {"choices":[{"text":" 1,"}]}\n\n'), 5)
      res.on('close', () => clearInterval(timer))
    })
    const stop = new AbortController()
    setTimeout(() => stop.abort(), 100)
    const r = await smokeTest(
      { url: new URL(`${endless}/v1/models`), engine: undefined, model: MODEL, headers: {} },
      SETTINGS,
      { clock: systemClock, signal: stop.signal }
    )
    expect(r.problem).toEqual({ kind: 'stopped' })
  })

  it('asks again without stream_options when an older OpenAI-compatible server refuses it, and counts the chunks', async () => {
    const bodies: Array<Record<string, unknown>> = []
    const older = await net.http((req, res) => {
      let text = ''
      req.on('data', (d) => (text += d))
      req.on('end', () => {
        const body = JSON.parse(text) as Record<string, unknown>
        bodies.push(body)
        if ('stream_options' in body)
          return void res
            .writeHead(422, { 'content-type': 'application/json' })
            .end('{"error":"unknown field `stream_options`"}')
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        let i = 0
        const timer = setInterval(() => {
          if (++i <= 3) return void res.write(`data: {"choices":[{"text":" ${i},"}]}\n\n`)
          clearInterval(timer)
          res.end('data: [DONE]\n\n')
        }, 10)
      })
    })
    const r = await smoke(`${older}/v1/models`)
    expect(r.problem).toBeUndefined()
    expect(r.measurements.map((m) => [m.tokens, m.source])).toEqual([
      [3, 'chunks'],
      [3, 'chunks']
    ])
    // one refused, then the plain one for every request
    expect(bodies.map((b) => 'stream_options' in b)).toEqual([true, false, false])
    // a refusal of the plain request too is told as it is
    const refusing = await hostile((res) =>
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"max_tokens is too large"}}')
    )
    expect((await smoke(`${refusing}/v1/models`)).problem).toEqual({
      kind: 'http',
      status: 400,
      said: 'max_tokens is too large'
    })
  })

  it('counts the chunks when the engine gives no count', async () => {
    const counted = await hostile((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      let i = 0
      const timer = setInterval(() => {
        if (++i <= 5) return void res.write(`data: {"choices":[{"text":" ${i},"}]}\n\n`)
        clearInterval(timer)
        res.end('data: [DONE]\n\n')
      }, 10)
    })
    const r = await smoke(`${counted}/v1/models`)
    expect(r.problem).toBeUndefined()
    expect(r.measurements.map((m) => [m.tokens, m.source])).toEqual([
      [5, 'chunks'],
      [5, 'chunks']
    ])
    expect(r.source).toBe('chunks')
  })

  it('tokens in one piece have no decode rate; a body without a stream has no token', async () => {
    const once = await hostile((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.end('data: {"choices":[{"text":" 1,"}]}\n\ndata: {"choices":[{"text":" 2,"}]}\n\ndata: [DONE]\n\n')
    })
    const r = await smoke(`${once}/v1/models`)
    expect(r.problem).toEqual({ kind: 'not-streamed' })
    expect(r.measurements.map((m) => m.tokens)).toEqual([2, 2])
    const plain = await hostile((res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"choices":[]}')
    )
    expect((await smoke(`${plain}/v1/models`)).problem).toEqual({ kind: 'no-tokens' })
  })
})

describe('a token count that is not plausible (issue 26 item 6)', () => {
  it.each([
    ['1e308', 1e308],
    ['2^53', 2 ** 53],
    ['more than asked for', 16 + 9],
    ['fewer than the chunks seen', 3],
    ['not whole', 7.5],
    ['negative', -1]
  ])('%s: the chunks are counted instead', (_what, count) => {
    expect(plausibleTokens({ count, source: 'usage.completion_tokens' }, 4, 16)).toEqual({
      tokens: 4,
      source: 'chunks'
    })
  })
  it('believes an engine that counts what was asked for, or a few more', () => {
    expect(plausibleTokens({ count: 16, source: 'eval_count' }, 4, 16)).toEqual({ tokens: 16, source: 'eval_count' })
    expect(plausibleTokens({ count: 24, source: 'eval_count' }, 24, 16)).toEqual({ tokens: 24, source: 'eval_count' })
  })
  it('counts no more chunks than asked for and the margin', () => {
    expect(plausibleTokens(undefined, 5000, 16)).toEqual({ tokens: 24, source: 'chunks' })
  })
})
