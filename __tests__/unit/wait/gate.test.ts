import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gate } from '../../../src/wait/gate.js'
import type { InputName } from '../../../src/inputs/input-names.js'
import { parseSettings } from '../../../src/inputs/parse-settings.js'
import { systemClock } from '../../../src/runtime/clock.js'
import { sandbox } from '../../helpers/sandbox.js'
import { loopback } from '../../helpers/loopback.js'
import { Halter } from '../../../src/runtime/halter.js'
import { answerWords } from '../../../src/report/answer-report.js'

/** The gate releases what it acquired (a process watch, the log's poll, the port poller) however it ends. */
const box = sandbox('wait-for-model-gate-')

const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length

describe('gate', () => {
  it('leaves no timer behind when it throws after the server watch has started', async () => {
    // `pid` starts polling the process (this one: it runs) and `log-file` the log's poll; the first line after the
    // watch has started (the request headers, on the debug channel) then throws.
    const inputs: Partial<Record<InputName, string>> = {
      url: 'http://127.0.0.1:9/v1/models',
      pid: String(process.pid),
      'log-file': box.path('server.log'),
      'history-file': ''
    }
    const before = timers()
    const lines: string[] = []
    await expect(
      gate(
        parseSettings((name) => inputs[name] ?? ''),
        {
          clock: systemClock,
          log: (l) => lines.push(l),
          debug: () => {
            throw new Error('the debug channel broke')
          }
        }
      )
    ).rejects.toThrow(/the debug channel broke/)
    // it had got as far as watching the process and its log, and beginning the wait
    expect(lines[0]).toBe(`Watching the server process ${process.pid} and its log ${box.path('server.log')}`)
    expect(lines.slice(1)).toEqual([expect.stringMatching(/^Waiting up to /)])
    expect(timers()).toBe(before)
  })
})

/**
 * SGLang's /health is a one-token generation (about a second of the engine's time): it is paced per server, so two
 * `url` lines of one server never ask it twice at once, nor more often than once a second. A real loopback server
 * answers as SGLang does during its warm-up: the model listed, /health 503.
 */
describe('gate with two url lines on one SGLang server', () => {
  let server: Server
  let base: string
  const starts: number[] = []
  let inFlight = 0
  let maxInFlight = 0
  const model = { id: 'm', object: 'model', owned_by: 'sglang' }
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/v1/models' || req.url === '/models')
        return void res.end(JSON.stringify({ object: 'list', data: [model] }))
      if (req.url !== '/health') return void res.writeHead(404).end()
      starts.push(Date.now())
      maxInFlight = Math.max(maxInFlight, ++inFlight)
      // SGLang's handler waits for its one-token generation in 1 s sleeps; shorter here
      setTimeout(() => {
        inFlight--
        res.writeHead(503).end()
      }, 300)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('asks /health one request at a time, at least 1 s apart, for both endpoints together', async () => {
    const inputs: Partial<Record<InputName, string>> = {
      url: `${base}/v1/models\n${base}/models`,
      model: 'm',
      engine: 'sglang',
      timeout: '3s',
      interval: '100ms',
      'history-file': ''
    }
    const outcome = await gate(
      parseSettings((name) => inputs[name] ?? ''),
      { clock: systemClock, log: () => undefined }
    )
    expect(outcome).toMatchObject({ ready: false, reason: 'timeout' })
    expect(maxInFlight).toBe(1)
    // one server: about one /health a second in 3 s (per endpoint, it would be twice as many)
    expect(starts.length).toBeGreaterThanOrEqual(2)
    expect(starts.length).toBeLessThanOrEqual(4)
    const gaps = starts.slice(1).map((t, i) => t - starts[i])
    // kept from one request's start to the next's as the client sends them; the server may see one tens of ms late
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(900)
  })
})

/** The first probes of a wait: a ready server costs one request, and a cancel cuts a request in flight short. */
describe('gate, its first probes', () => {
  const net = loopback()
  const settingsOf = (inputs: Partial<Record<InputName, string>>) =>
    parseSettings((name) => ({ 'history-file': '', ...inputs })[name] ?? '')
  const LIST = JSON.stringify({ object: 'list', data: [{ id: 'kimi', object: 'model' }] })

  it('a ready server gets one request in all', async () => {
    let requests = 0
    const url = await net.http((_req, res) => {
      requests++
      res.writeHead(200, { 'content-type': 'application/json' }).end(LIST)
    })
    const settings = settingsOf({ url: `${url}/v1/models`, model: 'kimi' })
    const outcome = await gate(settings, { clock: systemClock, log: () => undefined })
    expect(outcome).toMatchObject({ ready: true, attempts: 1 })
    expect(requests).toBe(1)
  })

  it('a 503 first is the first change of the wait, which goes on from it', async () => {
    let requests = 0
    const url = await net.http((_req, res) => {
      if (requests++ === 0) res.writeHead(503).end('Loading model')
      else res.writeHead(200, { 'content-type': 'application/json' }).end(LIST)
    })
    const settings = settingsOf({ url: `${url}/v1/models`, model: 'kimi', interval: '100ms' })
    const outcome = await gate(settings, { clock: systemClock, log: () => undefined })
    expect(outcome).toMatchObject({ ready: true, attempts: 2 })
    expect(answerWords(outcome.timeline[0].answer).summary).toMatch(/503/)
    expect(requests).toBe(2)
  })

  it('a wait cancelled while its first request is in flight, to a server that never answers, ends at once', async () => {
    const url = await net.tcp()
    const settings = { ...settingsOf({ url: `${url}/v1/models`, timeout: '10m' }), requestTimeoutMs: 600_000 }
    const cancel = new Halter<NodeJS.Signals>()
    const waiting = gate(settings, { clock: systemClock, log: () => undefined, cancel })
    await new Promise((r) => setTimeout(r, 100))
    cancel.halt('SIGTERM')
    // the probe's own timeout is 10 minutes: were it not cut short, the test would time out
    await expect(waiting).resolves.toMatchObject({ reason: 'cancelled' })
  })
})
