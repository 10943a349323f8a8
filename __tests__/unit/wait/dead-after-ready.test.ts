import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { engineReadiness } from '../../../src/wait/engine-readiness.js'
import { systemClock } from '../../../src/runtime/clock.js'
import { setUpUndici } from '../../../src/http/undici-parts.js'

setUpUndici()

/** vLLM's /health turning 503 after it said 200 in this wait: its engine core died, and waiting cannot help. */
describe('a readiness route that says the engine died after it said ready', () => {
  let server: Server
  let base: string
  let health = 200
  beforeAll(async () => {
    server = createServer((req, res) => void res.writeHead(req.url === '/health' ? health : 404).end())
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('is engine-dead, naming the route; a 503 before any 200 is only waiting', async () => {
    const readiness = () =>
      engineReadiness({
        url: new URL(`${base}/v1/models`),
        headers: {},
        tls: {},
        clock: systemClock,
        pace: new Map(),
        load: false,
        label: () => 'vLLM',
        leftMs: () => 60_000,
        wokeUp: () => undefined,
        probeGapMs: 250
      })
    const loading = readiness()
    health = 503
    expect((await loading.check('vllm', 'm', 5_000))?.assessment).toMatchObject({ state: 'waiting' })
    await loading.close()

    const dying = readiness()
    health = 200
    expect((await dying.check('vllm', 'm', 5_000))?.assessment).toMatchObject({ state: 'ready' })
    health = 503
    const dead = await dying.check('vllm', 'm', 5_000)
    expect(dead?.assessment).toMatchObject({
      state: 'fatal',
      fatalReason: 'engine-dead',
      answer: { engineDead: { by: 'health', status: 503 } }
    })
    await dying.close()
  })
})
