import { readFileSync, writeFileSync } from 'node:fs'
import type { RunRecord } from '../../../src/history/record.js'
import { loadHistory, recordRun } from '../../../src/wait/run-history.js'
import { sandbox } from '../../helpers/sandbox.js'

const box = sandbox('wfm-run-history-')

const run = (over: Partial<RunRecord> = {}): RunRecord => ({
  v: 1,
  key: 'k',
  at: '2026-07-08T10:00:00.000Z',
  ready: true,
  reason: 'ready',
  elapsedSeconds: 10,
  startupSeconds: 300,
  phases: [
    { name: 'loading weights', seconds: 200 },
    { name: 'capturing CUDA graphs', seconds: 40 }
  ],
  env: { NCCL_PROTO: 'LL' },
  envReport: 'NCCL_*',
  ...over
})

describe('history around a wait', () => {
  it('the first run: nothing to compare, recorded; the next ones compared with it', async () => {
    const file = box.path('sub', 'history.jsonl')
    const first = loadHistory(file, 'k')
    expect(first).toMatchObject({ file, earlier: [], usual: undefined, notices: [], warnings: [] })
    expect(await recordRun(first, run(), 25, 1)).toEqual({
      expectedSeconds: undefined,
      regressionPercent: undefined,
      regression: undefined,
      drift: undefined,
      envChanges: [],
      verdict: 'no-baseline',
      trend: expect.any(Array),
      notices: []
    })

    const second = loadHistory(file, 'k')
    expect(second.usual?.totalSeconds).toBe(300)
    const findings = await recordRun(second, run({ startupSeconds: 330 }), 25, 1)
    expect(findings).toEqual({
      expectedSeconds: 300,
      regressionPercent: 10,
      regression: undefined,
      drift: undefined,
      envChanges: [],
      verdict: 'ok',
      trend: expect.any(Array),
      notices: []
    })
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(2)
  })

  it('warns of a slower startup past the threshold, naming the phase that grew most, and of a lost NCCL variable', async () => {
    const file = box.path('history.jsonl')
    writeFileSync(file, [1, 2, 3, 4, 5].map(() => JSON.stringify(run())).join('\n') + '\n')
    const findings = await recordRun(
      loadHistory(file, 'k'),
      run({
        startupSeconds: 420,
        env: {},
        phases: [
          { name: 'loading weights', seconds: 320 },
          { name: 'capturing CUDA graphs', seconds: 41 }
        ]
      }),
      25,
      3
    )
    expect(findings.regressionPercent).toBe(40)
    expect(findings.regression).toBe(
      'Startup took 420.0s, 40.0% over the median of 300.0s of the last 5 ready runs; loading weights grew most: 320.0s against 200.0s.'
    )
    expect(findings.drift).toBe(
      'The server\'s environment changed since the previous run with this history key: NCCL_PROTO was "LL" in the last 5 runs, now unset.'
    )
    // 40% is within a 50% threshold; the variable is back, after one run without it
    expect(await recordRun(loadHistory(file, 'k'), run({ startupSeconds: 420 }), 50, 3)).toMatchObject({
      regression: undefined,
      drift:
        'The server\'s environment changed since the previous run with this history key: NCCL_PROTO was unset in the last run, now "LL".'
    })
  })

  it('tells no regression before regression-min-runs earlier ready runs (a cold cache against one warm run)', async () => {
    const file = box.path('history.jsonl')
    // two ready runs and a failed one: the failed run does not count
    writeFileSync(
      file,
      [run(), run({ ready: false, reason: 'timeout' }), run()].map((r) => JSON.stringify(r)).join('\n') + '\n'
    )
    const slow = run({ startupSeconds: 600 })
    const two = await recordRun(loadHistory(file, 'k'), slow, 25, 3)
    // the figures are still given; only the warning (and fail-on-regression, which follows it) waits
    expect(two).toMatchObject({ expectedSeconds: 300, regressionPercent: 100, regression: undefined })
    expect((await recordRun(loadHistory(file, 'k'), slow, 25, 2)).regression).toMatch(
      /^Startup took 600\.0s, 100\.0% over/
    )
    // both slow runs were recorded: four earlier ready runs now, enough for 3 (and past their noise: 300 s to 600 s)
    expect((await recordRun(loadHistory(file, 'k'), run({ startupSeconds: 2000 }), 25, 3)).regression).toMatch(
      /^Startup took 2000\.0s, .* of the last 4 ready runs/
    )
  })

  it("tells a regression only past both the threshold and the earlier runs' own noise", async () => {
    const history = (seconds: number[], name: string): string => {
      const file = box.path(name)
      writeFileSync(file, seconds.map((s) => JSON.stringify(run({ startupSeconds: s }))).join('\n') + '\n')
      return file
    }
    // a noisy engine (90 s to 130 s): 27% over its median is within its noise, no warning
    const noisy = history([100, 130, 90, 125, 95, 120, 105], 'noisy.jsonl')
    const within = await recordRun(loadHistory(noisy, 'k'), run({ startupSeconds: 140 }), 25, 3)
    expect(within.regressionPercent).toBeGreaterThan(25)
    expect(within).toMatchObject({ regression: undefined, verdict: 'ok' })
    // a steady one (99 s to 101 s): 10% over is past its noise, and past a threshold of 5%
    const steady = history([100, 100, 101, 99, 100, 100], 'steady.jsonl')
    const past = await recordRun(loadHistory(steady, 'k'), run({ startupSeconds: 110 }), 5, 3)
    expect(past).toMatchObject({ verdict: 'slower-startup' })
    expect(past.regression).toMatch(/^Startup took 110\.0s, 10\.0% over/)
  })

  it('only compares runs with the same key', () => {
    const file = box.path('history.jsonl')
    writeFileSync(file, JSON.stringify(run({ key: 'other', startupSeconds: 10 })) + '\n')
    expect(loadHistory(file, 'k').earlier).toEqual([])
  })

  it('skips unreadable lines with one warning', () => {
    const file = box.path('history.jsonl')
    writeFileSync(file, `${JSON.stringify(run())}\n{"key":\n\u0000\u0000garbage\n${JSON.stringify(run())}\n`)
    const h = loadHistory(file, 'k')
    expect(h.earlier).toHaveLength(2)
    expect(h.warnings).toEqual([
      `History: skipped 2 lines of ${file} that could not be read ` +
        '(not a run, or a time that is not a finite number of seconds, or negative).'
    ])
  })

  it('is off, with a notice and never a failure, when it is not set or cannot be written', async () => {
    const unset = loadHistory(undefined, 'k', 'History is off: RUNNER_TOOL_CACHE is not set.')
    expect(unset.file).toBeUndefined()
    expect(unset.notices).toEqual(['History is off: RUNNER_TOOL_CACHE is not set.'])
    expect(loadHistory(undefined, 'k').notices).toEqual([])
    writeFileSync(box.path('f'), '')
    const off = loadHistory(box.path('f', 'history.jsonl'), 'k')
    expect(off.file).toBeUndefined()
    expect(off.notices[0]).toMatch(/^History is off: cannot write /)
    expect(await recordRun(off, run(), 25, 3)).toEqual({
      expectedSeconds: undefined,
      regressionPercent: undefined,
      regression: undefined,
      drift: undefined,
      envChanges: [],
      verdict: 'no-baseline',
      trend: expect.any(Array),
      notices: []
    })
  })
})
