import { findWithin, testWithin } from '../../../src/runtime/bounded-regex.js'

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

describe('findWithin', () => {
  it('finds the first matching text, or -1', () => {
    expect(findWithin(/CUDA error/, ['loading', 'CUDA error: oom', 'CUDA error again'], 1_000)).toBe(1)
    expect(findWithin(/CUDA error/, ['loading'], 1_000)).toBe(-1)
    expect(findWithin(/x/, [], 1_000)).toBe(-1)
  })
  it('says on which text a backtracking pattern ran out of time', () => {
    const line = 'INFO worker_process_start_loading_the_weights_of_the_model_from_the_shared_cache_dir now'
    const started = performance.now()
    expect(findWithin(/(\w+\s?)+: CUDA error/, ['ok', line, 'CUDA error'], 100)).toEqual({ outOfTimeAt: 1 })
    expect(performance.now() - started).toBeLessThan(5_000)
  })
})
