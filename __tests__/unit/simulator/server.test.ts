import { type EngineName, SIMULATED_ENGINES, simulatedEngine } from '../../../src/simulator/engines.js'
import type { SimulatedServer, SimulatorEvent } from '../../../src/simulator/options.js'
import { simulate } from '../../../src/simulator/server.js'
import { readFileSync } from 'node:fs'
import { loopback, portOf } from '../../helpers/loopback.js'
import { generationRoute } from '../../../src/engines/model-lists.js'
import { createGenerator } from '../../../src/wait/generation-check.js'
import { setUpUndici } from '../../../src/http/undici-parts.js'
import { systemClock } from '../../../src/runtime/clock.js'
import { answerWords } from '../../../src/report/answer-report.js'

// As the gate does before its first request (the generation tests send one).
beforeAll(setUpUndici)

/** The simulator on loopback: each engine's endpoints while loading and once ready, and a crash. */
const net = loopback()
const started: SimulatedServer[] = []
afterEach(async () => {
  for (const s of started.splice(0)) await s.close()
})

async function start(options: Parameters<typeof simulate>[0]): Promise<SimulatedServer> {
  const server = await simulate(options)
  started.push(server)
  return server
}

async function post(base: string, path: string, body: unknown): Promise<{ status: number; body: string }> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { connection: 'close', 'content-type': 'application/json' },
    body: JSON.stringify(body)
  })
  return { status: res.status, body: await res.text() }
}

async function get(
  base: string,
  path: string
): Promise<{ status: number; type: string | null; body: string } | 'refused'> {
  try {
    const res = await fetch(`${base}${path}`, { headers: { connection: 'close' } })
    return { status: res.status, type: res.headers.get('content-type'), body: await res.text() }
  } catch (e) {
    const code = ((e as Error).cause as { code?: string } | undefined)?.code
    if (code === 'ECONNREFUSED') return 'refused'
    throw e
  }
}

type Expected = [path: string, status: number, body?: string | RegExp]

