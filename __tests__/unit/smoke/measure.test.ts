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

describe("the engine's own timings, beside ours", () => {
  it.each([
    ['llamacpp', '/v1/models', 'llamacpp', 'timings'],
    // llama.cpp's OpenAI-compatible stream carries its timings too, when its engine is not known
    ['llamacpp', '/v1/models', undefined, 'timings'],
    ['ollama', '/api/tags', undefined, 'eval_duration']
  ] as const)('%s at %s (engine %s): its %s, per request and as medians', async (engine, path, known, source) => {
    const r = await smoke(`${await simulated(engine)}${path}`, known)
    expect(r.problem).toBeUndefined()
    for (const m of r.measurements) {
      expect(m.engine?.source).toBe(source)
      expect(m.engine?.decodeTokensPerSecond).toBeGreaterThan(0)
      // the simulator's prefill is its time to the first token
      expect(m.engine?.promptMs).toBe(10)
    }
    expect(r.engine).toMatchObject({ source, requests: 2, promptMs: 10 })
    expect(r.engine?.decodeTokensPerSecond).toBeGreaterThan(0)
  })

  it('vLLM, SGLang and TGI report none: nothing is made up', async () => {
    for (const [engine, path] of [
      ['vllm', '/v1/models'],
      ['sglang', '/v1/models'],
      ['tgi', '/info']
    ] as const) {
      const r = await smoke(`${await simulated(engine)}${path}`)
      expect(r.problem).toBeUndefined()
      expect(r.engine).toBeUndefined()
      expect(r.measurements.every((m) => m.engine === undefined)).toBe(true)
    }
  })

  /** A stream of three tokens 20 ms apart whose last event is `last`. */
  const stream = (framing: 'sse' | 'ndjson', token: (i: number) => object, last: object) =>
    hostile((res) => {
      res.writeHead(200, { 'content-type': framing === 'sse' ? 'text/event-stream' : 'application/x-ndjson' })
      const line = (o: object): string =>
        framing === 'sse' ? `data: ${JSON.stringify(o)}\n\n` : `${JSON.stringify(o)}\n`
      let i = 0
      const timer = setInterval(() => {
        if (i < 3) return void res.write(line(token(i++)))
        clearInterval(timer)
        res.end(line(last))
      }, 20)
    })

  it("takes llama.cpp's predicted_per_second and prompt_ms as the server wrote them", async () => {
    const url = await stream('sse', (i) => ({ content: ` ${i},`, stop: false }), {
      content: '',
      stop: true,
      timings: { prompt_n: 12, prompt_ms: 31.5, predicted_n: 3, predicted_ms: 40, predicted_per_second: 50 }
    })
    const r = await smoke(`${url}/health`, 'llamacpp')
    expect(r.problem).toBeUndefined()
    expect(r.engine).toEqual({ source: 'timings', requests: 2, decodeTokensPerSecond: 50, promptMs: 31.5 })
  })

  it("takes Ollama's eval_count / eval_duration and prompt_eval_duration, in nanoseconds", async () => {
    const url = await stream('ndjson', (i) => ({ response: ` ${i},`, done: false }), {
      response: '',
      done: true,
      eval_count: 3,
      // past a second, as a real generation's often are
      eval_duration: 1_500_000_000,
      prompt_eval_duration: 2_500_000_000
    })
    const r = await smoke(`${url}/api/tags`)
    expect(r.problem).toBeUndefined()
    expect(r.engine).toEqual({ source: 'eval_duration', requests: 2, decodeTokensPerSecond: 2, promptMs: 2500 })
  })

  it('leaves out a figure that is no timing (zero, negative, not a number, past any rate), and keeps ours', async () => {
    const url = await stream('sse', (i) => ({ content: ` ${i},`, stop: false }), {
      content: '',
      stop: true,
      timings: { predicted_n: 3, predicted_per_second: 1e300, prompt_ms: 'soon' }
    })
    const r = await smoke(`${url}/health`, 'llamacpp')
    expect(r.engine).toBeUndefined()
    expect(r.decodeTokensPerSecond).toBeGreaterThan(0)
    const zero = await stream('ndjson', (i) => ({ response: ` ${i},`, done: false }), {
      response: '',
      done: true,
      eval_count: 3,
      eval_duration: 0,
      prompt_eval_duration: -5
    })
    expect((await smoke(`${zero}/api/tags`)).engine).toBeUndefined()
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
