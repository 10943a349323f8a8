/** `env-report`: the chosen variables from a process's environment, with credential-like values masked. */

export interface EnvEntry {
  name: string
  /** Undefined when no variable matches the name or glob. */
  value?: string
}

/** Names that hold credentials: their values are never shown. */
const SECRET_NAME = /TOKEN|KEY|SECRET|PASSWORD/i
const MASK = '***'

/** Each name or glob (`*` any run of characters, `?` one) in order; a glob gives every matching variable, sorted. */
export function envReport(patterns: readonly string[], environ: Readonly<Record<string, string>>): EnvEntry[] {
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
      entries.push({ name, value: SECRET_NAME.test(name) ? MASK : environ[name] })
    }
  }
  return entries
}
