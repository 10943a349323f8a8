/** The progress lines: the first, each change of answer, the gate's own, the last, and `check`'s one line. */
import { answerWords } from './answer-report.js'
import type { ProbeResult } from '../http/probe.js'
import { formatDuration } from '../runtime/clock.js'
import type { Outcome, WaitEvent } from '../facts/wait.js'
import type { GateOutcome, ServerFacts } from '../facts/outcome.js'
import type { Expectation } from '../facts/answer.js'
import { type WorkerDifference, workerDifferences } from '../server/env-report.js'
import { ncclVariables, ncclVariableText, processesText, ranges } from '../server/nccl-log.js'

/** `startup`: where the server's own startup is, from its log (a still-waiting line leads with it). */
export function eventLine(event: WaitEvent, startup?: string): string {
  const at = formatDuration(event.elapsedMs)
  const { summary } = answerWords(event.assessment.answer)
  if (event.type === 'change') return `${at}: ${summary}`
  if (event.type === 'lost')
    return `${at}: the server stopped answering (${summary}) after it had answered: crashed or restarting?`
  if (startup !== undefined)
    return `${at}: ${startup}; the server still answers: ${summary} (${probes(event.attempt)} so far)`
  return `${at}: still waiting (${probes(event.attempt)} so far); the server still answers: ${summary}`
}

/** A debug line for one probe: what came back, the body quoted (so its line breaks stay escaped). */
export function probeLine(result: ProbeResult): string {
  if (result.kind === 'error')
    return `probe: ${result.code} (${result.message})${result.status === undefined ? '' : ` after HTTP ${result.status}`}`
  const facts = [
    `${Buffer.byteLength(result.body)} bytes${result.truncated ? ' (cut at 1 MiB)' : ''}`,
    result.contentType && `content-type ${result.contentType}`,
    result.retryAfterMs !== undefined && `Retry-After ${formatDuration(result.retryAfterMs)}`,
    result.redirectedTo && `after redirects, from ${result.redirectedTo}`
  ].filter(Boolean)
  return `probe: HTTP ${result.status}, ${facts.join(', ')}: ${JSON.stringify(result.body.slice(0, 200))}`
}

/** The line the progress ends with. */
export function finalLine(outcome: Outcome & { url?: URL; results?: readonly Outcome[] }): string {
  // a fleet: how many are ready, and which endpoint the line's figures are
  const results = outcome.results ?? []
  const fleet =
    results.length > 1
      ? ` (${outcome.url?.href ?? 'an endpoint'}; ${results.filter((r) => r.ready).length} of ${results.length} endpoints ready)`
      : ''
  if (outcome.ready) {
    const model = outcome.last?.modelId ? `; model "${outcome.last.modelId}"` : ''
    const said = outcome.last === undefined ? '' : answerWords(outcome.last.answer).summary
    return `Ready after ${formatDuration(outcome.elapsedMs)} (${probes(outcome.attempts)})${model}: ${said}${fleet}`
  }
  return `Not ready after ${formatDuration(outcome.elapsedMs)} (${probes(outcome.attempts)}): ${outcome.reason}${fleet}`
}

/** `env-report` asked for, and nothing to report: the log and the job summary say so alike. */
export const envUnreadableText = (server: ServerFacts): string =>
  `The environment of process ${server.envPid ?? server.pid} could not be read (it has exited, or this is not Linux).`

/** Whose environment the report is: `process 1235, which listens on port 8000` (the launched one named where it is another). */
export const envWhose = (server: ServerFacts): string =>
  server.envPort === undefined
    ? `process ${server.envPid ?? server.pid}`
    : `process ${server.envPid ?? server.pid}, which listens on port ${server.envPort}` +
      (server.launchedEnv === undefined ? '' : `; the launched process is ${server.launchedEnv.pid}`)

/** The listener is not the launched process: whether, and in which variables, their environments differ. */
export function envDiffersText(server: ServerFacts): string {
  const launched = server.launchedEnv
  if (launched === undefined) return ''
  if (launched.env === undefined) return `The environment of the launched process ${launched.pid} could not be read.`
  if (launched.differs.length === 0) return `The launched process ${launched.pid} has the same values.`
  const n = launched.differs.length
  return (
    `The launched process ${launched.pid} has other values for ${n === 1 ? 'one variable' : `${n} variables`} ` +
    `(${launched.differs.join(', ')}): the server did not get what the step set. The launched process has:`
  )
}

/** `the API process (pid 1200)`: the one that listens on the URL's port, else the one `env` is of. */
const servedName = (server: ServerFacts): string =>
  `${server.envPort === undefined ? 'the server process' : 'the API process'} (pid ${server.envPid ?? server.pid})`

const shown = (v: string | undefined): string =>
  v === undefined ? 'unset' : v.length > 200 ? `${v.slice(0, 200)}…` : v
