/**
 * The credentials the probes carry (credential headers, `api-key`, a token in a URL's query string) and those of a
 * proxy in the environment: each a secret, registered whole and in the parts a server may echo alone.
 */
import { InputError } from './input-error.js'
import type { InputName } from './input-names.js'
import type { InputReader } from './input-reader.js'
import { isLatin1, LATIN1_FORM, parseHeaders } from './parse.js'
import { printable } from '../runtime/text.js'
import { credentialParts, isCredentialName, MIN_SECRET_CHARS, proxySecrets } from './secrets.js'
import type { ProbeSettings } from './settings.js'

/** `headers` and `api-key` (as an authorization header), and every secret of them, of `urls` and of `env`. */
export function readCredentials(
  read: InputReader,
  urls: readonly URL[],
  env: Readonly<Record<string, string | undefined>>
): Pick<ProbeSettings, 'headers' | 'secrets'> {
  const headers = read.field('headers', parseHeaders)
  // One too short to mask is refused.
  const secrets: string[] = []
  const secret = (input: InputName, value: string, what: string): void => {
    if (value.length < MIN_SECRET_CHARS)
      throw new InputError(input, {
        problem: `${what} has fewer than ${MIN_SECRET_CHARS} characters, too short to be kept out of the logs`
      })
    secrets.push(value)
  }
  for (const [name, value] of Object.entries(headers).filter(([n]) => isCredentialName(n))) {
    secret('headers', value, `the ${name} value`)
    for (const part of credentialParts(name, value)) {
      // a cookie that is not a credential (lang=en) may be short; the header's whole value is still masked
      if (/cookie/i.test(name) && part.length < MIN_SECRET_CHARS) continue
      secret('headers', part, `the ${name} credential`)
    }
  }
  const apiKey = read.text('api-key')
  if (apiKey !== undefined) {
    if (/\s/.test(apiKey))
      throw new InputError('api-key', { problem: 'contains white space; give the key alone, without "Bearer"' })
    // never shown: only where it goes wrong
    if (!isLatin1(apiKey))
      throw new InputError('api-key', { problem: `contains a character outside Latin-1 (${LATIN1_FORM})` })
    secret('api-key', apiKey, 'the key')
    headers.authorization = `Bearer ${apiKey}`
  }
  // A token in a URL's query string (?api_key=…) is masked everywhere the URL is written (logs, summary, results):
  // as url.href writes it and as decoded.
  for (const url of urls)
    for (const pair of url.search.slice(1).split('&')) {
      const [[name, value] = ['', '']] = new URLSearchParams(pair)
      const raw = pair.slice(pair.indexOf('=') + 1)
      if (!pair.includes('=') || !isCredentialName(name) || value === '') continue
      secret('url', value, `the value of the query parameter "${printable(name)}"`)
      if (raw !== value) secrets.push(raw)
    }
  secrets.push(...proxySecrets(env))
  return { headers, secrets: secrets.filter((s) => s.length > 0) }
}
