/**
 * A fleet's endpoints in the job summary: a row each, and for a fleet of servers (one per endpoint) each one's own
 * server, startup and GPU memory, and with a smoke test its figures.
 */
import { cell, code } from './markdown.js'
import { seconds } from '../runtime/clock.js'
import type { GateOutcome, TargetOutcome } from '../facts/outcome.js'

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

/** The endpoints' section of a fleet's summary (more than one endpoint), as Markdown lines. */
export function endpointLines(outcome: GateOutcome): string[] {
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

/**
 * A fleet of servers with `env-report`: each server's values side by side, a row per endpoint, so that the one
 * server whose tuning did not reach it stands out (a value that differs from the first server's is marked).
 */
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
