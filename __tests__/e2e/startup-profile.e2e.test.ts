import { readFileSync, writeFileSync } from 'node:fs'
import { fixturePath } from '../fixtures/log-fixture.mjs'
import { type ActionRun, runAction } from '../../src/simulator/runner.js'
import { freePort } from '../../src/simulator/server.js'
import { sandbox } from '../helpers/sandbox.js'
import { entry, errors } from '../helpers/support.js'

/**
 * End to end: `node dist/index.js` starts a stand-in server that writes a real-format startup log of one engine
 * line by line, at the recorded pace compressed in time (the lines keep their recorded stamps), then serves
 * `/v1/models`. The action reads the log while it waits: phases, their durations, the summary (the still-waiting lines
 * with the time left come every 30 s: startup-progress.e2e.test.ts).
 */
const replay = new URL('../fixtures/replay-log.mjs', import.meta.url).pathname
const fixture = fixturePath
const warnings = (stdout: string): string[] => stdout.split('\n').filter((l) => l.startsWith('::warning'))

const box = sandbox('wait-for-model-profile-')
const pids = box.pids

async function replayed(
  name: string,
  speedup: number,
  inputs: Record<string, string> = {},
  env: Record<string, string> = {}
): Promise<ActionRun> {
  const port = await freePort()
  const run = await runAction({
    entry,
    inputs: {
      url: `http://127.0.0.1:${port}/v1/models`,
      model: 'model',
      start: `node ${replay} ${fixture(name)} ${speedup} ${port} 5`,
      'log-file': box.path('server.log'),
      interval: '200ms',
      timeout: '40s',
      'history-file': box.path('history.jsonl'),
      ...inputs
    },
    env
  })
  if (run.outputs.pid) pids.push(Number(run.outputs.pid))
  return run
}

