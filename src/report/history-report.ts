/**
 * The recorded runs as `wait-for-model history` prints them: a table for people, JSON and CSV for dashboards and
 * for choosing a `timeout`. One row per run, oldest first, as the file holds them.
 */
import type { RunRecord } from '../history/record.js'

export const HISTORY_FORMATS = ['table', 'json', 'csv'] as const
export type HistoryFormat = (typeof HISTORY_FORMATS)[number]

/** One run as printed: the outcome, its times and its phases; the environment snapshot stays in the file. */
export interface HistoryRow {
  at: string
  key: string
  ready: boolean
  reason: string
  'elapsed-seconds': number
  'startup-seconds': number | null
  engine: string | null
  /** The smoke test's medians (`smoke-test`); null without one. */
  'ttft-ms': number | null
  'decode-tokens-per-second': number | null
  /** The engine's own decode rate of the same requests (llama.cpp, Ollama); null where it gave none. */
  'engine-decode-tokens-per-second': number | null
  phases: Array<{ name: string; seconds: number }>
}

const COLUMNS = [
  'at',
  'key',
  'ready',
  'reason',
  'elapsed-seconds',
  'startup-seconds',
  'engine',
  'ttft-ms',
  'decode-tokens-per-second',
  'engine-decode-tokens-per-second',
  'phases'
] as const

export function historyRow(run: RunRecord): HistoryRow {
  return {
    // the first column starts each line of the CSV and the table: only a time, never `::error::…` from the file
    at: typeof run.at === 'string' && /^\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:\d\d)?$/.test(run.at) ? run.at : '',
    key: run.key,
    ready: run.ready,
    reason: typeof run.reason === 'string' ? run.reason : '',
    'elapsed-seconds': run.elapsedSeconds,
    'startup-seconds': run.startupSeconds ?? null,
    engine: run.engine ?? null,
    'ttft-ms': run.ttftMs ?? null,
    'decode-tokens-per-second': run.decodeTokensPerSecond ?? null,
    'engine-decode-tokens-per-second': run.engineDecodeTokensPerSecond ?? null,
    phases: run.phases.map((p) => ({ name: p.name, seconds: p.seconds }))
  }
}

/** `weights=412.0s; graphs=30.5s`: the phases in one cell. */
const phaseCell = (phases: HistoryRow['phases']): string => phases.map((p) => `${p.name}=${p.seconds}s`).join('; ')

const cells = (row: HistoryRow): string[] => [
  row.at,
  row.key,
  String(row.ready),
  row.reason,
  String(row['elapsed-seconds']),
  row['startup-seconds'] === null ? '' : String(row['startup-seconds']),
  row.engine ?? '',
  row['ttft-ms'] === null ? '' : String(row['ttft-ms']),
  row['decode-tokens-per-second'] === null ? '' : String(row['decode-tokens-per-second']),
  row['engine-decode-tokens-per-second'] === null ? '' : String(row['engine-decode-tokens-per-second']),
  phaseCell(row.phases)
]

/**
 * RFC 4180, with control characters escaped: a key holding `\n::error::x` stays inside its row and is no workflow
 * command when printed in a `run:` step. A leading =, +, - or @ is kept from being read as a formula.
 */
function csvField(text: string): string {
  const escaped = escapeControls(text)
  const safe = /^[=+\-@]/.test(escaped) && !/^-?\d/.test(escaped) ? `'${escaped}` : escaped
  return /[",]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' }
const escapeControls = (text: string): string =>
  text.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029\\]/g,
    (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
  )

/** Table cells on one line each: a value that came from the file cannot start a new row or move the cursor. */
const tableCell = (text: string): string => escapeControls(text)

export function historyText(rows: readonly HistoryRow[], format: HistoryFormat): string {
  if (format === 'json') return `${JSON.stringify(rows)}\n`
  if (format === 'csv') {
    return [COLUMNS.join(','), ...rows.map((r) => cells(r).map(csvField).join(','))].map((l) => `${l}\r\n`).join('')
  }
  const table = [[...COLUMNS], ...rows.map((r) => cells(r).map(tableCell))]
  const widths = COLUMNS.map((_, i) => Math.max(...table.map((row) => row[i].length)))
  return table.map((row) => `${row.map((c, i) => c.padEnd(widths[i])).join('  ')}`.trimEnd() + '\n').join('')
}

/** The note on stderr beside the rows: how many, and what was skipped or filtered away. */
export function historyNote(
  file: string,
  shown: number,
  total: number,
  skipped: number,
  key: string | undefined
): string {
  const runs = (n: number): string => `${n} run${n === 1 ? '' : 's'}`
  const which = key === undefined ? '' : ` with key "${key}" (of ${runs(total)})`
  const unread = skipped > 0 ? `; ${skipped} unreadable line${skipped === 1 ? '' : 's'} skipped` : ''
  return `${runs(shown)}${which} in ${file}${unread}.`
}
