import { simulate } from '../../src/simulator/server.js'
import { runMeasured } from '../helpers/support.js'

/** The packaged action on a fleet: 200 simulated vLLM servers on loopback that become ready at random times. */

it('waits for 200 endpoints, all ready, with one result each', async () => {
  const loads = Array.from({ length: 200 }, () => 500 + Math.random() * 9_500)
  const servers = await Promise.all(
    loads.map((loadMs, i) => simulate({ engine: 'vllm', model: `/models/m-${i}`, loadMs }))
  )
  try {
    const run = await runMeasured({
      url: servers.map((s) => `${s.baseUrl}/v1/models`).join('\n'),
      model: 'm-',
      timeout: '60s'
    })
    expect(run.code).toBe(0)
    const results = JSON.parse(run.outputs.results) as Array<{
      url: string
      ready: boolean
      'elapsed-seconds': number
      'status-code': number
      'model-id': string
      reason: string
    }>
    expect(results).toHaveLength(200)
    for (const [i, r] of results.entries()) {
      expect(r).toMatchObject({
        url: `${servers[i].baseUrl}/v1/models`,
        ready: true,
        'status-code': 200,
        'model-id': `/models/m-${i}`,
        reason: 'ready'
      })
      // never before the server was ready: elapsed counts from the process's own start (its clock's origin, which
      // the process reports: a busy machine may start it well after the test asked), to a tenth of a second
      expect(run.originMs + r['elapsed-seconds'] * 1000).toBeGreaterThanOrEqual(servers[i].readyAt - 100)
    }
    // the scalar outputs describe the endpoint seen ready last
    const latest = Math.max(...results.map((r) => r['elapsed-seconds']))
    expect(run.outputs['elapsed-seconds']).toBe(latest.toFixed(1))
    expect(results.filter((r) => r['elapsed-seconds'] === latest).map((r) => r['model-id'])).toContain(
      run.outputs['model-id']
    )
    expect(JSON.parse(run.outputs.models)).toHaveLength(200)
    expect(run.summary).toMatch(/#### Endpoints \(200 of 200 ready\)/)
  } finally {
    await Promise.all(servers.map((s) => s.close()))
  }
}, 60_000)
