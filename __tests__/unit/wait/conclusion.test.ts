import { conclude, type Conclusion } from '../../../src/wait/conclusion.js'
import type { GateOutcome } from '../../../src/facts/outcome.js'
import type { Reason } from '../../../src/facts/answer.js'
import type { InputName } from '../../../src/inputs/input-names.js'
import { parseSettings } from '../../../src/inputs/parse-settings.js'

/** What every front end does once the wait is over, decided from the outcome and the settings alone. */
const url = new URL('http://127.0.0.1:8000/v1/models')
const settings = (inputs: Partial<Record<InputName, string>> = {}) =>
  parseSettings((name) => ({ url: url.href, ...inputs })[name] ?? '')

function outcome(reason: Reason, extra: Partial<GateOutcome> = {}): GateOutcome {
  const one = { url, ready: reason === 'ready', reason, elapsedMs: 3_000, attempts: 2, models: [], timeline: [] }
  return { ...one, results: [one], ...extra }
}

const tail = { logFile: '/tmp/model-server.log', logTail: [{ number: 7, text: 'CUDA out of memory' }] }
const regression = { phases: [], regression: 'Startup took 90.0s, 50.0% slower than usual.' }

/** The decisions, without the words that carry them. */
const decisions = (c: Conclusion) => ({
  verdicts: c.verdicts.map((v) => `${v.kind}: ${v.title}`),
  exitCode: c.exitCode,
  diagnostics: c.diagnostics.length,
  logTail: c.logTail !== undefined
})
const notReady = (reason: Reason): string => `fail: Model server not ready (${reason})`
const slower = 'fail: Model server startup slower than usual'
/** The one verdict of a kind, its message. */
const said = (c: Conclusion, kind: 'fail' | 'warn'): string | undefined =>
  c.verdicts.find((v) => v.kind === kind)?.message

describe('conclude', () => {
  it.each<[string, GateOutcome, Partial<Record<InputName, string>>, ReturnType<typeof decisions>]>([
    [
      'ready: nothing to fail, no tail, no diagnostics',
      outcome('ready', { server: tail }),
      { diagnostics: 'nvidia-smi' },
      { verdicts: [], exitCode: 0, diagnostics: 0, logTail: false }
    ],
    [
      'a timeout fails, with the tail and the diagnostics',
      outcome('timeout', { server: tail }),
      { diagnostics: 'nvidia-smi\ndf -h' },
      { verdicts: [notReady('timeout')], exitCode: 1, diagnostics: 2, logTail: true }
    ],
    [
      'a server that exited fails, with the diagnostics',
      outcome('server-exited'),
      { diagnostics: 'nvidia-smi' },
      { verdicts: [notReady('server-exited')], exitCode: 1, diagnostics: 1, logTail: false }
    ],
    [
      'a cancelled wait fails at once, without diagnostics',
      outcome('cancelled', { server: tail }),
      { diagnostics: 'nvidia-smi' },
      { verdicts: [notReady('cancelled')], exitCode: 1, diagnostics: 0, logTail: true }
    ],
    [
      'a regression only warns (in the gate) without fail-on-regression',
      outcome('ready', { profile: regression }),
      {},
      { verdicts: [], exitCode: 0, diagnostics: 0, logTail: false }
    ],
    [
      'a regression fails a ready wait with fail-on-regression',
      outcome('ready', { profile: regression }),
      { 'fail-on-regression': 'true' },
      { verdicts: [slower], exitCode: 1, diagnostics: 0, logTail: false }
    ],
    [
      'a timeout and a regression both fail, the timeout first',
      outcome('timeout', { profile: regression }),
      { 'fail-on-regression': 'true' },
      { verdicts: [notReady('timeout'), slower], exitCode: 1, diagnostics: 0, logTail: false }
    ]
  ])('%s', (_case, o, inputs, expected) => {
    expect(decisions(conclude(o, settings(inputs)))).toEqual(expected)
  })

  it('redacts every output, and gives the tail as numbered lines under a title', () => {
    const key = 'sk-live-1234567890'
    const o = outcome('timeout', {
      server: tail,
      last: {
        state: 'waiting',
        answer: { state: 'waiting', status: 200 },
        status: 200,
        modelId: `model-${key}`
      }
    })
    const c = conclude(o, settings({ 'api-key': key }))
    expect(c.outputs['model-id']).toBe('model-***')
    expect(JSON.stringify(c.outputs)).not.toContain(key)
    expect(c.outputs).toMatchObject({ ready: 'false', reason: 'timeout', attempts: '2' })
    expect(c.logTail?.lines).toEqual(['7: CUDA out of memory'])
    expect(c.logTail?.title).toContain('/tmp/model-server.log')
    expect(c.context).toMatchObject({ url, timeoutMs: 15 * 60_000 })
  })

  it('carries the failure message and the final line the report words', () => {
    const c = conclude(outcome('timeout'), settings({ timeout: '3s' }))
    expect(said(c, 'fail')).toMatch(/^Timed out after 3\.0s/)
    expect(c.finalLine).toMatch(/^Not ready after 3\.0s \(2 probes\): timeout$/)
  })
})