type Phase = { name: string; seconds: number }
const phasesOf = (run: ActionRun): Phase[] => JSON.parse(run.outputs.phases) as Phase[]
/** Compares phases: a number is exact (stamps, or the engine's own figure); [lo, hi] a range (measured from reads). */
function expectPhases(run: ActionRun, expected: Array<[string, number | [number, number]]>): void {
  const phases = phasesOf(run)
  // `start` launched the server: the time before its first line is "starting"
  expect(phases[0].name).toBe('starting')
  expect(phases.slice(1).map((p) => p.name)).toEqual(expected.map(([name]) => name))
  phases.slice(1).forEach((p, i) => {
    const want = expected[i][1]
    if (typeof want === 'number') expect([p.name, p.seconds]).toEqual([p.name, want])
    else expect([p.name, p.seconds >= want[0] && p.seconds <= want[1]]).toEqual([p.name, true])
  })
}
describe('the startup profile from a replayed engine log', () => {
  it('vLLM: phases by its stamps and own figures, a chart in the summary', async () => {
    const run = await replayed('vllm', 80)
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs).toMatchObject({ ready: 'true', reason: 'ready' })
    expect(run.stdout).toMatch(/\n[\d.]+m?s: engine: vLLM \(from its log\)\n/)
    expect(run.stdout).toMatch(/: now loading weights \(initializing distributed took 3\.0s\)\n/)
    expect(run.stdout).toMatch(/: now compiling \(loading weights took 21\d\.\ds by its own count\)\n/)
    expectPhases(run, [
      ['initializing', 14],
      ['initializing distributed', 3],
      ['loading weights', 213.4],
      ['compiling', 74.5],
      ['allocating KV cache', 2],
      ['capturing CUDA graphs', 40],
      ['starting server', [0.5, 2]]
    ])
    expect(run.summary).toContain('#### Startup phases')
    expect(run.summary).toMatch(
      /```mermaid\ngantt\n {2}title vLLM startup\n[\s\S]* {2}loading weights 213\.4s : \d\d:\d\d:\d\d\.\d00, \d\d:\d\d:\d\d\.\d00\n/
    )
    expect(run.summary).toMatch(/\| loading weights \| 213\.4 \* \| \d+% \| █+ \|/)
    expect(run.summary).toMatch(/\| Engine \| vLLM \|/)
  })

  it('SGLang: graph capture by batch sizes, and the warm-up until it is fired up', async () => {
    const run = await replayed('sglang', 60)
    expect(errors(run.stdout)).toEqual([])
    expect(run.outputs.ready).toBe('true')
    expectPhases(run, [
      ['initializing', 8],
      ['initializing distributed', 3.9],
      ['loading weights', 187],
      ['allocating KV cache', 3],
      ['capturing CUDA graphs', 32.4],
      ['starting server', 2],
      ['warming up', 5]
    ])
  })

  it('TGI: coloured lines, the download and the shard time it prints', async () => {
    const run = await replayed('tgi', 50)
    expect(errors(run.stdout)).toEqual([])
    expectPhases(run, [
      ['downloading', 149.9],
      ['loading weights', 35.9],
      ['starting server', 0.3],
      ['warming up', 14.9]
    ])
  })

  it('llama.cpp: no stamps, so phases are measured as the lines are read', async () => {
    const run = await replayed('llamacpp', 15)
    expect(errors(run.stdout)).toEqual([])
    // recorded 40.8s of loading, replayed 15 times faster: 2.7s, read every 200ms
    expectPhases(run, [
      ['initializing', [0, 0.5]],
      ['loading weights', [2.2, 3.2]],
      ['allocating KV cache', [0, 0.6]],
      ['warming up', [0, 0.6]],
      ['starting server', [0, 0.5]]
    ])
  })

  it('Ollama and Triton: their phases and the durations they print', async () => {
    const ollama = await replayed('ollama', 8)
    expect(errors(ollama.stdout)).toEqual([])
    expectPhases(ollama, [
      ['starting server', 0.1],
      ['discovering GPUs', 1.8],
      ['loading model', 9.5]
    ])
    const triton = await replayed('triton', 4)
    expect(errors(triton.stdout)).toEqual([])
    expectPhases(triton, [
      ['initializing', 0.4],
      ['loading model', 9.4],
      ['starting server', 0.3]
    ])
  })
})

describe('known fatal lines, without a fail-pattern', () => {
  it('vLLM out of memory: log-error quoting the cause, with the exit code that follows it', async () => {
    const run = await replayed('vllm-oom', 80)
    expect(run.code).toBe(1)
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'log-error' })
    const oomLine =
      readFileSync(box.path('server.log'), 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('torch.OutOfMemoryError')) + 1
    expect(errors(run.stdout)[0]).toMatch(
      new RegExp(
        `line ${oomLine} of .*server\\.log is a known fatal vLLM line: \\(Worker_TP1 pid=453\\) ERROR 07-08 10:12:56 \\[multiproc_executor\\.py:743\\] torch\\.OutOfMemoryError: CUDA out of memory\\. Tried to allocate 816\\.82 MiB\\..*; the server process ${run.outputs.pid} then exited with code 1\\.`
      )
    )
    // the phases up to the crash
    expect(phasesOf(run).map((p) => p.name)).toEqual([
      'starting',
      'initializing',
      'initializing distributed',
      'loading weights'
    ])
  })

  it('llama.cpp failing to load its model', async () => {
    const run = await replayed('llamacpp-fail', 15)
    expect(run.outputs).toMatchObject({ ready: 'false', reason: 'log-error' })
    expect(errors(run.stdout)[0]).toMatch(
      /is a known fatal llama\.cpp line: llama_model_load: error loading model: llama_model_loader: failed to load model from \/models\/Qwen3-32B-Q4_K_M\.gguf/
    )
  })
})

describe('history across runs', () => {
  it("the second run expects the first one's startup and flags an NCCL variable the server lost", async () => {
    const inputs = { 'env-report': 'NCCL_*', 'history-key': 'triton-bench' }
    const first = await replayed('triton', 4, inputs, { NCCL_IB_HCA: 'mlx5', NCCL_DEBUG: 'WARN' })
    expect(first.outputs).toMatchObject({ ready: 'true', 'expected-seconds': '', 'regression-percent': '' })
    expect(warnings(first.stdout)).toEqual([])
    const second = await replayed('triton', 4, { ...inputs, 'regression-threshold': '1000%' }, { NCCL_DEBUG: 'WARN' })
    expect(second.outputs.ready).toBe('true')
    expect(second.outputs['expected-seconds']).toBe(first.outputs['startup-seconds'])
    expect(second.outputs['regression-percent']).toMatch(/^-?\d+\.\d$/)
    expect(warnings(second.stdout)).toEqual([
      '::warning title=Model server\'s environment changed::The server\'s environment changed since the previous run with this history key: NCCL_IB_HCA was "mlx5" in the last run, now unset.'
    ])
    expect(second.summary).toContain("> ⚠️ The server's environment changed")
    expect(second.summary).toMatch(
      /\| Usual startup \(median of earlier runs\) \| \d+\.\d s \(this run: [+-]?\d+\.\d%\) \|/
    )
    const lines = readFileSync(box.path('history.jsonl'), 'utf8').trim().split('\n')
    expect(lines).toHaveLength(2)
    expect(JSON.parse(lines[0])).toMatchObject({
      key: 'triton-bench',
      ready: true,
      engine: 'triton',
      env: { NCCL_IB_HCA: 'mlx5', NCCL_DEBUG: 'WARN' },
      envReport: 'NCCL_*'
    })
  })

  it('a regression past the threshold fails the step with fail-on-regression, naming the phase that grew, once regression-min-runs earlier runs are on record', async () => {
    // three earlier runs of this key on record took a tenth of the time, their model load a hundredth
    const key = 'llama-bench'
    const earlier = {
      v: 1,
      key,
      at: '2026-07-01T00:00:00.000Z',
      ready: true,
      reason: 'ready',
      elapsedSeconds: 0.3,
      startupSeconds: 0.3,
      phases: [{ name: 'loading weights', seconds: 0.03 }]
    }
    const history = box.path('history.jsonl')
    writeFileSync(history, `${JSON.stringify(earlier)}\n`.repeat(2))
    // two are fewer than the three a regression needs: the figures, but no warning and no failure
    const few = await replayed('llamacpp', 15, { 'history-key': key, 'fail-on-regression': 'true' })
    expect(few.code).toBe(0)
    expect(Number(few.outputs['regression-percent'])).toBeGreaterThan(25)
    expect(errors(few.stdout)).toEqual([])
    expect(warnings(few.stdout)).toEqual([])
    // that run is the third on record (the median stays 0.3s)
    const run = await replayed('llamacpp', 15, { 'history-key': key, 'fail-on-regression': 'true' })
    expect(run.outputs.ready).toBe('true')
    expect(run.code).toBe(1)
    expect(Number(run.outputs['regression-percent'])).toBeGreaterThan(25)
    // (a workflow command writes % as %25)
    expect(errors(run.stdout)[0]).toMatch(
      /^::error title=Model server startup slower than usual::Startup took \d+\.\ds, \d+\.\d%25 over the median of 0\.3s of the last 3 ready runs; loading weights grew most: \d+\.\ds against 0\.0s\.$/
    )
  })

  it('is off with a notice, never a failure, where history-file cannot be written', async () => {
    writeFileSync(box.path('a-file'), '')
    const run = await replayed('triton', 4, { 'history-file': box.path('a-file', 'history.jsonl') })
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/::notice title=Startup history::History is off: cannot write .*a-file\/history\.jsonl/)
  })
})
