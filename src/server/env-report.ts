/**
 * `env-report`: the chosen variables from a process's environment, with credential-like values masked, and the
 * process whose environment it is: the one that serves.
 */
import { isSecretValue, MASK } from '../inputs/secrets.js'
import { listenerOwnership } from './port-owner.js'
import { procEnviron } from './proc.js'

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

/**
 * `env-report` of the process that serves: the one holding the URL's listening port, found among the launched
 * process and its descendants as the wrong-server check finds it (port-owner.ts). What `start` launched may not be
 * it: a shell running `env -u NCCL_IB_HCA vllm serve …; echo exited` as its child, a wrapper script, `srun`: the
 * launched process then holds variables the server never got, and reporting those is false reassurance.
 */
export interface ServingProcess {
  pid: number
  /** The URL's port it listens on. */
  port: number
  /** Its environment; undefined when it cannot be read. */
  environ?: Record<string, string>
}

/**
 * The first of the server's processes (`pid` and its descendants) that listens on one of `ports`, or undefined
 * when none does (not yet, no /proc, or a holder this user cannot see).
 */
export function servingProcess(pid: number, ports: readonly number[], proc = '/proc'): ServingProcess | undefined {
  for (const port of ports) {
    const o = listenerOwnership(port, pid, { proc })
    if (o.kind === 'ours') return { pid: o.holder.pid, port, environ: procEnviron(o.holder.pid, proc) }
  }
  return undefined
}

/** `*` any run of characters, `?` one: as `env-report` reads its names. */
const glob = (pattern: string): RegExp =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`
  )

/**
 * The variables `patterns` names whose value differs between the two environments (set in one and not the other
 * included), sorted. Compared on the real values, so that a masked credential that differs is named too (its
 * value is not shown anywhere).
 */
export function envDifferences(
  patterns: readonly string[],
  a: Readonly<Record<string, string>>,
  b: Readonly<Record<string, string>>
): string[] {
  const globs = patterns.map(glob)
  const names = new Set([...Object.keys(a), ...Object.keys(b)].filter((n) => globs.some((g) => g.test(n))))
  return [...names].filter((n) => a[n] !== b[n]).sort()
}
