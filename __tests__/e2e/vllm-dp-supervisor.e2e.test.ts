import { appendFileSync, writeFileSync } from 'node:fs'
import { runMeasured } from '../helpers/support.js'
import { sandbox } from '../helpers/sandbox.js'
import { simulate } from '../../src/simulator/server.js'

/**
 * vLLM's data-parallel supervisor through dist/index.js: its port answers /health, /ready and /readyz 503 until every
 * child API server is healthy, while its log already holds its own uvicorn's `Application startup complete.` and then
 * one per child as each comes up. The gate is never ready before the supervisor says 200, and is ready within 200 ms
 * of it (stretched by the load measured during the run). The simulator stays not ready until it has answered the gate
 * `loadingAnswers` times as well as for its load, so the early lines are seen however busy the machine.
 */
const box = sandbox('wait-for-model-dp-supervisor-')

describe("vLLM's data-parallel supervisor", () => {
  it.each(['/readyz', '/health', '/ready'])(
    '%s: not ready at any child\'s "Application startup complete.", ready within 200 ms of the supervisor',
    async (path) => {
      const log = box.path('vllm-dp.log')
      writeFileSync(log, '')
      const server = await simulate({
        engine: 'vllm-dp-supervisor',
        model: 'm',
        loadMs: 1_500,
        loadingAnswers: 3,
        onLog: (line) => appendFileSync(log, `${line}\n`)
      })
      try {
        const run = await runMeasured({
          url: `${server.baseUrl}${path}`,
          'log-file': log,
          interval: '100ms',
          timeout: '30s',
          'history-file': ''
        })
        expect([run.outputs.ready, run.outputs.reason]).toEqual(['true', 'ready'])
        // named vLLM from the supervisor's own lines; its 503s seen while the children's lines were written
        expect(run.stdout).toContain('engine: vLLM (from its log)')
        expect(run.stdout).toMatch(/HTTP 503/)
        // its phases from the children's lines: the supervisor's own start and uvicorn end none of them
        const phases = (JSON.parse(run.outputs.phases) as Array<{ name: string }>).map((p) => p.name)
        expect(phases).toEqual(['initializing', 'loading weights', 'allocating KV cache', 'starting server'])
        const readyAt = run.originMs + Number(run.outputs['elapsed-seconds']) * 1000
        expect(readyAt).toBeGreaterThanOrEqual(server.readyAt - 50)
        expect(readyAt - server.readyAt).toBeLessThanOrEqual(200 * run.stretch + 50)
      } finally {
        await server.close()
      }
    }
  )
})
