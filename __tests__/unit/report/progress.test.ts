import { probeLine } from '../../../src/report/progress.js'

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
