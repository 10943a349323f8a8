import { clip, describeBody, hasControlChars, printable } from '../../../src/runtime/text.js'
import { parseJson } from '../../../src/http/probe.js'

describe('describeBody', () => {
  it.each([
    ['{"error":{"message":"Loading model"}}', 'application/json', 'Loading model'],
    ['{"detail":"Not Found"}', 'application/json', 'Not Found'],
    ['{"error":"unhealthy","error_type":"healthcheck"}', 'application/json', 'unhealthy'],
    ['<html><head><title>502 Bad Gateway</title></head><body>…</body></html>', 'text/html', '502 Bad Gateway'],
    ['<html><body>no title</body></html>', 'text/html', '(an HTML page)'],
    ['Ollama is running', 'text/plain', 'Ollama is running'],
    ['line one\nline two', 'text/plain', 'line one'],
    ['', '', '']
  ])('%p says %p', (body, type, said) => expect(describeBody(body, type, parseJson(body))).toBe(said))

  it('clips long text and strips control characters', () => {
    const said = describeBody(`a\u0007${'x'.repeat(500)}`, 'text/plain', undefined)
    expect(said.length).toBeLessThanOrEqual(121)
    expect(said).not.toContain('\u0007')
  })
})

describe('clip', () => {
  it('keeps one line of at most max characters, control characters as spaces', () => {
    expect(clip('a\r\n\tb', 10)).toBe('a b')
    expect(clip('x'.repeat(300), 200)).toBe(`${'x'.repeat(200)}…`)
    // clipping what is clipped changes nothing: an id cut for the timeline is worded as it was cut
    expect(clip(clip(`y\u0007${'z'.repeat(300)}`, 200), 200)).toBe(clip(`y\u0007${'z'.repeat(300)}`, 200))
  })
})

describe('printable and hasControlChars', () => {
  it('escapes control characters and caps the length', () => {
    expect(printable('a\nb\u0085')).toBe('a\\nb\\u0085')
    expect(printable('x'.repeat(100), 10)).toBe(`${'x'.repeat(10)}…`)
  })
  it('finds a control character other than those allowed', () => {
    expect(hasControlChars('a\tb')).toBe(false)
    expect(hasControlChars('a\nb')).toBe(true)
    expect(hasControlChars('a\nb', '\t\n')).toBe(false)
    expect(hasControlChars('a\u007fb')).toBe(true)
  })
})
