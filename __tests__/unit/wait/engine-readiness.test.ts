import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { engineReadiness } from '../../../src/wait/engine-readiness.js'
import { systemClock } from '../../../src/runtime/clock.js'
import { setUpUndici } from '../../../src/http/undici-parts.js'

setUpUndici()

/**
 * SGLang's /health is a one-token generation (about a second of the engine's time): the endpoints of one gate
 * never ask it twice at once, nor more often than once a second. A real loopback server counts what it gets.
 */
describe('paced readiness routes', () => {
  let server: Server
  let base: string
  const starts: number[] = []
  let inFlight = 0
  let maxInFlight = 0
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url !== '/health') return void res.writeHead(404).end()
      starts.push(Date.now())
      maxInFlight = Math.max(maxInFlight, ++inFlight)
      // as SGLang's handler does: it waits for its one-token generation in 1 s sleeps; shorter here
      setTimeout(() => {
        inFlight--
        res.writeHead(503).end()
      }, 300)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('two endpoints of one server asking in loops: one request at a time, at least 1 s apart', async () => {
    const pace = new Map()
    const make = (path: string) =>
      engineReadiness({
        url: new URL(`${base}${path}`),
        headers: {},
        tls: {},
        clock: systemClock,
        pace,
        load: false,
        label: () => 'SGLang',
        leftMs: () => 60_000,
        wokeUp: () => undefined,
        probeGapMs: 250
      })
    const endpoints = [make('/v1/models'), make('/v1/models/m')]
    // until four requests went out (a busy machine's sleeps run long: a deadline only against a hang)
    const until = Date.now() + 20_000
    await Promise.all(
      endpoints.map(async (e) => {
        while (starts.length < 4 && Date.now() < until) {
          const check = await e.check('sglang', 'm', 5_000)
          expect(check?.assessment).toMatchObject({ state: 'waiting' })
        }
      })
    )
    await Promise.all(endpoints.map((e) => e.close()))
    expect(maxInFlight).toBe(1)
    expect(starts.length).toBeGreaterThanOrEqual(3)
    const gaps = starts.slice(1).map((t, i) => t - starts[i])
    // the gap is kept from one request's start to the next's as the client sends them; the server sees a request
    // on a new connection later than one on a kept-alive one (tens of ms). Unpaced, the gaps would be the
    // answer's 300 ms.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(900)
  })
})

/** SGLang's warm-up: /health answers 503 at once (no generation runs), so it is asked at the cheap pace. */
describe('a paced route whose "not yet" costs nothing', () => {
  let server: Server
  let base: string
  const starts: number[] = []
  beforeAll(async () => {
    server = createServer((req, res) => {
      starts.push(Date.now())
      res.writeHead(req.url === '/health' ? 503 : 404).end()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it("is asked again after probeGapMs, not after the route's 1 s", async () => {
    const readiness = engineReadiness({
      url: new URL(`${base}/v1/models`),
      headers: {},
      tls: {},
      clock: systemClock,
      pace: new Map(),
      load: false,
      label: () => 'SGLang',
      leftMs: () => 60_000,
      wokeUp: () => undefined,
      probeGapMs: 250
    })
    // until six requests went out: paced by the second, that takes 5 s at least
    const begun = Date.now()
    while (starts.length < 6 && Date.now() < begun + 20_000) await readiness.check('sglang', 'm', 5_000)
    const tookMs = Date.now() - begun
    await readiness.close()
    const gaps = starts.slice(1).map((t, i) => t - starts[i])
    // never sooner than the cheap pace (less a timer's slack), and far sooner than by the second
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(240)
    expect(starts.length).toBe(6)
    expect(tookMs).toBeLessThan(5_000)
  })
})