describe('conclude: the smoke test', () => {
  const measured = {
    request: 'POST /v1/completions',
    requests: 3,
    measurements: [
      { ttftMs: 180.4, tokens: 64, source: 'usage.completion_tokens' as const, decodeTokensPerSecond: 88.8 }
    ],
    ttftMs: 180.4,
    decodeTokensPerSecond: 88.84,
    source: 'usage.completion_tokens' as const
  }
  const failed = {
    request: 'POST /v1/completions',
    requests: 3,
    measurements: [],
    problem: { kind: 'http' as const, status: 500, said: 'EngineCore encountered an issue.' }
  }
  const smoked = (smoke: GateOutcome['smoke']): GateOutcome => {
    const one = {
      url,
      ready: true,
      reason: 'ready' as const,
      elapsedMs: 3_000,
      attempts: 2,
      models: [],
      timeline: [],
      smoke
    }
    return { ...one, results: [one] }
  }

  it('a measured smoke test: ready, its medians in the outputs and in results', () => {
    const c = conclude(smoked(measured), settings({ 'smoke-test': 'true' }))
    expect(c).toMatchObject({ ready: true, exitCode: 0, verdicts: [] })
    expect(c.outputs).toMatchObject({ 'ttft-ms': '180', 'decode-tokens-per-second': '88.8' })
    expect(JSON.parse(c.outputs.results)[0]).toMatchObject({ 'ttft-ms': 180, 'decode-tokens-per-second': 88.8 })
  })

  it('one that could not run warns and stays ready with smoke-test: true', () => {
    const c = conclude(smoked(failed), settings({ 'smoke-test': 'true' }))
    expect(c).toMatchObject({ ready: true, exitCode: 0 })
    expect(c.outputs).toMatchObject({ ready: 'true', reason: 'ready', 'ttft-ms': '', 'decode-tokens-per-second': '' })
    expect(c.verdicts).toEqual([
      {
        kind: 'warn',
        message:
          'The smoke test could not measure throughput: POST /v1/completions answered HTTP 500: EngineCore encountered an issue.',
        title: 'Smoke test did not measure throughput'
      }
    ])
  })

  it('fails with smoke-test: fail-on-error: not ready, reason smoke-failed, in the outputs and the summary outcome', () => {
    const c = conclude(smoked(failed), settings({ 'smoke-test': 'fail-on-error' }))
    expect(c).toMatchObject({ ready: false, exitCode: 1 })
    expect(decisions(c).verdicts).toEqual([notReady('smoke-failed')])
    expect(said(c, 'fail')).toMatch(/^The smoke test could not measure throughput: POST \/v1\/completions answered/)
    expect(c.outputs).toMatchObject({ ready: 'false', reason: 'smoke-failed' })
    expect(JSON.parse(c.outputs.results)[0]).toMatchObject({ ready: false, reason: 'smoke-failed', 'ttft-ms': null })
    expect(c.outcome).toMatchObject({ ready: false, reason: 'smoke-failed' })
    // the same smoke test measured: nothing to fail
    expect(conclude(smoked(measured), settings({ 'smoke-test': 'fail-on-error' })).exitCode).toBe(0)
  })

  it('an engine without text generation is named', () => {
    const triton = {
      requests: 3,
      measurements: [],
      problem: {
        kind: 'no-route' as const,
        why: 'no-text-generation' as const,
        engine: 'triton' as const,
        path: '/v2/models/m/ready'
      }
    }
    expect(said(conclude(smoked(triton), settings({ 'smoke-test': 'true' })), 'warn')).toBe(
      'The smoke test could not measure throughput: Triton serves no streamed text generation this smoke test ' +
        'knows (it runs on vLLM, SGLang, TGI, llama.cpp, Ollama and OpenAI-compatible servers).'
    )
  })

  it('a slower decode rate fails the run only with fail-on-regression, the wait still ready', () => {
    const slower = {
      ...smoked(measured),
      profile: { phases: [], throughputRegression: 'Decode rate 62.9 tokens/s, 29.2% below the median.' }
    }
    expect(conclude(slower, settings({ 'smoke-test': 'true' }))).toMatchObject({ exitCode: 0, verdicts: [] })
    expect(conclude(slower, settings({ 'smoke-test': 'true', 'fail-on-regression': 'true' }))).toMatchObject({
      ready: true,
      exitCode: 1,
      verdicts: [
        {
          kind: 'fail',
          message: 'Decode rate 62.9 tokens/s, 29.2% below the median.',
          title: 'Model server decodes slower than usual'
        }
      ]
    })
  })
})
