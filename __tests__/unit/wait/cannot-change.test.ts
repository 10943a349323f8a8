import { deadEngineStreak, wrongModelWatch } from '../../../src/wait/cannot-change.js'
import type { Assessment } from '../../../src/facts/answer.js'

const listing = (models: string[], model = 'kimi'): Assessment => ({
  state: 'waiting',
  status: 200,
  models,
  answer: { state: 'waiting', status: 200, models, missing: { what: 'model', model } }
})

describe('wrong-model: a one-model engine listing another model, unchanged for a while', () => {
  it('ends once the same list has lasted that long since its first such answer, naming the nearest', () => {
    const watch = wrongModelWatch(30_000, () => true)
    const list = ['Qwen/Qwen3-8B', 'kimi-k2.5']
    expect(watch.see(listing(list), 1_000).state).toBe('waiting')
    expect(watch.see(listing(list), 30_999).state).toBe('waiting')
    const ended = watch.see(listing(list), 31_000)
    expect(ended).toMatchObject({ state: 'fatal', fatalReason: 'wrong-model' })
    expect(ended.answer.wrongModel).toEqual({ model: 'kimi', serving: list, nearest: 'kimi-k2.5', forMs: 30_000 })
  })

  it('starts over when the list changes, or another answer comes between', () => {
    const watch = wrongModelWatch(10_000, () => true)
    watch.see(listing(['a']), 0)
    expect(watch.see(listing(['a', 'b']), 9_000).state).toBe('waiting')
    expect(watch.see(listing(['a', 'b']), 18_999).state).toBe('waiting')
    watch.see({ state: 'down', answer: { state: 'down', error: 'ECONNREFUSED' } }, 19_000)
    expect(watch.see(listing(['a', 'b']), 20_000).state).toBe('waiting')
    expect(watch.see(listing(['a', 'b']), 30_000).state).toBe('fatal')
  })

  it('never for 0, an engine that loads other models, an empty list, or a partial match refused', () => {
    const never = [wrongModelWatch(0, () => true), wrongModelWatch(1, () => false)]
    for (const watch of never) {
      watch.see(listing(['a']), 0)
      expect(watch.see(listing(['a']), 1e9).state).toBe('waiting')
    }
    const watch = wrongModelWatch(1, () => true)
    watch.see(listing([]), 0)
    expect(watch.see(listing([]), 1e9).state).toBe('waiting')
    const refused: Assessment = {
      ...listing(['kimi-k2.5']),
      answer: { state: 'waiting', missing: { what: 'model', model: 'kimi', partial: 'kimi-k2.5' } }
    }
    watch.see(refused, 0)
    expect(watch.see(refused, 1e9).state).toBe('waiting')
  })
})

describe('engine-dead from generations: three dead-engine errors in a row', () => {
  it('the third in a row ends it; any other answer between starts over', () => {
    const streak = deadEngineStreak()
    const failed = listing(['m'])
    expect(streak.see(failed, true, 'POST /v1/completions').state).toBe('waiting')
    expect(streak.see(failed, true, 'POST /v1/completions').state).toBe('waiting')
    expect(streak.see(failed, false, 'POST /v1/completions').state).toBe('waiting')
    streak.see(failed, true, 'POST /v1/completions')
    streak.see(failed, true, 'POST /v1/completions')
    expect(streak.see(failed, true, 'POST /v1/completions')).toMatchObject({
      state: 'fatal',
      fatalReason: 'engine-dead',
      answer: { engineDead: { request: 'POST /v1/completions', by: 'generations', count: 3 } }
    })
  })
})
