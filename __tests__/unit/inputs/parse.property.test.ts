import fc from 'fast-check'
import { MAX_DURATION_MS, parseDuration, parseHeaders, parseRetryAfter, parseUrl } from '../../../src/inputs/parse.js'
import { redact } from '../../../src/inputs/secrets.js'
import { INPUT_DEFAULTS } from '../../../src/inputs/input-names.js'
import { parseSettings } from '../../../src/inputs/parse-settings.js'

/** Properties of the input parsers, over many generated inputs: right on valid forms, safe on anything. */
const runs = { numRuns: 500 }
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/
/** Whatever a parser throws is an Error whose message names the accepted form and carries no raw control character. */
function rejectsClearly(parse: () => unknown, form: RegExp): boolean {
  try {
    parse()
    return true
  } catch (e) {
    return e instanceof Error && form.test(e.message) && !CONTROL.test(e.message)
  }
}

describe('parseDuration', () => {
  const UNITS = [
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1_000],
    ['ms', 1]
  ] as const
  /** Some of the units, each once, in the order h, m, s, ms, with amounts. */
  const ordered = fc
    .tuple(...UNITS.map(() => fc.option(fc.integer({ min: 0, max: 500 }), { nil: undefined })))
    .filter((amounts) => amounts.some((n) => n !== undefined))
    .map((amounts) =>
      UNITS.flatMap(([unit, scale], i) => (amounts[i] === undefined ? [] : [[amounts[i], unit, scale] as const]))
    )

  it('adds up the unit parts, each unit once, largest first', () => {
    fc.assert(
      fc.property(ordered, (parts) => {
        const text = parts.map(([n, unit]) => `${n}${unit}`).join('')
        const ms = parts.reduce((sum, [n, , scale]) => sum + n * scale, 0)
        if (ms > MAX_DURATION_MS) return rejectsClearly(() => parseDuration(text), /168h/)
        return parseDuration(text) === ms
      }),
      runs
    )
  })

  it('rejects a unit given twice (1m1m1m) or out of order (30s1m), naming the accepted form', () => {
    const part = fc.tuple(fc.integer({ min: 0, max: 500 }), fc.constantFrom(...UNITS.map(([unit]) => unit)))
    fc.assert(
      fc.property(fc.array(part, { minLength: 2, maxLength: 5 }), (parts) => {
        const rank = parts.map(([, unit]) => UNITS.findIndex(([u]) => u === unit))
        fc.pre(rank.some((r, i) => i > 0 && r <= rank[i - 1]))
        const text = parts.map(([n, unit]) => `${n}${unit}`).join('')
        expect(() => parseDuration(text)).toThrow(/each unit once, largest first/)
      }),
      runs
    )
  })

  it('reads a plain number as seconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 604_799 }), fc.integer({ min: 0, max: 999 }), (s, frac) => {
        const text = `${s}.${String(frac).padStart(3, '0')}`
        return parseDuration(text) === Math.round(Number(text) * 1000)
      }),
      runs
    )
  })

  it('on any text, returns a whole number of ms within the limit or names the accepted form', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (text) => {
        try {
          const ms = parseDuration(text)
          return Number.isInteger(ms) && ms >= 0 && ms <= MAX_DURATION_MS
        } catch (e) {
          return e instanceof Error && /250ms|168h/.test(e.message) && !CONTROL.test(e.message)
        }
      }),
      runs
    )
  })
})

