import { gate } from '../../../src/wait/gate.js'
import { reportedEndpoint } from '../../../src/wait/fleet-tally.js'
import type { TargetOutcome } from '../../../src/facts/outcome.js'
import type { InputName } from '../../../src/inputs/input-names.js'
import { parseSettings } from '../../../src/inputs/parse-settings.js'
import { simulate } from '../../../src/simulator/server.js'
import { systemClock } from '../../../src/runtime/clock.js'
import type { Halt } from '../../../src/facts/halt.js'
import { loopback } from '../../helpers/loopback.js'

const net = loopback()

const result = (url: string, ready: boolean, elapsedMs: number, extra: Partial<TargetOutcome> = {}): TargetOutcome => ({
  url: new URL(url),
  ready,
  reason: ready ? 'ready' : 'timeout',
  elapsedMs,
  attempts: 1,
  models: [],
  timeline: [],
  ...extra
})

describe('reportedEndpoint', () => {
  it('is the endpoint ready last when all are ready', () => {
    expect(
      reportedEndpoint([result('http://a/', true, 300), result('http://b/', true, 900), result('http://c/', true, 500)])
        .url.host
    ).toBe('b')
  })
  it('is the first to fail on its own account, not one halted because of it', () => {
    const fleetHalt: Halt = { reason: 'cancelled', detail: 'http://b/ can no longer become ready (unauthorized)' }
    const results = [
      result('http://a/', false, 120, { reason: 'cancelled', halt: fleetHalt }),
      result('http://b/', false, 150, { reason: 'unauthorized' }),
      result('http://c/', true, 90)
    ]
    expect(reportedEndpoint(results, (r) => r.halt === fleetHalt).url.host).toBe('b')
  })
})

describe('a fleet of simulated servers on loopback', () => {
  it('waits for all of them, probing concurrently, and reports each', async () => {
    const loads = [400, 1_600, 900, 1_200, 200, 1_900, 700, 1_400]
    const servers = await Promise.all(
      loads.map((loadMs, i) => simulate({ engine: 'vllm', model: `model-${i}`, loadMs }))
    )
    try {
      const inputs: Partial<Record<InputName, string>> = {
        url: servers.map((s) => `${s.baseUrl}/v1/models`).join('\n'),
        model: 'model',
        timeout: '20s'
      }
      const lines: string[] = []
      const [epoch0, perf0] = [Date.now(), performance.now()]
      const outcome = await gate(
        parseSettings((name) => inputs[name] ?? ''),
        { clock: systemClock, startedAt: perf0, log: (l) => lines.push(l) }
      )
      expect(outcome.ready).toBe(true)
      expect(outcome.results.map((r) => [r.url.port, r.ready, r.last?.modelId])).toEqual(
        servers.map((s, i) => [String(s.port), true, `model-${i}`])
      )
      // the scalar outputs describe the endpoint ready last: the one with the longest load
      expect(outcome.url.port).toBe(String(servers[5].port))
      expect(outcome.models.sort()).toEqual(loads.map((_, i) => `model-${i}`).sort())
      // vLLM opens its port only once ready: each endpoint was seen ready after that, well before the 5 s interval
      for (const [i, r] of outcome.results.entries())
        expect(epoch0 + r.elapsedMs).toBeGreaterThanOrEqual(servers[i].readyAt - 2)
      expect(outcome.results.every((r) => r.elapsedMs < 5_000)).toBe(true)
      expect(lines[0]).toMatch(/^Waiting up to 20.0s for each of 8 endpoints to answer/)
      expect(lines.some((l) => l.startsWith(`[${servers[3].baseUrl}/v1/models] `))).toBe(true)
    } finally {
      await Promise.all(servers.map((s) => s.close()))
    }
  })

  it('a fleet that mixes engines: each endpoint goes by the engine its own model list names', async () => {
    // SGLang lists its model before it serves (its /health decides); Ollama has no /health: asking Ollama's
    // server SGLang's readiness route would wait for an answer that never comes
    const sglang = await simulate({ engine: 'sglang', model: 'kimi', loadMs: 300 })
    const ollama = await simulate({ engine: 'ollama', model: 'kimi', loadMs: 300 })
    try {
      const inputs: Partial<Record<InputName, string>> = {
        url: `${sglang.baseUrl}/v1/models\n${ollama.baseUrl}/api/tags`,
        model: 'kimi',
        timeout: '8s',
        interval: '200ms'
      }
      const outcome = await gate(
        parseSettings((name) => inputs[name] ?? ''),
        { clock: systemClock, log: () => undefined }
      )
      expect(outcome.results.map((r) => [r.ready, r.reason])).toEqual([
        [true, 'ready'],
        [true, 'ready']
      ])
      expect(outcome.results[0].engineReadiness?.request).toMatch(/\/health/)
      expect(outcome.results[1].engineReadiness).toBeUndefined()
    } finally {
      await Promise.all([sglang.close(), ollama.close()])
    }
  })

  it('halts the others as soon as one endpoint can no longer become ready', async () => {
    const locked = await net.http((_req, res) =>
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"Unauthorized"}')
    )
    const slow = await simulate({ engine: 'vllm', model: 'kimi', loadMs: 60_000 })
    try {
      const lockedUrl = `${locked}/v1/models`
      const inputs: Partial<Record<InputName, string>> = {
        url: `${slow.baseUrl}/v1/models\n${lockedUrl}`,
        timeout: '30s'
      }
      const outcome = await gate(
        parseSettings((name) => inputs[name] ?? ''),
        { clock: systemClock, log: () => undefined }
      )
      expect(outcome).toMatchObject({ ready: false, reason: 'unauthorized' })
      expect(outcome.url.href).toBe(lockedUrl)
      expect(outcome.results.map((r) => r.reason)).toEqual(['cancelled', 'unauthorized'])
      expect(outcome.results[0].halt?.detail).toBe(`${lockedUrl} can no longer become ready (unauthorized)`)
      expect(outcome.elapsedMs).toBeLessThan(30_000)
    } finally {
      await slow.close()
    }
  })
})
