import { readFileSync, writeFileSync } from 'node:fs'
import { runAction } from '../../src/simulator/runner.js'
import { freePort } from '../../src/simulator/server.js'
import { measureLoad } from '../helpers/bounds.js'
import { sandbox } from '../helpers/sandbox.js'
import { entry } from '../helpers/support.js'

/**
 * End to end, a log may only make the gate faster: `node dist/index.js` starts a stand-in for llama.cpp v0.5.0
 * that opens its port at once, answers 503 `Loading model` while it writes the startup log captured from the real
 * server (at its recorded pace, stamps and all), then serves. With `interval: 10s`, a gate that waited for a
 * ready line it did not recognise would see it 10 s after the start (as one once saw a real llama.cpp 3.3-3.8 s
 * late with the default 5 s); these bounds are a few seconds from that, stretched by the load measured during the
 * run (helpers/bounds.ts) up to the interval, which only a gate that waited for it reaches.
 * The real server: __tests__/real/llamacpp.real.test.ts; the lag in milliseconds: `npm run bench -- --only llamacpp`.
 */
const replay = new URL('../fixtures/replay-log.mjs', import.meta.url).pathname
const captured = new URL('../fixtures/logs/llamacpp-v0.5.0-node-llama-cpp-3.22.1.log', import.meta.url).pathname
/** When the captured server said `model loaded`, by its own stamp. */
const LOADED_S = 3.704
const INTERVAL_S = 10
/** `LOADED_S + idleS`, stretched by the run's measured load; at most the interval. */
const within = (idleS: number, stretch: number): number => Math.min(LOADED_S + idleS * stretch, INTERVAL_S)

const box = sandbox('wait-for-model-logtruth-')

async function started(fixture: string) {
  const port = await freePort()
  const stretch = measureLoad()
  const run = await runAction({
    entry,
    inputs: {
      url: `http://127.0.0.1:${port}/v1/models`,
      model: 'model',
      start: `node ${replay} ${fixture} 1 ${port} 5 loading`,
      'log-file': box.path('server.log'),
      interval: `${INTERVAL_S}s`,
      timeout: '40s',
      'history-file': ''
    }
  })
  if (run.outputs.pid) box.pids.push(Number(run.outputs.pid))
  return { ...run, stretch: stretch() }
}

describe('a followed log makes the gate faster, never slower', () => {
  it("llama.cpp v0.5.0's own ready line: startup-seconds and phases from its stamps", async () => {
    const run = await started(captured)
    expect([run.code, run.outputs.ready, run.outputs.reason]).toEqual([0, 'true', 'ready'])
    const startup = Number(run.outputs['startup-seconds'])
    // the stamp, plus the moments before the stand-in's first line (node starting up): never the interval
    expect(startup).toBeGreaterThanOrEqual(LOADED_S - 0.1)
    expect(startup).toBeLessThan(within(2, run.stretch))
    const phases = JSON.parse(run.outputs.phases) as Array<{ name: string; seconds: number }>
    expect(phases.slice(1)).toEqual([
      { name: 'initializing', seconds: 0 },
      { name: 'loading weights', seconds: 0.6 },
      { name: 'allocating KV cache', seconds: 3.1 },
      { name: 'starting server', seconds: 0 }
    ])
  })

  it('a ready line in words no table knows: the lines before it still bring the probe that sees it', async () => {
    const reworded = box.path('reworded.log')
    writeFileSync(
      reworded,
      readFileSync(captured, 'utf8')
        .replace('llama_server: model loaded', 'llama_server: weights resident')
        .replace('llama_server: listening on', 'llama_server: accepting requests at')
    )
    const run = await started(reworded)
    expect([run.code, run.outputs.ready, run.outputs.reason]).toEqual([0, 'true', 'ready'])
    const startup = Number(run.outputs['startup-seconds'])
    expect(startup).toBeGreaterThanOrEqual(LOADED_S - 0.1)
    expect(startup).toBeLessThan(within(2.5, run.stretch))
    expect(Number(run.outputs['elapsed-seconds'])).toBeLessThan(within(3, run.stretch))
  })
})
