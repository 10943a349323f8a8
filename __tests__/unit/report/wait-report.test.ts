import { mdText, probeLine, summaryMarkdown } from '../../../src/report/wait-report.js'
import { commandSafe } from '../../../src/report/command-safe.js'
import type { GateOutcome } from '../../../src/wait/outcome.js'

describe('commandSafe', () => {
  it('defuses workflow commands at the start of any line and ##[ anywhere', () => {
    const text = 'HTTP 200, serving [x\n::set-output name=ready::true\r  ::stop-commands::t ##[add-mask]y]'
    expect(commandSafe(text)).toBe(
      'HTTP 200, serving [x\n: :set-output name=ready::true\r  : :stop-commands::t ## [add-mask]y]'
    )
  })
  it('leaves ordinary lines alone', () =>
    expect(commandSafe('12.0s: HTTP 200, serving [a::b]')).toBe('12.0s: HTTP 200, serving [a::b]'))
})

describe('probeLine', () => {
  it('quotes the body, so that its line breaks stay escaped', () => {
    const line = probeLine({
      kind: 'http',
      status: 503,
      contentType: 'text/plain',
      body: 'a\n::error::b',
      json: undefined,
      truncated: false,
      retryAfterMs: 2_000
    })
    expect(line).toBe('probe: HTTP 503, 12 bytes, content-type text/plain, Retry-After 2.0s: "a\\n::error::b"')
  })
  it('names the error and the status it came after', () => {
    expect(
      probeLine({ kind: 'error', code: 'TOO_MANY_REDIRECTS', message: 'more than 5 redirects', status: 302 })
    ).toBe('probe: TOO_MANY_REDIRECTS (more than 5 redirects) after HTTP 302')
  })
})

describe('summaryMarkdown', () => {
  it('fences the failure message so that backticks in a quoted body cannot close the fence', () => {
    const url = new URL('http://127.0.0.1:8000/')
    const one = {
      url,
      ready: false,
      reason: 'timeout',
      elapsedMs: 2_000,
      attempts: 2,
      models: [],
      timeline: [],
      last: {
        state: 'waiting',
        answer: { state: 'waiting', status: 503 },
        summary: 'HTTP 503',
        detail: '',
        status: 503,
        excerpt: 'x\n```\n# injected heading'
      }
    } satisfies Partial<GateOutcome>
    const outcome: GateOutcome = { ...one, reason: 'timeout', results: [{ ...one, reason: 'timeout' }] }
    const md = summaryMarkdown(outcome, { url, expect: { status: [[200, 299]] }, timeoutMs: 2_000 })
    expect(md).toMatch(
      /\n````\nTimed out after[\s\S]*# injected heading\nThe server never answered over HTTP.\n````\n$/
    )
  })
})

describe('commandSafe against the runner’s own trimming', () => {
  // .NET's Char.IsWhiteSpace (what TrimStart strips) beyond JavaScript's \s, and invisible format characters
  it.each([
    '\u0085',
    '\u00a0',
    '\u1680',
    '\u2000',
    '\u200a',
    '\u2028',
    '\u2029',
    '\u202f',
    '\u205f',
    '\u3000',
    '\u200b',
    '\u200c',
    '\u200d',
    '\u2060',
    '\ufeff',
    '\u00ad',
    ' \u0085\u200b'
  ])('defuses :: after %j', (lead) => {
    const safe = commandSafe(`x\n${lead}::stop-commands::pwned`)
    expect(safe.split('\n')[1]).toBe(`${lead}: :stop-commands::pwned`)
  })
})

describe('mdText', () => {
  it('shows markup from a server as text: no HTML, code span, emphasis, link, image or autolink', () => {
    expect(mdText('a`b <img src=x> [l](https://e.example) ![i](x) **b** _i_ ~s~ www.e.example & \\')).toBe(
      'a\\`b &lt;img src=x&gt; \\[l\\](https:\\/\\/e.example) !\\[i\\](x) \\*\\*b\\*\\* \\_i\\_ \\~s\\~ www\\.e.example &amp; \\\\'
    )
  })
  it('leaves ordinary words alone', () =>
    expect(mdText('HTTP 200, serving kimi-k2.5')).toBe('HTTP 200, serving kimi-k2.5'))
})

