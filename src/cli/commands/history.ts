/** `wait-for-model history`: the recorded runs of the history file, for people, dashboards and choosing a timeout. */
import { defaultHistoryFile, readHistory } from '../../history/store.js'
import { printable } from '../../runtime/text.js'
import {
  HISTORY_FORMATS,
  type HistoryFormat,
  historyNote,
  historyRow,
  historyText
} from '../../report/history-report.js'
import { historyHelpText } from '../help.js'
import { historyHtml } from '../../report/history-html.js'
import { writeOwnFile } from '../../runtime/own-files.js'
import { type CliIo, parseCommandLine, type Say, UsageError } from '../usage.js'

export async function historyCommand(argv: string[], io: Pick<CliIo, 'env' | 'stdout'>, say: Say): Promise<number> {
  const { values } = parseCommandLine(argv, {
    key: { type: 'string' },
    file: { type: 'string' },
    format: { type: 'string', default: 'table' },
    html: { type: 'string' },
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
  if (typeof values.html === 'string') {
    if (values.html.trim() === '') throw new UsageError('--html: give the path of the page to write')
    try {
      writeOwnFile(values.html, historyHtml(runs))
    } catch (e) {
      say(`wait-for-model: cannot write ${values.html} (${(e as Error).message})`)
      return 1
    }
    say(historyNote(file, runs.length, read.runs.length, read.skipped, key === undefined ? undefined : printable(key)))
    return 0
  }
  io.stdout.write(historyText(runs.map(historyRow), format as HistoryFormat))
  say(historyNote(file, runs.length, read.runs.length, read.skipped, key === undefined ? undefined : printable(key)))
  return 0
}
