import {
  ENGINE_READINESS,
  listsAsRouter,
  loadFailureIn,
  readinessCheckUrl,
  saysReady
} from '../../../src/engines/readiness.js'
import { nearestModel } from '../../../src/engines/match.js'
import type { SimulatedServer } from '../../../src/simulator/options.js'
import { simulate } from '../../../src/simulator/server.js'

const started: SimulatedServer[] = []
afterEach(async () => {
  for (const s of started.splice(0)) await s.close()
})

const urlOf = (engine: keyof typeof ENGINE_READINESS, list: string, model?: string): string[] =>
  ENGINE_READINESS[engine].map((c) => readinessCheckUrl(c, new URL(list), model).href)

describe('engine-aware readiness', () => {
  it("SGLang's own /health on the model list's origin, a proxy prefix kept", () => {
    expect(urlOf('sglang', 'http://localhost:30000/v1/models')).toEqual(['http://localhost:30000/health'])
    expect(urlOf('sglang', 'https://gpu-box/proxy/sglang/v1/models/kimi')).toEqual([
      'https://gpu-box/proxy/sglang/health'
    ])
  })

  it("each engine's own routes: NIM, LocalAI, KServe v2 (per model, else the server), Triton, vLLM's sleep and health", () => {
    expect(urlOf('nim', 'http://h:8000/v1/models')).toEqual(['http://h:8000/v1/health/ready'])
    expect(urlOf('localai', 'http://h:8080/v1/models')).toEqual(['http://h:8080/readyz'])
    expect(urlOf('kserve', 'http://h:8080/v1/models', 'my model')).toEqual(['http://h:8080/v2/models/my%20model/ready'])
    expect(urlOf('kserve', 'http://h:8080/v2/health/ready')).toEqual(['http://h:8080/v2/health/ready'])
    expect(urlOf('triton', 'http://h:8000/v2/models/m', 'm')).toEqual(['http://h:8000/v2/models/m/ready'])
    expect(urlOf('vllm', 'http://h:8000/v1/models')).toEqual(['http://h:8000/is_sleeping', 'http://h:8000/health'])
  })

  it('none for engines whose model list already says it', () => {
    for (const engine of ['tgi', 'llamacpp', 'ollama'] as const) expect(ENGINE_READINESS[engine]).toEqual([])
  })

  it("SGLang's /health is paced: one at a time, once a second at most", () => {
    expect(ENGINE_READINESS.sglang[0]).toMatchObject({ minGapMs: 1000, oneAtATime: true })
  })

  it('what a ready answer is: the status, and a body that does not say otherwise', () => {
    const [sleeping] = ENGINE_READINESS.vllm
    expect(saysReady(sleeping.ready, 200, { is_sleeping: true })).toBe(false)
    expect(saysReady(sleeping.ready, 200, { is_sleeping: false })).toBe(true)
    // the route exists only in vLLM's dev mode: 404 is "not asleep"
    expect(saysReady(sleeping.ready, 404, { detail: 'Not Found' })).toBe(true)
    const [kserve] = ENGINE_READINESS.kserve
    expect(saysReady(kserve.ready, 200, { name: 'm', ready: false })).toBe(false)
    expect(saysReady(kserve.ready, 503, { error: 'Model with name m is not ready.' })).toBe(false)
    expect(saysReady(kserve.ready, 200, { name: 'm', ready: true })).toBe(true)
  })

  it("Triton's repository index: UNAVAILABLE with a reason is a failed load; unloaded, READY and LOADING are not", () => {
    const index = [
      { name: 'a', version: '1', state: 'READY' },
      { name: 'b', version: '1', state: 'UNAVAILABLE', reason: 'unloaded' },
      { name: 'c', version: '1', state: 'LOADING' },
      { name: 'd', version: '1', state: 'UNAVAILABLE', reason: 'failed to load: missing model.onnx' }
    ]
    expect(loadFailureIn(index, 'd')).toEqual({ model: 'd', reason: 'failed to load: missing model.onnx' })
    expect(loadFailureIn(index, undefined)).toEqual({ model: 'd', reason: 'failed to load: missing model.onnx' })
    for (const m of ['a', 'b', 'c', 'x']) expect(loadFailureIn(index, m)).toBeUndefined()
    for (const notIndex of [null, {}, 'x', [null, 1, 'UNAVAILABLE']])
      expect(loadFailureIn(notIndex, 'd')).toBeUndefined()
  })

  it("llama.cpp's router mode is told by its list's status objects", () => {
    expect(listsAsRouter({ data: [{ id: 'm', status: { value: 'loaded' } }] })).toBe(true)
    expect(listsAsRouter({ data: [{ id: 'm', meta: null }] })).toBe(false)
    expect(listsAsRouter(null)).toBe(false)
  })

  it('the nearest listed name, by edits ignoring case', () => {
    expect(nearestModel(['Qwen/Qwen3-8B', 'kimi-k2.5'], 'Kimi-K2')).toBe('kimi-k2.5')
    expect(nearestModel([], 'x')).toBeUndefined()
  })

  it("tells SGLang's warm-up from its readiness where the model list cannot (the simulator's SGLang)", async () => {
    const warming = await simulate({ engine: 'sglang', model: 'm', loadMs: 60_000, opensAfterMs: 0 })
    const ready = await simulate({ engine: 'sglang', model: 'm', loadMs: 0 })
    started.push(warming, ready)
    const status = async (server: SimulatedServer, path: string): Promise<number> =>
      (await fetch(`${server.baseUrl}${path}`, { headers: { connection: 'close' } })).status
    const health = (server: SimulatedServer): string =>
      readinessCheckUrl(ENGINE_READINESS.sglang[0], new URL(`${server.baseUrl}/v1/models`), 'm').pathname
    expect([await status(warming, '/v1/models'), await status(warming, health(warming))]).toEqual([200, 503])
    expect([await status(ready, '/v1/models'), await status(ready, health(ready))]).toEqual([200, 200])
  })
})
