/** `env-report`: the chosen variables of the process that serves, with credential-like values masked. */
import { isSecretValue, MASK } from '../inputs/secrets.js'
import { listenerOwnership } from './port-owner.js'
import { procEnviron } from './proc.js'

export interface EnvEntry {
  name: string
  /** Undefined when no variable matches the name or glob; MASK for a credential. */
  value?: string
  secret?: true
}

/**
 * A credential's own value, held apart from its entry so that no serialisation of the facts (the log, the summary,
 * `--json`) can carry it: only the history reads it, to store a keyed hash of it.
 */
const secretValues = new WeakMap<EnvEntry, string>()

/** The value a masked entry stands for; undefined for an entry that is not a credential. */
export const secretValueOf = (entry: EnvEntry): string | undefined => secretValues.get(entry)

/** `*` any run of characters, `?` one: as `env-report` reads its names. */
const glob = (pattern: string): RegExp =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`
  )

/**
 * Each name or glob in order; a glob gives every matching variable, sorted. A value is masked by the one credential
 * rule (inputs/secrets.ts), which also masks one that holds one of `secrets`: the report goes into the history file.
 */
export function envReport(
  patterns: readonly string[],
  environ: Readonly<Record<string, string>>,
  secrets: readonly string[] = []
): EnvEntry[] {
  const entries: EnvEntry[] = []
  const seen = new Set<string>()
  for (const pattern of patterns) {
    const matches = glob(pattern)
    const names = Object.keys(environ)
      .filter((n) => matches.test(n))
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
 * The process that serves: what `start` launched may not be it (a shell running `env -u NCCL_IB_HCA vllm serve …`,
 * a wrapper script, `srun`), and reporting the launched process's variables would be false reassurance.
 */
export interface ServingProcess {
  pid: number
  /** The URL's port it listens on. */
  port: number
  /** Undefined when it cannot be read. */
  environ?: Record<string, string>
}

/**
 * The first of the server's processes (`pid` and its descendants) that listens on one of `ports`, or undefined
 * when none does (not yet, no /proc, or a holder this user cannot see).
 */
export function servingProcess(pid: number, ports: readonly number[]): ServingProcess | undefined {
  for (const port of ports) {
    const o = listenerOwnership(port, pid)
    if (o.kind === 'ours') return { pid: o.holder.pid, port, environ: procEnviron(o.holder.pid) }
  }
  return undefined
}

/** Whether `env-report`'s `patterns` name the variable `name`. */
export const reportsName = (patterns: readonly string[], name: string): boolean =>
  patterns.some((p) => glob(p).test(name))

/**
 * The variables `patterns` names whose value differs between the two environments (set in only one included),
 * sorted. Compared on the real values, so that a masked credential that differs is named too.
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

/** A process of the server that holds GPU memory (a tensor-parallel worker): its `env-report`, undefined unread. */
export interface WorkerEnv {
  pid: number
  env?: EnvEntry[]
}

/** One variable the GPU workers do not all share with the process `env` is of: each value, and who has it. */
export interface WorkerDifference {
  name: string
  /** As shown (a credential masked); undefined: unset. */
  server?: string
  groups: { value?: string; pids: number[] }[]
}

/** The real value, so that two masked credentials that differ are told apart. */
const realValue = (e: EnvEntry | undefined): string | undefined =>
  e === undefined ? undefined : (secretValueOf(e) ?? e.value)

/**
 * The variables in which any readable GPU worker's value is not the served process's, in the report's order: the
 * workers grouped by value, in order of their first pid.
 */
export function workerDifferences(server: readonly EnvEntry[], workers: readonly WorkerEnv[]): WorkerDifference[] {
  const read = workers.filter((w): w is Required<WorkerEnv> => w.env !== undefined)
  const names = [...new Set([...server, ...read.flatMap((w) => w.env)].map((e) => e.name))]
  const differences: WorkerDifference[] = []
  for (const name of names) {
    const mine = server.find((e) => e.name === name)
    const groups = new Map<string | undefined, { value?: string; pids: number[] }>()
    for (const w of [...read].sort((a, b) => a.pid - b.pid)) {
      const e = w.env.find((x) => x.name === name)
      const key = realValue(e)
      const group = groups.get(key) ?? { value: e?.value, pids: [] }
      group.pids.push(w.pid)
      groups.set(key, group)
    }
    if ([...groups.keys()].some((k) => k !== realValue(mine)))
      differences.push({ name, server: mine?.value, groups: [...groups.values()] })
  }
  return differences
}
