/**
 * Secrets: which names hold credentials, the parts of a credential a server may echo alone, and redaction of every
 * form a secret may take in text. One rule for headers, `env-report`, URL query parameters and masking.
 */

/** What a secret is replaced with. */
export const MASK = '***'

/**
 * Names that say their value is a credential: one rule for request headers (masked in output, never forwarded to
 * another origin on a redirect), `env-report` variables (masked) and URL query parameters (masked).
 */
export const isCredentialName = (name: string): boolean =>
  /auth|cookie|token|key|secret|passw|credential|signature|^sig$/i.test(name)

/**
 * Secrets shorter than this are refused: masking a one- to three-character string would blank it in every
 * word that holds it, and not masking it would print it. No real key is that short.
 */
export const MIN_SECRET_CHARS = 4

/** The variables that name a proxy, as curl, Python's requests and undici read them. */
const PROXY_VARIABLES = ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY']

/**
 * The credentials in the proxy URLs of `env` (`http://user:password@proxy:3128`): the user and password as the
 * URL writes them, the password alone, and decoded. The action prints a proxy without them (`proxyLabel`), but
 * `env-report`, a server's log, the history or a proxy's own error page may carry the URL or the password. A
 * password shorter than MIN_SECRET_CHARS is masked only with its user, not alone (it would blank every word that
 * holds it); unlike an input, a variable the job sets for every step is not refused.
 */
export function proxySecrets(env: Readonly<Record<string, string | undefined>>): string[] {
  const found = new Set<string>()
  for (const name of PROXY_VARIABLES) {
    // the authority's user information: up to its last @, as curl reads it (a password may hold a bare @)
    const userinfo = /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^/?#\s]*)@/i.exec(env[name]?.trim() ?? '')?.[1]
    if (userinfo === undefined || userinfo === '') continue
    const password = userinfo.includes(':') ? userinfo.slice(userinfo.indexOf(':') + 1) : userinfo
    for (const s of [userinfo, password, decoded(password)]) if (s.length >= MIN_SECRET_CHARS) found.add(s)
  }
  return [...found]
}

const decoded = (text: string): string => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/**
 * The parts of a credential header's value a server may echo alone, beside the whole value: the token after
 * an auth scheme (`Bearer tok`, `Basic dXNl…`) and each cookie's value (`a=1; session=xyz`).
 */
export function credentialParts(name: string, value: string): string[] {
  if (/cookie/i.test(name))
    return value
      .split(';')
      .map((c) => c.slice(c.indexOf('=') + 1).trim())
      .filter((v) => v !== '')
  const scheme = /authorization/i.test(name) ? /^[A-Za-z][\w-]*\s+(\S.*)$/.exec(value) : null
  return scheme ? [scheme[1].trim()] : []
}

/**
 * Replaces every secret in `text`, as written and as JSON escapes it once and twice (a body quoted in a debug
 * line): the CLI has no runner to mask for it, and the action masks before the runner does.
 */
export function redact(text: string, secrets: readonly string[]): string {
  const forms = new Set<string>()
  for (const s of secrets) {
    const once = JSON.stringify(s).slice(1, -1)
    forms.add(s).add(once).add(JSON.stringify(once).slice(1, -1))
  }
  // longest first, so that a part (the token) never splits the whole (`Bearer token`) before it is masked
  return [...forms]
    .filter((s) => s !== '')
    .sort((a, b) => b.length - a.length)
    .reduce((t, s) => (t.includes(s) ? t.split(s).join(MASK) : t), text)
}