const pidsText = (pids: readonly number[]): string => `${pids.length === 1 ? 'pid' : 'pids'} ${ranges(pids)}`

/** `NCCL_PROTO: LL in the API process (pid 1200), unset in 8 of 8 GPU workers (pids 1301–1308)`. */
function workerDifferenceText(d: WorkerDifference, server: ServerFacts): string {
  const n = d.groups.reduce((sum, g) => sum + g.pids.length, 0)
  const groups = d.groups.map((g) => `${shown(g.value)} in ${g.pids.length} of ${n} GPU workers (${pidsText(g.pids)})`)
  return `${d.name}: ${shown(d.server)} in ${servedName(server)}, ${groups.join(', ')}`
}

/** The GPU workers against the served process: a line per variable that differs, or that none does. */
export function workersText(server: ServerFacts): { head: string; lines: string[]; warn: boolean } | undefined {
  const workers = server.gpuWorkers
  if (workers === undefined || workers.length === 0) return undefined
  const head = `GPU workers (the server's processes that hold GPU memory: ${pidsText(workers.map((w) => w.pid))})`
  const unread = workers.filter((w) => w.env === undefined).map((w) => w.pid)
  const lines = workerDifferences(server.env ?? [], workers).map((d) => workerDifferenceText(d, server))
  if (unread.length > 0) lines.push(`The environment of ${pidsText(unread)} could not be read (exited, or not ours).`)
  const warn = lines.length > 0
  if (!warn) lines.push(`The same values as ${servedName(server)}.`)
  return { head, lines, warn }
}

/** Said once with every environment report: what /proc cannot show, and where to look instead. */
export const procEnvironNote =
  "Each environment above is the process's at its start (/proc/PID/environ): a value a process sets later " +
  "(os.environ in Python) is not seen. With NCCL_DEBUG=INFO in the server's environment, NCCL logs what it took, " +
  'and that is read from the server log.'

/** NCCL's own word, per variable and rank; the `env-report` variables it does not confirm. */
export function ncclText(server: ServerFacts): { head: string; lines: string[]; warn: boolean } | undefined {
  const nccl = server.nccl
  if (nccl === undefined) return undefined
  const version = nccl.version === undefined ? '' : `, NCCL ${nccl.version}`
  const head = `NCCL's own word (its NCCL_DEBUG=INFO lines in the server log${version}; ${processesText(nccl.processes)})`
  const lines = ncclVariables(nccl).map(ncclVariableText)
  if (lines.length === 0) lines.push('No NCCL line says a variable was taken from the environment.')
  for (const s of nccl.setInside ?? [])
    lines.push(
      `${s.name}=${s.value} was taken by ${processesText(s.by)}, whose environment at start (/proc) did not hold it: ` +
        'set inside the process after it started.'
    )
  if (nccl.unconfirmed.length > 0) lines.push(unconfirmedText(nccl.unconfirmed))
  // a group of one rank runs no tuning (no threadThresholds line in a real capture: __tests__/fixtures/nccl/)
  const tuning = nccl.unconfirmed.filter((n) => n === 'NCCL_PROTO' || n === 'NCCL_ALGO')
  if (tuning.length > 0 && nccl.processes.every((p) => p.nranks === 1))
    lines.push(`Every NCCL group here has one rank: NCCL runs no tuning then, and never reads ${tuning.join(' or ')}.`)
  return { head, lines, warn: nccl.unconfirmed.length > 0 }
}

const unconfirmedText = (names: readonly string[]): string => {
  const [is, it, them] = names.length === 1 ? ['is', 'it was', 'it'] : ['are', 'they were', 'them']
  return (
    `Not confirmed by NCCL: ${names.join(', ')} ${is} set in env-report, and no NCCL line says ${it} taken from the ` +
    `environment (the processes that run NCCL may not have ${them}, or this NCCL does not log ${them}).`
  )
}

/** The gate's own lines, beside the wait's events. */
export const gateLines = {
  started: (pid: number, logFile: string): string => `Started the server (pid ${pid}); its output goes to ${logFile}`,
  watching: (pid: number, logFile: string | undefined): string =>
    `Watching the server process ${pid}${logFile === undefined ? '' : ` and its log ${logFile}`}`,
  /** A line the startup profile says, `elapsedMs` into the wait. */
  startup: (elapsedMs: number, line: string): string => `${formatDuration(elapsedMs)}: ${line}`,
  environment: (server: ServerFacts): string[] => {
    const launched = server.launchedEnv
    if (launched === undefined)
      return [`Server environment (${envWhose(server)}):`, ...envLines(server).map((l) => `  ${l}`)]
    return [
      `Server environment (${envWhose(server)}):`,
      ...envLines(server).map((l) => `  ${l}`),
      envDiffersText(server),
      ...(launched.differs.length === 0
        ? []
        : envLines({
            ...server,
            env: launched.env,
            envPid: launched.pid,
            envUnreadable: launched.env === undefined
          }).map((l) => `  ${l}`))
    ]
  },
  workers: (server: ServerFacts): string[] => {
    const w = workersText(server)
    return w === undefined ? [] : [`${w.head}:`, ...w.lines.map((l) => `  ${l}`)]
  },
  nccl: (server: ServerFacts): string[] => {
    const n = ncclText(server)
    return n === undefined ? [] : [`${n.head}:`, ...n.lines.map((l) => `  ${l}`)]
  },
  requestHeaders: (names: string[]): string => `request headers: ${names.join(', ')} (values not shown)`,
  noLog: (path: string): string => `The server log ${path} does not exist.`,
  /** Why the other endpoints of a fleet stop waiting. */
  fleetStopped: (url: URL, reason: string): string => `${url.href} can no longer become ready (${reason})`
}

