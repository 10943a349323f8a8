import { readinessUrl } from '../../../src/engines/readiness.js'
import type { SimulatedServer } from '../../../src/simulator/options.js'
import { simulate } from '../../../src/simulator/server.js'

const started: SimulatedServer[] = []
afterEach(async () => {
  for (const s of started.splice(0)) await s.close()
})

describe('engine-aware readiness', () => {
  it("SGLang's own /health on the model list's origin, a proxy prefix kept", () => {
    expect(readinessUrl('sglang', new URL('http://localhost:30000/v1/models'))?.href).toBe(
      'http://localhost:30000/health'
    )
    expect(readinessUrl('sglang', new URL('https://gpu-box/proxy/sglang/v1/models/kimi'))?.href).toBe(
      'https://gpu-box/proxy/sglang/health'
    )
  })

  it('none for engines whose model list already says it, or an engine not known', () => {
    for (const engine of ['vllm', 'tgi', 'llamacpp', 'ollama', 'triton'] as const)
      expect(readinessUrl(engine, new URL('http://localhost:8000/v1/models'))).toBeUndefined()
    expect(readinessUrl(undefined, new URL('http://localhost:8000/v1/models'))).toBeUndefined()
  })

  it("tells SGLang's warm-up from its readiness where the model list cannot (the simulator's SGLang)", async () => {
    const warming = await simulate({ engine: 'sglang', model: 'm', loadMs: 60_000, opensAfterMs: 0 })
    const ready = await simulate({ engine: 'sglang', model: 'm', loadMs: 0 })
    started.push(warming, ready)
    const status = async (server: SimulatedServer, path: string): Promise<number> =>
      (await fetch(`${server.baseUrl}${path}`, { headers: { connection: 'close' } })).status
    const health = (server: SimulatedServer): string =>
      (readinessUrl('sglang', new URL(`${server.baseUrl}/v1/models`)) as URL).pathname
    expect([await status(warming, '/v1/models'), await status(warming, health(warming))]).toEqual([200, 503])
    expect([await status(ready, '/v1/models'), await status(ready, health(ready))]).toEqual([200, 200])
  })
})
