import type { PhaseTiming } from '../../../src/startup/phases.js'
import {
  bar,
  etaText,
  phaseChangeText,
  phaseGantt,
  phaseMarkdown,
  progressText
} from '../../../src/report/profile-report.js'

const phases: PhaseTiming[] = [
  { name: 'initializing', seconds: 14, printed: false },
  { name: 'loading weights', seconds: 213.4, printed: true },
  { name: 'compiling', seconds: 74.5, printed: true },
  { name: 'allocating KV cache', seconds: 0.4, printed: false }
]

describe('the words for a phase', () => {
  it('progress: the share, the count, and the time left; the whole by earlier runs', () => {
    const progress = { unit: 'shards', first: { n: 0, total: 64, at: 0 }, last: { n: 29, total: 64, at: 1 } }
    expect(progressText({ name: 'loading weights', inPhaseMs: 95_000, progress }, 190_000)).toBe(
      'loading weights 45% (29/64 shards), about 3m10s left'
    )
    expect(
      progressText({ name: 'loading weights', inPhaseMs: 95_000, progress }, 190_000, { kind: 'ready-in', ms: 310_000 })
    ).toBe('loading weights 45% (29/64 shards), about 3m10s left; ready in about 5m10s going by earlier runs')
    expect(progressText({ name: 'compiling', inPhaseMs: 26_000 }, undefined, { kind: 'ready-in', ms: 400 })).toBe(
      'compiling for 26.0s; ready in about 1.0s going by earlier runs'
    )
    expect(progressText({ name: 'capturing CUDA graphs', inPhaseMs: 1, progress }, 300)).toBe(
      'capturing CUDA graphs 45% (29/64 shards), almost done'
    )
  })

  it('past what earlier runs took, says how much slower instead of an ETA in the past', () => {
    expect(etaText({ kind: 'slower', overMs: 65_000, usualMs: 40_000 })).toBe(
      '1m05s slower than earlier runs, which were ready after 40.0s'
    )
    expect(
      progressText({ name: 'compiling', inPhaseMs: 87_000 }, undefined, {
        kind: 'slower',
        overMs: 12_000,
        usualMs: 75_000,
        phase: 'compiling'
      })
    ).toBe('compiling for 1m27s; 12.0s longer than its usual 75.0s in earlier runs')
  })

  it("a change of phase says how long the one before took, and whether by the engine's count", () => {
    expect(phaseChangeText('compiling', phases[1])).toBe('now compiling (loading weights took 213.4s by its own count)')
    expect(phaseChangeText('loading weights', phases[0])).toBe('now loading weights (initializing took 14.0s)')
    expect(phaseChangeText('initializing')).toBe('now initializing')
  })
})

describe('the picture of the phases', () => {
  it('bars in eighths of a cell, proportional', () => {
    expect(bar(1)).toBe('█'.repeat(24))
    expect(bar(0.5)).toBe('█'.repeat(12))
    expect(bar(1 / 48)).toBe('▌')
    expect(bar(0.0001)).toBe('▏')
    expect(bar(0)).toBe('')
  })

  it('a Mermaid gantt chart of the phases end to end, each bar as wide as its phase to the tenth of a second', () => {
    expect(phaseGantt(phases, 'vLLM')).toBe(
      [
        '```mermaid',
        'gantt',
        '  title vLLM startup',
        '  dateFormat HH:mm:ss.SSS',
        '  axisFormat %M:%S',
        '  section vLLM',
        '  initializing 14.0s : 00:00:00.000, 00:00:14.000',
        '  loading weights 213.4s : 00:00:14.000, 00:03:47.400',
        '  compiling 74.5s : 00:03:47.400, 00:05:01.900',
        '  allocating KV cache 0.4s : 00:05:01.900, 00:05:02.300',
        '```'
      ].join('\n')
    )
    expect(phaseGantt([{ name: 'loading model', seconds: 4000, printed: false }], 'Triton')).toMatch(
      /axisFormat %H:%M\n.*\n {2}loading model 4000\.0s : 00:00:00\.000, 01:06:40\.000/
    )
    // a phase of no time is drawn as none (it was a second wide), and a 5.3 s start-up ends at 5.3 s (it ended at 8)
    const short = [
      { name: 'initializing', seconds: 0.04, printed: false },
      { name: 'loading weights', seconds: 2.26, printed: false },
      { name: 'compiling', seconds: 3.0, printed: false }
    ]
    expect(phaseGantt(short, 'vLLM').split('\n').slice(6, 9)).toEqual([
      '  initializing 0.0s : 00:00:00.000, 00:00:00.000',
      '  loading weights 2.3s : 00:00:00.000, 00:00:02.300',
      '  compiling 3.0s : 00:00:02.300, 00:00:05.300'
    ])
  })

  it("the chart's times are what Mermaid's date format reads: each bar's two times, in HH:mm:ss.SSS", () => {
    const times = phaseGantt(phases, 'vLLM')
      .split('\n')
      .flatMap((l) => /: (\S+), (\S+)$/.exec(l)?.slice(1) ?? [])
    expect(times).toHaveLength(8)
    for (const t of times) expect(t).toMatch(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}$/)
  })

  it('a table of the numbers with bars, and the usual figures when there is history', () => {
    const md = phaseMarkdown(phases, 'vLLM')
    expect(md).toMatch(/^#### Startup phases\n\n```mermaid\n/)
    expect(md).toContain('| phase | seconds | share | |')
    expect(md).toContain(`| loading weights | 213.4 * | 71% | ${'█'.repeat(24)} |`)
    expect(md).toContain('| allocating KV cache | 0.4 | 0% | ▏ |')
    expect(md).toContain(`| initializing | 14.0 | 5% | █▋ |`)
    const withUsual = phaseMarkdown(phases, 'vLLM', new Map([['loading weights', 150]]))
    expect(withUsual).toContain('| phase | seconds | usual | share | |')
    expect(withUsual).toContain(`| loading weights | 213.4 * | 150.0 | 71% | ${'█'.repeat(24)} |`)
    expect(withUsual).toContain('| compiling | 74.5 * | — | 25% |')
    expect(withUsual).toMatch(/\n\n\\\* as vLLM reported it; the other figures are measured from its log\.\n$/)
    expect(phaseMarkdown(phases.slice(0, 1), 'vLLM')).not.toContain('reported it')
    // one phase (a run that failed in its first): the table alone, no chart of one bar
    const one = phaseMarkdown(phases.slice(0, 1), 'vLLM')
    expect(one).not.toContain('mermaid')
    expect(one).toMatch(/^#### Startup phases\n\n\| phase \| seconds \| share \| \|\n/)
    expect(one).toContain('| initializing | 14.0 | 100% |')
    expect(phaseMarkdown([], 'vLLM')).toBe('')
  })
})
