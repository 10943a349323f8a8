import {
  type EngineName,
  SIMULATED_ENGINES,
  type SimulatedServer,
  type SimulatorEvent,
  simulate
} from '../../../src/simulator/server.js'
import { loopback, portOf } from '../../helpers/loopback.js'

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

  it('refuses to start on a port that is taken, before the engine would open it', async () => {
    const port = portOf(await net.tcp())
    await expect(simulate({ engine: 'vllm', model: 'm', loadMs: 60_000, port })).rejects.toMatchObject({
      code: 'EADDRINUSE'
    })
  })
})
