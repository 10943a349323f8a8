/** Words for people: log lines, the failure message, the outputs and the job summary. Text only, no I/O. */
import type { Expectation } from '../wait/assess.js'
import { someOf } from './answer-report.js'
import type { LogLine } from '../server/log-follower.js'
import type { ProbeResult } from '../http/probe.js'
import { phaseMarkdown } from './profile-report.js'
import { smokeRows } from './smoke-report.js'
import { formatDuration, seconds } from '../runtime/clock.js'
import type { Outcome, WaitEvent } from '../wait/loop.js'
import type { GateOutcome, ServerFacts, TargetOutcome } from '../wait/outcome.js'

export interface ReportContext {
  url: URL
  expect: Expectation
  timeoutMs: number
}

const probes = (n: number): string => `${n} probe${n === 1 ? '' : 's'}`

/** `startup`: where the server's own startup is, from its log (a still-waiting line leads with it). */
export function eventLine(event: WaitEvent, startup?: string): string {
  const at = formatDuration(event.elapsedMs)
  if (event.type === 'change') return `${at}: ${event.assessment.summary}`
  if (event.type === 'lost')
    return `${at}: the server stopped answering (${event.assessment.summary}) after it had answered: crashed or restarting?`
  if (startup !== undefined)
    return `${at}: ${startup}; the server still answers: ${event.assessment.summary} (${probes(event.attempt)} so far)`
  return `${at}: still waiting (${probes(event.attempt)} so far); the server still answers: ${event.assessment.summary}`
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

/** What readiness means for these settings, in words. */
function describeExpectation({ expect, url }: ReportContext, subject = url.href): string {
  const parts = [
    `${subject} to answer with an accepted status (${expect.status.map(([lo, hi]) => (lo === hi ? lo : `${lo}-${hi}`)).join(',')})`
  ]
  if (expect.model !== undefined) parts.push(`list model "${expect.model}"`)
  if (expect.match !== undefined) parts.push(`contain "${expect.match}"`)
  if (expect.matchRegex !== undefined) parts.push(`match ${String(expect.matchRegex)}`)
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`
}

export function finalLine(outcome: Outcome): string {
  if (outcome.ready) {
    const model = outcome.last?.modelId ? `; model "${outcome.last.modelId}"` : ''
    return `Ready after ${formatDuration(outcome.elapsedMs)} (${probes(outcome.attempts)})${model}: ${outcome.last?.summary ?? ''}`
  }
  return `Not ready after ${formatDuration(outcome.elapsedMs)} (${probes(outcome.attempts)}): ${outcome.reason}`
}

/** The message a failed wait ends with: what was expected, what the server last said, how long and how often. */
export function failureMessage(outcome: Outcome, ctx: ReportContext): string {
  const last = outcome.last
  const waited = `${formatDuration(outcome.elapsedMs)} and ${probes(outcome.attempts)}`
  if (outcome.reason === 'unauthorized' || outcome.reason === 'tls' || outcome.reason === 'ambiguous-model') {
    return `Stopped after ${waited}: ${last?.detail ?? outcome.reason}.`
  }
  if (outcome.reason === 'port-busy' || outcome.reason === 'gpu-busy') {
    return sentence(`Did not start the server: ${outcome.halt?.detail ?? outcome.reason}`)
  }
  if (outcome.halt) {
    const lines = [sentence(`Stopped after ${waited}, before the server was ready: ${outcome.halt.detail}`)]
    if (last !== undefined) lines.push(sentence(`Last answer: ${last.summary}`))
    return lines.join('\n')
  }
  const lines = [
    outcome.reason === 'generation-failed'
      ? sentence(
          `Timed out after ${waited} (timeout ${formatDuration(ctx.timeoutMs)}): ${last?.detail ?? 'the generation request failed'}`
        )
      : `Timed out after ${waited} (timeout ${formatDuration(ctx.timeoutMs)}) waiting for ${describeExpectation(ctx)}.`
  ]
  if (last === undefined) return lines[0]
  lines.push(sentence(`Last answer: ${last.summary}`))
  if (last.models !== undefined && ctx.expect.model !== undefined) {
    lines.push(
      last.models.length
        ? `The server lists: ${someOf(last.models, 50, last.modelCount)}.`
        : 'The server lists no models.'
    )
  }
  if (last.excerpt) lines.push(`Body (first 200 characters): ${last.excerpt}`)
  if (outcome.firstResponseMs === undefined) lines.push('The server never answered over HTTP.')
  return lines.join('\n')
}

/** Ends text with a full stop unless it already ends a sentence (server messages often do). */
const sentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`)

export type Outputs = Record<string, string>

export function outputs(outcome: GateOutcome): Outputs {
  const server = outcome.server
  const profile = outcome.profile
  return {
    ready: String(outcome.ready),
    'elapsed-seconds': seconds(outcome.elapsedMs),
    attempts: String(outcome.attempts),
    'status-code': outcome.last?.status === undefined ? '' : String(outcome.last.status),
    models: JSON.stringify(outcome.models),
    'model-id': outcome.last?.modelId ?? '',
    'first-response-seconds': outcome.firstResponseMs === undefined ? '' : seconds(outcome.firstResponseMs),
    reason: outcome.reason,
    pid: server?.pid === undefined ? '' : String(server.pid),
    'log-file': server?.logFile ?? '',
    'startup-seconds': server?.startupMs === undefined ? '' : seconds(server.startupMs),
    'gpu-memory-mib': server?.gpuMemoryMiB === undefined ? '' : String(server.gpuMemoryMiB),
    'generation-seconds': outcome.generationMs === undefined ? '' : seconds(outcome.generationMs),
    results: JSON.stringify(outcome.results.map(resultRecord)),
    phases: JSON.stringify((outcome.profile?.phases ?? []).map((p) => ({ name: p.name, seconds: p.seconds }))),
    'expected-seconds': profile?.expectedSeconds === undefined ? '' : profile.expectedSeconds.toFixed(1),
    'regression-percent': profile?.regressionPercent === undefined ? '' : profile.regressionPercent.toFixed(1),
    'ttft-ms': outcome.smoke?.ttftMs === undefined ? '' : String(Math.round(outcome.smoke.ttftMs)),
    'decode-tokens-per-second':
      outcome.smoke?.decodeTokensPerSecond === undefined ? '' : outcome.smoke.decodeTokensPerSecond.toFixed(1)
  }
}

/** One endpoint's entry in the `results` output. */
function resultRecord(r: TargetOutcome): Record<string, string | boolean | number | null> {
  return {
    url: r.url.href,
    ready: r.ready,
    'elapsed-seconds': Number(seconds(r.elapsedMs)),
    'status-code': r.last?.status ?? null,
    'model-id': r.last?.modelId ?? null,
    reason: r.reason,
    // only with a smoke test: a wait without one keeps the entries it always had
    ...(r.smoke === undefined
      ? {}
      : {
          'ttft-ms': r.smoke.ttftMs === undefined ? null : Math.round(r.smoke.ttftMs),
          'decode-tokens-per-second':
            r.smoke.decodeTokensPerSecond === undefined ? null : Number(r.smoke.decodeTokensPerSecond.toFixed(1))
        })
  }
}

export const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\r?\n|\r/g, ' ')

