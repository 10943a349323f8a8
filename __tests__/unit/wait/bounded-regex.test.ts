import { testWithin } from '../../../src/wait/bounded-regex.js'

describe('testWithin', () => {
  it('answers like RegExp.test when the match is quick', () => {
    expect(testWithin(/"ready":\s*true/, '{"ready": true}', 1_000)).toBe(true)
    expect(testWithin(/KIMI/i, 'serving kimi-k2', 1_000)).toBe(true)
    expect(testWithin(/^llama/, 'serving kimi-k2', 1_000)).toBe(false)
  })

  it('gives up on a match that backtracks exponentially, and stays usable after', () => {
    const started = performance.now()
    expect(testWithin(/^(a+)+$/, `${'a'.repeat(40)}b`, 200)).toBeUndefined()
    // 2^40 steps would take hours: it was stopped, not finished
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(testWithin(/^(a+)+$/, 'aaaa', 1_000)).toBe(true)
  })
})
