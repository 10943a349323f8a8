import type { ProbeResult } from '../../../src/http/probe.js'
import type { Clock } from '../../../src/runtime/clock.js'
import { waitForModel } from '../../../src/wait/loop.js'
import { failureMessage } from '../../../src/report/failure.js'
import { outputs } from '../../../src/report/outputs.js'

/** A loose model name that fits a LoRA adapter and its base model ends the wait at the first probe. */
const body = JSON.stringify({
  object: 'list',
  data: [
    { id: 'llama-3.1-8b-instruct-lora-sql', object: 'model', parent: 'llama-3.1-8b-instruct' },
    { id: 'llama-3.1-8b-instruct', object: 'model' }
  ]
})
const answer: ProbeResult = {
  kind: 'http',
  status: 200,
  body,
  json: JSON.parse(body),
  contentType: 'application/json',
  truncated: false
}

it('stops with reason=ambiguous-model within one probe, naming the candidates and asking for the exact id', async () => {
  let t = 0
  const sleeps: number[] = []
  const clock: Clock = {
    now: () => t,
    wallMs: () => Date.UTC(2026, 0, 1) + t,
    sleep: async (ms) => void (sleeps.push(ms), (t += ms))
  }
  let probes = 0
  const expect_ = { status: [[200, 299]] as [number, number][], model: 'llama-3.1-8b' }
  const outcome = await waitForModel(
    {
      expect: expect_,
      intervalMs: 5_000,
      timeoutMs: 600_000,
      requestTimeoutMs: 10_000,
      progressIntervalMs: 30_000,
      wrongModelAfterMs: 0,
      probeGapMs: 5_000,
      generationFailedAfter: { ms: 60_000, attempts: 10 }
    },
    { probe: async () => (probes++, answer), clock }
  )
  expect(probes).toBe(1)
  expect(sleeps).toEqual([])
  expect(outcome).toMatchObject({ ready: false, reason: 'ambiguous-model', attempts: 1 })
  expect(outputs({ ...outcome, results: [], url: new URL('http://localhost:8000/v1/models') })).toMatchObject({
    ready: 'false',
    reason: 'ambiguous-model',
    'model-id': ''
  })
  expect(
    failureMessage(outcome, {
      url: new URL('http://localhost:8000/v1/models'),
      expect: expect_,
      timeoutMs: 600_000
    })
  ).toBe(
    'Stopped after 0ms and 1 probe: "llama-3.1-8b" fits 2 listed models and is none of them exactly: ' +
      '"llama-3.1-8b-instruct-lora-sql", "llama-3.1-8b-instruct". Give the exact id as "model" (an id ending with ' +
      '/<model> or equal to it ignoring case also counts as exact).'
  )
})
