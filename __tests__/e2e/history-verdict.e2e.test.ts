import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { runAction } from '../../src/simulator/runner.js'
import { freePort } from '../../src/simulator/server.js'
import { sandbox } from '../helpers/sandbox.js'
import { expectEndedByDeadline } from '../helpers/bounds.js'
import { entry, errors, fakeServer, runMeasured } from '../helpers/support.js'

/**
 * Like with like, and a verdict a workflow can act on, through dist/index.js: runs kept in one history file, the GPU
 * as the fake nvidia-smi (the real CSV format) shows it, the server's environment as `env-report` reads it.
 */
const fakeDir = new URL('../fixtures/gpu/', import.meta.url).pathname
const box = sandbox('wfm-history-verdict-e2e-')

function gpus(name: string, count: number): string {
  const state = box.path(`gpu-${name.replace(/\W/g, '')}-${count}.json`)
  const list = Array.from({ length: count }, (_, i) => ({
    index: i,
    uuid: `GPU-24f17f1b-eb07-be47-67e3-5bcdf725d8e${i}`,
    name,
    total: 81559
  }))
  writeFileSync(state, JSON.stringify({ gpus: list, apps: [] }))
  return state
}

async function step(
  loadMs: number,
  { gpu, env = {}, inputs = {} }: { gpu?: string; env?: Record<string, string>; inputs?: Record<string, string> }
) {
  const port = await freePort()
  mkdirSync(box.path('history'), { recursive: true })
  const run = await runAction({
    entry,
    inputs: {
      url: `http://127.0.0.1:${port}/v1/models`,
      model: 'kimi',
      start: `node ${fakeServer} ${port} loads ${loadMs}`,
      interval: '100ms',
      timeout: '30s',
      'history-file': box.path('history/history.jsonl'),
      'history-key': 'kimi-tp8',
      'env-report': 'NCCL_*',
      stop: 'never',
      ...inputs
    },
    env: {
      ...(gpu === undefined ? {} : { PATH: `${fakeDir}:${process.env.PATH}`, FAKE_NVIDIA_SMI: gpu }),
      ...env
    }
  })
  if (run.outputs.pid) box.pids.push(Number(run.outputs.pid))
  return run
}

