/**
 * Readiness from the watched server only: a ready answer counts when one of its processes holds the listening socket
 * of the origin that finally answered (after any redirects).
 */
import { isDockerProxy, localPort, type Ownership, portOwner } from '../../server/port-owner.js'
import type { Halt } from '../../facts/halt.js'
import type { TargetOutcome } from '../../facts/outcome.js'
import type { Redirect } from '../../report/lifecycle-report.js'
import type { Deps } from '../deps.js'

type Foreign = Extract<Ownership, { kind: 'foreign' }>

/** The server as this check sees it: its processes, and the words of each verdict. */
export interface Watched {
  /** The host pids of the server's processes, now. */
  family(): Set<number>
  /** Another process holds the port that answered (after `redirect`, where one was followed). */
  foreign(o: Foreign, redirect?: Redirect): string
  /** A local endpoint redirected to another machine. */
  elsewhere(redirect: Redirect): string
  /** A debug line: only docker-proxy holds the port (a container's published port), taken as the server's. */
  proxy(o: Foreign): string
  /** Whether a docker-proxy (its command line) forwards to the server; without it, any docker-proxy is taken. */
  proxyForwardsHere?(command: string): boolean
}

/** The results, each ready one answered by someone other than `watched` made `wrong-server` (once per origin pair). */
export function onlyWatchedAnswers(results: TargetOutcome[], watched: Watched, deps: Deps): TargetOutcome[] {
  const verdicts = new Map<string, Halt | undefined>()
  return results.map((r): TargetOutcome => {
    if (!r.ready) return r
    const answered = answeredUrl(r)
    const key = `${r.url.origin} ${answered.origin}`
    if (!verdicts.has(key)) verdicts.set(key, foreignAnswer(r.url, answered, watched, deps))
    const halt = verdicts.get(key)
    return halt === undefined ? r : { ...r, ready: false, reason: 'wrong-server', halt }
  })
}

/** The URL whose answer made `r` ready: the last one a redirect led to, else the endpoint's own. */
export function answeredUrl(r: TargetOutcome): URL {
  const to = r.last?.answeredBy
  if (to === undefined) return r.url
  try {
    return new URL(to)
  } catch {
    return r.url
  }
}

/**
 * The halt when the answer at `answered` came from another process (its port's socket inode held by others only)
 * or, from a local endpoint, another machine. Unknown, unseen holders and a docker-proxy are not held against it.
 */
function foreignAnswer(url: URL, answered: URL, watched: Watched, deps: Deps): Halt | undefined {
  const redirect = answered.origin === url.origin ? undefined : { from: url, to: answered }
  const port = localPort(answered)
  if (port === undefined) {
    if (redirect === undefined || localPort(url) === undefined) return undefined
    return { reason: 'wrong-server', detail: watched.elsewhere(redirect) }
  }
  const owner = portOwner(port)
  if (owner.kind !== 'listening') return undefined
  const family = watched.family()
  if (owner.listeners.some((l) => l.holders.some((h) => family.has(h.pid)))) return undefined
  const o: Foreign = { kind: 'foreign', port, listeners: owner.listeners }
  const holders = o.listeners.flatMap((l) => l.holders)
  if (holders.length === 0) return undefined
  const forwards = watched.proxyForwardsHere ?? (() => true)
  if (holders.every((h) => isDockerProxy(h.command) && forwards(h.command))) {
    deps.debug?.(watched.proxy(o))
    return undefined
  }
  return { reason: 'wrong-server', detail: watched.foreign(o, redirect) }
}
