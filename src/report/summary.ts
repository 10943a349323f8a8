/** The job summary in GitHub-flavoured Markdown: the wait's figures, its endpoints, its timeline, its findings. */
import { answerWords } from './answer-report.js'
import { failureMessage } from './failure.js'
import { cell, code, fenced, logTailTitle, mdText } from './markdown.js'
import { outputs } from './outputs.js'
import {
  envDiffersText,
  envUnreadableText,
  envWhose,
  ncclText,
  procEnvironNote,
  type ReportContext,
  workersText
} from './progress.js'
import { phaseMarkdown } from './profile-report.js'
import { smokeRows } from './smoke-report.js'
import { trendMarkdown } from './trend-chart.js'
import { capBytes, lastChars, MAX_SUMMARY_BYTES, MAX_TAIL_CHARS } from './summary-budget.js'
import { formatDuration, seconds } from '../runtime/clock.js'
import type { GateOutcome, TargetOutcome } from '../facts/outcome.js'
import type { EnvEntry } from '../server/env-report.js'

/** The first `max` items, then how many more: a list of 60,000 models must not make a summary of megabytes. */
const firstOf = (items: readonly string[], max: number): string[] =>
  items.length > max ? [...items.slice(0, max), `and ${items.length - max} more`] : [...items]

/** GitHub refuses a job summary over 1 MiB; each part is capped, and this is the last guard. */
const MAX_SUMMARY_MODELS = 50
const MAX_ENV_VALUE_CHARS = 1000