/** Once ready: what the issue asks each engine to serve, with the bodies the engines send. */
const ready: Record<string, { model: string; paths: Expected[] }> = {
  vllm: {
    model: '/shared/kimi-k2.5-int4',
    paths: [
      ['/health', 200, ''],
      [
        '/v1/models',
        200,
        /^\{"object":"list","data":\[\{"id":"\/shared\/kimi-k2.5-int4","object":"model",.*"owned_by":"vllm","root":"\/shared\/kimi-k2.5-int4"/
      ],
      ['/nope', 404, '{"detail":"Not Found"}']
    ]
  },
  sglang: {
    model: '/shared/kimi-k2.5-int4',
    paths: [
      ['/health', 200, ''],
      ['/v1/models', 200, /"owned_by":"sglang"/],
      ['/v1/models/other', 404, /"code":"model_not_found"/]
    ]
  },
  llamacpp: {
    model: 'qwen3-8b-q4_k_m.gguf',
    paths: [
      ['/health', 200, '{"status":"ok"}'],
      ['/v1/models', 200, /"id":"qwen3-8b-q4_k_m.gguf".*"meta":\{"vocab_type"/]
    ]
  },
  tgi: {
    model: 'meta-llama/Llama-3.1-8B-Instruct',
    paths: [
      ['/health', 200, ''],
      ['/info', 200, /^\{"model_id":"meta-llama\/Llama-3.1-8B-Instruct"/],
      [
        '/v1/models',
        200,
        '{"object":"list","data":[{"id":"meta-llama/Llama-3.1-8B-Instruct","object":"model","created":0,"owned_by":"meta-llama/Llama-3.1-8B-Instruct"}]}'
      ],
      ['/nope', 404, '']
    ]
  },
  ollama: {
    model: 'llama3.2:latest',
    paths: [
      ['/', 200, 'Ollama is running'],
      ['/api/tags', 200, /^\{"models":\[\{"name":"llama3.2:latest"/],
      [
        '/v1/models',
        200,
        '{"object":"list","data":[{"id":"llama3.2:latest","object":"model","created":1767225600,"owned_by":"library"}]}\n'
      ],
      ['/nope', 404, '404 page not found']
    ]
  },
  triton: {
    model: 'densenet_onnx',
    paths: [
      ['/v2/health/ready', 200, ''],
      ['/v2/health/live', 200, ''],
      ['/v2/models/densenet_onnx', 200, /^\{"name":"densenet_onnx","versions":\["1"\]/],
      ['/v2/models/densenet_onnx/ready', 200, ''],
      ['/v2/models/densenet_onnx/versions/1/ready', 200, ''],
      ['/v2/models/other/ready', 400, `{"error":"Request for unknown model: 'other' is not found"}`]
    ]
  }
}

describe.each(Object.entries(ready))('simulated %s, once ready', (engine, { model, paths }) => {
  it.each(paths)('serves %s with HTTP %i', async (path, status, body) => {
    const server = await start({ engine: engine as EngineName, model, loadMs: 0 })
    const res = await get(server.baseUrl, path)
    expect(res).toMatchObject({ status })
    if (res !== 'refused')
      expect(res.body).toEqual(typeof body === 'string' ? body : expect.stringMatching(body as RegExp))
  })
})

describe('while loading', () => {
  it.each(['vllm', 'tgi', 'triton'] as const)('%s refuses connections on every path', async (engine) => {
    const server = await start({ engine, model: 'm', loadMs: 60_000 })
    for (const path of ['/health', '/v1/models', '/v2/health/ready'])
      expect(await get(server.baseUrl, path)).toBe('refused')
  })

  it('llama.cpp answers 503 Loading model, and lists the model with "meta": null', async () => {
    const server = await start({ engine: 'llamacpp', model: 'qwen3.gguf', loadMs: 60_000 })
    expect(await get(server.baseUrl, '/health')).toEqual({
      status: 503,
      type: 'application/json',
      body: '{"error":{"message":"Loading model","type":"unavailable_error","code":503}}'
    })
    expect(await get(server.baseUrl, '/v1/models')).toMatchObject({
      status: 200,
      body: expect.stringMatching(/"id":"qwen3.gguf".*"meta":null/)
    })
    expect(await get(server.baseUrl, '/')).toMatchObject({ status: 503, type: 'text/html' })
  })

  it('Ollama answers at once and lists nothing until the model is pulled', async () => {
    const server = await start({ engine: 'ollama', model: 'llama3.2:latest', loadMs: 60_000 })
    expect(await get(server.baseUrl, '/')).toMatchObject({ status: 200, body: 'Ollama is running' })
    expect(await get(server.baseUrl, '/api/tags')).toMatchObject({ status: 200, body: '{"models":[]}' })
    expect(await get(server.baseUrl, '/v1/models')).toMatchObject({
      status: 200,
      body: '{"object":"list","data":null}\n'
    })
  })

  it('SGLang, during its warm-up (port open, not ready), lists the model while /health says 503', () => {
    // the warm-up window is the last 10% of the load; its answers are checked here without waiting for it
    const { reply } = SIMULATED_ENGINES.sglang
    expect(reply('/health', 'loading', 'm')).toEqual({ status: 503 })
    expect(reply('/health', 'ready', 'm')).toEqual({ status: 200 })
    expect(reply('/v1/models', 'loading', 'm')).toEqual(reply('/v1/models', 'ready', 'm'))
  })
})

describe('the simulated process', () => {
  it('tells when its port opens, when the model is ready and when it crashes; after the crash the port is closed', async () => {
    const events: Array<[SimulatorEvent, number]> = []
    const server = await start({
      engine: 'sglang',
      model: 'm',
      loadMs: 400,
      crashAfterMs: 800,
      onEvent: (e, at) => events.push([e, at])
    })
    expect(await get(server.baseUrl, '/health')).toBe('refused')
    await expect(server.ended).resolves.toBe('crashed')
    expect(events.map(([e]) => e)).toEqual(['listening', 'ready', 'crashed'])
    // timers keep whole milliseconds, so one may fire a millisecond before Date.now() has moved on as far
    expect(events[0][1]).toBeGreaterThanOrEqual(359)
    expect(events[1][1]).toBeGreaterThanOrEqual(399)
    expect(events[2][1]).toBeGreaterThanOrEqual(799)
    expect(await get(server.baseUrl, '/health')).toBe('refused')
  })

  it('can crash while still loading, never becoming ready', async () => {
    const events: SimulatorEvent[] = []
    const server = await start({
      engine: 'llamacpp',
      model: 'm',
      loadMs: 60_000,
      crashAfterMs: 200,
      onEvent: (e) => events.push(e)
    })
    expect(await get(server.baseUrl, '/health')).toMatchObject({ status: 503 })
    await server.ended
    expect(events).toEqual(['listening', 'crashed'])
    expect(await get(server.baseUrl, '/v1/models')).toBe('refused')
  })

  it("picks its port outside the kernel's ephemeral range, which a connection could be given before it opens", async () => {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number)
    const servers = await Promise.all(
      Array.from({ length: 20 }, () => start({ engine: 'vllm', model: 'm', loadMs: 60_000 }))
    )
    for (const { port } of servers) expect(port < low || port > high).toBe(true)
  })

  it('refuses to start on a port that is taken, before the engine would open it', async () => {
    const port = portOf(await net.tcp())
    await expect(simulate({ engine: 'vllm', model: 'm', loadMs: 60_000, port })).rejects.toMatchObject({
      code: 'EADDRINUSE'
    })
  })
})

describe('generation', () => {
  // the list URL each engine is probed at with probe-generation, and the model it lists
  const probed: Array<[EngineName, string, string]> = [
    ['vllm', '/v1/models', '/shared/kimi-k2.5-int4'],
    ['sglang', '/v1/models', '/shared/kimi-k2.5-int4'],
    ['llamacpp', '/v1/models', 'qwen3-8b.gguf'],
    ['tgi', '/info', 'meta-llama/Llama-3.1-8B-Instruct'],
    ['ollama', '/api/tags', 'llama3.2:latest'],
    ['openai', '/v1/models', 'gpt-sim']
  ]
  const generator = (baseUrl: string, listPath: string) => {
    const found = generationRoute(new URL(`${baseUrl}${listPath}`))
    if (found === undefined) throw new Error(`no generation route for ${listPath}`)
    return createGenerator({ ...found, headers: {}, clock: systemClock })
  }

  it.each(probed)("%s: the gate's one-token request succeeds once ready", async (engine, listPath, model) => {
    const server = await start({ engine, model, loadMs: 0 })
    const g = generator(server.baseUrl, listPath)
    try {
      const check = await g.generate(model, 5_000)
      expect(check.assessment).toMatchObject({ state: 'ready' })
    } finally {
      await g.close()
    }
  })

  it.each(probed)(
    "%s: with generationFails, the engine's own error, while the list still answers",
    async (engine, listPath, model) => {
      const server = await start({ engine, model, loadMs: 0, generationFails: true })
      const g = generator(server.baseUrl, listPath)
      try {
        const check = await g.generate(model, 5_000)
        expect(check.assessment.state).toBe('waiting')
        expect(check.assessment.status).toBeGreaterThanOrEqual(400)
        expect(answerWords(check.assessment.answer).summary).not.toBe('')
      } finally {
        await g.close()
      }
      expect(await get(server.baseUrl, listPath)).toMatchObject({ status: 200 })
    }
  )

  it('answers as vLLM does: a completion, a chat completion, a 404 for a model it does not serve, a 500 when dead', async () => {
    const server = await start({ engine: 'vllm', model: 'm', loadMs: 0 })
    const completion = await post(server.baseUrl, '/v1/completions', { model: 'm', prompt: 'Hi', max_tokens: 1 })
    expect(completion.status).toBe(200)
    expect(JSON.parse(completion.body)).toMatchObject({
      object: 'text_completion',
      model: 'm',
      choices: [{ text: ' there' }]
    })
    const chat = await post(server.baseUrl, '/v1/chat/completions', { model: 'm', messages: [] })
    expect(JSON.parse(chat.body)).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { role: 'assistant' } }]
    })
    expect(await post(server.baseUrl, '/v1/completions', { model: 'other' })).toEqual({
      status: 404,
      body: '{"error":{"message":"The model `other` does not exist.","type":"NotFoundError","param":"model","code":404}}'
    })
    const dead = await start({ engine: 'vllm', model: 'm', loadMs: 0, generationFails: true })
    expect(await post(dead.baseUrl, '/v1/completions', { model: 'm' })).toEqual({
      status: 500,
      body: '{"error":{"message":"EngineCore encountered an issue. See stack trace (above) for the root cause.","type":"InternalServerError","param":null,"code":500}}'
    })
  })

  it('llama.cpp answers generation with its 503 while loading', async () => {
    const server = await start({ engine: 'llamacpp', model: 'q.gguf', loadMs: 60_000 })
    expect(await post(server.baseUrl, '/v1/completions', { model: 'q.gguf' })).toMatchObject({
      status: 503,
      body: expect.stringMatching(/Loading model/)
    })
  })

  it('Triton has its generate extension', async () => {
    const server = await start({ engine: 'triton', model: 'ensemble', loadMs: 0 })
    expect(await post(server.baseUrl, '/v2/models/ensemble/generate', { text_input: 'Hi' })).toMatchObject({
      status: 200,
      body: '{"model_name":"ensemble","model_version":"1","text_output":"Hi"}'
    })
  })

  it("takes the gate's engine spellings", () => {
    expect(simulatedEngine('llama.cpp')).toBe('llamacpp')
    expect(simulatedEngine('SGLang')).toBe('sglang')
    expect(simulatedEngine('vlm')).toBeUndefined()
    expect(simulatedEngine('toString')).toBeUndefined()
  })
})

describe('SGLang warming up', () => {
  it('lists the model and answers generation while /health and /health_generate say 503, until the warm-up ends', async () => {
    // the port open from the start and the model ready in a minute: all of it is the warm-up window
    const warming = await start({ engine: 'sglang', model: 'm', loadMs: 60_000, opensAfterMs: 0 })
    expect(await get(warming.baseUrl, '/health')).toMatchObject({ status: 503, body: '' })
    expect(await get(warming.baseUrl, '/health_generate')).toMatchObject({ status: 503 })
    expect(await get(warming.baseUrl, '/v1/models')).toMatchObject({
      status: 200,
      body: expect.stringMatching(/"id":"m"/)
    })
    expect(await get(warming.baseUrl, '/model_info')).toMatchObject({
      status: 200,
      body: expect.stringMatching(/"is_generation":true/)
    })
    expect(await post(warming.baseUrl, '/v1/completions', { model: 'm', prompt: 'Hi', max_tokens: 1 })).toMatchObject({
      status: 200
    })
    const ready = await start({ engine: 'sglang', model: 'm', loadMs: 0 })
    expect(await get(ready.baseUrl, '/health')).toMatchObject({ status: 200 })
    expect(await get(ready.baseUrl, '/health_generate')).toMatchObject({ status: 200 })
  })
})
