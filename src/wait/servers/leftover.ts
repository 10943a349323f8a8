/**
 * With the URL alone: a ready answer on a local port counts unless a server an earlier job left running gave it.
 * GitHub's runner sets RUNNER_TRACKING_ID (a fresh `github_<guid>` per job) in the environment of every process of
 * a job; a listener carrying another job's id that started before this step is that earlier job's.
 */
import { localPort, portOwner } from '../../server/port-owner.js'
import { procEnviron, procStat } from '../../server/proc.js'
import { processStartedAt } from '../../server/process.js'
import { leftoverServerText, serverOriginUnknownText } from '../../report/lifecycle-report.js'
import type { Halt } from '../../facts/halt.js'
import type { TargetOutcome } from '../../facts/outcome.js'
import type { Deps } from '../deps.js'
import { answeredUrl } from './who-answered.js'

const TRACKING_ID = 'RUNNER_TRACKING_ID'

/** A process holding the port's listening socket, as /proc shows it. */
export interface Holder {
  pid: number
  command: string
  /** Its environment, undefined when it cannot be read (another user's process, or gone). */
  environ?: Record<string, string>
  /** When it started (ms since the epoch), undefined when unknown. */
  startedAt?: number
}

export type Origin =
  /** Started by this job, or outside any job (a system service): its answer counts. */
  | { kind: 'fine' }
  | { kind: 'leftover'; holder: Holder }
  /** /proc cannot tell: the answer counts, and a notice says why. */
  | { kind: 'unknown'; why: string }

/**
 * Who started the listener, from its holders: one with this job's tracking id, or none carrying any, is fine; one
 * with another job's id that started before `stepStartedAt` is a leftover.
 */
export function listenerOrigin(holders: readonly Holder[], ownId: string, stepStartedAt: number | undefined): Origin {
  if (holders.length === 0) return { kind: 'unknown', why: "its process is another user's" }
  if (holders.some((h) => h.environ?.[TRACKING_ID] === ownId)) return { kind: 'fine' }
  const unreadable = holders.find((h) => h.environ === undefined)
  const others = holders.filter((h) => (h.environ?.[TRACKING_ID] ?? '') !== '')
  for (const h of others) {
    if (h.startedAt !== undefined && stepStartedAt !== undefined && h.startedAt < stepStartedAt)
      return { kind: 'leftover', holder: h }
  }
  if (unreadable !== undefined)
    return { kind: 'unknown', why: `the environment of process ${unreadable.pid} cannot be read` }
  if (others.length > 0) {
    const h = others[0]
    return h.startedAt === undefined || stepStartedAt === undefined
      ? { kind: 'unknown', why: `the start time of process ${h.pid} cannot be read` }
      : { kind: 'unknown', why: `process ${h.pid} belongs to another job running beside this one` }
  }
  return { kind: 'fine' }
}

/** The results, each ready one whose local port a leftover server holds made `leftover-server` (once per port). */
export function noLeftoverAnswers(results: TargetOutcome[], deps: Deps): TargetOutcome[] {
  if (!results.some((r) => r.ready)) return results
  const ownId = deps.env[TRACKING_ID] ?? ''
  if (ownId === '') {
    // off a runner nothing marks a job's processes; on one, the job turned its process clean-up off
    const line = `No ${TRACKING_ID} in this step's environment: which job started the server cannot be told`
    if (deps.env.GITHUB_ACTIONS === 'true') deps.notice(line, 'server-origin')
    else deps.debug?.(line)
    return results
  }
  const stepStartedAt = stepStart(ownId)
  const verdicts = new Map<number, Halt | undefined>()
  return results.map((r): TargetOutcome => {
    if (!r.ready) return r
    const port = localPort(answeredUrl(r))
    if (port === undefined) return r
    if (!verdicts.has(port)) verdicts.set(port, leftoverAnswer(port, ownId, stepStartedAt, deps))
    const halt = verdicts.get(port)
    return halt === undefined ? r : { ...r, ready: false, reason: 'leftover-server', halt }
  })
}

function leftoverAnswer(port: number, ownId: string, stepStartedAt: number | undefined, deps: Deps): Halt | undefined {
  const owner = portOwner(port)
  if (owner.kind === 'free') return undefined
  const holders: Holder[] =
    owner.kind === 'unknown'
      ? []
      : owner.listeners.flatMap((l) =>
          l.holders.map((h) => ({ ...h, environ: procEnviron(h.pid), startedAt: processStartedAt(h.pid) }))
        )
  const origin: Origin =
    owner.kind === 'unknown' ? { kind: 'unknown', why: 'no /proc' } : listenerOrigin(holders, ownId, stepStartedAt)
  if (origin.kind === 'unknown') deps.notice(serverOriginUnknownText(port, origin.why), 'server-origin')
  if (origin.kind !== 'leftover') return undefined
  return { reason: 'leftover-server', detail: leftoverServerText(port, origin.holder) }
}

/**
 * When this step began: the start of the outermost of its processes carrying this job's id (the runner's worker
 * sets it in its own environment after it started, so /proc shows it on the step's processes, not on the worker).
 */
function stepStart(ownId: string): number | undefined {
  let first = process.pid
  for (let pid = procStat(process.pid)?.ppid, hops = 0; pid !== undefined && pid > 1 && hops < 16; hops++) {
    if (procEnviron(pid)?.[TRACKING_ID] !== ownId) break
    first = pid
    pid = procStat(pid)?.ppid
  }
  return processStartedAt(first)
}