export function summaryMarkdown(outcome: GateOutcome, ctx: ReportContext): string {
  const out = outputs(outcome)
  const rows: Array<[string, string]> = [
    [
      'Result',
      !outcome.ready
        ? `❌ not ready (${outcome.reason})`
        : ctx.failedBy === undefined
          ? '✅ ready'
          : `❌ ready, but the step failed: ${mdText(ctx.failedBy)}`
    ],
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
  if (server?.ranks !== undefined) rows.push(...nodeRows(server.ranks))
  const nodes = server?.nodes
  if (nodes?.some((n) => n.gpuMemoryMiB !== undefined)) {
    const held = [{ host: server?.host, gpuMemoryMiB: server?.gpuMemoryMiB }, ...nodes].map(
      (n, i) => `node ${i + 1} (${n.host}): ${n.gpuMemoryMiB === undefined ? 'unread' : `${n.gpuMemoryMiB} MiB`}`
    )
    rows.push(['GPU memory on each node', mdText(held.join(', '))])
  }
  if (server?.nodeEnvDiffers !== undefined)
    rows.push(['Variables that differ between nodes', mdText(`⚠️ ${server.nodeEnvDiffers.join('; ')}`)])
  const placed = outcome.placement
  if (placed !== undefined)
    rows.push([
      'Model placement',
      mdText(
        placed.warning === undefined
          ? `${placed.placement} (${placed.evidence})`
          : `⚠️ ${placed.placement}: ${placed.warning}`
      )
    ])
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
  // A failure leads with its cause, the reason, the fatal line or last answer and the server's last lines; the
  // figures and the charts come after it, for whoever wants more than why.
  const lines = ['### wait-for-model', '', ...causeLines(outcome, ctx)]
  lines.push('| | |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${cell(v)} |`), '')
  if (outcome.results.length > 1) lines.push(...endpointLines(outcome))
  lines.push('#### Timeline', '', '| at | the server answered |', '|---:|---|')
  for (const t of outcome.timeline) {
    if (t.dropped) lines.push(`| … | *${t.dropped} change${t.dropped === 1 ? '' : 's'} left out* |`)
    lines.push(
      `| ${formatDuration(t.elapsedMs)} | ${t.lost ? '⚠️ stopped answering (crashed or restarting?): ' : ''}${cell(mdText(answerWords(t.answer).summary))} |`
    )
  }
  const profile = outcome.profile
  for (const warning of [profile?.regression, profile?.throughputRegression, profile?.drift])
    if (warning !== undefined) lines.push('', `> ⚠️ ${cell(mdText(warning))}`)
  if (profile?.unlike !== undefined) lines.push('', `> ℹ️ ${cell(mdText(profile.unlike))}`)
  const trend = profile?.trend === undefined ? '' : trendMarkdown(profile.trend)
  if (trend !== '') lines.push('', trend.trimEnd())
  if (profile !== undefined && profile.phases.length > 0)
    lines.push('', phaseMarkdown(profile.phases, profile.engineLabel ?? 'Server', profile.usualPhaseSeconds).trimEnd())
  if (server?.env !== undefined || server?.envUnreadable) {
    lines.push('', '#### Server environment', '', `Of ${mdText(envWhose(server))}.`, '')
    const value = (e: EnvEntry | undefined): string =>
      e === undefined || e.value === undefined ? '*not set*' : cell(code(clipText(e.value, MAX_ENV_VALUE_CHARS)))
    const launched = server.launchedEnv
    if (server.envUnreadable) lines.push(envUnreadableText(server))
    else if (launched?.env === undefined || launched.differs.length === 0)
      lines.push(
        '| variable | value |',
        '|---|---|',
        ...(server.env ?? []).map((e) => `| ${cell(code(e.name))} | ${value(e)} |`)
      )
    else
      lines.push(
        `| variable | the server (${server.envPid}) | the launched process (${launched.pid}) |`,
        '|---|---|---|',
        ...(server.env ?? []).map(
          (e) =>
            `| ${launched.differs.includes(e.name) ? '⚠️ ' : ''}${cell(code(e.name))} | ${value(e)} | ${value(launched.env?.find((l) => l.name === e.name))} |`
        ),
        // set in the launched process only: no row of the server's report names it
        ...launched.env
          .filter((l) => l.value !== undefined && !(server.env ?? []).some((e) => e.name === l.name))
          .map((l) => `| ⚠️ ${cell(code(l.name))} | *not set* | ${value(l)} |`)
      )
    if (launched !== undefined)
      lines.push('', mdText(envDiffersText(server).replace(/ The launched process has:$/, '')))
    for (const part of [workersText(server), ncclText(server)])
      if (part !== undefined)
        lines.push(
          '',
          `${part.warn ? '⚠️ ' : ''}**${mdText(part.head)}**`,
          '',
          ...part.lines.map((l) => `- ${mdText(l)}`)
        )
    lines.push('', `*${mdText(procEnvironNote)}*`)
  }
  return capBytes(`${lines.join('\n')}\n`, MAX_SUMMARY_BYTES)
}

/** A failure's cause, first in its summary: the reason, the failure message (fatal line, last answer), the log's tail. */
function causeLines(outcome: GateOutcome, ctx: ReportContext): string[] {
  if (outcome.ready) return []
  const lines = [`**❌ Not ready (${outcome.reason})**`, '', fenced(failureMessage(outcome, ctx)), '']
  const server = outcome.server
  if (server?.logTail !== undefined) {
    const tail = lastChars(
      server.logTail.map((l) => `${l.number}: ${l.text}`),
      MAX_TAIL_CHARS
    )
    lines.push(`#### ${mdText(logTailTitle(server.logTail, server.logFile))}`, '', fenced(tail.join('\n')), '')
  }
  return lines
}

const clipText = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}…` : text)

const MAX_SUMMARY_ENDPOINTS = 100

type Column = [heading: string, align: '---' | '---:', value: (r: TargetOutcome) => string]

const dash = (text: string | undefined): string => (text === undefined || text === '' ? '—' : text)

const BASE: Column[] = [
  ['endpoint', '---', (r) => code(r.url.href)],
  ['result', '---', (r) => (r.ready ? '✅ ready' : `❌ ${r.reason}`)],
  ['elapsed', '---:', (r) => `${seconds(r.elapsedMs)} s`],
  ['status', '---:', (r) => dash(r.last?.status?.toString())],
  ['model', '---', (r) => (r.last?.modelId === undefined ? '—' : code(r.last.modelId))]
]

const SERVER: Column[] = [
  [
    'server',
    '---',
    (r) =>
      r.server?.container !== undefined
        ? `container ${code(r.server.container.slice(0, 12))}`
        : r.server?.pid !== undefined
          ? `pid ${r.server.pid}`
          : '—'
  ],
  ['startup', '---:', (r) => (r.server?.startupMs === undefined ? '—' : `${seconds(r.server.startupMs)} s`)],
  ['GPU memory', '---:', (r) => (r.server?.gpuMemoryMiB === undefined ? '—' : `${r.server.gpuMemoryMiB} MiB`)]
]

const SMOKE: Column[] = [
  ['TTFT', '---:', (r) => (r.smoke?.ttftMs === undefined ? '—' : `${Math.round(r.smoke.ttftMs)} ms`)],
  [
    'decode',
    '---:',
    (r) => (r.smoke?.decodeTokensPerSecond === undefined ? '—' : `${r.smoke.decodeTokensPerSecond.toFixed(1)} tok/s`)
  ]
]

/** A row per endpoint, with each one's own server, startup and GPU memory, and smoke test figures. */
function endpointLines(outcome: GateOutcome): string[] {
  const results = outcome.results
  const columns = [
    ...BASE,
    ...(results.some((r) => r.server !== undefined) ? SERVER : []),
    ...(results.some((r) => r.smoke !== undefined) ? SMOKE : [])
  ]
  const lines = [
    `#### Endpoints (${results.filter((r) => r.ready).length} of ${results.length} ready)`,
    '',
    `| ${columns.map(([h]) => h).join(' | ')} |`,
    `|${columns.map(([, a]) => a).join('|')}|`
  ]
  for (const r of results.slice(0, MAX_SUMMARY_ENDPOINTS))
    lines.push(`| ${columns.map(([, , value]) => cell(value(r))).join(' | ')} |`)
  if (results.length > MAX_SUMMARY_ENDPOINTS)
    lines.push(`| and ${results.length - MAX_SUMMARY_ENDPOINTS} more |${' |'.repeat(columns.length - 1)}`)
  lines.push(
    '',
    `The rows above describe each endpoint; the table at the top, and the timeline, describe ${outcome.url.href}.`,
    ''
  )
  return [...lines, ...environments(results)]
}

