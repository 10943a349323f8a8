import { sendFirstProbe } from '../../../src/wait/first-probe.js'
import { gate } from '../../../src/wait/gate.js'
import { Halter } from '../../../src/runtime/halter.js'
import type { InputName } from '../../../src/inputs/input-names.js'
import { parseSettings } from '../../../src/inputs/parse-settings.js'
import { type Clock, systemClock } from '../../../src/runtime/clock.js'
import { loopback } from '../../helpers/loopback.js'
import { answerWords } from '../../../src/report/answer-report.js'

/**
 * The action sends the first probe before it loads the gate (start-up); the gate goes on from its answer as its
 * first attempt, and a halt cuts the probe short while it is still in flight.
 */
const net = loopback()

const settingsOf = (inputs: Partial<Record<InputName, string>>) =>
  parseSettings((name) => ({ 'history-file': '', ...inputs })[name] ?? '')

const LIST = JSON.stringify({ object: 'list', data: [{ id: 'kimi', object: 'model' }] })

/** The system clock, but the bound on waiting for the first answers passes only when `pass()` is called. */
function heldBound(): Clock & { pass(): void } {
  const held: Array<() => void> = []
  return {
    ...systemClock,
    sleep: (_ms, signal) =>
      new Promise((resolve) => {
        held.push(resolve)
        signal?.addEventListener('abort', () => resolve(), { once: true })
      }),
    pass: () => held.splice(0).forEach((r) => r())
  }
}

describe('the first probe', () => {
  it('the gate takes its answer as its first attempt: a ready server gets one request in all', async () => {
    let requests = 0
    const url = await net.http((_req, res) => {
      requests++
      res.writeHead(200, { 'content-type': 'application/json' }).end(LIST)
    })
    const settings = settingsOf({ url: `${url}/v1/models`, model: 'kimi' })
    const startedAt = systemClock.now()
    // the bound never passes: the answer alone lets it go
    const first = await sendFirstProbe(settings, heldBound(), startedAt)
    expect(first).toBeDefined()
    expect(requests).toBe(1)
    const outcome = await gate(settings, { clock: systemClock, startedAt, log: () => undefined, firstProbe: first })
    expect(outcome).toMatchObject({ ready: true, attempts: 1 })
    expect(requests).toBe(1)
  })

  it('a 503 it got is the first change of the wait, which goes on from it', async () => {
    let requests = 0
    const url = await net.http((_req, res) => {
      if (requests++ === 0) res.writeHead(503).end('Loading model')
      else res.writeHead(200, { 'content-type': 'application/json' }).end(LIST)
    })
    const settings = settingsOf({ url: `${url}/v1/models`, model: 'kimi', interval: '100ms' })
    const startedAt = systemClock.now()
    const first = await sendFirstProbe(settings, heldBound(), startedAt)
    const outcome = await gate(settings, { clock: systemClock, startedAt, log: () => undefined, firstProbe: first })
    expect(outcome).toMatchObject({ ready: true, attempts: 2 })
    expect(answerWords(outcome.timeline[0].answer).summary).toMatch(/503/)
    expect(requests).toBe(2)
  })

  it('a server that takes the request and never answers: on its way once the bound passes', async () => {
    const url = await net.tcp()
    const settings = { ...settingsOf({ url: `${url}/v1/models`, timeout: '10m' }), requestTimeoutMs: 600_000 }
    const clock = heldBound()
    let settled = false
    const sent = sendFirstProbe(settings, clock, clock.now()).then((f) => {
      settled = true
      return f
    })
    await new Promise((r) => setTimeout(r, 200))
    expect(settled).toBe(false)
    clock.pass()
    const first = await sent
    // still in flight; abort cuts it short at once
    first?.abort()
    await expect(first?.takeAnswer()).resolves.toMatchObject({ kind: 'error' })
    await first?.prober.close()
  })

  it('a wait cancelled while it waits for that answer ends at once', async () => {
    const url = await net.tcp()
    const settings = { ...settingsOf({ url: `${url}/v1/models`, timeout: '10m' }), requestTimeoutMs: 600_000 }
    const clock = heldBound()
    const sending = sendFirstProbe(settings, clock, clock.now())
    clock.pass()
    const first = await sending
    const cancel = new Halter<NodeJS.Signals>()
    const waiting = gate(settings, { clock: systemClock, log: () => undefined, cancel, firstProbe: first })
    await new Promise((r) => setTimeout(r, 100))
    cancel.halt('SIGTERM')
    // the probe's own timeout is 10 minutes: were it not cut short, the test would time out
    await expect(waiting).resolves.toMatchObject({ reason: 'cancelled' })
  })

  it("is never taken for another endpoint's answer", async () => {
    // the first probe went to a ready server; the wait is for another URL, where nothing listens
    const ready = await net.http((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(LIST))
    const first = await sendFirstProbe(settingsOf({ url: `${ready}/v1/models`, model: 'kimi' }), heldBound(), 0)
    const closed = await net.tcp()
    await net.close()
    const settings = settingsOf({ url: `${closed}/v1/models`, model: 'kimi', timeout: '300ms' })
    const outcome = await gate(settings, {
      clock: systemClock,
      startedAt: systemClock.now(),
      log: () => undefined,
      firstProbe: first
    })
    expect(outcome).toMatchObject({ ready: false, reason: 'timeout' })
    await first?.prober.close()
  })

  it('none for a fleet, or where the wait starts with the server side (a process to follow, a log to read)', async () => {
    const fleet = settingsOf({ url: 'http://127.0.0.1:9/a\nhttp://127.0.0.1:9/b' })
    await expect(sendFirstProbe(fleet, systemClock, 0)).resolves.toBeUndefined()
    const followed = settingsOf({ url: 'http://127.0.0.1:9/v1/models', pid: String(process.pid) })
    await expect(sendFirstProbe(followed, systemClock, 0)).resolves.toBeUndefined()
  })
})