describe('summaryMarkdown of hostile content', () => {
  const url = new URL('http://127.0.0.1:8000/v1/models')
  const base = {
    url,
    ready: false,
    reason: 'timeout',
    elapsedMs: 2_000,
    attempts: 2,
    timeline: [],
    last: { state: 'waiting', answer: { state: 'waiting', status: 200 }, summary: 'HTTP 200', detail: '', status: 200 }
  } satisfies Partial<GateOutcome>
  const ctx = { url, expect: { status: [[200, 299]] as const, model: 'kimi' }, timeoutMs: 2_000 }

  it('stays under 1 MiB with 60,000 models and a 1000-line log tail of long lines, and says what it left out', () => {
    const models = Array.from({ length: 60_000 }, (_, i) => `model-${i}`)
    const logTail = Array.from({ length: 1000 }, (_, i) => ({ number: i + 1, text: 'y'.repeat(2000) }))
    const one = { ...base, models, server: { logFile: '/tmp/server.log', logTail } }
    const outcome: GateOutcome = { ...one, reason: 'timeout', results: [{ ...one, reason: 'timeout' }] }
    const md = summaryMarkdown(outcome, ctx)
    expect(Buffer.byteLength(md)).toBeLessThan(128 * 1024)
    expect(md).toContain('`model-49`, and 59950 more')
    expect(md).toContain('1000: yyy')
  })

  it('says how many timeline changes were left out', () => {
    const timeline = [
      { elapsedMs: 0, summary: 'first' },
      { elapsedMs: 9_000, summary: 'last', dropped: 59 }
    ]
    const one = { ...base, models: [], timeline }
    const outcome: GateOutcome = { ...one, reason: 'timeout', results: [{ ...one, reason: 'timeout' }] }
    expect(summaryMarkdown(outcome, ctx)).toMatch(
      /\| first \|\n\| … \| \*59 changes left out\* \|\n\| 9\.0s \| last \|/
    )
  })
})

describe('the job summary of a smoke test', () => {
  const url = new URL('http://127.0.0.1:30000/v1/models')
  const ctx = { url, expect: { status: [[200, 299]] as const }, timeoutMs: 60_000 }
  const base = { url, ready: true, reason: 'ready' as const, elapsedMs: 3_000, attempts: 2, models: [], timeline: [] }

  it('gives the medians, how the tokens were counted, the usual rate and the regression warning', () => {
    const smoke = {
      request: 'POST /v1/completions',
      requests: 3,
      measurements: [1, 2, 3].map(() => ({ ttftMs: 181, tokens: 64, source: 'usage.completion_tokens' as const })),
      ttftMs: 181.2,
      decodeTokensPerSecond: 62.94,
      source: 'usage.completion_tokens' as const
    }
    const outcome: GateOutcome = {
      ...base,
      smoke,
      results: [{ ...base, smoke }],
      profile: {
        phases: [],
        usualDecodeTokensPerSecond: 88.8,
        throughputRegression: 'Decode rate 62.9 tokens/s, 29.2% below the median of 88.8 tokens/s.'
      }
    }
    const md = summaryMarkdown(outcome, ctx)
    expect(md).toContain('| Time to first token (smoke test) | 181 ms (median of 3 requests) |')
    expect(md).toContain(
      "| Decode rate (smoke test) | 62.9 tokens/s (median of 3; tokens counted from the engine's usage.completion\\_tokens; usual 88.8 tokens/s) |"
    )
    expect(md).toContain('> ⚠️ Decode rate 62.9 tokens/s, 29.2% below the median of 88.8 tokens/s.')
  })

  it("says why it could not measure, the server's words kept literal", () => {
    const smoke = {
      request: 'POST /generate_stream',
      requests: 3,
      measurements: [],
      problem: { kind: 'stream-error' as const, said: 'CUDA out of memory <img src=x> **now**' }
    }
    const md = summaryMarkdown({ ...base, smoke, results: [{ ...base, smoke }] }, ctx)
    expect(md).toContain(
      "| Smoke test | ⚠️ The smoke test could not measure throughput: the engine's stream said: CUDA out of memory &lt;img src=x&gt; \\*\\*now\\*\\*. |"
    )
  })
})
