import { writeFileSync } from 'node:fs'
import type { RunRecord } from '../../../src/history/record.js'
import { throughputRegression } from '../../../src/history/stats.js'
import { loadHistory, recordRun } from '../../../src/wait/run-history.js'
import { sandbox } from '../../helpers/sandbox.js'

/** The smoke test's decode rate against earlier runs: injected history, no clock involved. */
const box = sandbox('wfm-throughput-history-')

const NCCL = { NCCL_IB_HCA: 'mlx5_0,mlx5_1', NCCL_P2P_LEVEL: 'NVL' }
const run = (over: Partial<RunRecord> = {}): RunRecord => ({
  v: 1,
  key: 'k',
  at: '2026-07-08T10:00:00.000Z',
  ready: true,
  reason: 'ready',
  elapsedSeconds: 10,
  startupSeconds: 300,
  phases: [],
  env: NCCL,
  envReport: 'NCCL_*',
  ttftMs: 180,
  decodeTokensPerSecond: 88.8,
  smokeTokens: 64,
  ...over
})

function history(runs: RunRecord[]): string {
  const file = box.path('history.jsonl')
  writeFileSync(file, runs.map((r) => `${JSON.stringify(r)}\n`).join(''))
  return file
}

describe('the decode rate against earlier runs', () => {
  it('is compared with the median of the last ten runs that measured one with as many tokens', () => {
    const earlier = [
      ...Array.from({ length: 12 }, () => run({ decodeTokensPerSecond: 10 })),
      ...[88.8, 90.1, 87.5, 88.0, 89.9, 91.2, 86.4, 88.9, 90.0, 88.7].map((r) => run({ decodeTokensPerSecond: r })),
      // not counted: not ready, no smoke test, another smoke-tokens
      run({ ready: false, decodeTokensPerSecond: 1 }),
      run({ decodeTokensPerSecond: undefined }),
      run({ smokeTokens: 256, decodeTokensPerSecond: 1 })
    ]
    expect(throughputRegression(earlier, run({ decodeTokensPerSecond: 62.9 }))).toEqual({
      usual: 88.85,
      now: 62.9,
      percentBelow: 29.2,
      spread: expect.closeTo(1.63, 2),
      runs: 10,
      drift: []
    })
    expect(throughputRegression(earlier, run({ decodeTokensPerSecond: undefined }))).toBeUndefined()
    expect(throughputRegression(earlier, run({ ready: false }))).toBeUndefined()
    expect(throughputRegression([run({ decodeTokensPerSecond: undefined })], run())).toBeUndefined()
  })

  it('warns past the threshold, naming the numbers and the env-report variables lost since the previous run', async () => {
    const file = history([88.8, 88.2, 89.4, 88.8, 89.0].map((r) => run({ decodeTokensPerSecond: r })))
    const findings = await recordRun(loadHistory(file, 'k'), run({ decodeTokensPerSecond: 62.9, env: {} }), 25, 3)
    expect(findings.usualDecodeTokensPerSecond).toBe(88.8)
    expect(findings.throughputRegression).toBe(
      'Decode rate 62.9 tokens/s, 29.2% below the median of 88.8 tokens/s of the last 5 runs with a smoke test; ' +
        "the server's environment changed since the previous run, a likely cause: " +
        'NCCL_IB_HCA was "mlx5_0,mlx5_1" in the last 5 runs, now unset; NCCL_P2P_LEVEL was "NVL" in the last 5 runs, now unset.'
    )
    // recorded, with its figures, for the next run to compare with
    const next = loadHistory(file, 'k')
    expect(next.earlier.at(-1)).toMatchObject({ ttftMs: 180, decodeTokensPerSecond: 62.9, smokeTokens: 64 })
  })

  it('is silent within the threshold, below regression-min-runs, and without an environment that changed says no cause', async () => {
    const five = [88.8, 88.2, 89.4, 88.8, 89.0].map((r) => run({ decodeTokensPerSecond: r }))
    const within = await recordRun(loadHistory(history(five), 'k'), run({ decodeTokensPerSecond: 80 }), 25, 3)
    expect(within.throughputRegression).toBeUndefined()
    const few = await recordRun(loadHistory(history(five.slice(0, 2)), 'k'), run({ decodeTokensPerSecond: 40 }), 25, 3)
    expect(few).toMatchObject({ usualDecodeTokensPerSecond: 88.5, throughputRegression: undefined })
    const noCause = await recordRun(loadHistory(history(five), 'k'), run({ decodeTokensPerSecond: 40 }), 25, 3)
    expect(noCause.throughputRegression).toBe(
      'Decode rate 40.0 tokens/s, 55.0% below the median of 88.8 tokens/s of the last 5 runs with a smoke test.'
    )
    const stricter = await recordRun(loadHistory(history(five), 'k'), run({ decodeTokensPerSecond: 84 }), 5, 3)
    expect(stricter.throughputRegression).toMatch(/^Decode rate 84\.0 tokens\/s, 5\.4% below/)
  })

  it('a history line with a figure that is not a number is skipped as unreadable', () => {
    const file = box.path('bad.jsonl')
    writeFileSync(file, `${JSON.stringify({ ...run(), decodeTokensPerSecond: 'fast' })}\n${JSON.stringify(run())}\n`)
    const read = loadHistory(file, 'k')
    expect(read.earlier).toHaveLength(1)
    expect(read.warnings[0]).toMatch(/skipped 1 line/)
  })
})