/** Why an endpoint of a fleet of servers started nothing: another endpoint's pre-flight refused its server. */
export const fleetRefusedText = (by: URL, reason: string): string =>
  `nothing was started: the server of ${by.href} was refused (${reason}), and a fleet starts whole or not at all`

/** Why an endpoint of a fleet of servers stopped waiting: another endpoint's own wait failed outright. */
export const fleetFailedText = (by: URL, error: string): string =>
  `the wait for ${by.href} failed (${error}), and the fleet's other waits end with it`

/** The line the wait begins with: how long, for what (`endpoints`: how many a fleet has), how often (`intervalMs`: the cheap probes' gap). */
export function waitingLine(
  ctx: ReportContext,
  {
    endpoints,
    generation,
    intervalMs,
    smoke
  }: { endpoints: number; generation: boolean; intervalMs: number; smoke?: { requests: number; tokens: number } }
): string {
  const subject = endpoints > 1 ? `each of ${endpoints} endpoints` : undefined
  const then =
    smoke === undefined
      ? ''
      : `; then a smoke test of ${smoke.requests} streamed generation${smoke.requests === 1 ? '' : 's'} of ${smoke.tokens} tokens`
  return (
    `Waiting up to ${formatDuration(ctx.timeoutMs)} for ${describeExpectation(ctx, subject)}` +
    `${generation ? ' and a one-token generation to succeed' : ''}; probing every ${formatDuration(intervalMs)}${then}`
  )
}

/** The `env-report` lines for the log. */
function envLines(server: ServerFacts): string[] {
  if (server.envUnreadable) return [envUnreadableText(server)]
  return (server.env ?? []).map((e) => (e.value === undefined ? `${e.name}: not set` : `${e.name}=${e.value}`))
}

/** The report's view of the settings, for `url` (the endpoint the outcome describes). */
export interface ReportContext {
  url: URL
  expect: Expectation
  timeoutMs: number
  /** What failed the step of a ready server (its title), for the summary's headline. */
  failedBy?: string
}

/** Where the model is once ready (the warning, when it is not where meant, is said apart). */
export const placementLines = {
  found: (placement: string, evidence: string): string => `Model placement: ${placement} (${evidence})`
}

export const probes = (n: number): string => `${n} probe${n === 1 ? '' : 's'}`

/** What readiness means for these settings, in words. */
export function describeExpectation({ expect, url }: ReportContext, subject = url.href): string {
  const parts = [
    `${subject} to answer with an accepted status (${expect.status.map(([lo, hi]) => (lo === hi ? lo : `${lo}-${hi}`)).join(',')})`
  ]
  if (expect.model !== undefined) parts.push(`list model "${expect.model}"`)
  if (expect.match !== undefined) parts.push(`contain "${expect.match}"`)
  if (expect.matchRegex !== undefined) parts.push(`match ${String(expect.matchRegex)}`)
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`
}

const oneLine = (text: string): string => text.replace(/\s*[\r\n]+\s*/g, ' ')

/** One line whatever the server said, so that a health check's log (`docker inspect`) stays readable. */
export function checkLine(outcome: GateOutcome): string {
  const took = formatDuration(outcome.elapsedMs)
  const endpoints = outcome.results.length > 1 ? ` (${outcome.results.length} endpoints)` : ''
  if (outcome.ready) {
    const model = outcome.last?.modelId ? ` model "${outcome.last.modelId}"` : ''
    const said = outcome.last === undefined ? '' : answerWords(outcome.last.answer).summary
    return oneLine(`ready in ${took}${endpoints}:${model} ${said}`.trimEnd())
  }
  // A wait's reason "timeout" means "not ready yet" here: the one answer there was says why.
  const why = outcome.reason === 'timeout' ? 'not ready' : `not ready (${outcome.reason})`
  const last = outcome.last && answerWords(outcome.last.answer)
  const said =
    last === undefined ? 'no answer' : outcome.reason === 'timeout' ? last.summary : last.detail || last.summary
  const where = outcome.results.length > 1 ? `${outcome.url.href}: ` : ''
  return oneLine(`${why} after ${took}${endpoints}: ${where}${said}`)
}