/** The longest value a cell of the environments' table shows. */
const MAX_VALUE_CHARS = 200

/** Each server's `env-report` side by side, a value unlike the first server's marked: a tuning that did not reach. */
function environments(results: readonly TargetOutcome[]): string[] {
  const reported = results.slice(0, MAX_SUMMARY_ENDPOINTS).filter((r) => r.server?.env !== undefined)
  if (reported.length === 0) return []
  const names = [...new Set(reported.flatMap((r) => (r.server?.env ?? []).map((e) => e.name)))]
  const valueOf = (r: TargetOutcome, name: string): string | undefined =>
    r.server?.env?.find((e) => e.name === name)?.value
  const first = reported[0]
  const shown = (r: TargetOutcome, name: string): string => {
    const value = valueOf(r, name)
    const text =
      value === undefined
        ? '*not set*'
        : code(value.length > MAX_VALUE_CHARS ? `${value.slice(0, MAX_VALUE_CHARS)}…` : value)
    return r !== first && value !== valueOf(first, name) ? `⚠️ ${text}` : text
  }
  return [
    '#### Server environments',
    '',
    `| endpoint | process | ${names.map((n) => cell(code(n))).join(' | ')} |`,
    `|---|---:|${names.map(() => '---').join('|')}|`,
    ...reported.map(
      (r) =>
        `| ${cell(code(r.url.href))} | ${r.server?.envPid ?? r.server?.pid ?? '—'} | ${names.map((n) => cell(shown(r, n))).join(' | ')} |`
    ),
    ''
  ]
}

/** One server across several nodes: each node's ranks and its time to join (from the server's start). */
function nodeRows(ranks: NonNullable<NonNullable<GateOutcome['server']>['ranks']>): [string, string][] {
  const rows: [string, string][] = [
    [
      'Ranks joined',
      `${ranks.nodes.reduce((n, node) => n + node.ranks, 0)} of ${ranks.expected ?? '?'}` +
        (ranks.countedBy === 'nccl' ? " (NCCL's Init COMPLETE lines)" : '')
    ]
  ]
  ranks.nodes.forEach((n, i) =>
    rows.push([
      mdText(`Node ${i + 1} (${n.host})`),
      n.ranks === 0
        ? 'no rank line in its own log'
        : `${n.ranks} rank${n.ranks === 1 ? '' : 's'}, ` +
          (n.joinedMs === undefined ? 'not all joined' : `joined at ${seconds(n.joinedMs)} s`)
    ])
  )
  return rows
}
