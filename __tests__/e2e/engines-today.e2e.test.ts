import { runAction } from '../../src/simulator/runner.js'
import { freePort } from '../../src/simulator/server.js'
import { sandbox } from '../helpers/sandbox.js'
import { entry } from '../helpers/support.js'

/**
 * The known engines' lines of 2026 beside their older ones, through dist/index.js: a stand-in writes each versioned
 * startup log (replay-log.mjs, 20 times its pace) while it answers 503, then serves; the gate follows the log.
 * vLLM's data-parallel API servers (`ApiServer_N`, one `Application startup complete.` each), vLLM's Rust
 * frontend (no uvicorn), Ollama's llama-server runner (its child's `listening on http://127.0.0.1:<other port>`
 * and llama.cpp's own lines passed through): each named as its engine, its phases read, ready.
 */
const replay = new URL('../fixtures/replay-log.mjs', import.meta.url).pathname
const logs = new URL('../fixtures/logs/', import.meta.url).pathname
const box = sandbox('wfm-engines-today-e2e-')

describe('known engines, as they print today', () => {
  it.each([
    ['vllm-v0.26.0-dp2', 'vLLM', ['initializing', 'loading weights', 'allocating KV cache', 'starting server']],
    ['vllm-v0.26.0-rust-frontend', 'vLLM', ['initializing', 'loading weights', 'starting server']],
    ['vllm-v0.16.1rc1', 'vLLM', ['initializing', 'initializing distributed', 'loading weights']],
    ['ollama-v0.33.0-rc2', 'Ollama', ['starting server', 'discovering GPUs', 'loading model']],
    ['ollama-v0.25.0', 'Ollama', ['starting server', 'discovering GPUs', 'loading model']]
  ])(
    '%s: named %s from its log, its phases, ready',
    async (fixture, label, phases) => {
      const port = await freePort()
      const run = await runAction({
        entry,
        inputs: {
          url: `http://127.0.0.1:${port}/v1/models`,
          model: 'model',
          start: `node ${replay} ${logs}${fixture}.log 20 ${port} 20 loading`,
          'log-file': box.path(`${fixture}.log`),
          interval: '1s',
          timeout: '60s',
          'history-file': ''
        }
      })
      if (run.outputs.pid) box.pids.push(Number(run.outputs.pid))
      expect([run.code, run.outputs.ready, run.outputs.reason]).toEqual([0, 'true', 'ready'])
      expect(run.stdout).toContain(`engine: ${label} (from its log)`)
      // Ollama's log carries llama.cpp's own lines after its own: never taken for llama.cpp
      expect(run.stdout).not.toContain('engine: llama.cpp')
      // nor its child llama-server's `listening on http://127.0.0.1:41233` for the port it serves on
      expect(`${run.stdout}${run.stderr}${JSON.stringify(run.outputs)}`).not.toContain(':41233')
      const names = (JSON.parse(run.outputs.phases) as Array<{ name: string }>).map((p) => p.name)
      expect(names).toEqual(expect.arrayContaining(phases))
    },
    90_000
  )
})
