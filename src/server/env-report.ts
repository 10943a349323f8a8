/** `env-report`: the chosen variables from a process's environment, with credential-like values masked. */
import { isCredentialName, MASK } from '../inputs/secrets.js'

export interface EnvEntry {
  name: string
  /** Undefined when no variable matches the name or glob. */
  value?: string
}

/**
 * Each name or glob (`*` any run of characters, `?` one) in order; a glob gives every matching variable, sorted.
 * A value is masked when its name says it is a credential, or when it holds one of `secrets` (the api-key in a
 * variable called MODEL_AUTH is still the api-key): the report also goes into the history file.
 */
export function envReport(
  patterns: readonly string[],
  environ: Readonly<Record<string, string>>,
  secrets: readonly string[] = []
): EnvEntry[] {
  const entries: EnvEntry[] = []
  const seen = new Set<string>()
  for (const pattern of patterns) {
    const glob = new RegExp(`^${pattern.replace(/\*/g, '.*').replace(/\?/g, '.')}$`)
    const names = Object.keys(environ)
      .filter((n) => glob.test(n))
      .sort()
    if (names.length === 0) entries.push({ name: pattern })
    for (const name of names.filter((n) => !seen.has(n))) {
      seen.add(name)
      const value = environ[name]
      const secret = isCredentialName(name) || secrets.some((s) => value.includes(s))
      entries.push({ name, value: secret ? MASK : value })
    }
  }
  return entries
}
