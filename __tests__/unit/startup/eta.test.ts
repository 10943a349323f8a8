import { eta, type UsualStartup, phaseLeftMs, readyInMs } from '../../../src/startup/eta.js'
import type { Progress } from '../../../src/startup/phases.js'

const progress = (first: Progress['first'], last: Progress['last']): Progress => ({ unit: 'shards', first, last })
const usual: UsualStartup = {
  totalSeconds: 360,
  phaseSeconds: new Map([
    ['initializing', 15],
    ['loading weights', 210],
    ['compiling', 75],
    ['capturing CUDA graphs', 40]
  ]),
  order: ['initializing', 'loading weights', 'compiling', 'capturing CUDA graphs']
}

describe('time left in a phase, from its progress', () => {
  it("uses tqdm's own elapsed time per item, less the time since that line", () => {
    const p = progress({ n: 0, total: 64, at: 0 }, { n: 16, total: 64, at: 50_000, elapsedS: 48 })
    expect(phaseLeftMs(p, 50_000)).toBe(144_000)
    expect(phaseLeftMs(p, 60_000)).toBe(134_000)
    expect(phaseLeftMs(p, 500_000)).toBe(0)
  })

  it('else the rate between the first and the latest count read', () => {
    const p = progress({ n: 1, total: 4, at: 10_000 }, { n: 3, total: 4, at: 30_000 })
    expect(phaseLeftMs(p, 30_000)).toBe(10_000)
  })

  it('has no estimate before the count moves, and none needed once it is complete', () => {
    expect(phaseLeftMs(progress({ n: 0, total: 64, at: 0 }, { n: 0, total: 64, at: 0 }), 5_000)).toBeUndefined()
    expect(phaseLeftMs(progress({ n: 2, total: 4, at: 0 }, { n: 2, total: 4, at: 0 }), 5_000)).toBeUndefined()
    expect(phaseLeftMs(progress({ n: 0, total: 4, at: 0 }, { n: 4, total: 4, at: 9_000 }), 9_000)).toBe(0)
  })
})

describe('time until ready, from earlier runs', () => {
  it('the rest of this phase by its rate, plus the usual length of the phases after it', () => {
    expect(
      readyInMs({ phase: 'loading weights', inPhaseMs: 100_000, phaseLeftMs: 90_000, elapsedMs: 120_000 }, usual)
    ).toBe(90_000 + 115_000)
  })

  it('the rest of this phase by its usual length when it has no progress (never below zero)', () => {
    expect(readyInMs({ phase: 'compiling', inPhaseMs: 30_000, elapsedMs: 280_000 }, usual)).toBe(45_000 + 40_000)
    expect(readyInMs({ phase: 'compiling', inPhaseMs: 90_000, elapsedMs: 340_000 }, usual)).toBe(40_000)
  })

  it('the usual startup less the time so far, for a phase earlier runs did not have or none at all', () => {
    expect(readyInMs({ phase: 'downloading', inPhaseMs: 5_000, elapsedMs: 60_000 }, usual)).toBe(300_000)
    expect(readyInMs({ inPhaseMs: 0, elapsedMs: 400_000 }, usual)).toBe(0)
  })
})

describe('this startup against earlier runs', () => {
  it('the time to go while within what they took', () => {
    expect(eta({ phase: 'compiling', inPhaseMs: 30_000, elapsedMs: 280_000 }, usual)).toEqual({
      kind: 'ready-in',
      ms: 85_000
    })
  })

  it('once past their whole startup: by how much, never an ETA in the past', () => {
    expect(eta({ inPhaseMs: 0, elapsedMs: 400_000 }, usual)).toEqual({
      kind: 'slower',
      overMs: 40_000,
      usualMs: 360_000
    })
    expect(eta({ phase: 'compiling', inPhaseMs: 10_000, phaseLeftMs: 5_000, elapsedMs: 361_000 }, usual)).toEqual({
      kind: 'slower',
      overMs: 1_000,
      usualMs: 360_000
    })
  })

  it('a phase without a count past its usual length: by how much that phase is over', () => {
    expect(eta({ phase: 'compiling', inPhaseMs: 90_000, elapsedMs: 340_000 }, usual)).toEqual({
      kind: 'slower',
      overMs: 15_000,
      usualMs: 75_000,
      phase: 'compiling'
    })
    // a phase with a count goes by its count
    expect(eta({ phase: 'compiling', inPhaseMs: 90_000, phaseLeftMs: 2_000, elapsedMs: 340_000 }, usual)).toEqual({
      kind: 'ready-in',
      ms: 42_000
    })
  })
})
