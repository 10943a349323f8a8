/**
 * `env-report` of the process that serves: the one holding the URL's listening port, found among the launched
 * process and its descendants as the wrong-server check finds it (port-owner.ts). What `start` launched may not be
 * it: a shell running `env -u NCCL_IB_HCA vllm serve …; echo exited` as its child, a wrapper script, `srun`: the
 * launched process then holds variables the server never got, and reporting those is false reassurance.
 */
import { listenerOwnership } from './port-owner.js'
import { procEnviron } from './proc.js'

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
