/** `wait-for-model history`: the recorded runs of the history file, for people, dashboards and choosing a timeout. */
import { defaultHistoryFile, readHistory } from '../history/store.js'
import { printable } from '../runtime/text.js'
import { HISTORY_FORMATS, type HistoryFormat, historyNote, historyRow, historyText } from '../report/history-report.js'
import { parseCommandLine, table, UsageError } from './usage.js'

interface HistoryIo {
  env: NodeJS.ProcessEnv
  stdout: NodeJS.WritableStream
}

export async function historyCommand(argv: string[], io: HistoryIo, say: (line: string) => void): Promise<number> {
  const { values } = parseCommandLine(argv, {
    key: { type: 'string' },
    file: { type: 'string' },
    format: { type: 'string', default: 'table' },
    help: { type: 'boolean', short: 'h' }
  })
  if (values.help) return (void io.stdout.write(historyHelpText()), 0)
  const format = String(values.format)
  if (!(HISTORY_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format: give one of ${HISTORY_FORMATS.join(', ')} (not "${printable(format)}")`)
  }
  const given = typeof values.file === 'string' ? values.file : undefined
  if (given?.trim() === '') throw new UsageError('--file: give the path of a history file')
  const fallback = defaultHistoryFile(io.env, 'cli')
  const file = given ?? fallback.path
  if (file === undefined) throw new UsageError(`--file: ${fallback.notice ?? 'give the path of a history file'}`)
  const key = typeof values.key === 'string' ? values.key : undefined

  let read
  try {
    read = readHistory(file)
  } catch (e) {
    say(`wait-for-model: cannot read ${file} (${(e as Error).message})`)
    return 1
  }
  const runs = read.runs.filter((run) => key === undefined || run.key === key)
  io.stdout.write(historyText(runs.map(historyRow), format as HistoryFormat))
  say(historyNote(file, runs.length, read.runs.length, read.skipped, key === undefined ? undefined : printable(key)))
  return 0
}

function historyHelpText(): string {
  return [
    'wait-for-model history: print the runs recorded in the history file (outcome, startup seconds, phases).',
    '',
    'Usage: wait-for-model history [--key KEY] [--file PATH] [--format table|json|csv]',
    '',
    ...table([
      ['--key KEY', 'only the runs with this history key (the key a wait was given with --history-key, or its hash)'],
      ['--file PATH', 'the history file (default: $XDG_CACHE_HOME or ~/.cache/wait-for-model/history.jsonl)'],
      ['--format FORMAT', 'table (default), json (one array) or csv (RFC 4180, with a header row)'],
      ['-h, --help', 'show this help']
    ]),
    '',
    'The runs go to stdout, oldest first; a count goes to stderr. Exit status: 0 printed (none recorded included),',
    '1 the file cannot be read, 2 bad usage.',
    ''
  ].join('\n')
}
