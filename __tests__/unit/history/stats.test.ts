import type { RunRecord } from '../../../src/history/record.js'
import { envDrift, median, regression, usualStartup } from '../../../src/history/stats.js'
import { driftText, driftWarning, regressionText } from '../../../src/report/profile-report.js'

let n = 0
const run = (over: Partial<RunRecord> = {}): RunRecord => ({
  v: 1,
  key: 'k',
  at: new Date(Date.UTC(2026, 6, 1) + n++ * 60_000).toISOString(),
  ready: true,
  reason: 'ready',
  elapsedSeconds: 100,
  startupSeconds: 300,
  engine: 'vllm',
  phases: [
    { name: 'loading weights', seconds: 200 },
    { name: 'capturing CUDA graphs', seconds: 40 }
  ],
  ...over
})

describe('comparing a run with earlier ones', () => {
  it('expects the median of the last 10 ready runs, and its phases', () => {
    expect(median([3, 1, 2])).toBe(2)
    expect(median([4, 1, 2, 3])).toBe(2.5)
    const earlier = [
      run({ startupSeconds: 1000 }),
      ...[300, 310, 290, 305, 295, 320, 280, 300, 310, 290].map((s) => run({ startupSeconds: s })),
      run({ ready: false, reason: 'timeout', startupSeconds: 900 })
    ]
    const e = usualStartup(earlier)!
    expect(e.totalSeconds).toBe(300)
    expect(e.runs).toBe(10)
    expect(e.phaseSeconds.get('loading weights')).toBe(200)
    expect(e.order).toEqual(['loading weights', 'capturing CUDA graphs'])
    expect(usualStartup([run({ ready: false })])).toBeUndefined()
  })

  it('reports the regression in percent and the phase that grew most', () => {
    const earlier = [300, 300, 300].map((s) => run({ startupSeconds: s }))
    const slow = run({
      startupSeconds: 390,
      phases: [
        { name: 'loading weights', seconds: 230 },
        { name: 'capturing CUDA graphs', seconds: 100 }
      ]
    })
    const r = regression(earlier, slow)!
    expect(r).toMatchObject({
      expectedSeconds: 300,
      seconds: 390,
      percent: 30,
      runs: 3,
      grewMost: { name: 'capturing CUDA graphs', seconds: 100, usual: 40 }
    })
    expect(regressionText(r)).toBe(
      'Startup took 390.0s, 30.0% over the median of 300.0s of the last 3 ready runs; capturing CUDA graphs grew most: 100.0s against 40.0s.'
    )
    expect(regression(earlier, run({ startupSeconds: 270 }))?.percent).toBe(-10)
    expect(regression(earlier, run({ ready: false, startupSeconds: 900 }))).toBeUndefined()
    expect(regression([], slow)).toBeUndefined()
    // without a process start, the wait's own elapsed time is compared
    expect(
      regression(
        [run({ startupSeconds: undefined, elapsedSeconds: 50 })],
        run({ startupSeconds: undefined, elapsedSeconds: 60 })
      )?.percent
    ).toBe(20)
  })

  it('names the variables that changed since the previous run with the same env-report', () => {
    const env = (e: Record<string, string>): Partial<RunRecord> => ({
      env: e,
      envReport: 'NCCL_*,CUDA_VISIBLE_DEVICES'
    })
    const earlier = [
      run(env({ NCCL_PROTO: 'Simple', CUDA_VISIBLE_DEVICES: '0,1' })),
      ...Array.from({ length: 5 }, () => run(env({ NCCL_PROTO: 'LL', CUDA_VISIBLE_DEVICES: '0,1', HF_TOKEN: '***' }))),
      run({ env: { NCCL_PROTO: 'other report' }, envReport: 'NCCL_PROTO' }),
      run()
    ]
    const drift = envDrift(
      earlier,
      run(env({ CUDA_VISIBLE_DEVICES: '0,1,2,3', NCCL_IB_HCA: 'mlx5_0', HF_TOKEN: '***' }))
    )
    expect(drift.map(driftText)).toEqual([
      'CUDA_VISIBLE_DEVICES was "0,1" in the last 6 runs, now "0,1,2,3"',
      'NCCL_IB_HCA was unset in the last 6 runs, now "mlx5_0"',
      'NCCL_PROTO was "LL" in the last 5 runs, now unset'
    ])
    expect(driftWarning(drift.slice(2))).toBe(
      'The server\'s environment changed since the previous run with this history key: NCCL_PROTO was "LL" in the last 5 runs, now unset.'
    )
    expect(envDrift(earlier, run(env({ NCCL_PROTO: 'LL', CUDA_VISIBLE_DEVICES: '0,1', HF_TOKEN: '***' })))).toEqual([])
    expect(envDrift([], run(env({ A: '1' })))).toEqual([])
    expect(envDrift(earlier, run())).toEqual([])
  })

  it("compares the GPU workers with the last run's workers, and NCCL's word with NCCL's, never across", () => {
    const report = { envReport: 'NCCL_*' }
    const earlier = [
      run({ ...report, env: { NCCL_PROTO: 'LL' }, workersEnv: {} }),
      run({ ...report, env: { NCCL_PROTO: 'LL' }, workersEnv: {}, ncclEnv: {} }),
      // no GPU reading this time: the workers' last values stay the ones to compare with
      run({ ...report, env: { NCCL_PROTO: 'LL' } })
    ]
    const now = run({
      ...report,
      env: { NCCL_PROTO: 'LL' },
      workersEnv: { NCCL_PROTO: 'LL' },
      ncclEnv: { NCCL_PROTO: 'mixed: LL in 4, unset in 4' }
    })
    expect(envDrift(earlier, now).map(driftText)).toEqual([
      'NCCL_PROTO in the GPU workers was unset in the last 2 runs, now "LL"',
      'NCCL_PROTO as NCCL took it was unset in the last run, now "mixed: LL in 4, unset in 4"'
    ])
    // the served process against the workers would have been a change of its own: not told
    expect(envDrift([run({ ...report, workersEnv: {} })], run({ ...report, env: { NCCL_PROTO: 'LL' } }))).toEqual([])
  })
})
