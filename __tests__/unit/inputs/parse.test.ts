import { parseBoolean, parseDuration, parseHeaders, parseRegex } from '../../../src/inputs/parse.js'
import { statusAccepted } from '../../../src/inputs/settings.js'

describe('parseDuration', () => {
  it.each([
    ['250ms', 250],
    ['15s', 15_000],
    ['2m', 120_000],
    ['1h', 3_600_000],
    ['1m30s', 90_000],
    ['0.5', 500],
    ['15', 15_000],
    [' 5s ', 5_000],
    ['1.5s', 1_500]
  ])('%s is %d ms', (text, ms) => expect(parseDuration(text)).toBe(ms))

  it.each(['fast', '-1', '', '5 s', '1d', 's', '1e3', '5sec', '1m30', '9999h'])(
    'rejects %p and names the accepted form',
    (text) => {
      expect(() => parseDuration(text)).toThrow(/250ms|168h/)
    }
  )
})

describe('statusAccepted', () => {
  it('accepts a status within one of the ranges', () => {
    const set = [
      [200, 200],
      [204, 204],
      [300, 399]
    ] as const
    expect([200, 204, 300, 350, 399].every((s) => statusAccepted(set, s))).toBe(true)
    expect([201, 299, 400].some((s) => statusAccepted(set, s))).toBe(false)
  })
})

describe('parseHeaders', () => {
  it('reads one header per line, skipping blank lines, names lower-cased', () => {
    expect(parseHeaders('X-Token: abc\n\nAccept: text/plain; q=1\r\nX-Empty:')).toEqual({
      'x-token': 'abc',
      accept: 'text/plain; q=1',
      'x-empty': ''
    })
  })
  it('keeps colons inside the value', () =>
    expect(parseHeaders('X-Url: http://a:1')).toEqual({ 'x-url': 'http://a:1' }))
  it('keeps a header named __proto__ as a header', () =>
    expect(Object.entries(parseHeaders('__proto__: x'))).toEqual([['__proto__', 'x']]))
  it.each(['no colon here', ': value', 'Bad Name: x', 'X-A: ok\nbroken'])('rejects %p with the line number', (text) => {
    expect(() => parseHeaders(text)).toThrow(/line \d/)
  })
  it('rejects control characters in a value', () =>
    expect(() => parseHeaders('X-A: a\u0000b')).toThrow(/control character/))
})

describe('parseRegex', () => {
  it('takes a bare source', () => expect(parseRegex('ready|up').test('is up')).toBe(true))
  it('takes /source/flags and drops the stateful g and y flags', () => {
    const re = parseRegex('/KIMI/gi')
    expect(re.flags).toBe('i')
    expect([re.test('kimi'), re.test('kimi')]).toEqual([true, true])
  })
  it('rejects an invalid expression', () =>
    expect(() => parseRegex('(')).toThrow(/not a valid JavaScript regular expression/))
})

describe('parseBoolean', () => {
  it.each([
    ['true', true],
    ['False', false],
    ['YES', true],
    ['off', false]
  ])('%s', (text, value) => expect(parseBoolean(text)).toBe(value))
  it('rejects anything else', () => expect(() => parseBoolean('maybe')).toThrow(/true or false/))
})