/**
 * Text a server or a log wrote, as literal Markdown (before `cell`): no HTML (`<img>`), no emphasis, no code span,
 * no link or image, no autolink (`https://…`, `www.…`).
 */
export function mdText(text: string): string {
  return text
    .replace(/[\\`*_~[\]]/g, '\\$&')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/:\/\//g, ':\\/\\/')
    .replace(/\b(www)\./gi, '$1\\.')
}

/** Text as code: a code span when it holds no backtick (nothing renders inside one), else as `mdText`. */
const code = (text: string): string => (text.includes('`') ? mdText(text) : `\`${text}\``)

/** The first `max` items, then how many more: a list of 60,000 models must not make a summary of megabytes. */
const firstOf = (items: readonly string[], max: number): string[] =>
  items.length > max ? [...items.slice(0, max), `and ${items.length - max} more`] : [...items]

/** GitHub refuses a job summary over 1 MiB; each part is capped, and this is the last guard. */
const MAX_SUMMARY_BYTES = 1024 * 1024 - 16 * 1024
const MAX_SUMMARY_MODELS = 50
const MAX_SUMMARY_ENDPOINTS = 100
const MAX_TAIL_CHARS = 64 * 1024
const MAX_ENV_VALUE_CHARS = 1000

/** The job summary in GitHub-flavoured Markdown. */
export function summaryMarkdown(outcome: GateOutcome, ctx: ReportContext): string {
  const out = outputs(outcome)
  const rows: Array<[string, string]> = [
    ['Result', outcome.ready ? '✅ ready' : `❌ not ready (${outcome.reason})`],
    ['Endpoint', code(ctx.url.href)],
    ['Elapsed', `${out['elapsed-seconds']} s`],
    ['Probes', out.attempts],
    ['First HTTP answer', out['first-response-seconds'] === '' ? 'never' : `${out['first-response-seconds']} s`],
    [
      'Listed models',
      outcome.models.length
        ? firstOf(
            outcome.models.map((m) => code(clipText(m, 200))),
            MAX_SUMMARY_MODELS
          ).join(', ')
        : 'none'
    ],
    ['Matched model', out['model-id'] === '' ? (ctx.expect.model === undefined ? '—' : 'none') : code(out['model-id'])]
  ]
  const server = outcome.server
  if (out['generation-seconds'] !== '') rows.push(['Generation request', `${out['generation-seconds']} s`])
  const er = outcome.engineReadiness
  if (er !== undefined) {
    const at = (ms: number | undefined): string => (ms === undefined ? 'never' : `at ${seconds(ms)} s`)
    rows.push(['Required answers', `the model listed (${at(er.listedMs)}); ${er.request} 200 (${at(er.readyMs)})`])
  }
  if (server?.pid !== undefined) rows.push(['Server process', `pid ${server.pid}`])
  if (server?.gpuMemoryMiB !== undefined) rows.push(['GPU memory held by the server', `${server.gpuMemoryMiB} MiB`])
  if (out['startup-seconds'] !== '') rows.push(['Startup (from the process start)', `${out['startup-seconds']} s`])
  if (server?.logFile !== undefined) rows.push(['Server log', code(server.logFile)])
  if (outcome.profile?.engineLabel !== undefined) rows.push(['Engine', mdText(outcome.profile.engineLabel)])
  if (out['expected-seconds'] !== '') {
    const against =
      out['regression-percent'] === ''
        ? ''
        : ` (this run: ${Number(out['regression-percent']) > 0 ? '+' : ''}${out['regression-percent']}%)`
    rows.push(['Usual startup (median of earlier runs)', `${out['expected-seconds']} s${against}`])
  }
  // the smoke test's words may quote the server
  rows.push(...smokeRows(outcome).map(([k, v]): [string, string] => [k, mdText(v)]))
  const lines = ['### wait-for-model', '', '| | |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${cell(v)} |`), '']
  if (outcome.results.length > 1) {
    lines.push(
      `#### Endpoints (${outcome.results.filter((r) => r.ready).length} of ${outcome.results.length} ready)`,
      ''
    )
    lines.push('| endpoint | result | elapsed | status | model |', '|---|---|---:|---:|---|')
    for (const r of outcome.results.slice(0, MAX_SUMMARY_ENDPOINTS)) {
      const result = r.ready ? '✅ ready' : `❌ ${r.reason}`
      const model = r.last?.modelId === undefined ? '—' : code(r.last.modelId)
      lines.push(
        `| ${cell(code(r.url.href))} | ${result} | ${seconds(r.elapsedMs)} s | ${r.last?.status ?? '—'} | ${cell(model)} |`
      )
    }
    if (outcome.results.length > MAX_SUMMARY_ENDPOINTS)
      lines.push(`| and ${outcome.results.length - MAX_SUMMARY_ENDPOINTS} more | | | | |`)
    lines.push(
      '',
      `The rows above describe each endpoint; the table at the top, and the timeline, describe ${outcome.url.href}.`,
      ''
    )
  }
  lines.push('#### Timeline', '', '| at | the server answered |', '|---:|---|')
  for (const t of outcome.timeline) {
    if (t.dropped) lines.push(`| … | *${t.dropped} change${t.dropped === 1 ? '' : 's'} left out* |`)
    lines.push(
      `| ${formatDuration(t.elapsedMs)} | ${t.lost ? '⚠️ stopped answering (crashed or restarting?): ' : ''}${cell(mdText(t.summary))} |`
    )
  }
  const profile = outcome.profile
  for (const warning of [profile?.regression, profile?.throughputRegression, profile?.drift])
    if (warning !== undefined) lines.push('', `> ⚠️ ${cell(mdText(warning))}`)
  if (profile !== undefined && profile.phases.length > 0)
    lines.push('', phaseMarkdown(profile.phases, profile.engineLabel ?? 'Server', profile.usualPhaseSeconds).trimEnd())
  if (server?.env !== undefined || server?.envUnreadable) {
    lines.push('', '#### Server environment', '')
    if (server.envUnreadable) lines.push(envUnreadableText(server))
    else
      lines.push(
        '| variable | value |',
        '|---|---|',
        ...(server.env ?? []).map(
          (e) =>
            `| ${cell(code(e.name))} | ${e.value === undefined ? '*not set*' : cell(code(clipText(e.value, MAX_ENV_VALUE_CHARS)))} |`
        )
      )
  }
  if (!outcome.ready) lines.push('', fenced(failureMessage(outcome, ctx)))
  if (!outcome.ready && server?.logTail !== undefined) {
    const tail = lastChars(
      server.logTail.map((l) => `${l.number}: ${l.text}`),
      MAX_TAIL_CHARS
    )
    lines.push('', `#### ${mdText(logTailTitle(server.logTail, server.logFile))}`, '', fenced(tail.join('\n')))
  }
  return capBytes(`${lines.join('\n')}\n`, MAX_SUMMARY_BYTES)
}

/** The last lines that fit in `max` characters together. */
function lastChars(lines: readonly string[], max: number): string[] {
  let total = 0
  let i = lines.length
  while (i > 0 && total + lines[i - 1].length + 1 <= max) total += lines[--i].length + 1
  return lines.slice(i)
}

const clipText = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}…` : text)

/** The text cut at a line to fit in `max` UTF-8 bytes, saying so. */
function capBytes(text: string, max: number): string {
  if (Buffer.byteLength(text) <= max) return text
  const cut = Buffer.from(text)
    .subarray(0, max - 200)
    .toString('utf8')
  return `${cut.slice(0, cut.lastIndexOf('\n') + 1)}\n*(the rest of this summary is left out: GitHub takes at most 1 MiB)*\n`
}

export function logTailTitle(tail: readonly LogLine[], file = 'the log'): string {
  return tail.length === 0 ? `${file} is empty` : `Last ${tail.length} line${tail.length === 1 ? '' : 's'} of ${file}`
}

/** A code block whose fence no line of the text can close. */
export function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(longest + 1)
  return `${fence}\n${text}\n${fence}`
}

const envUnreadableText = (server: ServerFacts): string =>
  `The environment of process ${server.pid} could not be read (it has exited, or this is not Linux).`

/** The gate's own lines, beside the wait's events. */
export const gateLines = {
  started: (pid: number, logFile: string): string => `Started the server (pid ${pid}); its output goes to ${logFile}`,
  watching: (pid: number, logFile: string | undefined): string =>
    `Watching the server process ${pid}${logFile === undefined ? '' : ` and its log ${logFile}`}`,
  /** A line the startup profile says, `elapsedMs` into the wait. */
  startup: (elapsedMs: number, line: string): string => `${formatDuration(elapsedMs)}: ${line}`,
  environment: (server: ServerFacts): string[] => [
    `Server environment (process ${server.pid}):`,
    ...envLines(server).map((line) => `  ${line}`)
  ],
  requestHeaders: (names: string[]): string => `request headers: ${names.join(', ')} (values not shown)`,
  noLog: (path: string): string => `The server log ${path} does not exist.`,
  /** Why the other endpoints of a fleet stop waiting. */
  fleetStopped: (url: URL, reason: string): string => `${url.href} can no longer become ready (${reason})`
}

/** The line the wait begins with: how long, for what (`endpoints`: how many a fleet has), how often. */
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
