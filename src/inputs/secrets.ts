/**
 * Secrets: which names hold credentials, the parts of a credential a server may echo alone, and redaction of every
 * form a secret may take in text. One rule for headers, `env-report`, URL query parameters and masking.
 */

/** What a secret is replaced with. */
export const MASK = '***'

/**
 * Names that say their value is a credential: one rule for request headers (masked in output, never forwarded to
 * another origin on a redirect), `env-report` variables (masked) and URL query parameters (masked). Short words
 * (PAT, PWD, PASS, DSN, JWT) count as a word of the name only (GH_PAT, MYSQL_PWD, PGPASS), so that PATH and the
 * shell's own PWD/OLDPWD (the working directory) are not taken for one.
 */
export const isCredentialName = (name: string): boolean =>
  /auth|cookie|token|key|secret|passw|credential|signature|private|netrc|jwt|dsn/i.test(name) ||
  (/^sig$|(?:^|[_-])(?:pat|pass|pwd)(?:$|[_-])|pass$/i.test(name) && !/^(?:old)?pwd$/i.test(name))

/**
 * Credential shapes found by value, whatever the name: a URL's user information (`postgres://app:pw@db/x`, a
 * Sentry DSN, `https://ghp_…@github.com`), a `password`/`passwd`/`pwd` field (`password=…`, `.netrc`'s
 * `password …`), a PEM block, and the token forms of GitHub (`ghp_`, `gho_`, `ghs_`, `ghu_`, `ghr_`,
 * `github_pat_`), GitLab (`glpat-`), Hugging Face (`hf_`), OpenAI-style keys (`sk-`), Slack (`xoxa-`, `xoxb-`,
 * `xoxp-`), npm (`npm_`), AWS access key ids (`AKIA…`, `ASIA…`) and JWTs (`eyJ….eyJ….…`). Each is linear (no
 * nested quantifier, and a scheme starts only where a word starts), so that a hostile text of any length is
 * scanned in linear time.
 */
const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]*-----/
const TOKENS =
  /\b(?:gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{16,}|glpat-[A-Za-z0-9_-]{16,}|hf_[A-Za-z0-9]{16,}|sk-[A-Za-z0-9_-]{16,}|xox[abprs]-[A-Za-z0-9-]{10,}|npm_[A-Za-z0-9]{30,}|(?:AKIA|ASIA)[0-9A-Z]{16})/
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/
const CREDENTIAL_SHAPES: readonly RegExp[] = [
  /(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*:\/\/[^\s/?#@]+@/i,
  /\b(?:password|passwd|pwd)\b["']?\s*[=:]\s*\S|\blogin\s+\S+\s+password\s+\S/i,
  PEM_BEGIN,
  TOKENS,
  JWT
]

/** A value that holds a credential by its shape (CREDENTIAL_SHAPES), whatever it is called. */
export const holdsCredential = (value: string): boolean => CREDENTIAL_SHAPES.some((shape) => shape.test(value))

/** The one rule for a named value (an `env-report` variable): a credential by its name, its shape, or a known secret. */
export const isSecretValue = (name: string, value: string, secrets: readonly string[] = []): boolean =>
  isCredentialName(name) || holdsCredential(value) || secrets.some((s) => s !== '' && value.includes(s))

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
 * line), then each credential shape where it stands (a URL keeps its scheme and host, a password field its name; of
 * a PEM block only its BEGIN line is recognisable, and `env-report` masks such a value whole). The CLI has no runner
 * to mask for it, and the action masks before the runner does.
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
    .replace(/(?<![a-z0-9+.-])([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi, `$1${MASK}@`)
    .replace(/(\b(?:password|passwd|pwd)\b["']?\s*[=:]\s*["']?)[^\s"',;&]+/gi, `$1${MASK}`)
    .replace(/(\blogin\s+\S+\s+password\s+)\S+/gi, `$1${MASK}`)
    .replace(new RegExp(PEM_BEGIN, 'g'), MASK)
    .replace(new RegExp(TOKENS, 'g'), MASK)
    .replace(new RegExp(JWT, 'g'), MASK)
}
