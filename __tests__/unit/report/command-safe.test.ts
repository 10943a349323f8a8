import { commandSafe } from '../../../src/report/command-safe.js'

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