const runs = (): Array<Record<string, unknown>> =>
  readFileSync(box.path('history/history.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))

describe('like with like, and the verdict', () => {
  it('each run records the GPUs, the engine version and the model id; a run on another GPU model is not compared', async () => {
    const h100 = gpus('NVIDIA H100 80GB HBM3', 8)
    for (let i = 0; i < 3; i++) {
      const run = await step(200, { gpu: h100 })
      expect(errors(run.stdout)).toEqual([])
      expect(run.outputs.verdict).toBe(i === 0 ? 'no-baseline' : 'ok')
    }
    expect(runs()[0]).toMatchObject({
      gpu: { model: 'NVIDIA H100 80GB HBM3', count: 8, driver: '580.95.05' },
      engine: 'vllm',
      engineVersion: '0.16.1',
      modelId: '/shared/kimi-k2.5-int4'
    })
    const h200 = await step(3000, { gpu: gpus('NVIDIA H200', 8) })
    expect(h200.outputs.ready).toBe('true')
    expect(h200.stdout).not.toContain('slower than usual')
    expect(h200.outputs['regression-percent']).toBe('')
    expect(h200.outputs.verdict).toBe('no-baseline')
    expect(h200.summary).toContain('No earlier run of this history key is comparable')
    expect(h200.summary).toContain('GPU: 8 × NVIDIA H100 80GB HBM3 then, 8 × NVIDIA H200 now')
    // the same GPUs again: compared, and slower
    const again = await step(3000, { gpu: h100 })
    expect(again.outputs.verdict).toBe('slower-startup')
  }, 180_000)

  it('a changed environment: the env-changes output and the verdict, and fail-on-regression: environment fails on it alone', async () => {
    const nccl = { NCCL_PROTO: 'Simple', NCCL_P2P_LEVEL: 'NVL', NCCL_IB_PASSWORD: 'hunter2-secret' }
    for (let i = 0; i < 3; i++) expect((await step(200, { env: nccl })).outputs.verdict).not.toBe('environment-changed')
    const changed = await step(200, {
      env: { NCCL_P2P_LEVEL: 'SYS', NCCL_IB_PASSWORD: 'other-secret' },
      inputs: { 'fail-on-regression': 'environment' }
    })
    expect(changed.outputs.ready).toBe('true')
    expect(changed.outputs.verdict).toBe('environment-changed')
    expect(JSON.parse(changed.outputs['env-changes'])).toEqual([
      { name: 'NCCL_IB_PASSWORD', was: '***', now: '***' },
      { name: 'NCCL_P2P_LEVEL', was: 'NVL', now: 'SYS' },
      { name: 'NCCL_PROTO', was: 'Simple', now: null }
    ])
    expect(changed.stdout + changed.summary).not.toMatch(/hunter2|other-secret/)
    expect(changed.code).toBe(1)
    expect(errors(changed.stdout)).toHaveLength(1)
    // the headline tells the step's truth: it failed
    expect(changed.summary).not.toContain('✅')
    expect(changed.summary).toMatch(/\| Result \| ❌ ready, but the step failed: /)
  }, 180_000)

  it('an nvidia-smi that hangs while history asks it for the GPUs: the step still ends by its timeout, the run recorded', async () => {
    const hanging = box.path('gpu-hang.json')
    writeFileSync(hanging, JSON.stringify({ gpus: [], apps: [], hangMs: 600_000 }))
    const port = await freePort()
    const run = await runMeasured(
      {
        url: `http://127.0.0.1:${port}/v1/models`,
        model: 'kimi',
        start: `exec node ${fakeServer} ${port} loads 100`,
        interval: '100ms',
        timeout: '4s',
        'gpu-check': 'off',
        'history-file': box.path('history/hang.jsonl'),
        stop: 'never'
      },
      { PATH: `${fakeDir}:${process.env.PATH}`, FAKE_NVIDIA_SMI: hanging }
    )
    if (run.outputs.pid) box.pids.push(Number(run.outputs.pid))
    expect(run.outputs.ready).toBe('true')
    expectEndedByDeadline(run, 4_000)
    expect(readFileSync(box.path('history/hang.jsonl'), 'utf8')).not.toContain('"gpu"')
  }, 60_000)

  it('a startup regression with fail-on-regression: true: the summary headline is not ✅', async () => {
    for (let i = 0; i < 3; i++) await step(200, {})
    const slow = await step(3000, { inputs: { 'fail-on-regression': 'true' } })
    expect(slow.code).toBe(1)
    expect(slow.outputs.verdict).toBe('slower-startup')
    expect(slow.summary).not.toContain('✅')
    expect(slow.summary).toMatch(/\| Result \| ❌ ready, but the step failed: /)
  }, 180_000)
})

describe("the seeds' story, replayed with the simulator", () => {
  const cli = new URL('../../dist/cli.js', import.meta.url).pathname

  async function simulated(tokensPerSecond: number, env: Record<string, string>) {
    const port = await freePort()
    const run = await runAction({
      entry,
      inputs: {
        url: `http://127.0.0.1:${port}/v1/models`,
        model: 'kimi',
        start: `node ${cli} simulate --engine vllm --model /shared/kimi-k2.5-int4 --load 1s --port ${port} --tokens-per-second ${tokensPerSecond}`,
        interval: '100ms',
        timeout: '60s',
        'smoke-test': 'true',
        'history-file': box.path('seeds.jsonl'),
        'history-key': 'sglang-kimi-tp8',
        'env-report': 'NCCL_*',
        stop: 'never'
      },
      env
    })
    if (run.outputs.pid) box.pids.push(Number(run.outputs.pid))
    return run
  }

  it('three runs at 88.8 tok/s with NCCL variables, then 62.9 without: a cliff, the variables named', async () => {
    const nccl = { NCCL_PROTO: 'Simple', NCCL_IB_HCA: 'mlx5_0,mlx5_1' }
    for (let i = 0; i < 3; i++) {
      const run = await simulated(88.8, nccl)
      expect(run.outputs.ready).toBe('true')
      expect(Number(run.outputs['decode-tokens-per-second'])).toBeGreaterThan(75)
    }
    const cliff = await simulated(62.9, {})
    expect(Number(cliff.outputs['decode-tokens-per-second'])).toBeLessThan(70)
    expect(cliff.outputs.verdict).toBe('slower-decode')
    expect(JSON.parse(cliff.outputs['env-changes'])).toEqual([
      { name: 'NCCL_IB_HCA', was: 'mlx5_0,mlx5_1', now: null },
      { name: 'NCCL_PROTO', was: 'Simple', now: null }
    ])
    expect(cliff.stdout).toMatch(/::warning title=[^:]*::[^\n]*decode[^\n]*NCCL_IB_HCA[^\n]*NCCL_PROTO/i)
    // the cliff, drawn: the decode rate's line drops at the run whose environment changed, its variables named
    expect(cliff.summary).toContain('#### Trend of this history key')
    expect(cliff.summary).toMatch(/x-axis \["-3", "-2", "-1", "now env"\]/)
    // the chart writes a whole number without its .0 (a decode rate measured at 63.0 is 63)
    expect(cliff.summary).toMatch(/line \[8\d(\.\d)?, 8\d(\.\d)?, 8\d(\.\d)?, 6\d(\.\d)?\]/)
    expect(cliff.summary).toContain('- now env: `NCCL_IB_HCA`, `NCCL_PROTO` changed')
  }, 240_000)
})
