import { systemClock } from '../../../src/runtime/clock.js'

describe('systemClock.sleep', () => {
  it('wakes at once when its signal aborts', async () => {
    const stop = new AbortController()
    const started = performance.now()
    setTimeout(() => stop.abort(), 20)
    await systemClock.sleep(60_000, stop.signal)
    expect(performance.now() - started).toBeLessThan(10_000)
  })
})
