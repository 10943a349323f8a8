import { asCancelled, cancelledBeforeWait, concludedSince } from '../../../src/wait/cancelled.js'
import { conclude } from '../../../src/wait/conclusion.js'
import type { GateOutcome, TargetOutcome } from '../../../src/facts/outcome.js'
import type { InputName } from '../../../src/inputs/input-names.js'
import { parseSettings } from '../../../src/inputs/parse-settings.js'
import { Halter } from '../../../src/runtime/halter.js'

/** A cancel is a cancel: whatever the wait found, a cancel before the outputs ends the run cancelled. */
const url = new URL('http://127.0.0.1:8000/v1/models')
const settings = (inputs: Partial<Record<InputName, string>> = {}) =>
  parseSettings((name) => ({ url: url.href, model: 'kimi', ...inputs })[name] ?? '')

const readyAnswer = { state: 'ready' as const, answer: { state: 'ready' as const, status: 200, models: ['kimi'] } }
const target = (extra: Partial<TargetOutcome> = {}): TargetOutcome => ({
  url,
  ready: true,
  reason: 'ready',
  elapsedMs: 2_000,
  attempts: 3,
  models: ['kimi'],
  timeline: [],
  last: { ...readyAnswer, modelId: 'kimi' },
  ...extra
})
const gateOutcome = (results: TargetOutcome[]): GateOutcome => ({ ...results[0], results })

describe('asCancelled', () => {
  it('a ready server whose smoke test was cut short: not ready, cancelled, from the moment of the cancel', () => {
    const stopped = target({ smoke: { requests: 3, measurements: [], problem: { kind: 'stopped' } } })
    const o = asCancelled(gateOutcome([stopped]), 'SIGHUP', 'smoke-test', 2_500)
    expect(o).toMatchObject({
      ready: false,
      reason: 'cancelled',
      elapsedMs: 2_500,
      halt: { reason: 'cancelled', detail: 'the job was cancelled (SIGHUP) during the smoke test' }
    })
    expect(o.results).toEqual([expect.objectContaining({ ready: false, reason: 'cancelled', elapsedMs: 2_500 })])
    // and so neither smoke-failed (fail-on-error) nor ready with a warning (true)
    for (const smoke of ['fail-on-error', 'true']) {
      const c = conclude(o, settings({ 'smoke-test': smoke }))
      expect(c).toMatchObject({ ready: false, exitCode: 1 })
      expect(c.verdicts.map((v) => v.kind)).toEqual(['fail'])
      expect(c.outputs).toMatchObject({ ready: 'false', reason: 'cancelled' })
      // it had been ready: the message does not say otherwise
      expect(c.verdicts[0].message).toBe(
        'Stopped after 2.5s and 3 probes: the job was cancelled (SIGHUP) during the smoke test.\n' +
          'Last answer: HTTP 200, serving [kimi].'
      )
    }
  })

  it('leaves an outcome already cancelled as it is (the watch worded it), and endpoints already cancelled', () => {
    const halt = { reason: 'cancelled' as const, detail: 'the job was cancelled (SIGTERM)' }
    const cancelled = target({ ready: false, reason: 'cancelled', halt, elapsedMs: 900 })
    const whole = gateOutcome([cancelled])
    expect(asCancelled(whole, 'SIGINT', 'after-wait', 5_000)).toBe(whole)
    const fleet = gateOutcome([target(), cancelled])
    expect(asCancelled(fleet, 'SIGINT', 'after-wait', 5_000).results[1]).toBe(cancelled)
  })
})

describe('cancelledBeforeWait', () => {
  it('every endpoint cancelled, none probed', () => {
    const o = cancelledBeforeWait(settings({ url: `${url.href}\nhttp://127.0.0.1:8001/v1/models` }), 'SIGTERM', 400)
    expect(o).toMatchObject({ ready: false, reason: 'cancelled', attempts: 0, elapsedMs: 400 })
    expect(o.results).toHaveLength(2)
    expect(o.halt?.detail).toBe('the job was cancelled (SIGTERM) before the wait began (nothing was started)')
  })
})

describe('concludedSince', () => {
  const timedOut = gateOutcome([target({ ready: false, reason: 'timeout', last: undefined })])
  it('a cancel while the diagnostics ran: concluded again, cancelled, without diagnostics', () => {
    const s = settings({ diagnostics: 'nvidia-smi' })
    const first = conclude(timedOut, s)
    expect(first.diagnostics).toEqual(['nvidia-smi'])
    const cancel = new Halter<NodeJS.Signals>()
    expect(concludedSince(first, s, cancel, 'diagnostics', 9_000)).toBe(first)
    cancel.halt('SIGTERM')
    const next = concludedSince(first, s, cancel, 'diagnostics', 9_000)
    expect(next.outputs).toMatchObject({ ready: 'false', reason: 'cancelled', 'elapsed-seconds': '9.0' })
    expect(next.diagnostics).toEqual([])
    expect(next.verdicts[0].message).toContain('the job was cancelled (SIGTERM) while the diagnostics ran')
  })
})
