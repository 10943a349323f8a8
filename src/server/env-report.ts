/** `env-report`: the chosen variables from a process's environment, with credential-like values masked. */
import { isSecretValue, MASK } from '../inputs/secrets.js'

export interface EnvEntry {
  name: string
  /** Undefined when no variable matches the name or glob; MASK for a credential. */
  value?: string
  /** The value is a credential (by its name, its shape, or a known secret): `value` is MASK. */
  secret?: true
}

/**
 * A credential's own value, held apart from its entry so that no serialisation of the facts (the log, the summary,
 * `--json`) can carry it: only the history reads it, to store a keyed hash of it (history/fingerprint.ts).
 */
const secretValues = new WeakMap<EnvEntry, string>()

/** The value a masked entry stands for; undefined for an entry that is not a credential. */
export const secretValueOf = (entry: EnvEntry): string | undefined => secretValues.get(entry)

/**
 * Each name or glob (`*` any run of characters, `?` one) in order; a glob gives every matching variable, sorted.
 * A value is masked by the one credential rule (inputs/secrets.ts): its name says it is a credential, its value
 * has a credential's shape (a URL's password, a token), or it holds one of `secrets` (the api-key in a variable
 * called MODEL_AUTH is still the api-key): the report also goes into the history file.
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
      if (!isSecretValue(name, value, secrets)) {
        entries.push({ name, value })
        continue
      }
      const entry: EnvEntry = { name, value: MASK, secret: true }
      secretValues.set(entry, value)
      entries.push(entry)
    }
  }
  return entries
}
