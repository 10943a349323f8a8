import { commandSafe, probeLine, summaryMarkdown } from '../../../src/report/wait-report.js'
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