describe('parseHeaders', () => {
  const name = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,20}$/)
  const value = fc.stringMatching(/^[\x20-\x7e]{0,40}$/).map((v) => v.trim())

  it('reads back any set of well-formed headers, whatever the line endings', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(name, value), { selector: ([n]) => n.toLowerCase(), maxLength: 6 }),
        fc.constantFrom('\n', '\r\n'),
        (pairs, eol) => {
          const parsed = parseHeaders(pairs.map(([n, v]) => `${n}: ${v}`).join(eol))
          expect(parsed).toEqual(Object.fromEntries(pairs.map(([n, v]) => [n.toLowerCase(), v])))
        }
      ),
      runs
    )
  })

  it('on any text, yields only token names and values without control characters (no header injection)', () => {
    fc.assert(
      fc.property(
        fc.string({
          maxLength: 60,
          unit: fc.constantFrom('a', 'B', ':', ' ', '\r', '\n', '\u0000', '\t', 'é', '-', '=')
        }),
        (text) => {
          try {
            return Object.entries(parseHeaders(text)).every(
              ([n, v]) => /^[!#$%&'*+\-.^_`|~0-9a-z]+$/.test(n) && !CONTROL.test(v)
            )
          } catch (e) {
            return e instanceof Error && /Name: value|control character|outside Latin-1/.test(e.message)
          }
        }
      ),
      runs
    )
  })

  it('accepts a value exactly when every character is Latin-1 (HTTP sends one byte per character)', () => {
    fc.assert(
      fc.property(
        fc.string({
          minLength: 1,
          maxLength: 20,
          unit: fc.constantFrom('a', ' ', 'é', 'ÿ', '€', '中', '😀', '\u0100')
        }),
        (value) => {
          const latin1 = [...value].every((c) => c.codePointAt(0)! <= 0xff)
          const text = `X-Test: ${value}`
          if (latin1 || value.trim() === '') return parseHeaders(text)['x-test'] === value.trim()
          expect(() => parseHeaders(text)).toThrow(/line 1 \(X-Test\) has a character outside Latin-1/)
          return true
        }
      ),
      runs
    )
  })
})

describe('parseUrl', () => {
  it('accepts any http(s) web URL without credentials, unchanged', () => {
    fc.assert(
      fc.property(fc.webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true }), (text) => {
        const url = parseUrl(text)
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.href === new URL(text).href
      }),
      runs
    )
  })

  it('on any text, returns an http(s) URL without credentials, or an error that never shows a password', () => {
    const password = 'pw-7a1c'
    const text = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.webUrl({ validSchemes: ['http', 'https', 'ftp', 'file'] }),
      fc
        .tuple(
          fc.constantFrom('http://', 'https://', 'ftp://', '', 'http:/'),
          fc.string({ maxLength: 10 }),
          fc.string({ maxLength: 15 })
        )
        .map(([scheme, user, rest]) => `${scheme}${user}:${password}@${rest}`)
    )
    fc.assert(
      fc.property(text, (s) => {
        try {
          const url = parseUrl(s)
          return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === ''
        } catch (e) {
          return e instanceof Error && !e.message.includes(password) && !CONTROL.test(e.message)
        }
      }),
      runs
    )
  })
})

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates relative to now, and nothing else', () => {
    const now = Date.UTC(2026, 10, 30, 12, 0, 0)
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: -3_600, max: 3_600 }),
        fc.string({ maxLength: 12 }),
        (delta, offset, junk) => {
          expect(parseRetryAfter(String(delta), now)).toBe(delta * 1000)
          expect(parseRetryAfter(new Date(now + offset * 1000).toUTCString(), now)).toBe(Math.max(0, offset * 1000))
          if (!/^\s*\d+\s*$/.test(junk)) expect(parseRetryAfter(junk, now)).toBeUndefined()
        }
      ),
      runs
    )
  })
})

describe('secrets', () => {
  const secretText = fc.stringMatching(/^[A-Za-z0-9_.~+/=-]{4,40}$/)
  it('a credential header, api-key or credential query value is refused or masked everywhere, whole and in parts', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('Authorization: Bearer ', 'Authorization: Basic ', 'Cookie: session=', 'X-Api-Key: '),
        secretText,
        secretText,
        fc.string(),
        (header, token, query, around) => {
          const inputs: Record<string, string> = {
            url: `http://127.0.0.1:8000/v1/models?access_token=${query}`,
            headers: `${header}${token}`
          }
          const s = parseSettings((name) => inputs[name] ?? INPUT_DEFAULTS[name])
          // a server echoing any one of them, alone, quoted in JSON or not, with anything around it
          for (const echoed of [token, query, JSON.stringify(token), `${header}${token}`]) {
            const shown = redact(`${around}${echoed}${around}`, s.secrets)
            if (shown.includes(token) || shown.includes(query)) return false
          }
          return true
        }
      ),
      runs
    )
  })

  it('a credential shorter than 4 characters is refused, naming the input', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9]{1,3}$/), (key) => {
        const inputs: Record<string, string> = { url: 'http://127.0.0.1:8000/', 'api-key': key }
        try {
          parseSettings((name) => inputs[name] ?? INPUT_DEFAULTS[name])
          return false
        } catch (e) {
          return /^Input "api-key": the key has fewer than 4 characters/.test((e as Error).message)
        }
      }),
      runs
    )
  })
})
